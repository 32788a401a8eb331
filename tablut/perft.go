package tablut

// Perft counts the leaves of the game tree to the given depth: the
// positions reached after depth actions, where a position in which the
// game is over is a leaf at whatever depth it is reached and is not
// expanded. The last ply is counted without being played where the rules
// allow it.
func (s *State) Perft(depth int) uint64 {
	if s.over || depth == 0 {
		return 1
	}
	r := &s.g.Rules
	if depth == 1 && !s.mustVary() {
		if n := r.CountMoves(&s.pos); n > 0 {
			return uint64(n)
		}
		if r.NoMoves == NoMovesPass {
			return 1
		}
		return 0 // not reached: such a position is over
	}
	var buf [MaxMoves]Move
	moves := s.LegalMoves(buf[:0])
	var n uint64
	if depth == 2 && r.Repetition != RepAttackerVary {
		for _, m := range moves {
			n += s.childLeaves(m)
		}
		return n
	}
	for _, m := range moves {
		s.ApplyMove(m)
		n += s.Perft(depth - 1)
		s.Undo()
	}
	return n
}

// Divide returns the perft count below each legal move.
func (s *State) Divide(depth int) map[string]uint64 {
	out := map[string]uint64{}
	var buf [MaxMoves]Move
	for _, m := range s.LegalMoves(buf[:0]) {
		name := s.MoveString(m)
		s.ApplyMove(m)
		out[name] = s.Perft(depth - 1)
		s.Undo()
	}
	return out
}

// childLeaves returns perft(1) of the position after m without playing m
// on the state: 1 if the game is then over (a leaf) or the side to move
// can only pass, else the number of its moves.
func (s *State) childLeaves(m Move) uint64 {
	r := &s.g.Rules
	p := s.pos
	mover := p.toMove
	caps, kingTaken := r.Apply(&p, m)
	switch {
	case m == Pass:
		if s.passes >= 1 {
			return 1
		}
	case kingTaken, p.board[m.To()] == King && m.To().OnEdge():
		return 1
	}
	if r.Encirclement && mover == Attackers && p.Enclosed() {
		return 1
	}
	if caps.N == 0 && r.Repetition != RepNone {
		seen := s.occurrences(p.hash) + 1
		if r.Repetition == RepFirst && seen >= 2 || r.Repetition == RepThird && seen >= 3 {
			return 1
		}
	}
	if r.TurnLimit > 0 && len(s.actions)+1 >= r.TurnLimit {
		return 1
	}
	return uint64(max(1, r.CountMoves(&p)))
}
