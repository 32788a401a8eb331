// Package solve proves game values exactly by depth-limited search.
//
// Solve looks at every line of play from a position up to a number of
// actions and returns bounds on the value for the player to act: +1 won,
// −1 lost, 0 drawn, expectations at chance nodes. When the bounds meet the
// value is proved; a forced win found this way is a forced win under the
// game's rules, whatever lies beyond the horizon. A transposition table,
// keyed by the position's hash, shares the work between transpositions.
//
// Endings that depend on the game's history (game.Result.History: a
// repeated position, a limit on turns) are treated as unknown, because
// the table forgets how a position was reached. This costs nothing for
// wins: the quickest forced win never repeats a position. The package
// assumes the legal actions depend on the position alone (true of Lanrick
// and of every Tablut ruleset but Cartier's must-vary).
package solve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
)

// Verdict says what an exact search proved, for the player to act: "win
// in 5 actions", "not lost within 12 actions".
func Verdict(r search.Result) string {
	switch {
	case r.Proved() && r.Lo == 1:
		return fmt.Sprintf("win in %d actions", r.Plies)
	case r.Proved() && r.Lo == -1:
		return fmt.Sprintf("loss in %d actions", r.Plies)
	case r.Proved():
		return fmt.Sprintf("value %g", r.Lo)
	case r.Lo > -1 && r.Hi < 1:
		return fmt.Sprintf("between %g and %g within %d actions", r.Lo, r.Hi, r.Depth)
	case r.Lo > -1:
		return fmt.Sprintf("not lost within %d actions", r.Depth)
	case r.Hi < 1:
		return fmt.Sprintf("not won within %d actions", r.Depth)
	}
	return fmt.Sprintf("no forced result within %d actions", r.Depth)
}

type entry struct {
	lo, hi float64
	depth  int
	plies  int
	best   int // index of the best action, or -1
}

type solver struct {
	ctx     context.Context
	lim     search.Limits
	tt      map[uint64]entry
	nodes   int64
	stopped bool
	bufs    [][]game.Action
}

// ErrOver says the position is already over.
var ErrOver = errors.New("solve: the game is over")

// Solve searches st to depth 1, 2, … up to lim.Depth actions (required),
// stopping as soon as the value is proved or at lim.Nodes positions or
// lim.Time, and returns what it proved as an exact result (Exact, Lo, Hi;
// PV the line of a proved win or loss). st is not changed.
func Solve(ctx context.Context, st game.State, lim search.Limits) (search.Result, error) {
	if st.IsTerminal() {
		return search.Result{}, ErrOver
	}
	if lim.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.Time)
		defer cancel()
	}
	start := time.Now()
	s := &solver{ctx: ctx, lim: lim, tt: map[uint64]entry{}}
	res := search.Result{Kind: search.Proof, Exact: true, Lo: -1, Hi: 1}
	for d := 1; d <= lim.Depth; d++ {
		e := s.search(st.Clone(), d, 0)
		if s.stopped {
			res.Stopped = true
			break
		}
		res.Lo, res.Hi, res.Depth, res.Plies = e.lo, e.hi, d, e.plies
		if e.lo == e.hi {
			break
		}
	}
	res.Nodes, res.Elapsed, res.Value = s.nodes, time.Since(start), (res.Lo+res.Hi)/2
	if res.Proved() && res.Lo != 0 {
		res.Proven = int(res.Lo)
		res.PV = s.line(st.Clone(), res.Plies)
		if len(res.PV) > 0 {
			res.Action = res.PV[0]
		}
	}
	return res, nil
}

// line follows the best actions stored in the table.
func (s *solver) line(st game.State, n int) []game.Action {
	var out []game.Action
	for len(out) < n && !st.IsTerminal() {
		e, ok := s.tt[st.Hash()]
		if !ok || e.best < 0 {
			break
		}
		acts := st.LegalActions(nil)
		if e.best >= len(acts) {
			break
		}
		out = append(out, acts[e.best])
		st.Apply(acts[e.best])
	}
	return out
}

func (s *solver) buf(ply int) []game.Action {
	for len(s.bufs) <= ply {
		s.bufs = append(s.bufs, make([]game.Action, 0, 64))
	}
	return s.bufs[ply][:0]
}

// search returns bounds on st's value for the player to act (for chance
// nodes, for player 0), proved within depth actions.
func (s *solver) search(st game.State, depth, ply int) entry {
	if depth == 0 {
		return entry{lo: -1, hi: 1, best: -1}
	}
	h := st.Hash()
	first := -1 // the best action of a shallower search, tried first
	if e, ok := s.tt[h]; ok {
		if e.depth >= depth || e.lo == e.hi {
			return e
		}
		first = e.best
	}
	s.nodes++
	if s.lim.Nodes > 0 && s.nodes > s.lim.Nodes || s.nodes&1023 == 0 && s.ctx.Err() != nil {
		s.stopped = true
		return entry{lo: -1, hi: 1, best: -1}
	}
	me := st.ToAct()
	var e entry
	if me == game.Chance {
		e = entry{best: -1}
		for _, o := range st.ChanceOutcomes(nil) {
			p := o.Prob
			child := st.Clone()
			child.Apply(o.Action)
			c := s.child(child, 0, depth-1, ply+1)
			if s.stopped {
				return entry{lo: -1, hi: 1, best: -1}
			}
			e.lo += p * c.lo
			e.hi += p * c.hi
			e.plies = max(e.plies, c.plies+1)
		}
	} else {
		acts := st.LegalActions(s.buf(ply))
		s.bufs[ply] = acts
		e = entry{lo: math.Inf(-1), hi: math.Inf(-1), best: -1}
		for k := -1; k < len(acts); k++ {
			i := k
			switch {
			case k < 0 && (first < 0 || first >= len(acts)):
				continue
			case k < 0:
				i = first
			case k == first:
				continue
			}
			a := s.bufs[ply][i]
			child := st.Clone()
			child.Apply(a)
			c := s.child(child, me, depth-1, ply+1)
			if s.stopped {
				return entry{lo: -1, hi: 1, best: -1}
			}
			// Prefer a higher lower bound; among proved wins the quickest,
			// among proved losses the slowest.
			switch {
			case c.lo > e.lo || e.best < 0:
				e.lo, e.best, e.plies = c.lo, i, c.plies+1
			case c.lo == e.lo && c.lo == c.hi:
				if c.lo > 0 && c.plies+1 < e.plies || c.lo < 0 && c.plies+1 > e.plies {
					e.best, e.plies = i, c.plies+1
				}
			}
			e.hi = max(e.hi, c.hi)
			if e.lo == 1 {
				e.hi = 1
				break
			}
		}
		if e.lo != e.hi {
			e.plies = 0
		}
	}
	e.depth = depth
	if old, ok := s.tt[h]; !ok || old.depth <= depth {
		s.tt[h] = e
	}
	return e
}

// child returns the bounds of child, reached by an action of player me,
// from me's point of view (for a chance node's child, player 0's).
func (s *solver) child(child game.State, me game.Player, depth, ply int) entry {
	if child.IsTerminal() {
		r := child.Result()
		if r.History {
			return entry{lo: -1, hi: 1, best: -1}
		}
		v := child.Returns()[me]
		v = math.Max(-1, math.Min(1, v))
		return entry{lo: v, hi: v, best: -1}
	}
	c := s.search(child, depth, ply)
	if who := child.ToAct(); who != me && who != game.Chance || who == game.Chance && me != 0 {
		c.lo, c.hi = -c.hi, -c.lo
	}
	return c
}
