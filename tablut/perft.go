package tablut

import (
	"sync/atomic"

	"github.com/muster-games/muster/game"
)

// Perft counts the leaves of the game tree to the given depth: the
// positions reached after depth actions, where a position in which the
// game is over is a leaf at whatever depth it is reached and is not
// expanded. The last ply is counted without being played where the rules
// allow it.
//
// From depth 4 a table of the counts below the positions met (by their
// hash, the depth left and the passes in a row) counts a position reached
// by moves in another order once, where the count cannot depend on the
// way there (transposable). A position three or more moves from the
// leaves that a symmetry of the board takes onto itself, the game with it
// (symmetries), counts one move of each class of moves the symmetries
// take onto each other, times the class's size: from the start, whose
// 80 moves fall into 10 classes of 8, perft(5) counts an eighth of the
// tree.
func (s *State) Perft(depth int) uint64 { return s.perft(depth, s.perftTable(depth)) }

// perftTable returns a table for a count depth deep, or nil where the
// count is too small to gain by one or the rules make a position's count
// depend on the way there.
func (s *State) perftTable(depth int) *perftTable {
	if depth < 4 || s.g.Rules.Repetition == RepFirst || s.g.Rules.Repetition == RepAttackerVary {
		return nil
	}
	return newPerftTable(depth)
}

func (s *State) perft(depth int, t *perftTable) uint64 {
	if s.over || depth == 0 {
		return 1
	}
	if t != nil && depth >= 2 && s.transposable(depth) {
		key := s.pos.hash ^ perftDepthKey[depth&63] ^ uint64(s.passes)*perftPassKey
		if n, ok := t.get(key); ok {
			return n
		}
		n := s.perftBelow(depth, t)
		t.put(key, n)
		return n
	}
	return s.perftBelow(depth, t)
}

// transposable reports whether the count below the position, depth moves
// deep, is the same however the position was reached, so that a table
// may keep it. Without a repetition rule it always is. Under threefold
// repetition it is when no position since the last capture came twice
// (the current one among them) and depth ≤ 5: a position ends the game
// there only if met twice before, and the history holds it at most once,
// while a position comes back within the tree no sooner than four moves
// after (each side undoing a move), which is beyond the four moves whose
// ends the count looks at.
func (s *State) transposable(depth int) bool {
	switch s.g.Rules.Repetition {
	case RepNone:
		return true
	case RepThird:
		w := s.hashes[s.lastIrrev:]
		if depth > 5 || len(w) > 32 {
			return false
		}
		for i, x := range w {
			for _, y := range w[i+1:] {
				if x == y {
					return false
				}
			}
		}
		return true
	}
	return false
}

// perftBelow counts the leaves below the position, depth ≥ 1 deep.
func (s *State) perftBelow(depth int, t *perftTable) uint64 {
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
		if r.byLine && !s.pos.linesOK {
			r.countAllLines(&s.pos) // for childLeaves' counts from the parent's
		}
		for _, m := range moves {
			n += s.childLeaves(m)
		}
		return n
	}
	if depth >= 3 {
		// A position the game's symmetries take onto itself (the start
		// above all): one move of each class they make, its count
		// taken as many times as the class has moves.
		var symBuf [7]int
		if syms := s.symmetries(symBuf[:0]); len(syms) > 0 {
			reps, sizes := orbits(moves, syms)
			for i, m := range reps {
				s.ApplyMove(m)
				n += sizes[i] * s.perft(depth-1, t)
				s.Undo()
			}
			return n
		}
	}
	for _, m := range moves {
		s.ApplyMove(m)
		n += s.perft(depth-1, t)
		s.Undo()
	}
	return n
}

// perftTable keeps counts by key (a position's hash mixed with the depth
// and passes), one a slot, the last one put; a slot's key and count lie
// side by side, so that a probe reads one cache line. Threads may share a
// table: a slot holds the count and the key mixed with it, each read and
// written whole, so that a probe that meets a slot half written by
// another thread finds a key that does not match and counts the position
// itself.
type perftTable struct {
	slots []perftSlot
	mask  uint64
	hits  atomic.Int64
}

type perftSlot struct{ check, count atomic.Uint64 } // check: key ^ count

func newPerftTable(depth int) *perftTable {
	n := 1 << 16
	if depth >= 5 {
		n = 1 << 19
	}
	return &perftTable{slots: make([]perftSlot, n), mask: uint64(n - 1)}
}

func (t *perftTable) get(key uint64) (uint64, bool) {
	sl := &t.slots[key&t.mask]
	if n := sl.count.Load(); n != 0 && sl.check.Load()^n == key {
		t.hits.Add(1)
		return n, true
	}
	return 0, false
}

func (t *perftTable) put(key, n uint64) {
	sl := &t.slots[key&t.mask]
	sl.count.Store(n)
	sl.check.Store(key ^ n)
}

// PerftThreads is Perft with the first moves' subtrees counted on threads
// threads at once, sharing one table (it implements game.ThreadedPerfter).
func (s *State) PerftThreads(depth, threads int) uint64 {
	var buf [MaxMoves]Move
	moves := s.LegalMoves(buf[:0])
	if threads <= 1 || depth < 2 || s.over || len(moves) == 0 {
		return s.Perft(depth)
	}
	t := s.perftTable(depth)
	sizes := make([]uint64, len(moves))
	for i := range sizes {
		sizes[i] = 1
	}
	if depth >= 3 {
		var symBuf [7]int
		if syms := s.symmetries(symBuf[:0]); len(syms) > 0 {
			moves, sizes = orbits(moves, syms)
		}
	}
	var total atomic.Uint64
	game.Parallel(len(moves), threads, func() func(int) {
		c := s.Copy()
		return func(i int) {
			c.ApplyMove(moves[i])
			total.Add(sizes[i] * c.perft(depth-1, t))
			c.Undo()
		}
	})
	return total.Load()
}

// perftDepthKey and perftPassKey mix the depth left and the passes in a
// row into a table's key.
var perftDepthKey, perftPassKey = func() (keys [64]uint64, pass uint64) {
	x := uint64(0x5eedbeef1732)
	next := func() uint64 {
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for i := range keys {
		keys[i] = next()
	}
	return keys, next()
}()

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
	if r.byLine && m != Pass && s.pos.linesOK && !r.Encirclement {
		if n, ok := s.quietChildLeaves(m); ok {
			return n
		}
	}
	return s.playedChildLeaves(m)
}

// playedChildLeaves is childLeaves by playing m on a copy of the position.
func (s *State) playedChildLeaves(m Move) uint64 {
	r := &s.g.Rules
	p := s.pos
	mover := p.toMove
	count := r.byLine && m != Pass && s.pos.linesOK
	caps, kingTaken := r.apply(&p, m, !count)
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
		seen := s.childOccurrences(p.hash) + 1
		if r.Repetition == RepFirst && seen >= 2 || r.Repetition == RepThird && seen >= 3 {
			return 1
		}
	}
	if r.TurnLimit > 0 && len(s.actions)+1 >= r.TurnLimit {
		return 1
	}
	if count {
		return uint64(max(1, r.countAfter(&s.pos, &p, m.From(), m.To(), &caps)))
	}
	return uint64(max(1, r.CountMoves(&p)))
}

// quietChildLeaves is childLeaves for a move that captures nothing, found
// without making the position it leads to: the board shows the move for
// the capture and king checks and is put back, the hash and the moves of
// the side to move there come from the parent's and the three lines the
// move changes. It reports false for a move that captures (childLeaves
// then plays it). It needs r.byLine, counted lines and no encirclement.
func (s *State) quietChildLeaves(m Move) (uint64, bool) {
	r := &s.g.Rules
	p := &s.pos
	from, to := m.From(), m.To()
	piece := p.board[from]
	mover := piece.side()
	p.board[from], p.board[to] = Empty, piece
	caps := r.capturesBy(p, to, piece)
	kingTaken := caps.N == 0 && mover == Attackers && r.kingCaptured(p, to)
	p.board[from], p.board[to] = piece, Empty
	switch {
	case caps.N > 0:
		return 0, false
	case kingTaken, piece == King && to.OnEdge():
		return 1, true
	}
	if r.Repetition != RepNone {
		h := p.hash ^ zobrist[piece][from] ^ zobrist[piece][to] ^ zobristSide
		seen := s.childOccurrences(h) + 1
		if r.Repetition == RepFirst && seen >= 2 || r.Repetition == RepThird && seen >= 3 {
			return 1, true
		}
	}
	if r.TurnLimit > 0 && len(s.actions)+1 >= r.TurnLimit {
		return 1, true
	}
	// The other side's moves: its men stay, the lines the mover left and
	// reached change.
	opp := 1 - mover
	t := lineTable()
	fr, ff, tr, tf := from.Rank(), from.File(), to.Rank(), to.File()
	n := int(p.moveN[opp])
	if fr == tr {
		occ := p.ranks[fr] ^ 1<<ff ^ 1<<tf
		n += int(t[uint32(occ|r.lineBlock[fr])<<Size|uint32(p.sideRanks[opp][fr])]) - int(p.lineN[opp][fr])
		occ = p.files[ff] &^ (1 << fr)
		n += int(t[uint32(occ|r.lineBlock[ff])<<Size|uint32(p.sideFiles[opp][ff])]) - int(p.lineN[opp][Size+ff])
		occ = p.files[tf] | 1<<tr
		n += int(t[uint32(occ|r.lineBlock[tf])<<Size|uint32(p.sideFiles[opp][tf])]) - int(p.lineN[opp][Size+tf])
	} else {
		occ := p.files[ff] ^ 1<<fr ^ 1<<tr
		n += int(t[uint32(occ|r.lineBlock[ff])<<Size|uint32(p.sideFiles[opp][ff])]) - int(p.lineN[opp][Size+ff])
		occ = p.ranks[fr] &^ (1 << ff)
		n += int(t[uint32(occ|r.lineBlock[fr])<<Size|uint32(p.sideRanks[opp][fr])]) - int(p.lineN[opp][fr])
		occ = p.ranks[tr] | 1<<tf
		n += int(t[uint32(occ|r.lineBlock[tr])<<Size|uint32(p.sideRanks[opp][tr])]) - int(p.lineN[opp][tr])
	}
	return uint64(max(1, n)), true
}
