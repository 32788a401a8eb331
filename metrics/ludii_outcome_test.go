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

// ludiiRows reads a table Ludii's driver printed: rows of cols fields
// separated by tabs, less its comments (#) and its header (its first row).
func ludiiRows(t *testing.T, path string, cols int) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	header := true
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != cols {
			t.Fatalf("%s: malformed line %q", path, sc.Text())
		}
		if !header {
			rows = append(rows, fs)
		}
		header = false
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// ludiiNumber reads a number Ludii printed ("NaN" included).
func ludiiNumber(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// ludiiOutcome reads what Ludii's own Evaluation metrics printed for its
// random trials: metric, value, and the 95% interval's ends (NaN where
// none was computed).
func ludiiOutcome(t *testing.T, path string) map[string]Mean {
	t.Helper()
	out := map[string]Mean{}
	for _, r := range ludiiRows(t, path, 4) {
		out[r[0]] = Mean{ludiiNumber(t, r[1]), ludiiNumber(t, r[2]), ludiiNumber(t, r[3])}
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
		g := summarize(lines, false)[0]
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
		agree("advantage (attackers first)", Mean(g.Advantage), ludii["AdvantageP1"])
		agree("duration", g.Length, ludii["Duration Moves"])
		agree("branching factor", g.Branching, ludii["Branching Factor Average"])
		agree("board coverage", g.Coverage, ludii["Board Coverage Default"])
		agree("games with a repetition", Mean(g.Repeated), ludii["Positional Repetition"])
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
