package metrics

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/muster-games/muster/arena"
	_ "github.com/muster-games/muster/lanrick/ai"
	_ "github.com/muster-games/muster/tablut/ai"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// A game of four positions between two players; player 1 wins. Player
// 0 leads at first, then player 1 (values as Ludii's metrics read them:
// each player's own value of the position).
var trace = Trace{
	Evals:   [][]float64{{0.5, -0.5}, {0.2, -0.2}, {-0.4, 0.4}, {-1, 1}},
	Winners: []int{1},
	Moves:   [][]float64{{0.1, 0.5, 0.9}, {0, 0, 0, 1}, {}, {0.2, 0.4}},
}

// TestStateMetricsByHand: each state metric of a small game, worked out
// by hand from Ludii's definitions.
func TestStateMetricsByHand(t *testing.T) {
	// Leaders: {0}, {0}, {1}, {1}: changes at the first and the third.
	if got := LeadChange(trace); !near(got, 2.0/4) {
		t.Errorf("lead change %v, want 0.5", got)
	}
	// Each player's values have mean -0.175 or 0.175 and the same
	// variance: ((0.675² + 0.375² + 0.225² + 0.825²) / 4) each.
	v := (0.675*0.675 + 0.375*0.375 + 0.225*0.225 + 0.825*0.825) / 4
	if got := Stability(trace); !near(got, 2*v) {
		t.Errorf("stability %v, want %v", got, 2*v)
	}
	// The loser's best is 0.5; the winner first passes it at the third
	// position (0.4 is not above; 1 is, at index 3): 3 of 4.
	if got := DecisivenessThreshold(trace); !near(got, 0.5) {
		t.Errorf("decisiveness threshold %v, want 0.5", got)
	}
	if got := DecisivenessMoves(trace); !near(got, 3.0/4) {
		t.Errorf("decisiveness moves %v, want 0.75", got)
	}
	// Drama: the winner is 1, 0.4, 0, 0 below the leader.
	d := Drama(trace)
	if len(d) != 4 || !near(d[0], 1) || !near(d[1], 0.4) || !near(d[2], 0) || !near(d[3], 0) {
		t.Errorf("drama %v, want [1 0.4 0 0]", d)
	}
	agg := map[string]float64{}
	for _, a := range DramaAggregates {
		agg[a.Name] = a.F(d)
	}
	want := map[string]float64{"average": 0.35, "median": 0.4, "max": 1, "min": 0, "max decrease": -0.6, "max increase": 0,
		"change average": -1.0 / 3, "change sign": -2.0 / 3, "change number of times": 1.0 / 3}
	for k, w := range want {
		if !near(agg[k], w) {
			t.Errorf("drama %s %v, want %v", k, agg[k], w)
		}
	}
	// The slope of 1, 0.4, 0, 0 against 0..3: (4·0.4 − 6·1.4) / (4·14 − 6²).
	if !near(agg["change line of best fit"], -0.34) {
		t.Errorf("drama's slope %v, want -0.34", agg["change line of best fit"])
	}
	// Clarity over the three positions with moves: sample variances (n −
	// 1, as Ludii's Stats) 0.16, 0.25, 0.02; narrowness: above
	// 0.5+0.75·0.4=0.8 is 1 of 3; above 0.25+0.75·0.75=0.8125 is 1 of 4;
	// above 0.3+0.075 is 1 of 2.
	if got, w := ClarityVariance(trace), (0.16+0.25+0.02)/3; !near(got, w) {
		t.Errorf("clarity variance %v, want %v", got, w)
	}
	if got, w := ClarityNarrowness(trace), (1.0/3+1.0/4+1.0/2)/3; !near(got, w) {
		t.Errorf("clarity narrowness %v, want %v", got, w)
	}
}

// TestStateMetricsInTheReport: games played by muster eval are read back
// through the game's own evaluation: every position is valued (the last
// by its result), and the report prints the metrics with intervals.
func TestStateMetricsInTheReport(t *testing.T) {
	var out bytes.Buffer
	cfg := arena.EvalConfig{Specs: []string{"tablut(linnaeus)", "lanrick(1893)"}, Agents: [2]string{"alphabeta(depth=1)", "random"}, Games: 4, Seed: 3, Workers: 2, Opening: 2}
	if err := arena.Eval(context.Background(), cfg, nil, &out, nil); err != nil {
		t.Fatal(err)
	}
	lines, err := Read(&out)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		tr, ok := TraceOf(l, nil)
		if !ok || len(tr.Evals) != l.Length || len(tr.Winners) == 0 {
			t.Fatalf("%s game %d: trace of %d positions for %d actions (%v)", l.Spec, l.Index, len(tr.Evals), l.Length, ok)
		}
		for _, e := range tr.Evals {
			for _, v := range e {
				if v < -1 || v > 1 {
					t.Fatalf("%s: a value %v outside [-1, 1]", l.Spec, v)
				}
			}
		}
		if l.WinnerAgent != "" && DecisivenessThreshold(tr) >= 1 {
			t.Errorf("%s game %d: the loser reached the top value", l.Spec, l.Index)
		}
	}
	// The traces written for another tool read back as the same values.
	var js bytes.Buffer
	n, err := WriteTraces(&js, lines)
	if err != nil || n != len(lines) {
		t.Fatalf("traces of %d games: %v", n, err)
	}
	var back []struct {
		Spec  string `json:"spec"`
		Index int    `json:"index"`
		Trace
		texts
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back) != n {
		t.Fatalf("the traces read back: %d, %v", len(back), err)
	}
	// Each position's legal actions are named in the order of their values,
	// and the game's own actions are among them.
	for _, b := range back {
		if len(b.Actions) != len(b.Evals) || len(b.Legal) != len(b.Moves) {
			t.Fatalf("game %d: %d actions for %d positions, %d legal lists for %d", b.Index, len(b.Actions), len(b.Evals), len(b.Legal), len(b.Moves))
		}
		for i, a := range b.Actions {
			if len(b.Legal[i]) != len(b.Moves[i]) || !slices.Contains(b.Legal[i], a) {
				t.Fatalf("game %d position %d: %d legal actions for %d values, %s among them: %v", b.Index, i, len(b.Legal[i]), len(b.Moves[i]), a, slices.Contains(b.Legal[i], a))
			}
		}
	}
	if first, _ := TraceOf(lines[0], nil); LeadChange(back[0].Trace) != LeadChange(first) || len(back[0].Moves) != len(first.Moves) {
		t.Error("the first game's trace read back differs")
	}
	groups := Summarize(lines)
	var md bytes.Buffer
	Markdown(&md, groups, nil)
	for _, want := range []string{"| lead change | ", "| drama: average | ", "| decisiveness moves | ", "| clarity: narrowness | ", "games evaluated | 4 of 4", "| advantage: first player"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if _, err := Plots(groups, t.TempDir()); err != nil {
		t.Fatal(err)
	}
}
