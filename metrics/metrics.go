// Package metrics turns the lines of self-play evaluations (arena.Line) into
// the Digital Ludeme Project's "reconstruction" metrics, per game string and
// pair of agents, and draws their plots.
package metrics

import (
	"fmt"
	"io"
	"math"

	"github.com/muster-games/muster/arena"
)

// Read reads result lines (JSON lines); malformed lines are errors.
func Read(r io.Reader) ([]arena.Line, error) {
	var out []arena.Line
	err := Each(r, func(l arena.Line) error {
		out = append(out, l)
		return nil
	})
	return out, err
}

// Interval is a proportion with its 95% Wilson interval.
type Interval struct {
	P, Lo, Hi float64
}

// Wilson returns the proportion k/n with its 95% Wilson score interval.
func Wilson(k, n float64) Interval {
	if n == 0 {
		return Interval{}
	}
	const z = 1.96
	p := k / n
	centre := (p + z*z/(2*n)) / (1 + z*z/n)
	half := z / (1 + z*z/n) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return Interval{p, math.Max(0, centre-half), math.Min(1, centre+half)}
}

func (i Interval) String() string { return fmt.Sprintf("%.3f [%.3f, %.3f]", i.P, i.Lo, i.Hi) }

// Group is the metrics of the games of one game string and pair of agents.
type Group struct {
	Spec    string
	Agents  [2]string
	Players [2]string
	Games   int
	// Wins of each player (side), of the player who acts first, draws.
	PlayerWins  [2]Interval
	FirstPlayer string
	FirstWins   Interval
	// Advantage is Ludii's advantage of the first player: his share of
	// the games, a draw counting half.
	Advantage Interval
	AgentWins [2]Interval // A's and B's
	// Record is A's wins, losses and draws against B; Score A's score,
	// draws counting half.
	Record      [3]int
	Score       Interval
	Draws       Interval
	Balance     float64 // 1 − |player 0 wins − player 1 wins| / games
	Completion  float64 // share of games with a winner
	Drawishness float64 // share of draws
	Timeouts    float64 // share stopped by a limit: the action limit, a turn limit, no progress
	// Uniformity is Ludii's outcome uniformity: 1 − the players' mean
	// variance (n − 1) of their results, a win 1, a loss −1, a draw 0.
	Uniformity   float64
	Length       Mean // actions per game
	MedianLength float64
	LengthCounts map[int]int // games by length
	Decisions    Mean        // share of a game's actions chosen among more than one
	Branching    Mean        // a game's mean legal actions at a player's turn
	Repetition   Mean        // share of a game's positions seen before in it
	// Repeated is the share of games in which some position recurs.
	Repeated Interval
	// Coverage is the share of the board's squares ever occupied, over
	// the CoverageGames games whose records replay (none: unknown).
	Coverage      Mean
	CoverageGames int
	Reasons       map[string]int
	// States are Ludii's state-evaluation metrics (state.go), from the
	// game's own evaluation.
	States StateMetrics
}

// Pair is A's record against B over every game string they played (a
// match across rulesets): wins, losses and draws, and A's score, draws
// counting half.
type Pair struct {
	Agents [2]string
	Specs  int
	Record [3]int
	Score  Interval
}

// Pairs pools the groups by pair of agents, in the groups' order.
func Pairs(groups []*Group) []Pair {
	var out []Pair
	at := map[[2]string]int{}
	for _, g := range groups {
		i, ok := at[g.Agents]
		if !ok {
			i = len(out)
			at[g.Agents] = i
			out = append(out, Pair{Agents: g.Agents})
		}
		p := &out[i]
		p.Specs++
		for k := range p.Record {
			p.Record[k] += g.Record[k]
		}
	}
	for i := range out {
		r := out[i].Record
		out[i].Score = Wilson(float64(r[0])+float64(r[2])/2, float64(r[0]+r[1]+r[2]))
	}
	return out
}

// uniformity is Ludii's outcome uniformity of two players with wins w and
// draws d in n games: 1 − the mean over the players of the variance
// (n − 1, as Ludii's Stats.varn) of their results, a win 1, a loss −1, a
// draw 0.
func uniformity(w [2]float64, d, n float64) float64 {
	if n < 2 {
		return 1
	}
	v := 0.0
	for p := 0; p < 2; p++ {
		won, lost := w[p], n-d-w[p]
		mean := (won - lost) / n
		v += (won + lost - n*mean*mean) / (n - 1) / 2
	}
	return 1 - v
}

// Definitions are the metrics' meanings, for the report.
var Definitions = []struct{ Name, Meaning string }{
	{"win rate", "share of games won by each side, with its 95% Wilson interval"},
	{"first player", "the share won by the player who acts first in the game"},
	{"advantage", "Ludii's advantage of the first player: his share of the games, a draw counting half, with its 95% Wilson interval"},
	{"score", "agent A's wins, losses and draws against B, and A's score (a win 1, a draw ½) as a share of the games, with its 95% Wilson interval"},
	{"balance", "1 − |wins of the one side − wins of the other| / games (1: even)"},
	{"completion", "share of games that end with a winner"},
	{"drawishness", "share of games drawn"},
	{"timeouts", "share of games stopped by a limit: the action limit, a turn limit, or the no-progress rule"},
	{"outcome uniformity", "Ludii's: 1 − the players' mean variance of their results (a win 1, a loss −1, a draw 0; variance with n − 1, as Ludii's Stats gives it, so that it can fall below 0 over a few games)"},
	{"duration", "actions per game: mean with its 95% interval (normal), median and distribution"},
	{"decision moves", "share of a game's actions chosen among more than one legal action, mean over the games with its 95% interval"},
	{"branching factor", "a game's mean number of legal actions when a player acts, mean over the games with its 95% interval"},
	{"state repetition", "share of a game's positions (the side to move included) that had occurred before in it, mean over the games with its 95% interval"},
	{"games with a repetition", "share of games in which some position recurs, with its 95% Wilson interval: what Ludii's positional repetition gives, whose code divides two integers (unique positions by all), so that each game counts 0 or 1"},
	{"board coverage", "share of the board's squares on which a piece stood at some time (Ludii's board coverage), mean over the games replayed from their records with its 95% interval"},
	{"state metrics", "Ludii's state-evaluation metrics (its Evaluation module, Ludii 1.3), from the game's own evaluation: before each action every player's value is the evaluation in [-1, 1] (the result once the game is over), the winners are the players ranked highest at the end; each is a mean over the games with its 95% interval (normal)"},
	{"lead change", "share of positions whose leaders (the players of the highest value) differ from the position before's; the first counts as a change"},
	{"stability", "the sum over the players of the variance of the player's value through the game"},
	{"decisiveness threshold", "the highest value reached by a player who did not win (-1 if none). Ludii's code asks who won of the game's starting position, where nobody has, so that every player counts as a winner and its own value is always -1; this uses the real winners, as its description says"},
	{"decisiveness moves", "the share of the game played before a winner's value first rises above the decisiveness threshold (1 if it never does). Ludii's code divides two integers here, so its own value can only be 0 or 1; this is the share its description gives"},
	{"clarity: variance", "at each position where a player acts, the sample variance (n − 1, as Ludii's Stats gives it) of his value after each of his legal actions; mean over the positions"},
	{"clarity: narrowness", "at each position where a player acts, the share of his legal actions valued above the mean plus ¾ of the way to the best; mean over the positions. Ludii's code divides integers here too (so 0 unless every action is above), and its Stats class finds the best value with an else-if that misses it when it is the first sample; this is the share, with the true best"},
	{"drama", "at each position, the winners' mean distance below the highest value of any player (the real winners: Ludii's code, asking who won of the starting position, takes every player); summed up per game as Ludii's multi-metric framework does (average, median, max, min, variance; change: average from first to last, sign, slope of the line of best fit, number of times the direction changes; the largest rise and fall), then averaged over the games. Ludii divides integers in the number of direction changes (so 0 for games of more than two actions); this counts them as a share"},
}
