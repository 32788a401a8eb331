// Package search holds what every search of Muster shares: the limits a
// search runs under and the result it reports. The searches themselves are
// in search/mcts (game-independent) and search/alphabeta (over a small
// position interface that a game's own core implements).
package search

import (
	"fmt"
	"strings"
	"time"

	"github.com/muster-games/muster/game"
)

// Limits bound a search; zero fields do not limit. A search stops at the
// first limit reached or when its context is done.
type Limits struct {
	Time       time.Duration
	Iterations int // MCTS iterations (playouts)
	Depth      int // depth in plies (alpha-beta) or actions (the exact solver)
	Nodes      int64
	// Threads searches in parallel (alpha-beta's Lazy SMP); 0 or 1: one.
	Threads int
}

// Result is what a search reports.
type Result struct {
	Action game.Action
	// Value is the expected outcome for the player to act, in [-1, 1]
	// (MCTS), or alpha-beta's evaluation in men (its score, kept in
	// hundredths of a man, divided by 100).
	Value float64
	// PV is the expected line, best action first.
	PV         []game.Action
	Iterations int
	Nodes      int64
	Depth      int
	Elapsed    time.Duration
	// Proven is +1 or -1 when the search proved a win or loss.
	Proven int
	// An exact search (search/solve) says what it proved: Lo and Hi bound
	// the value for the player to act (-1 lost, 0 drawn, +1 won), Plies
	// counts the actions to the end of a proved win or loss, and Stopped
	// says a limit or the context ended it before the value was proved.
	Exact   bool
	Lo, Hi  float64
	Plies   int
	Stopped bool
	// Turns, for a value read from an endgame table, counts the turns to
	// the end with best play, both players', the deciding turn included.
	Turns int
}

// Proved reports whether an exact search proved the value.
func (r Result) Proved() bool { return r.Exact && r.Lo == r.Hi }

// Rate returns nodes (or iterations) per second.
func (r Result) Rate() float64 {
	n := float64(r.Nodes)
	if n == 0 {
		n = float64(r.Iterations)
	}
	if r.Elapsed <= 0 {
		return 0
	}
	return n / r.Elapsed.Seconds()
}

// Describe writes the result for people: best line, value and speed.
func (r Result) Describe(s game.State) string {
	var line []string
	c := s.Clone()
	for _, a := range r.PV {
		if c.IsTerminal() {
			break
		}
		line = append(line, c.ActionString(a))
		c.Apply(a)
	}
	what := fmt.Sprintf("%d iterations", r.Iterations)
	if r.Nodes > 0 {
		what = fmt.Sprintf("depth %d, %d nodes", r.Depth, r.Nodes)
	}
	proven := ""
	switch r.Proven {
	case 1:
		proven = " (proven win)"
	case -1:
		proven = " (proven loss)"
	}
	return fmt.Sprintf("value %+.2f%s, %s in %.2fs (%.0f/s), line: %s", r.Value, proven, what, r.Elapsed.Seconds(), r.Rate(), strings.Join(line, " "))
}
