package tablut

// The board's eight symmetries (the square's turns and reflections):
// symSquare[t][s] is where t takes square s, t = 0 being the identity.
// Every rule of every ruleset is drawn on the board by the castle, in the
// middle, the edges and the camps; where the camps are taken onto
// themselves too (they are in every ruleset here, which symmetricRules
// checks), a symmetry of a position is one of the whole game from it on.
var symSquare = func() (m [8][Squares]Square) {
	for s := Square(0); s < Squares; s++ {
		f, r := s.File(), s.Rank()
		g, q := Size-1-f, Size-1-r
		m[0][s], m[1][s], m[2][s], m[3][s] = sq(f, r), sq(g, r), sq(f, q), sq(g, q)
		m[4][s], m[5][s], m[6][s], m[7][s] = sq(r, f), sq(q, f), sq(r, g), sq(q, g)
	}
	return m
}()

// symMove is m moved by symmetry t.
func symMove(m Move, t int) Move {
	if m == Pass {
		return m
	}
	return NewMove(symSquare[t][m.From()], symSquare[t][m.To()])
}

// symmetricRules reports whether symmetry t takes the rules' squares (the
// camps, and those whose hostility the rules decide) onto themselves.
func (r *Rules) symmetricRules(t int) bool {
	for s := Square(0); s < Squares; s++ {
		u := symSquare[t][s]
		if r.camps.has(s) != r.camps.has(u) || r.special.has(s) != r.special.has(u) {
			return false
		}
	}
	return true
}

// symmetries returns the symmetries other than the identity that take the
// game from here onto itself: the board's, where the rules' squares are
// taken onto themselves too and no earlier position could come again (no
// repetition rule, or none since the last capture), since the history is
// not kept as boards to be compared.
func (s *State) symmetries(dst []int) []int {
	r := &s.g.Rules
	if s.over || r.Repetition != RepNone && len(s.hashes)-s.lastIrrev > 1 {
		return dst
	}
	b := &s.pos.board
next:
	for t := 1; t < 8; t++ {
		for x := Square(0); x < Squares; x++ {
			if b[symSquare[t][x]] != b[x] {
				continue next
			}
		}
		if r.symmetricRules(t) {
			dst = append(dst, t)
		}
	}
	return dst
}

// orbits groups moves into the classes that the symmetries syms take onto
// each other: it returns one move of each class and the class's size.
// Each symmetry is the game's from here (symmetries), so the count below
// a move is its class's.
func orbits(moves []Move, syms []int) (reps []Move, sizes []uint64) {
	var seen []Move
	for _, m := range moves {
		if containsMove(seen, m) {
			continue
		}
		start := len(seen)
		seen = append(seen, m)
		for _, t := range syms {
			if u := symMove(m, t); !containsMove(seen[start:], u) {
				seen = append(seen, u)
			}
		}
		reps = append(reps, m)
		sizes = append(sizes, uint64(len(seen)-start))
	}
	return reps, sizes
}

func containsMove(ms []Move, m Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}
