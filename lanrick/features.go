package lanrick

// The features of a Lanrick position that the fitted evaluation weighs
// (weights.json, fitted by muster tune). Each is white's value less
// black's, so that a position with the colours swapped has the features
// negated: a feature counts for white when positive.
const (
	FMen       = iota // men on the board
	FIn               // men in the rendezvous
	FSquares          // squares the men outside must move to get in, the cheapest way for each
	FTurns            // turns needed to get all in: each man moves once a turn, at most the cap of three squares (Rule 3), all of them at most the turn's budget
	FRace             // +1 where white's men, counted so, get all in first (the player to move first where the turns are equal), −1 where black's do; 0 with no rendezvous
	FFar              // turns the furthest man needs on his own
	FEnter            // men outside with a clear way into an empty square of the rendezvous in one move of at most the cap
	FFinish           // every man outside has such a way, all of them within one turn's budget: he could get all in by his next turn's end, unless stopped
	FFinishNow        // the same for the player to move, in what is left of his turn: he may win the rendezvous now
	FCentre           // the central square of a close rendezvous (the mark) held
	FGuards           // men beside enemy men outside: Carroll's "guard of honour"
	FToMove           // +1 white moves, −1 black moves
	FSetter           // +1 white set the mark (and moves second), −1 black
	FScore            // 1879-03: marks scored
	NumFeatures
)

// FeatureNames name the features, in order, for weights.json.
var FeatureNames = [NumFeatures]string{"men", "in", "squares", "turns", "race", "far", "enter", "finish", "finish_now", "centre", "guards", "to_move", "setter", "score"}

// Features returns the features of s (see FMen …); every one is 0 after
// the game is over.
func (s *State) Features() [NumFeatures]int {
	var f [NumFeatures]int
	if s.over {
		return f
	}
	var per [2][NumFeatures]int
	var turns [2]int
	for q := 0; q < 2; q++ {
		per[q][FMen] = s.men[q].count()
		if s.g.Rules.Version == V1879Mar {
			per[q][FScore] = int(s.scores[q])
		}
	}
	if s.rdv != 0 {
		for q := 0; q < 2; q++ {
			r := s.race(q)
			per[q][FIn] = (s.men[q] & s.rdv).count()
			per[q][FSquares] = r.squares
			per[q][FTurns] = r.turns
			per[q][FFar] = r.far
			per[q][FEnter], per[q][FFinish] = s.entering(q)
			turns[q] = r.turns
			if s.shape.Size%2 == 1 && s.men[q].has(s.mark) {
				per[q][FCentre] = 1
			}
			for w := s.men[q] &^ s.rdv; w != 0; w &= w - 1 {
				m := Square(trailing(w))
				for d := 0; d < 8; d++ {
					if t := step[m][d]; t >= 0 && s.men[1-q].has(t) {
						per[1-q][FGuards]++
					}
				}
			}
		}
		if s.toAct == Black || s.toAct == White {
			mover := int(s.toAct)
			winner := 1 - mover
			if turns[mover] <= turns[1-mover] {
				winner = mover
			}
			per[winner][FRace] = 1
			if per[mover][FFinish] == 1 && per[mover][FSquares] <= int(s.budget) {
				per[mover][FFinishNow] = 1
			}
		}
	}
	if s.toAct == Black || s.toAct == White {
		per[s.toAct][FToMove] = 1
	}
	if s.setter == Black || s.setter == White {
		per[s.setter][FSetter] = 1
	}
	for i := range f {
		f[i] = per[White][i] - per[Black][i]
	}
	return f
}

// raceOf is what one side needs to get all its men in.
type raceOf struct {
	turns, squares, far int
}

// race counts, for player q, the turns and squares his men outside need
// to get into the rendezvous, ignoring the men in their way: each man
// the fewest straight moves (a move at most the cap) to a square of the
// rendezvous, or, in an open rendezvous, to the border and round it by
// Rule 6's 1-square slide; all together no more squares a turn than the
// budget. The player in the middle of his turn has what is left of it
// first (counted as a turn).
func (s *State) race(q int) raceOf {
	r := &s.g.Rules
	budget := int(s.turnBudget(q))
	if r.old() {
		budget = s.oldBudget(q)
	}
	capacity := min(3, budget)
	out := s.men[q] &^ s.rdv
	if out.count() == 1 || r.old() {
		capacity = budget
	}
	var res raceOf
	if out == 0 {
		return res
	}
	open := s.shape.Size%2 == 0
	for w := out; w != 0; w &= w - 1 {
		m := Square(trailing(w))
		mv, sq := 99, 99
		for t := s.rdv; t != 0; t &= t - 1 {
			k, n := straightMoves(m, Square(trailing(t)), capacity)
			if k < mv || k == mv && n < sq {
				mv, sq = k, n
			}
		}
		if open {
			e := edgeDistance(m)
			k, n := 1, 1 // on the border: slide in
			if e > 0 {
				k, n = 1+(e+capacity-1)/capacity, e+1
			}
			if k < mv || k == mv && n < sq {
				mv, sq = k, n
			}
		}
		res.squares += sq
		res.far = max(res.far, mv)
	}
	res.turns = max(res.far, (res.squares+budget-1)/budget)
	if int(s.toAct) == q && s.phase == PhaseMove {
		// The player to move has what is left of this turn first (2
		// squares in an opening turn), then whole turns.
		left := max(int(s.budget), 0)
		res.turns = 1 + max(res.far-1, (max(res.squares-left, 0)+budget-1)/budget)
	}
	return res
}

// entering counts q's men outside that could move into an empty square
// of the rendezvous at once: along a line of empty squares, at most the
// cap (three, or the budget for a lone man or before 1893), or, in an
// open rendezvous, sliding round the border into the first square of it
// met (Rule 6).
// finish is 1 where every one of them can, within one turn's budget.
func (s *State) entering(q int) (n, finish int) {
	r := &s.g.Rules
	budget := int(s.turnBudget(q))
	if r.old() {
		budget = s.oldBudget(q)
	}
	out := s.men[q] &^ s.rdv
	c := min(3, budget)
	if out.count() == 1 || r.old() {
		c = budget
	}
	occ := s.all()
	open := s.shape.Size%2 == 0
	squares := 0
	for w := out; w != 0; w &= w - 1 {
		m := Square(trailing(w))
		k := s.enterCost(m, c, occ)
		if open && Border.has(m) && s.canSlideIn(m, occ) {
			k = 1
		}
		if k > 0 {
			n++
			squares += k
		}
	}
	if out != 0 && n == out.count() && squares <= budget {
		finish = 1
	}
	return n, finish
}

// enterCost returns the fewest squares in which the man on m reaches an
// empty square of the rendezvous along a line of empty squares, at most
// c, or 0 where he cannot.
func (s *State) enterCost(m Square, c int, occ Bitboard) int {
	best := 0
	for d := 0; d < 8; d++ {
		t := m
		for k := 1; k <= c && (best == 0 || k < best); k++ {
			t = step[t][d]
			if t < 0 || occ.has(t) {
				break
			}
			if s.rdv.has(t) {
				best = k
				break
			}
		}
	}
	return best
}

// canSlideIn reports whether the man on the border square m slides round
// the border into an empty square of an open rendezvous (Rule 6: one
// square to the first square of it met).
func (s *State) canSlideIn(m Square, occ Bitboard) bool {
	i := int(ringIndex[m])
	for _, dir := range [2]int{1, -1} {
		for k := 1; k < 28; k++ {
			t := ring[(i+dir*k+28*2)%28]
			if occ.has(t) {
				break
			}
			if s.rdv.has(t) {
				return true
			}
		}
	}
	return false
}

// oldBudget is the squares a turn of the 1879–1881 versions gives q.
func (s *State) oldBudget(q int) int {
	switch s.g.Rules.Version {
	case V1879Jan:
		return max(int(s.budgets[q]), 1)
	case V1879Mar:
		return max(min(s.men[Black].count(), s.men[White].count()), 1)
	}
	return max(s.men[q].count(), 1)
}

// straightMoves returns the fewest moves along lines, each at most c
// squares, from a to b, and the squares they take: along a rank, file or
// diagonal that is the distance in steps of c; off a line, a diagonal and
// then a straight part.
func straightMoves(a, b Square, c int) (moves, squares int) {
	df, dr := a.File()-b.File(), a.Rank()-b.Rank()
	df, dr = max(df, -df), max(dr, -dr)
	lo, hi := min(df, dr), max(df, dr)
	if lo == 0 || lo == hi {
		return (hi + c - 1) / c, hi
	}
	return (lo+c-1)/c + (hi-lo+c-1)/c, hi
}

// edgeDistance is the steps from m to the nearest border square.
func edgeDistance(m Square) int {
	f, r := m.File(), m.Rank()
	return min(f, r, Size-1-f, Size-1-r)
}
