// Package alphabeta is an iterative-deepening negamax alpha-beta search
// with a transposition table, killer and history move ordering and a
// quiescence search over noisy moves. It searches any game whose core
// implements Position: moves alternate between two sides, one action a
// turn (a forced pass is a move).
package alphabeta

import (
	"context"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
)

// Position is what the search needs of a game's core; the game's package
// implements it next to its evaluation.
type Position interface {
	// Moves appends the legal moves.
	Moves(dst []game.Action) []game.Action
	// Make plays a legal move; Unmake takes back the last one.
	Make(a game.Action)
	Unmake()
	// Over reports whether the game is over and the result for the side
	// to move: +1 win, 0 draw, -1 loss.
	Over() (bool, int)
	// Evaluate scores the position for the side to move (a pawn ≈ 100).
	Evaluate() int
	// Hash identifies the position for the transposition table.
	Hash() uint64
	// Noisy reports moves that the quiescence search follows (captures,
	// threats to win).
	Noisy(a game.Action) bool
}

// Scores.
const (
	inf = 1 << 30
	// Win is the score of a won position at the root; a win found n
	// plies deep scores Win - n.
	Win = 1 << 20

	maxPly     = 128
	quiesceMax = 6
)

type entry struct {
	key   uint64
	move  game.Action
	score int32
	depth int8
	flag  uint8 // exact, lower or upper bound
}

const (
	exact uint8 = iota + 1
	lower
	upper
)

// Table is a transposition table, kept between searches.
type Table struct {
	entries []entry
	mask    uint64
}

// NewTable returns a table with n entries (rounded down to a power of 2).
func NewTable(n int) *Table {
	size := 1
	for size*2 <= n {
		size *= 2
	}
	return &Table{entries: make([]entry, size), mask: uint64(size - 1)}
}

type searcher struct {
	p        Position
	tt       *Table
	ctx      context.Context
	deadline time.Time
	maxNodes int64
	nodes    int64
	stop     bool
	killers  [maxPly][2]game.Action
	history  [1 << 12]int32
	bufs     [maxPly + quiesceMax + 2][]game.Action
	scores   [maxPly + quiesceMax + 2][]int32
	rootBest game.Action
}

// Search runs iterative deepening until a limit and returns the best move
// of the last finished depth.
func Search(ctx context.Context, p Position, lim search.Limits, tt *Table) search.Result {
	start := time.Now()
	if tt == nil {
		tt = NewTable(1 << 18)
	}
	s := &searcher{p: p, tt: tt, ctx: ctx, maxNodes: lim.Nodes}
	if lim.Time > 0 {
		s.deadline = start.Add(lim.Time)
	}
	if d, ok := ctx.Deadline(); ok && (s.deadline.IsZero() || d.Before(s.deadline)) {
		s.deadline = d
	}
	maxDepth := lim.Depth
	if maxDepth == 0 || maxDepth > maxPly-1 {
		maxDepth = maxPly - 1
	}
	res := search.Result{}
	root := p.Moves(nil)
	if len(root) == 0 {
		return res
	}
	res.Action = root[0]
	for depth := 1; depth <= maxDepth; depth++ {
		s.rootBest = 0
		score := s.negamax(depth, 0, -inf, inf)
		if s.stop && depth > 1 {
			break
		}
		if s.rootBest != 0 || depth == 1 {
			res.Action = s.rootBest
			if res.Action == 0 {
				res.Action = root[0]
			}
		}
		res.Depth = depth
		res.Value = float64(score) / 100
		switch {
		case score > Win-maxPly:
			res.Proven = 1
		case score < -Win+maxPly:
			res.Proven = -1
		}
		if s.stop || res.Proven != 0 || (!s.deadline.IsZero() && time.Since(start) > time.Until(s.deadline)) {
			break
		}
	}
	res.Nodes = s.nodes
	res.Elapsed = time.Since(start)
	res.PV = s.pv(res.Action)
	return res
}

// pv follows the table from the root.
func (s *searcher) pv(first game.Action) []game.Action {
	line := []game.Action{first}
	s.p.Make(first)
	n := 1
	for ; n < 16; n++ {
		if over, _ := s.p.Over(); over {
			break
		}
		e := &s.tt.entries[s.p.Hash()&s.tt.mask]
		if e.key != s.p.Hash() || e.move == 0 || !contains(s.p.Moves(nil), e.move) {
			break
		}
		line = append(line, e.move)
		s.p.Make(e.move)
	}
	for ; n > 0; n-- {
		s.p.Unmake()
	}
	return line
}

func contains(list []game.Action, a game.Action) bool {
	for _, x := range list {
		if x == a {
			return true
		}
	}
	return false
}

func (s *searcher) checkStop() {
	if s.nodes&2047 != 0 {
		return
	}
	if s.ctx.Err() != nil || (!s.deadline.IsZero() && time.Now().After(s.deadline)) || (s.maxNodes > 0 && s.nodes >= s.maxNodes) {
		s.stop = true
	}
}

func (s *searcher) negamax(depth, ply int, alpha, beta int) int {
	s.nodes++
	s.checkStop()
	if s.stop {
		return 0
	}
	if over, r := s.p.Over(); over {
		return r * (Win - ply)
	}
	if depth <= 0 || ply >= maxPly {
		return s.quiesce(ply, alpha, beta, quiesceMax)
	}
	key := s.p.Hash()
	e := &s.tt.entries[key&s.tt.mask]
	var ttMove game.Action
	if e.key == key {
		ttMove = e.move
		if ply > 0 && int(e.depth) >= depth {
			sc := int(e.score)
			switch {
			case e.flag == exact:
				return sc
			case e.flag == lower && sc >= beta:
				return sc
			case e.flag == upper && sc <= alpha:
				return sc
			}
		}
	}
	moves := s.p.Moves(s.bufs[ply][:0])
	s.bufs[ply] = moves
	scores := s.order(ply, moves, ttMove)
	alpha0 := alpha
	best, bestMove := -inf, game.Action(0)
	for i := range moves {
		pick(moves, scores, i)
		m := moves[i]
		s.p.Make(m)
		score := -s.negamax(depth-1, ply+1, -beta, -alpha)
		s.p.Unmake()
		if s.stop {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if ply == 0 {
				s.rootBest = m
			}
		}
		if score > alpha {
			alpha = score
		}
		if alpha >= beta {
			if !s.p.Noisy(m) {
				if s.killers[ply][0] != m {
					s.killers[ply][1] = s.killers[ply][0]
					s.killers[ply][0] = m
				}
				s.history[hslot(m)] += int32(depth * depth)
			}
			break
		}
	}
	flag := exact
	switch {
	case best <= alpha0:
		flag = upper
	case best >= beta:
		flag = lower
	}
	*e = entry{key: key, move: bestMove, score: int32(best), depth: int8(depth), flag: flag}
	return best
}

func hslot(m game.Action) int { return int((uint32(m)*2654435761)>>20) & (1<<12 - 1) }

// order scores the moves: the table's move, noisy moves, killers, then
// by history.
func (s *searcher) order(ply int, moves []game.Action, ttMove game.Action) []int32 {
	sc := s.scores[ply][:0]
	for _, m := range moves {
		var v int32
		switch {
		case m == ttMove:
			v = 1 << 30
		case s.p.Noisy(m):
			v = 1 << 28
		case m == s.killers[ply][0]:
			v = 1 << 27
		case m == s.killers[ply][1]:
			v = 1<<27 - 1
		default:
			v = s.history[hslot(m)]
		}
		sc = append(sc, v)
	}
	s.scores[ply] = sc
	return sc
}

// pick moves the best remaining move to position i (selection sort, which
// is cheap when a cut-off comes early).
func pick(moves []game.Action, scores []int32, i int) {
	b := i
	for j := i + 1; j < len(moves); j++ {
		if scores[j] > scores[b] {
			b = j
		}
	}
	moves[i], moves[b] = moves[b], moves[i]
	scores[i], scores[b] = scores[b], scores[i]
}

func (s *searcher) quiesce(ply, alpha, beta, left int) int {
	if over, r := s.p.Over(); over {
		return r * (Win - ply)
	}
	stand := s.p.Evaluate()
	if stand >= beta || left == 0 || ply >= maxPly+quiesceMax {
		return stand
	}
	if stand > alpha {
		alpha = stand
	}
	moves := s.p.Moves(s.bufs[ply][:0])
	s.bufs[ply] = moves
	for _, m := range moves {
		if !s.p.Noisy(m) {
			continue
		}
		s.nodes++
		s.p.Make(m)
		score := -s.quiesce(ply+1, -beta, -alpha, left-1)
		s.p.Unmake()
		if score >= beta {
			return score
		}
		if score > alpha {
			alpha = score
		}
	}
	return alpha
}
