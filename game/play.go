package game

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// RandomActor is implemented by states that draw a uniformly random legal
// action faster than by listing them all; the draw must be exactly
// uniform over LegalActions.
type RandomActor interface {
	RandomAction(rng *rand.Rand) Action
}

// Resetter is implemented by states that can become a copy of another
// state of the same game without allocating, for loops that play many
// games from one position.
type Resetter interface {
	Reset(from State)
}

// CopyInto returns a copy of src to play on: dst made one where it is a
// Resetter of src's game (no allocation once its buffers are large
// enough), else src's Clone. dst may be nil; a loop that tries many
// actions from one state passes back the copy it was given last.
func CopyInto(dst, src State) State {
	if r, ok := dst.(Resetter); ok && dst.Game() == src.Game() {
		r.Reset(src)
		return dst
	}
	return src.Clone()
}

// Forker is implemented by states that make a copy to play on more
// cheaply than Clone, by sharing the lists they hold (their history): the
// state forked is then only read, never played on, undone or reset, and
// at most one of its forks is played on, as a game's room plays each move
// on a fork of the state before and keeps that state only while the move
// may yet fail.
type Forker interface {
	Fork() State
}

// Fork returns a copy of s to play on: s's own Fork where it has one (s
// is then only read, and one fork of it at most played on), else a Clone.
func Fork(s State) State {
	if f, ok := s.(Forker); ok {
		return f.Fork()
	}
	return s.Clone()
}

// Releaser is implemented by forking states (Forker) whose memory a later
// Fork, of any state of their game, may use again once they are
// released: their holder (a game's room, once the move played on a fork
// is stored) never reads them again, nor anything they returned but
// their history, which is shared with their forks.
type Releaser interface {
	Release()
}

// Release tells s's game that s will never be read again (Releaser); a
// state that is not a Releaser is left to the collector.
func Release(s State) {
	if r, ok := s.(Releaser); ok {
		r.Release()
	}
}

// Perfter is implemented by states with a fast perft of their own.
type Perfter interface {
	Perft(depth int) uint64
}

// ThreadedPerfter is implemented by states whose perft can share its work
// among threads (and what it has learnt, such as a table of positions).
type ThreadedPerfter interface {
	PerftThreads(depth, threads int) uint64
}

// PerftThreads is Perft on threads threads at once: the state's own where
// it has one (ThreadedPerfter), else the subtrees of the first actions
// counted apart.
func PerftThreads(s State, depth, threads int) uint64 {
	if p, ok := s.(ThreadedPerfter); ok {
		return p.PerftThreads(depth, threads)
	}
	if threads <= 1 || depth < 2 || s.IsTerminal() {
		return Perft(s, depth)
	}
	var n uint64
	for _, c := range PerftBelow(s, s.LegalActions(nil), depth-1, threads) {
		n += c
	}
	return n
}

// PerftBelow counts the leaves depth actions below each of actions (the
// state's legal ones), on threads threads at once.
func PerftBelow(s State, actions []Action, depth, threads int) []uint64 {
	counts := make([]uint64, len(actions))
	Parallel(len(actions), threads, func() func(int) {
		return func(i int) {
			c := s.Clone()
			c.Apply(actions[i])
			counts[i] = Perft(c, depth)
		}
	})
	return counts
}

// Parallel runs the jobs 0 to n-1 on up to threads goroutines at once,
// each taking the next job as it ends one; worker is called once a
// goroutine and returns what runs its jobs (which may keep state of its
// own between them).
func Parallel(n, threads int, worker func() func(job int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(threads, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run := worker()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				run(i)
			}
		}()
	}
	wg.Wait()
}

// Perft counts the leaves of the game tree below s to the given depth in
// actions. A terminal state is a leaf at whatever depth it is reached and
// is not expanded; chance actions count as actions.
func Perft(s State, depth int) uint64 {
	if p, ok := s.(Perfter); ok {
		return p.Perft(depth)
	}
	return perft(s, depth, make([][]Action, depth+1))
}

func perft(s State, depth int, bufs [][]Action) uint64 {
	if depth == 0 || s.IsTerminal() {
		return 1
	}
	var actions []Action
	if s.ToAct() == Chance {
		for _, o := range s.ChanceOutcomes(nil) {
			actions = append(actions, o.Action)
		}
	} else {
		bufs[depth] = s.LegalActions(bufs[depth][:0])
		actions = bufs[depth]
	}
	var n uint64
	for _, a := range actions {
		c := s.Clone()
		c.Apply(a)
		n += perft(c, depth-1, bufs)
	}
	return n
}

// RandomAction draws a uniformly random legal action, or a chance action
// with its probability, from a state that is not terminal. buf is scratch
// space, returned for reuse.
func RandomAction(s State, rng *rand.Rand, buf []Action) (Action, []Action) {
	if s.ToAct() == Chance {
		outs := s.ChanceOutcomes(nil)
		x := rng.Float64()
		for _, o := range outs {
			if x < o.Prob {
				return o.Action, buf
			}
			x -= o.Prob
		}
		return outs[len(outs)-1].Action, buf
	}
	if r, ok := s.(RandomActor); ok {
		return r.RandomAction(rng), buf
	}
	buf = s.LegalActions(buf[:0])
	return buf[rng.IntN(len(buf))], buf
}

// Playouter is a state that plays a uniformly random playout itself,
// faster than RandomAction and Apply one by one: the same actions for the
// same random numbers, and the same end. Playout returns the number of
// actions played; the state may not Undo them.
type Playouter interface {
	Playout(rng *rand.Rand, maxActions int) int
}

// Playout plays uniformly random actions from s until the game ends or
// maxActions have been played, and returns the number played.
func Playout(s State, rng *rand.Rand, maxActions int, buf []Action) (int, []Action) {
	if p, ok := s.(Playouter); ok {
		return p.Playout(rng, maxActions), buf
	}
	n := 0
	for !s.IsTerminal() && n < maxActions {
		var a Action
		a, buf = RandomAction(s, rng, buf)
		s.Apply(a)
		n++
	}
	return n, buf
}
