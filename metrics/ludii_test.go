package metrics

import (
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestAgainstLudiisCode: Ludii 1.3.13 itself (its Core, Language, AI and
// Evaluation modules built with javac outside the repository) replayed
// eight games of Muster's ludii-linnaeus and ludii-smith in its own
// Tablut, four of each, as muster report --traces wrote them
// (testdata/ludii-1.3.13-traces.json.gz: every player's value before each
// action, the mover's value after each legal action, the actions and the
// legal actions named), with every one of Muster's values put into
// Ludii's evaluation caches, so that its state-evaluation metric classes
// read Muster's values through its own Context and Trial; what they
// printed per ruleset is testdata/ludii-1.3.13-state-metrics.tsv (both
// games' legal moves matched at every position, or the driver stops).
// Muster's metrics on the same traces agree to 1e-9 once three things
// Ludii's code does, and its descriptions do not say, are worked out here:
// it divides integers (decisiveness moves, clarity narrowness, drama's
// number of direction changes), its Stats class misses a largest sample
// that comes first, and it takes the winners (Utils.highestRankedPlayers)
// from a context set up at the start of the game, where nobody is ranked,
// so that every player counts as a winner: decisiveness threshold is
// always −1, decisiveness moves 0, and drama the players' mean distance
// below the best.
func TestAgainstLudiisCode(t *testing.T) {
	f, err := os.Open("testdata/ludii-1.3.13-traces.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var games []struct {
		Spec string `json:"spec"`
		Trace
	}
	if err := json.NewDecoder(z).Decode(&games); err != nil || len(games) != 8 {
		t.Fatalf("%d games: %v", len(games), err)
	}
	ludii := map[string]map[string]float64{}
	for _, r := range ludiiRows(t, "testdata/ludii-1.3.13-state-metrics.tsv", 3) {
		if ludii[r[0]] == nil {
			ludii[r[0]] = map[string]float64{}
		}
		ludii[r[0]][r[1]] = ludiiNumber(t, r[2])
	}
	if len(ludii) != 2 {
		t.Fatalf("Ludii's output names %d rulesets, want 2", len(ludii))
	}
	for spec, theirs := range ludii {
		var ts []Trace
		for _, g := range games {
			if g.Spec == spec {
				ts = append(ts, g.Trace)
			}
		}
		mean := func(f func(Trace) float64) float64 {
			s := 0.0
			for _, tr := range ts {
				s += f(tr)
			}
			return s / float64(len(ts))
		}
		// Ludii's winners: every player.
		everyone := func(tr Trace) Trace {
			tr.Winners = nil
			for p := range tr.Evals[0] {
				tr.Winners = append(tr.Winners, p)
			}
			return tr
		}
		ours := map[string]float64{
			"lead change":            mean(LeadChange),
			"stability":              mean(Stability),
			"clarity: variance":      mean(ClarityVariance),
			"decisiveness threshold": mean(func(tr Trace) float64 { return DecisivenessThreshold(everyone(tr)) }),
			// An integer division: a share of positions is 1 when whole, else 0.
			"decisiveness moves":  mean(func(tr Trace) float64 { return math.Floor(DecisivenessMoves(everyone(tr))) }),
			"clarity: narrowness": mean(ludiiNarrowness),
		}
		for _, a := range DramaAggregates {
			ours["drama: "+a.Name] = mean(func(tr Trace) float64 {
				d := Drama(everyone(tr))
				if a.Name == "change number of times" && len(d) != 2 {
					return 0 // an integer division too
				}
				return a.F(d)
			})
		}
		for k, want := range theirs {
			got, ok := ours[k]
			if !ok {
				t.Errorf("Ludii printed %q, which Muster does not compute", k)
				continue
			}
			if math.Abs(got-want) > 1e-9 {
				t.Errorf("%s %s: Muster %.12f, Ludii's code %.12f", spec, k, got, want)
			}
		}
		if len(ts) != 4 || len(theirs) != 17 {
			t.Errorf("%s: %d games, Ludii's output has %d metrics; want 4 and 17", spec, len(ts), len(theirs))
		}
		// Muster's own reading differs where the winners matter: the real
		// winners' drama is not everyone's.
		if d := mean(func(tr Trace) float64 { return DramaAggregates[0].F(Drama(tr)) }); math.Abs(d-theirs["drama: average"]) < 1e-6 {
			t.Errorf("%s: the winners' drama equals everyone's (%v): the games cannot tell the two readings apart", spec, d)
		}
	}
}

// ludiiNarrowness is clarity narrowness as Ludii's code computes it: its
// Stats finds the largest value with an else-if (missing it when it comes
// first), and the share of moves above the threshold is an integer
// division (1 only when every move is above).
func ludiiNarrowness(t Trace) float64 {
	sum := 0.0
	for _, m := range t.Moves {
		if len(m) == 0 {
			continue
		}
		lo, hi, mean := math.Inf(1), math.Inf(-1), 0.0
		for _, v := range m {
			mean += v
			if v < lo {
				lo = v
			} else if v > hi {
				hi = v
			}
		}
		mean /= float64(len(m))
		th := mean + 0.75*(hi-mean)
		above := 0
		for _, v := range m {
			if v > th {
				above++
			}
		}
		sum += float64(above / len(m))
	}
	return sum / float64(len(t.Moves))
}
