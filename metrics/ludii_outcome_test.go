package metrics

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/muster-games/muster/arena"
)

// ludiiOutcome reads what Ludii's own Evaluation metrics printed for its
// random trials: metric, value, and the 95% interval's ends (NaN where
// none was computed).
func ludiiOutcome(t *testing.T, path string) map[string]Mean {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]Mean{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if strings.HasPrefix(fs[0], "#") || fs[0] == "metric" {
			continue
		}
		if len(fs) != 4 {
			t.Fatalf("%s: malformed line %q", path, sc.Text())
		}
		var v [3]float64
		for i := range v {
			if v[i], err = strconv.ParseFloat(fs[i+1], 64); err != nil {
				t.Fatalf("%s: %q: %v", path, sc.Text(), err)
			}
		}
		out[fs[0]] = Mean{v[0], v[1], v[2]}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOutcomeAgainstLudii: Ludii 1.3.13 (its Core, Language, AI and
// Evaluation modules built with javac outside the repository) played
// 2000 uniformly random games of Tablut.lud under each of its two rulesets
// and measured them with its own Evaluation metric classes; what they
// printed is testdata/ludii-1.3.13-outcome-*.tsv. Muster plays 2000
// random games of its matching rulesets and its report's metrics must
// agree with Ludii's: a share or a mean differs from Ludii's by less than
// 1.96 standard errors of the difference (the two 95% intervals' half
// widths added in quadrature), and where both are certain (completion,
// draws, timeouts, decision moves) they are equal. Balance and outcome
// uniformity follow from the shares: Muster's formulas on Ludii's share
// give Ludii's printed values.
func TestOutcomeAgainstLudii(t *testing.T) {
	for _, c := range []struct{ ruleset, file string }{
		{"ludii-linnaeus", "testdata/ludii-1.3.13-outcome-linnaeus.tsv"},
		{"ludii-smith", "testdata/ludii-1.3.13-outcome-smith.tsv"},
	} {
		ludii := ludiiOutcome(t, c.file)
		const n = 2000
		var buf bytes.Buffer
		cfg := arena.EvalConfig{Specs: []string{"tablut(" + c.ruleset + ")"}, Agents: [2]string{"random", "random"}, Games: n, Seed: 2026, Opening: 2}
		if err := arena.Eval(context.Background(), cfg, nil, &buf, nil); err != nil {
			t.Fatal(err)
		}
		lines, err := Read(&buf)
		if err != nil || len(lines) != n {
			t.Fatalf("%d lines: %v", len(lines), err)
		}
		g := outcomes(lines)
		if g.CoverageGames != n {
			t.Fatalf("%s: coverage replayed %d of %d games", c.ruleset, g.CoverageGames, n)
		}
		half := func(m Mean) float64 { return (m.Hi - m.Lo) / 2 }
		agree := func(name string, ours Mean, theirs Mean) {
			t.Helper()
			d, tol := math.Abs(ours.P-theirs.P), math.Hypot(half(ours), half(theirs))
			if d > tol || tol == 0 || math.IsNaN(tol) {
				t.Errorf("%s %s: Muster %.4f [%.4f, %.4f], Ludii %.4f [%.4f, %.4f]: they differ by %.4f, more than %.4f",
					c.ruleset, name, ours.P, ours.Lo, ours.Hi, theirs.P, theirs.Lo, theirs.Hi, d, tol)
			}
			t.Logf("%s %s: Muster %.4f [%.4f, %.4f], Ludii %.4f [%.4f, %.4f]", c.ruleset, name, ours.P, ours.Lo, ours.Hi, theirs.P, theirs.Lo, theirs.Hi)
		}
		share := func(iv Interval) Mean { return Mean(iv) }
		agree("advantage (attackers first)", share(g.Advantage), ludii["AdvantageP1"])
		agree("duration", g.Length, ludii["Duration Moves"])
		agree("branching factor", g.Branching, ludii["Branching Factor Average"])
		agree("board coverage", g.Coverage, ludii["Board Coverage Default"])
		agree("games with a repetition", share(g.Repeated), ludii["Positional Repetition"])
		for _, e := range []struct {
			name        string
			ours, their float64
		}{
			{"completion", g.Completion, ludii["Completion"].P},
			{"drawishness", g.Drawishness, ludii["Drawishness"].P},
			{"timeouts", g.Timeouts, ludii["Timeouts"].P},
			{"decision moves", g.Decisions.P, ludii["Decision Moves"].P},
		} {
			if math.Abs(e.ours-e.their) > 1e-9 {
				t.Errorf("%s %s: Muster %v, Ludii %v", c.ruleset, e.name, e.ours, e.their)
			}
		}
		// Ludii's shares through Muster's formulas.
		p1 := ludii["AdvantageP1"].P
		w := [2]float64{math.Round(p1 * n), math.Round((1 - p1) * n)}
		if b := 1 - math.Abs(w[0]-w[1])/n; math.Abs(b-ludii["Balance"].P) > 1e-9 {
			t.Errorf("%s: balance of Ludii's wins %v: %v, Ludii printed %v", c.ruleset, w, b, ludii["Balance"].P)
		}
		if u := uniformity(w, 0, n); math.Abs(u-ludii["OutcomeUniformity"].P) > 1e-9 {
			t.Errorf("%s: outcome uniformity of Ludii's wins %v: %v, Ludii printed %v", c.ruleset, w, u, ludii["OutcomeUniformity"].P)
		}
	}
}
