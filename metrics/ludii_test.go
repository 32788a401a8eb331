package metrics

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestAgainstLudiisCode: Ludii's own metric classes (its Evaluation
// module's LeadChange, Stability, DecisivenessThreshold and Moves,
// ClarityVariance and Narrowness, Drama with MultiMetricFramework, and
// Common's Stats and LinearRegression, compiled with javac outside the
// repository against stubs that hand them Muster's values) were run on
// the traces of four Tablut games that muster report --traces wrote
// (testdata/ludii-check-traces.json); what they printed is
// testdata/ludii-metrics.txt. Muster's metrics on the same traces agree
// to 1e-9, except where Ludii's code divides integers or its Stats class
// misses a largest sample: there Ludii's printed value is what that
// arithmetic gives, worked out here.
func TestAgainstLudiisCode(t *testing.T) {
	raw, err := os.ReadFile("testdata/ludii-check-traces.json")
	if err != nil {
		t.Fatal(err)
	}
	var games []struct {
		Spec string `json:"spec"`
		Trace
	}
	if err := json.Unmarshal(raw, &games); err != nil || len(games) == 0 {
		t.Fatalf("%d games: %v", len(games), err)
	}
	ludii := map[string]float64{}
	f, err := os.Open("testdata/ludii-metrics.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "\t")
		ludii[k], _ = strconv.ParseFloat(v, 64)
	}
	mean := func(f func(Trace) float64) float64 {
		s := 0.0
		for _, g := range games {
			s += f(g.Trace)
		}
		return s / float64(len(games))
	}
	ours := map[string]float64{
		"lead change":            mean(LeadChange),
		"stability":              mean(Stability),
		"decisiveness threshold": mean(DecisivenessThreshold),
		"clarity: variance":      mean(ClarityVariance),
	}
	for _, a := range DramaAggregates {
		if a.Name != "change number of times" {
			ours["drama: "+a.Name] = mean(func(t Trace) float64 { return a.F(Drama(t)) })
		}
	}
	// Ludii's integer arithmetic, worked out: a share of positions is 1
	// when whole, else 0.
	ours["decisiveness moves"] = mean(func(t Trace) float64 { return math.Floor(DecisivenessMoves(t)) })
	ours["drama: change number of times"] = mean(func(t Trace) float64 {
		if d := Drama(t); len(d) == 2 {
			return DramaAggregates[8].F(d)
		}
		return 0
	})
	ours["clarity: narrowness"] = mean(ludiiNarrowness)
	for k, want := range ludii {
		got, ok := ours[k]
		if !ok {
			t.Errorf("Ludii printed %q, which Muster does not compute", k)
			continue
		}
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: Muster %.12f, Ludii's code %.12f", k, got, want)
		}
	}
	if len(ludii) != 17 {
		t.Errorf("Ludii's output has %d metrics, want 17", len(ludii))
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
