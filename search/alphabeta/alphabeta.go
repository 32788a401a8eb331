// Package alphabeta is an iterative-deepening negamax alpha-beta search
// with a transposition table, killer and history move ordering, a
// quiescence search over noisy moves, and Lazy SMP over threads sharing a
// lockless table. It searches any game whose core implements Position;
// a side may make several moves in a row (a turn of several actions).
package alphabeta

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

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
	// Side is the player to move.
	Side() int
	// Clone returns an independent copy, for another thread.
	Clone() Position
}

// Repeater is a Position that knows its history: Repeated reports that the
// position occurred before (since the last irreversible move) in a game
// where repeating positions draws. Below the root the search scores such
// a position a draw, as engines do: the side that repeated once can
// repeat again, and a server may end the game at the first repetition
// (OpenTafl over the network declares its threefold draw at the second
// occurrence), so a side ahead never repeats and a side behind may.
type Repeater interface {
	Repeated() bool
}

// Threatener is a Position that sees threats to end the game: Threatened
// reports that the side to move would lose at the other side's next move
// if it could do nothing (in tafl: the king has a clear line out, or he
// can be taken). The search extends such a position by a ply, as chess
// engines extend checks, so that a threat made at the last ply is answered
// and what follows is seen, not left to the evaluation.
type Threatener interface {
	Threatened() bool
}

// Options turn parts of the search off, so that a match can measure what
// each is worth; the zero value searches with all of them.
type Options struct {
	NoNull   bool // no null-move pruning, though the position can pass
	NoExtend bool // no extension of threatened positions
	// Exclude, if set, is left out of the root's moves: the search finds
	// the best line that does not begin with it (a second line).
	Exclude game.Action
}

// Passer is a Position where the side to move may be imagined to pass, for
// null-move pruning: if the opponent, moving twice, still cannot bring the
// score below beta, a real move will not either (true where having to move
// is never a burden, as in tafl, and risky where it is).
type Passer interface {
	// MakeNull hands the move to the other side; UnmakeNull takes it back.
	MakeNull()
	UnmakeNull()
}

// Scores.
const (
	inf = 1 << 30
	// Win is the score of a won position at the root; a win found n
	// plies deep scores Win - n.
	Win = 1 << 20

	maxPly     = 128
	quiesceMax = 6
	// aspiration is the half-width of the first root window, in the
	// evaluation's hundredths of a soldier.
	aspiration = 40
)

const (
	exact uint8 = iota + 1
	lower
	upper
)

// Table is a transposition table shared by the threads of a search and
// kept between searches. An entry is two words written and read
// atomically, the key stored XOR the data, so a torn entry is never
// believed (lockless hashing).
type Table struct {
	entries []slot
	mask    uint64
}

type slot struct{ check, data atomic.Uint64 }

// EntryBytes is the size of a table's entry: a table of n MiB holds
// n<<20/EntryBytes entries.
const EntryBytes = int(unsafe.Sizeof(slot{}))

// NewTable returns a table with n entries (rounded down to a power of 2).
func NewTable(n int) *Table {
	size := 1
	for size*2 <= n {
		size *= 2
	}
	return &Table{entries: make([]slot, size), mask: uint64(size - 1)}
}

// data packs move (32 bits), score (24), depth (6) and flag (2).
func pack(move game.Action, score, depth int, flag uint8) uint64 {
	depth = min(depth, 63)
	return uint64(move) | uint64(uint32(score)&0xFFFFFF)<<32 | uint64(depth&63)<<56 | uint64(flag)<<62
}

func unpackData(d uint64) (move game.Action, score, depth int, flag uint8) {
	sc := int32(uint32(d>>32&0xFFFFFF)<<8) >> 8 // sign-extend the 24 bits
	return game.Action(uint32(d)), int(sc), int(d >> 56 & 63), uint8(d >> 62)
}

func (t *Table) probe(key uint64) (move game.Action, score, depth int, flag uint8, ok bool) {
	sl := &t.entries[key&t.mask]
	d := sl.data.Load()
	if sl.check.Load()^d != key || d == 0 {
		return 0, 0, 0, 0, false
	}
	move, score, depth, flag = unpackData(d)
	return move, score, depth, flag, true
}

func (t *Table) store(key uint64, move game.Action, score, depth int, flag uint8) {
	sl := &t.entries[key&t.mask]
	d := pack(move, score, depth, flag)
	sl.data.Store(d)
	sl.check.Store(key ^ d)
}

type searcher struct {
	exclude  game.Action // left out of the root's moves (Options.Exclude)
	p        Position
	tt       *Table
	ctx      context.Context
	deadline time.Time
	maxNodes int64
	shared   *atomic.Int64 // nodes of all threads
	nodes    int64
	stop     bool
	quit     *atomic.Bool
	killers  [maxPly][2]game.Action
	history  [1 << 12]int32
	bufs     [maxPly + quiesceMax + 2][]game.Action
	scores   [maxPly + quiesceMax + 2][]int32
	rootBest game.Action
	// passer is the position as a Passer, or nil; afterNull says the move
	// into the node now searched was a null move.
	passer    Passer
	afterNull bool
	// repeater is the position as a Repeater, or nil.
	repeater Repeater
	// threat is the position as a Threatener, or nil (no null move is
	// made in a threatened position); extend says the search extends the
	// threatened positions of the principal variation (asked there only,
	// and where a null move is about to be tried: the question costs);
	// rootDepth is the depth of the iteration under way, which bounds the
	// extensions.
	threat    Threatener
	extend    bool
	rootDepth int
}

// Search runs iterative deepening until a limit and returns the best move
// of the last finished depth. With lim.Threads > 1 helper threads search
// copies of the position at staggered depths and share the table (Lazy
// SMP); the main thread's result is returned, with every thread's nodes.
func Search(ctx context.Context, p Position, lim search.Limits, tt *Table) search.Result {
	return SearchWith(ctx, p, lim, tt, Options{})
}

// SearchWith is Search with parts of the search turned off.
func SearchWith(ctx context.Context, p Position, lim search.Limits, tt *Table, opt Options) search.Result {
	start := time.Now()
	if tt == nil {
		tt = NewTable(1 << 18)
	}
	var deadline time.Time
	if lim.Time > 0 {
		deadline = start.Add(lim.Time)
	}
	if d, ok := ctx.Deadline(); ok && (deadline.IsZero() || d.Before(deadline)) {
		deadline = d
	}
	maxDepth := lim.Depth
	if maxDepth == 0 || maxDepth > maxPly-1 {
		maxDepth = maxPly - 1
	}
	var shared atomic.Int64
	var quit atomic.Bool
	mk := func(pos Position) *searcher {
		pass, _ := pos.(Passer)
		if opt.NoNull {
			pass = nil
		}
		threat, _ := pos.(Threatener)
		rep, _ := pos.(Repeater)
		return &searcher{p: pos, tt: tt, ctx: ctx, deadline: deadline, maxNodes: lim.Nodes, shared: &shared, quit: &quit, passer: pass, repeater: rep, threat: threat, extend: !opt.NoExtend, exclude: opt.Exclude}
	}
	var wg sync.WaitGroup
	for i := 1; i < lim.Threads; i++ {
		h := mk(p.Clone())
		wg.Add(1)
		go func(offset int) {
			defer wg.Done()
			h.deepen(maxDepth, offset)
		}(i % 2)
	}
	main := mk(p)
	res := main.deepen(maxDepth, 0)
	quit.Store(true)
	wg.Wait()
	res.Nodes = shared.Load()
	res.Elapsed = time.Since(start)
	res.PV = main.pv(res.Action)
	return res
}

// deepen runs the iterative deepening of one thread.
func (s *searcher) deepen(maxDepth, offset int) search.Result {
	res := search.Result{Kind: search.Score}
	root := s.p.Moves(nil)
	if len(root) == 0 {
		return res
	}
	res.Action = root[0]
	prev := 0
	for depth := 1 + offset; depth <= maxDepth; depth++ {
		score := s.aspire(depth, prev)
		if s.stop && depth > 1 {
			break
		}
		prev = score
		if s.rootBest != 0 {
			res.Action = s.rootBest
		}
		res.Depth = depth
		res.Score = float64(score) / 100
		switch {
		case score > Win-maxPly:
			res.Proven = 1
		case score < -Win+maxPly:
			res.Proven = -1
		}
		if s.stop || res.Proven != 0 {
			break
		}
	}
	s.flush()
	return res
}

// aspire searches the root in a window around the last depth's score,
// widening it on the side it fails, until the score falls inside
// (aspiration windows); shallow depths and won or lost scores get the full
// window.
func (s *searcher) aspire(depth, prev int) int {
	s.rootBest = 0
	s.rootDepth = depth
	if depth < 4 || prev > Win-2*maxPly || prev < -Win+2*maxPly {
		return s.negamax(depth, 0, -inf, inf)
	}
	lo, hi := aspiration, aspiration
	for {
		alpha, beta := prev-lo, prev+hi
		if lo >= inf/2 {
			alpha = -inf
		}
		if hi >= inf/2 {
			beta = inf
		}
		score := s.negamax(depth, 0, alpha, beta)
		switch {
		case s.stop:
			return score
		case score <= alpha:
			lo *= 4
		case score >= beta:
			hi *= 4
		default:
			return score
		}
	}
}

// flush adds the thread's nodes to the shared count.
func (s *searcher) flush() {
	s.shared.Add(s.nodes)
	s.nodes = 0
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
		move, _, _, _, ok := s.tt.probe(s.p.Hash())
		if !ok || move == 0 || !contains(s.p.Moves(nil), move) {
			break
		}
		line = append(line, move)
		s.p.Make(move)
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
	s.flush()
	if s.quit.Load() || s.ctx.Err() != nil || (!s.deadline.IsZero() && time.Now().After(s.deadline)) ||
		(s.maxNodes > 0 && s.shared.Load() >= s.maxNodes) {
		s.stop = true
	}
}

// child searches the position after a move made by side: negated when
// the other side is to move, as it is when the same side moves again.
func (s *searcher) child(depth, ply, alpha, beta, side int) int {
	if s.p.Side() == side {
		return s.negamax(depth, ply, alpha, beta)
	}
	return -s.negamax(depth, ply, -beta, -alpha)
}

func (s *searcher) negamax(depth, ply int, alpha, beta int) int {
	s.nodes++
	s.checkStop()
	afterNull := s.afterNull
	s.afterNull = false
	if s.stop {
		return 0
	}
	if over, r := s.p.Over(); over {
		return r * (Win - ply)
	}
	if ply > 0 && !afterNull && s.repeater != nil && s.repeater.Repeated() {
		return 0
	}
	// A threatened position on the principal variation (an open window)
	// is searched a ply deeper, up to twice the iteration's depth from the
	// root. Off it the extensions of both sides' threats feed each other:
	// depth 6 of ashton's start took ten times the nodes.
	if s.extend && beta-alpha > 1 && ply > 0 && ply < 2*s.rootDepth && s.threat != nil && s.threat.Threatened() {
		depth++
	}
	if depth <= 0 || ply >= maxPly {
		return s.quiesce(ply, alpha, beta, quiesceMax)
	}
	key := s.p.Hash()
	ttMove, sc, ttDepth, flag, hit := s.tt.probe(key)
	sc = fromTable(sc, ply)
	if hit && ply > 0 && ttDepth >= depth {
		switch {
		case flag == exact:
			return sc
		case flag == lower && sc >= beta:
			return sc
		case flag == upper && sc <= alpha:
			return sc
		}
	}
	if score, ok := s.nullMove(depth, ply, alpha, beta, afterNull); ok {
		return score
	}
	moves, ok := s.movesAt(ply)
	if !ok {
		return -inf
	}
	scores := s.order(ply, moves, ttMove)
	alpha0 := alpha
	side := s.p.Side()
	best, bestMove := -inf, game.Action(0)
	for i := range moves {
		pick(moves, scores, i)
		m := moves[i]
		quiet := scores[i] < 1<<27 // not the table's move, noisy or a killer
		s.p.Make(m)
		var score int
		switch {
		case i == 0:
			score = s.child(depth-1, ply+1, alpha, beta, side)
		default:
			// Principal variation search: a later move is first tried
			// with a null window, to show it is no better than the best;
			// a late quiet move at some depth with a reduced depth too
			// (late-move reduction). One that proves better is searched
			// again, at full depth and with the full window.
			r := 0
			if quiet && depth >= 3 && i >= 3 {
				r = 1
				if depth >= 6 && i >= 10 {
					r = 2
				}
			}
			score = s.child(depth-1-r, ply+1, alpha, alpha+1, side)
			if r > 0 && score > alpha && !s.stop {
				score = s.child(depth-1, ply+1, alpha, alpha+1, side)
			}
			if score > alpha && score < beta && !s.stop {
				score = s.child(depth-1, ply+1, alpha, beta, side)
			}
		}
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
				// Capped below the killers' and noisy moves' order scores.
				s.history[hslot(m)] = min(s.history[hslot(m)]+int32(depth*depth), 1<<26)
			}
			break
		}
	}
	flag = exact
	switch {
	case best <= alpha0:
		flag = upper
	case best >= beta:
		flag = lower
	}
	s.tt.store(key, bestMove, toTable(best, ply), depth, flag)
	return best
}

// nullMove tries null-move pruning in a node off the principal variation
// (a null window) some plies from the leaves, not straight after another
// null move, where the evaluation is already at beta and the side to move
// is not threatened (passing would lose): the side to move passes and the
// opponent gets a reduced search; if he still cannot bring the score below
// beta, the node is cut.
func (s *searcher) nullMove(depth, ply, alpha, beta int, afterNull bool) (int, bool) {
	if s.passer == nil || afterNull || ply == 0 || depth < 3 || beta-alpha != 1 || beta >= Win-2*maxPly || beta <= -Win+2*maxPly {
		return 0, false
	}
	if s.p.Evaluate() < beta || s.threat != nil && s.threat.Threatened() {
		return 0, false
	}
	r := 2
	if depth >= 6 {
		r = 3
	}
	side := s.p.Side()
	s.passer.MakeNull()
	s.afterNull = true
	score := s.child(depth-1-r, ply+1, beta-1, beta, side)
	s.afterNull = false
	s.passer.UnmakeNull()
	if s.stop || score < beta {
		return 0, false
	}
	return beta, true
}

// movesAt lists the moves at ply into its buffer, the root's without
// Options.Exclude; ok is false where that leaves the root none.
func (s *searcher) movesAt(ply int) (moves []game.Action, ok bool) {
	moves = s.p.Moves(s.bufs[ply][:0])
	if ply == 0 && s.exclude != 0 {
		if moves = s.excluded(moves); len(moves) == 0 {
			return moves, false
		}
	}
	s.bufs[ply] = moves
	return moves, true
}

// excluded is moves without Options.Exclude.
func (s *searcher) excluded(moves []game.Action) []game.Action {
	return slices.DeleteFunc(moves, func(m game.Action) bool { return m == s.exclude })
}

// toTable turns a score at ply into the table's: a win or loss counted
// from this position rather than from the root, so that it holds wherever
// the position is met again; fromTable turns it back.
func toTable(score, ply int) int {
	switch {
	case score > Win-2*maxPly:
		return score + ply
	case score < -Win+2*maxPly:
		return score - ply
	}
	return score
}

func fromTable(score, ply int) int {
	switch {
	case score > Win-2*maxPly:
		return score - ply
	case score < -Win+2*maxPly:
		return score + ply
	}
	return score
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
	moves, ok := s.movesAt(ply)
	if !ok {
		return -inf
	}
	side := s.p.Side()
	for _, m := range moves {
		if !s.p.Noisy(m) {
			continue
		}
		s.nodes++
		s.p.Make(m)
		var score int
		if s.p.Side() == side {
			score = s.quiesce(ply+1, alpha, beta, left-1)
		} else {
			score = -s.quiesce(ply+1, -beta, -alpha, left-1)
		}
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
