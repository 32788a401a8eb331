package tablut

import (
	"math"
	"math/bits"
	"sync"

	"github.com/muster-games/muster/game"
)

// Feature names the terms of the evaluation, all counted for the
// defenders: the evaluation is their weighted sum (Weights), in hundredths
// of a defender.
type Feature int

const (
	FAttacker   Feature = iota // an attacker on the board
	FDefender                  // a defender on the board (the king aside)
	FRoute                     // a clear line from the king to a square he may escape to
	FReach2                    // an escape square the king reaches in two moves (at most 8)
	FKingGuard                 // an attacker next to the king
	FKingFriend                // a defender next to the king
	FKingMobile                // a square the king may move to
	FEdgeNear                  // per square the king is closer to an edge
	FKingRoom                  // an edge square the king could reach, move after move, past no attacker (at most 8)
	FKingShut                  // the king can reach no edge square at all: the attackers' ring is closed
	NumFeatures = iota
)

// FeatureNames are the features' names in the weights file, in order.
var FeatureNames = [NumFeatures]string{"attacker", "defender", "escape_route", "escape_in_two", "king_attacker", "king_defender", "king_mobility", "king_edge", "king_room", "king_shut"}

// Features are a position's feature counts.
type Features [NumFeatures]int

// Weights weigh each feature, in hundredths of a defender, and add a
// constant.
type Weights struct {
	Feature [NumFeatures]int
	// Constant is added to every position: a fit's intercept, which
	// makes 0 even chances for the sides. A draw (a repetition, say) is
	// worth 0, so without it a side the features underrate takes a draw
	// in a position it wins more often than it loses.
	Constant int
}

// HandWeights are the weights set by hand before any were fitted; the
// evaluation falls back on them for a family with no fitted weights.
var HandWeights = Weights{Feature: [NumFeatures]int{
	FAttacker:   -60,
	FDefender:   100,
	FRoute:      400,
	FReach2:     25,
	FKingGuard:  -45,
	FKingMobile: 4,
	FEdgeNear:   12,
}}

// EscapeRoutes counts the king's clear lines to a square where he would
// escape (Linnaeus's raichi for one, tuichu for two).
func (r *Rules) EscapeRoutes(p *Position) int {
	k := p.king
	if k < 0 {
		return 0
	}
	rm, fm := r.targets(p, k)
	return escapes(rm, fm)
}

// escapes counts the edge cells among a king's rank and file targets.
func escapes(rm, fm uint16) int {
	n := 0
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
// defender: its features weighed by the weights of the rules' family, and
// the family's constant.
func (r *Rules) Evaluate(p *Position) int { return r.weights.score(r.features(p, r.weights.room())) }

// room reports whether the weights weigh the king's room, the one feature
// that costs a flood of the board: where they do not, it is not counted.
func (w *Weights) room() bool { return w.Feature[FKingRoom] != 0 || w.Feature[FKingShut] != 0 }

func (w *Weights) score(f Features) int {
	s := w.Constant
	for i, x := range f {
		s += w.Feature[i] * x
	}
	return s
}

// Features counts the evaluation's terms in a position: material, the
// king's escape lines (immediate and in two moves), his freedom, his
// nearness to the edge, and the men beside him.
func (r *Rules) Features(p *Position) Features { return r.features(p, true) }

// features counts the terms, the king's room only where room is set.
func (r *Rules) features(p *Position, room bool) Features {
	var f Features
	f[FAttacker] = bits.OnesCount64(p.men[Attackers].lo) + bits.OnesCount64(p.men[Attackers].hi)
	f[FDefender] = bits.OnesCount64(p.men[Defenders].lo) + bits.OnesCount64(p.men[Defenders].hi) - 1
	k := p.king
	if k < 0 {
		f[FDefender]++
		return f
	}
	rm, fm := r.targets(p, k)
	f[FRoute] = escapes(rm, fm)
	f[FKingMobile] = bits.OnesCount16(rm) + bits.OnesCount16(fm)
	fl, rk := k.File(), k.Rank()
	f[FEdgeNear] = 4 - min(fl, rk, Size-1-fl, Size-1-rk)
	for d := 0; d < 4; d++ {
		if n := nb[k][d]; n >= 0 {
			switch p.board[n] {
			case Attacker:
				f[FKingGuard]++
			case Defender:
				f[FKingFriend]++
			}
		}
	}
	// Escape squares the king reaches in two moves: from each square he
	// can reach, the clear lines to the edge.
	// The count stops at reach2Cap: past it no square adds.
	reach2 := 0
	base := Square(rk * Size)
	for m := rm; m != 0 && reach2 < reach2Cap; m &= m - 1 {
		reach2 += r.edgeLinesFrom(p, k, base+Square(bits.TrailingZeros16(m)))
	}
	for m := fm; m != 0 && reach2 < reach2Cap; m &= m - 1 {
		reach2 += r.edgeLinesFrom(p, k, Square(fl)+Square(bits.TrailingZeros16(m))*Size)
	}
	f[FReach2] = min(reach2, reach2Cap)
	if room {
		f[FKingRoom] = r.kingRoom(p)
		if f[FKingRoom] == 0 {
			f[FKingShut] = 1
		}
	}
	return f
}

// roomCap is where kingRoom stops counting: beyond it the king is free.
const roomCap = 8

// reach2Cap is where the escape squares in two moves stop counting.
const reach2Cap = 8

// kingRoom counts the edge squares the king could reach if he moved
// again and again while the attackers stood still, at most roomCap: a
// flood from his square through squares no attacker holds (his own men
// are taken to stand aside), never into a camp, nor back into the castle
// where he may not re-enter it. Attackers who build a ring round him
// (Bologna's players do, and OpenTafl's encirclement needs one) bring it
// down long before any line to the edge is shut.
func (r *Rules) kingRoom(p *Position) int {
	k := p.king
	var seen squareSet
	seen.add(k)
	var queue [Squares]Square
	queue[0] = k
	n, room := 1, 0
	for i := 0; i < n; i++ {
		s := queue[i]
		for d := 0; d < 4; d++ {
			t := nb[s][d]
			if t < 0 || seen.has(t) {
				continue
			}
			seen.add(t)
			if p.board[t] == Attacker || r.camps.has(t) || t == Castle && !r.KingReenter {
				continue
			}
			if t.OnEdge() {
				if room++; room == roomCap {
					return room
				}
			}
			queue[n] = t
			n++
		}
	}
	return room
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

// Quiet reports whether the evaluation may stand for the position: the
// game goes on and no move of the side to move captures or ends the game
// (so the king has no clear line out when the defenders are to move; when
// the attackers are, the lines they must close are the evaluation's to
// weigh).
func (s *State) Quiet() bool {
	r := &s.g.Rules
	if s.over {
		return false
	}
	var buf [MaxMoves]Move
	for _, m := range s.LegalMoves(buf[:0]) {
		p := s.pos
		if caps, kingTaken := r.Apply(&p, m); caps.N > 0 || kingTaken || p.king >= 0 && p.king.OnEdge() {
			return false
		}
	}
	return true
}

// Value is the evaluation as a value in [-1, 1] for player p, for Monte
// Carlo playouts cut off before the end (it implements mcts.Evaluator).
func Value(s game.State, p game.Player) float64 {
	ts := s.(*State)
	v := squash(ts.g.Rules.Evaluate(&ts.pos))
	if p == game.Player(Attackers) {
		return -v
	}
	return v
}

// squash is tanh(score/600), Value's scale, read from a table where the
// score is within squashRange of 0 (the table's entries are math.Tanh's
// own values, so the two agree exactly).
func squash(score int) float64 {
	if score > -squashRange && score < squashRange {
		return squashTable()[score+squashRange]
	}
	return math.Tanh(float64(score) / 600)
}

// squashRange bounds the scores squash's table holds; a score beyond it
// is squashed by math.Tanh.
const squashRange = 8192

var squashTable = sync.OnceValue(func() *[2 * squashRange]float64 {
	var t [2 * squashRange]float64
	for i := range t {
		t[i] = math.Tanh(float64(i-squashRange) / 600)
	}
	return &t
})

// SearchPosition adapts a State to alphabeta.Position: moves, make and
// unmake, the end, the evaluation for the side to move, and noisy moves
// (captures, moves next to the king, king moves to the edge or onto an
// open line).
type SearchPosition struct {
	s   *State
	w   *Weights
	buf [MaxMoves]Move
}

// NewSearchPosition copies s for a search with the evaluation weights w
// (nil: those of the rules' family).
func NewSearchPosition(s *State, w *Weights) *SearchPosition {
	if w == nil {
		w = s.g.Rules.weights
	}
	return &SearchPosition{s: s.Copy(), w: w}
}

func (sp *SearchPosition) Moves(dst []game.Action) []game.Action {
	for _, m := range sp.s.LegalMoves(sp.buf[:0]) {
		dst = append(dst, game.Action(m))
	}
	return dst
}

func (sp *SearchPosition) Make(a game.Action) { sp.s.ApplyMove(Move(a)) }

// MakeNull hands the move to the other side without a move, for the
// search's null-move pruning; UnmakeNull takes it back.
func (sp *SearchPosition) MakeNull()   { sp.s.pos.passTurn() }
func (sp *SearchPosition) UnmakeNull() { sp.s.pos.passTurn() }

// Side is the side to move.
func (sp *SearchPosition) Side() int { return int(sp.s.pos.toMove) }

// Clone returns an independent copy for another search thread (it
// implements alphabeta.Position's Clone with the search's interface left
// to the caller's conversion).
func (sp *SearchPosition) Clone() *SearchPosition { return &SearchPosition{s: sp.s.Copy(), w: sp.w} }
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

// Repeated reports that the position occurred before since the last
// capture, under rules where repeating draws (alphabeta.Repeater).
func (sp *SearchPosition) Repeated() bool {
	r := sp.s.g.Rules.Repetition
	if (r != RepFirst && r != RepThird) || sp.s.over {
		return false
	}
	// The same side is to move every other ply, and a position comes
	// back at the earliest four plies on.
	h := sp.s.hashes
	for i := len(h) - 5; i >= sp.s.lastIrrev; i -= 2 {
		if h[i] == sp.s.pos.hash {
			return true
		}
	}
	return false
}

// Threatened reports that the side to move would lose at the other side's
// next move if it could pass: the attackers, when the king has a clear
// line to the edge; the defenders, when an attacker can take the king
// (alphabeta.Threatener: the search extends such positions).
func (sp *SearchPosition) Threatened() bool {
	if sp.s.over {
		return false
	}
	r := &sp.s.g.Rules
	p := &sp.s.pos
	if p.toMove == Attackers {
		return r.EscapeRoutes(p) > 0
	}
	return r.kingInDanger(p)
}

func (sp *SearchPosition) Evaluate() int {
	v := sp.w.score(sp.s.g.Rules.features(&sp.s.pos, sp.w.room()))
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
	if !p.men[enemy].meets(beside[to]) {
		return false // most moves: nothing to take, no king to press
	}
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
