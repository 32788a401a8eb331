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

// Kind says what a Result holds.
type Kind int

// The kinds of result.
const (
	// Estimate: Value is the expected outcome for the player to act, in
	// [-1, 1] (MCTS, or an agent that only chooses).
	Estimate Kind = iota
	// Score: Score is alpha-beta's evaluation for the player to act, in
	// men (kept in hundredths of a man); Proven is set where the search
	// saw a forced end.
	Score
	// Proof: the outcome is proved by search: Proven, or the exact
	// solver's Lo and Hi (Exact set).
	Proof
	// Verdict: the outcome is known exactly from a game's own knowledge
	// (Lanrick's endgame tables): Proven (0: a draw), Turns to the end,
	// and Source and Note say whence and what it means, in the game's
	// words.
	Verdict
)

var kindNames = [...]string{"estimate", "score", "proof", "verdict"}

func (k Kind) String() string { return kindNames[k] }

// Result is what a search reports. Kind says which of its fields hold
// the value.
type Result struct {
	Kind   Kind
	Action game.Action
	// Value is the expected outcome for the player to act, in [-1, 1]
	// (an Estimate; a Proof's or a Verdict's outcome, -1, 0 or +1).
	Value float64
	// Score is alpha-beta's evaluation in men (a Score).
	Score float64
	// Source names what gave a Verdict ("the endgame tables"), and Note
	// says what a drawn one means, in the game's words; empty elsewhere.
	Source, Note string
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
	// Second, where the search knows it without searching again (MCTS's
	// second root action), is the best line that does not begin with
	// Action: its action, value and PV.
	Second *Result
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
	value := fmt.Sprintf("value %+.2f", r.Value)
	if r.Kind == Score {
		value = fmt.Sprintf("score %+.2f men", r.Score)
	}
	return fmt.Sprintf("%s%s, %s in %.2fs (%.0f/s), line: %s", value, proven, what, r.Elapsed.Seconds(), r.Rate(), strings.Join(line, " "))
}
