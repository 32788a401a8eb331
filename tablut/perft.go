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
