package metrics

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/arena"
	"github.com/muster-games/muster/game"
)

// The state-evaluation metrics of Ludii's Evaluation module (Ludii 1.3,
// its metrics.single.stateEvaluation and metrics.multiple.metrics.Drama),
// computed from the game's own evaluation instead of Ludii's heuristics.
// Ludii's definitions are followed as its code computes them, position by
// position over the game's actions ("real moves"): each player's value
// of a position is the evaluation in [-1, 1] (the result itself once the
// game is over), and the winners are the players ranked highest at the
// end. Where Ludii's code divides integers (so that a share can only be 0
// or 1) the share is computed as its description says; Definitions names
// those places.

// Trace is what the state metrics read of one game: before each action,
// every player's value; the winners; and for each position where a player
// acts, the mover's value after each of his legal actions.
type Trace struct {
	Evals   [][]float64 `json:"evals"`
	Winners []int       `json:"winners"`
	Moves   [][]float64 `json:"moves"`
}

// TraceOf replays a game's record and evaluates it with eval (the game's
// own evaluation when nil); ok is false when the record cannot be replayed
// or the game has no evaluation.
func TraceOf(l arena.Line, eval func(game.State, game.Player) float64) (Trace, bool) {
	t, _, ok := traceOf(l, eval, false)
	return t, ok
}

// texts are a traced game's actions and, for each position where a player
// acts, his legal actions in the order of Trace.Moves, written in the
// game's notation: another tool replays the game and finds the values of
// its own moves by them.
type texts struct {
	Actions []string   `json:"actions"`
	Legal   [][]string `json:"legal"`
}

// traceOf is TraceOf, with the texts when withTexts is set.
func traceOf(l arena.Line, eval func(game.State, game.Player) float64, withTexts bool) (Trace, texts, bool) {
	var tx texts
	g, err := game.Load(l.Spec)
	if err != nil {
		return Trace{}, tx, false
	}
	if eval == nil {
		eval = agent.Evaluator(g)
	}
	rc, ok := g.(game.Recorder)
	if eval == nil || !ok || l.Record == "" {
		return Trace{}, tx, false
	}
	rec, err := rc.ReadRecord(strings.NewReader(l.Record))
	if err != nil {
		return Trace{}, tx, false
	}
	s := g.NewState()
	if rec.Start != "" {
		if s, err = g.ParseState(rec.Start); err != nil {
			return Trace{}, tx, false
		}
	}
	value := func(s game.State, p game.Player) float64 {
		if s.IsTerminal() {
			if r := s.Returns(); int(p) < len(r) {
				return max(-1, min(1, r[p]))
			}
		}
		return eval(s, p)
	}
	n := g.NumPlayers()
	var t Trace
	var c game.State // the copy each legal action is tried on
	var legalBuf []game.Action
	for _, text := range rec.Actions {
		a, err := s.ParseAction(text)
		if err != nil {
			return Trace{}, tx, false
		}
		vals := make([]float64, n)
		for p := range vals {
			vals[p] = value(s, game.Player(p))
		}
		t.Evals = append(t.Evals, vals)
		var moves []float64
		var legal []string
		if mover := s.ToAct(); mover >= 0 {
			legalBuf = s.LegalActions(legalBuf[:0])
			moves = make([]float64, 0, len(legalBuf))
			for _, b := range legalBuf {
				if withTexts {
					legal = append(legal, s.ActionString(b))
				}
				c = game.CopyInto(c, s)
				c.Apply(b)
				moves = append(moves, value(c, mover))
			}
		}
		t.Moves = append(t.Moves, moves)
		if withTexts {
			tx.Actions = append(tx.Actions, s.ActionString(a))
			tx.Legal = append(tx.Legal, legal)
		}
		s.Apply(a)
	}
	// The winners: the players with the highest result.
	r := s.Returns()
	best := math.Inf(-1)
	for _, v := range r {
		best = max(best, v)
	}
	for p, v := range r {
		if v == best {
			t.Winners = append(t.Winners, p)
		}
	}
	return t, tx, len(t.Evals) > 0
}

// tracedGame is one game's trace as WriteTraces writes it.
type tracedGame struct {
	Spec  string `json:"spec"`
	Index int    `json:"index"`
	Trace
	texts
}

// WriteTraces writes, as one JSON array, the trace of every game whose
// record replays (its spec, index, values, winners and move values, its
// actions and each position's legal actions in notation), and returns how
// many.
func WriteTraces(w io.Writer, ls []arena.Line) (int, error) {
	var out []tracedGame
	for _, l := range ls {
		if t, tx, ok := traceOf(l, nil, true); ok {
			out = append(out, tracedGame{Spec: l.Spec, Index: l.Index, Trace: t, texts: tx})
		}
	}
	return len(out), json.NewEncoder(w).Encode(out)
}

// StateMetrics are the state metrics of a group's games, each a mean
// over the games that could be evaluated with its 95% interval.
type StateMetrics struct {
	Games                 int
	LeadChange            Mean
	Stability             Mean
	DecisivenessThreshold Mean
	DecisivenessMoves     Mean
	ClarityVariance       Mean
	ClarityNarrowness     Mean
	// DramaBy are the means of drama's aggregates, by DramaAggregates'
	// names.
	DramaBy map[string]Mean
	// WinnerCurve is the winners' mean value at each tenth of the game,
	// averaged over the games (for the report's plot).
	WinnerCurve [10]float64
}

// leaders are the players with the highest value.
func leaders(vals []float64) map[int]bool {
	best := math.Inf(-1)
	for _, v := range vals {
		best = max(best, v)
	}
	out := map[int]bool{}
	for p, v := range vals {
		if v == best {
			out[p] = true
		}
	}
	return out
}

func sameSet(a, b map[int]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// LeadChange is Ludii's lead change of one game: the share of positions
// whose leaders (the players of the highest value) differ from the
// position before's (the first position counts as a change).
func LeadChange(t Trace) float64 {
	changes := 0.0
	var past map[int]bool
	for _, vals := range t.Evals {
		cur := leaders(vals)
		if past == nil || !sameSet(past, cur) {
			changes++
		}
		past = cur
	}
	return changes / float64(len(t.Evals))
}

// Stability is Ludii's stability of one game: the sum over the players of
// the variance of the player's values through the game.
func Stability(t Trace) float64 {
	total := 0.0
	for p := range t.Evals[0] {
		var vals []float64
		for _, e := range t.Evals {
			vals = append(vals, e[p])
		}
		total += variance(vals)
	}
	return total
}

// DecisivenessThreshold is Ludii's: the highest value any player who did
// not win reached (-1 if none).
func DecisivenessThreshold(t Trace) float64 {
	win := map[int]bool{}
	for _, w := range t.Winners {
		win[w] = true
	}
	th := -1.0
	for _, e := range t.Evals {
		for p, v := range e {
			if !win[p] && v > th {
				th = v
			}
		}
	}
	return th
}

// DecisivenessMoves is Ludii's: the share of the game played before a
// winner's value first rises above the decisiveness threshold (1 if it
// never does).
func DecisivenessMoves(t Trace) float64 {
	th := DecisivenessThreshold(t)
	for i, e := range t.Evals {
		for _, w := range t.Winners {
			if e[w] > th {
				return float64(i) / float64(len(t.Evals))
			}
		}
	}
	return 1
}

// Drama is Ludii's drama of each position: the winners' mean distance
// below the highest value of any player.
func Drama(t Trace) []float64 {
	var out []float64
	for _, e := range t.Evals {
		hi := math.Inf(-1)
		for _, v := range e {
			hi = max(hi, v)
		}
		d := 0.0
		for _, w := range t.Winners {
			d += (hi - e[w]) / float64(len(t.Winners))
		}
		out = append(out, d)
	}
	return out
}

// ClarityVariance is Ludii's: the mean, over the positions where a player
// acts, of the variance of his values after each legal action — the
// sample variance (n − 1), as Ludii's Stats.varn gives it, 0 for a single
// action.
func ClarityVariance(t Trace) float64 {
	sum, n := 0.0, 0
	for _, m := range t.Moves {
		if len(m) == 0 {
			continue
		}
		if len(m) > 1 {
			sum += variance(m) * float64(len(m)) / float64(len(m)-1)
		}
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// ClarityNarrowness is Ludii's: the mean, over the positions where a
// player acts, of the share of his legal actions valued above the mean
// plus three quarters of the way from the mean to the best.
func ClarityNarrowness(t Trace) float64 {
	sum, n := 0.0, 0
	for _, m := range t.Moves {
		if len(m) == 0 {
			continue
		}
		mean, best := 0.0, math.Inf(-1)
		for _, v := range m {
			mean += v / float64(len(m))
			best = max(best, v)
		}
		th := mean + 0.75*(best-mean)
		above := 0
		for _, v := range m {
			if v > th {
				above++
			}
		}
		sum += float64(above) / float64(len(m))
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// variance is the population variance, as Ludii computes it.
func variance(vals []float64) float64 {
	if len(vals) == 0 {
		return 0
	}
	mean := 0.0
	for _, v := range vals {
		mean += v / float64(len(vals))
	}
	out := 0.0
	for _, v := range vals {
		out += (v - mean) * (v - mean) / float64(len(vals))
	}
	return out
}

// DramaAggregates are the ways Ludii's multi-metric framework sums up a
// game's per-position values, in its order, each a mean over the games.
var DramaAggregates = []struct {
	Name string
	F    func([]float64) float64
}{
	{"average", func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x / float64(len(v))
		}
		return s
	}},
	{"median", func(v []float64) float64 {
		if len(v) <= 1 {
			return 0
		}
		c := append([]float64(nil), v...)
		sort.Float64s(c)
		return c[len(c)/2]
	}},
	{"max", func(v []float64) float64 {
		m := 0.0
		for _, x := range v {
			m = max(m, x)
		}
		return m
	}},
	{"min", func(v []float64) float64 {
		m := 0.0
		for _, x := range v {
			m = min(m, x)
		}
		return m
	}},
	{"variance", func(v []float64) float64 {
		if len(v) <= 1 {
			return 0
		}
		return variance(v)
	}},
	{"change average", func(v []float64) float64 {
		if len(v) <= 1 {
			return 0
		}
		return (v[len(v)-1] - v[0]) / float64(len(v)-1)
	}},
	{"change sign", func(v []float64) float64 {
		if len(v) <= 1 {
			return 0
		}
		s := 0.0
		for i := 1; i < len(v); i++ {
			switch d := v[i] - v[i-1]; {
			case d > 0:
				s++
			case d < 0:
				s--
			}
		}
		return s / float64(len(v)-1)
	}},
	{"change line of best fit", func(v []float64) float64 {
		if len(v) <= 1 {
			return 0
		}
		n := float64(len(v))
		var sx, sy, sxx, sxy float64
		for i, y := range v {
			x := float64(i)
			sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
		}
		return (n*sxy - sx*sy) / (n*sxx - sx*sx)
	}},
	{"change number of times", func(v []float64) float64 {
		if len(v) <= 1 {
			return 0
		}
		s, dir := 0.0, 0.0
		for i := 1; i < len(v); i++ {
			d := 0.0
			if v[i] > v[i-1] {
				d = 1
			} else if v[i] < v[i-1] {
				d = -1
			}
			if d != 0 && d != dir {
				s++
			}
			dir = d
		}
		return s / float64(len(v)-1)
	}},
	{"max increase", func(v []float64) float64 {
		m := 0.0
		for i := 1; i < len(v); i++ {
			m = max(m, v[i]-v[i-1])
		}
		return m
	}},
	{"max decrease", func(v []float64) float64 {
		m := 0.0
		for i := 1; i < len(v); i++ {
			m = min(m, v[i]-v[i-1])
		}
		return m
	}},
}

// Mean is a mean over games with its 95% interval (normal, from the
// games' standard deviation).
type Mean struct{ P, Lo, Hi float64 }

// Format writes the mean and its interval, each in the verb f: "%.3f"
// gives "0.250 [0.200, 0.300]".
func (m Mean) Format(f string) string {
	return fmt.Sprintf(f+" ["+f+", "+f+"]", m.P, m.Lo, m.Hi)
}

// MeanOf is the mean of vals with its 95% interval.
func MeanOf(vals []float64) Mean {
	var m Moments
	for _, v := range vals {
		m.Add(v)
	}
	return m.Interval()
}
