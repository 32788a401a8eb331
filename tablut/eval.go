package tablut

import (
	"math"
	"math/bits"

	"github.com/muster-games/muster/game"
)

// Evaluation weights, in hundredths of a soldier.
const (
	wAttacker   = 60  // an attacker on the board
	wDefender   = 100 // a defender on the board
	wRoute      = 400 // a clear line from the king to a square he may escape to
	wReach2     = 25  // an escape square the king reaches in two moves
	wKingGuard  = 45  // an attacker next to the king
	wKingMobile = 4   // a square the king may move to
	wEdgeNear   = 12  // per square the king is closer to an edge
)

// EscapeRoutes counts the king's clear lines to a square where he would
// escape (Linnaeus's raichi for one, tuichu for two).
func (r *Rules) EscapeRoutes(p *Position) int {
	k := p.king
	if k < 0 {
		return 0
	}
	n := 0
	rm, fm := r.targets(p, k)
	if rm&1 != 0 {
		n++
	}
	if rm&(1<<(Size-1)) != 0 {
		n++
	}
	if fm&1 != 0 {
		n++
	}
	if fm&(1<<(Size-1)) != 0 {
		n++
	}
	return n
}

// Evaluate scores the position for the defenders, in hundredths of a
// soldier: material, the king's escape lines (immediate and in two moves),
// his freedom and nearness to the edge, and the attackers pressing him.
func (r *Rules) Evaluate(p *Position) int {
	score := wDefender*(bits.OnesCount64(p.men[Defenders].lo)+bits.OnesCount64(p.men[Defenders].hi)-1) -
		wAttacker*(bits.OnesCount64(p.men[Attackers].lo)+bits.OnesCount64(p.men[Attackers].hi))
	k := p.king
	if k < 0 {
		return score
	}
	rm, fm := r.targets(p, k)
	score += wRoute * r.EscapeRoutes(p)
	score += wKingMobile * (bits.OnesCount16(rm) + bits.OnesCount16(fm))
	f, rk := k.File(), k.Rank()
	edge := min(f, rk, Size-1-f, Size-1-rk)
	score += wEdgeNear * (4 - edge)
	for d := 0; d < 4; d++ {
		if n := nb[k][d]; n >= 0 && p.board[n] == Attacker {
			score -= wKingGuard
		}
	}
	// Escape squares the king reaches in two moves: from each square he
	// can reach, the clear lines to the edge.
	reach2 := 0
	base := Square(rk * Size)
	for m := rm; m != 0; m &= m - 1 {
		reach2 += r.edgeLinesFrom(p, k, base+Square(bits.TrailingZeros16(m)))
	}
	for m := fm; m != 0; m &= m - 1 {
		reach2 += r.edgeLinesFrom(p, k, Square(f)+Square(bits.TrailingZeros16(m))*Size)
	}
	score += wReach2 * min(reach2, 8)
	return score
}

// edgeLinesFrom counts the clear lines to the edge of a king that has
// moved from k to s (k is then empty).
func (r *Rules) edgeLinesFrom(p *Position, k, s Square) int {
	l := &r.lines[2][s]
	ranks := p.ranks[l.rank]
	files := p.files[l.file]
	if k.Rank() == s.Rank() {
		ranks &^= 1 << k.File()
	} else {
		files &^= 1 << k.Rank()
	}
	rm := slide[ranks|l.blockRank][l.file] &^ l.forbidRank
	fm := slide[files|l.blockFile][l.rank] &^ l.forbidFile
	n := 0
	if rm&1 != 0 && l.file != 0 {
		n++
	}
	if rm&(1<<(Size-1)) != 0 && l.file != Size-1 {
		n++
	}
	if fm&1 != 0 && l.rank != 0 {
		n++
	}
	if fm&(1<<(Size-1)) != 0 && l.rank != Size-1 {
		n++
	}
	return n
}

// Value is the evaluation as a value in [-1, 1] for player p, for Monte
// Carlo playouts cut off before the end (it implements mcts.Evaluator).
func Value(s game.State, p game.Player) float64 {
	ts := s.(*State)
	v := math.Tanh(float64(ts.g.Rules.Evaluate(&ts.pos)) / 600)
	if p == game.Player(Attackers) {
		return -v
	}
	return v
}

// SearchPosition adapts a State to alphabeta.Position: moves, make and
// unmake, the end, the evaluation for the side to move, and noisy moves
// (captures, moves next to the king, king moves to the edge or onto an
// open line).
type SearchPosition struct {
	s   *State
	buf [MaxMoves]Move
}

// NewSearchPosition copies s for a search.
func NewSearchPosition(s *State) *SearchPosition { return &SearchPosition{s: s.Copy()} }

func (sp *SearchPosition) Moves(dst []game.Action) []game.Action {
	for _, m := range sp.s.LegalMoves(sp.buf[:0]) {
		dst = append(dst, game.Action(m))
	}
	return dst
}

func (sp *SearchPosition) Make(a game.Action) { sp.s.ApplyMove(Move(a)) }

// Side is the side to move.
func (sp *SearchPosition) Side() int { return int(sp.s.pos.toMove) }

// Clone returns an independent copy for another search thread (it
// implements alphabeta.Position's Clone with the search's interface left
// to the caller's conversion).
func (sp *SearchPosition) Clone() *SearchPosition { return &SearchPosition{s: sp.s.Copy()} }
func (sp *SearchPosition) Unmake()                { sp.s.Undo() }
func (sp *SearchPosition) Hash() uint64           { return sp.s.pos.hash }

func (sp *SearchPosition) Over() (bool, int) {
	if !sp.s.over {
		return false, 0
	}
	switch w := sp.s.result.Winner; {
	case w < 0:
		return true, 0
	case Side(w) == sp.s.pos.toMove:
		return true, 1
	}
	return true, -1
}

func (sp *SearchPosition) Evaluate() int {
	v := sp.s.g.Rules.Evaluate(&sp.s.pos)
	if sp.s.pos.toMove == Attackers {
		return -v
	}
	return v
}

func (sp *SearchPosition) Noisy(a game.Action) bool {
	m := Move(a)
	if m == Pass {
		return false
	}
	p := &sp.s.pos
	r := &sp.s.g.Rules
	from, to := m.From(), m.To()
	piece := p.board[from]
	if piece == King {
		if to.OnEdge() {
			return true
		}
		return r.edgeLinesFrom(p, from, to) > 0
	}
	enemy := 1 - piece.side()
	for d := 0; d < 4; d++ {
		v := nb[to][d]
		if v < 0 || v == from {
			continue
		}
		q := p.board[v]
		if q == King && piece == Attacker {
			return true
		}
		if q == Empty || q == King || q.side() != enemy {
			continue
		}
		if s2 := nb[v][d]; s2 >= 0 && s2 != from && r.hostile(p, s2, v, enemy) {
			return true
		}
	}
	return false
}
