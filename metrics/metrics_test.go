package metrics

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muster-games/muster/arena"
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/tablut"
)

func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n, lo, hi float64
	}{{10, 20, 0.2993, 0.7007}, {20, 20, 0.8389, 1}, {0, 20, 0, 0.1611}, {31, 56, 0.4246, 0.6760}} {
		iv := Wilson(c.k, c.n)
		if math.Abs(iv.Lo-c.lo) > 1e-3 || math.Abs(iv.Hi-c.hi) > 1e-3 {
			t.Errorf("Wilson(%v, %v) = %v, want [%v, %v]", c.k, c.n, iv, c.lo, c.hi)
		}
	}
}

// TestSummarize: the metrics of hand-made games.
func TestSummarize(t *testing.T) {
	mk := func(idx int, winner, agent, reason string, length, decisions, repeats int, finished bool) arena.Line {
		players := [2]string{"A", "B"}
		if idx%2 == 1 {
			players = [2]string{"B", "A"}
		}
		return arena.Line{Spec: "tablut(linnaeus)", Index: idx, Agents: [2]string{"x", "y"}, Players: players, Winner: winner, WinnerAgent: agent,
			Reason: reason, Length: length, Decisions: decisions, Repeats: repeats, Branching: 10, Finished: finished}
	}
	lines := []arena.Line{
		mk(0, "attackers", "A", "king captured", 10, 10, 0, true),
		mk(1, "defenders", "A", "king escaped", 20, 10, 2, true),
		mk(2, "draw", "", "threefold repetition", 30, 15, 3, true),
		mk(3, "draw", "", "stopped after 20000 actions", 40, 40, 0, false),
	}
	// A scored game (1879-03) names the scores: its winning side comes from
	// the seats.
	scored := mk(4, "black 7, white 0", "A", "black scored 7 marks", 10, 5, 0, true)
	scored.Spec = "lanrick(1879-03)"
	if g := Summarize([]arena.Line{scored})[0]; g.PlayerWins[0].P != 1 {
		t.Fatalf("scored game: %+v", g.PlayerWins)
	}
	gs := Summarize(lines)
	if len(gs) != 1 {
		t.Fatalf("%d groups", len(gs))
	}
	g := gs[0]
	if g.Games != 4 || g.PlayerWins[0].P != 0.25 || g.PlayerWins[1].P != 0.25 || g.AgentWins[0].P != 0.5 || g.Draws.P != 0.5 {
		t.Fatalf("wins %+v", g)
	}
	if g.Record != [3]int{2, 0, 2} || g.Score.P != 0.75 || g.Score.Lo >= 0.75 || g.Score.Hi <= 0.75 {
		t.Fatalf("A's record %v, score %v: want 2 won, 2 drawn, 0.75", g.Record, g.Score)
	}
	// The same agents under another game string pool with these games;
	// other agents do not.
	other := mk(0, "attackers", "B", "king captured", 10, 10, 0, true)
	other.Spec = "tablut(ashton)"
	stranger := mk(0, "attackers", "A", "king captured", 10, 10, 0, true)
	stranger.Agents = [2]string{"x", "z"}
	ps := Pairs(Summarize(append(append([]arena.Line{}, lines...), other, stranger)))
	if len(ps) != 2 || ps[0].Specs != 2 || ps[0].Record != [3]int{2, 1, 2} || ps[0].Score.P != 0.6 || ps[1].Record != [3]int{1, 0, 0} {
		t.Fatalf("pairs %+v: want x–y over 2 game strings, 2 won, 1 lost, 2 drawn (0.6), and x–z apart", ps)
	}
	// Each side won one, lost one and drew two: results 1, −1, 0, 0, whose
	// variance (n − 1) is 2/3.
	if math.Abs(g.Uniformity-1.0/3) > 1e-9 {
		t.Fatalf("outcome uniformity %v, want 1/3", g.Uniformity)
	}
	if g.FirstPlayer != "attackers" || g.FirstWins.P != 0.25 || g.Balance != 1 || g.Completion != 0.5 || g.Timeouts != 0.25 {
		t.Fatalf("first %s %v, balance %v, completion %v, timeouts %v", g.FirstPlayer, g.FirstWins, g.Balance, g.Completion, g.Timeouts)
	}
	if g.Length.P != 25 || g.MedianLength != 25 || math.Abs(g.Decisions.P-(1+0.5+0.5+1)/4) > 1e-9 || math.Abs(g.Repetition.P-(0.1+0.1)/4) > 1e-9 || g.Repeated.P != 0.5 {
		t.Fatalf("length %v %v decisions %v repetition %v repeated %v", g.Length, g.MedianLength, g.Decisions, g.Repetition, g.Repeated)
	}
	dir := t.TempDir()
	plots, err := Plots(gs, dir)
	if err != nil || len(plots) != 3 {
		t.Fatalf("plots %v %v", plots, err)
	}
	for _, p := range plots {
		if b, err := os.ReadFile(filepath.Join(dir, p)); err != nil || !bytes.Contains(b, []byte("<svg")) {
			t.Fatalf("%s is not an SVG: %v", p, err)
		}
	}
	var md, html bytes.Buffer
	Markdown(&md, gs, plots)
	HTML(&html, gs, plots)
	for _, want := range []string{"balance", "state repetition", "0.250 [", "outcomes.svg", "threefold repetition: 1", "2 won, 0 lost, 2 drawn: 0.750 ["} {
		if !strings.Contains(md.String(), want) || !strings.Contains(html.String(), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestCoverage: the squares used in a replayed record.
func TestCoverage(t *testing.T) {
	l := arena.Line{Spec: "tablut(linnaeus)", Record: "[muster-game:tablut(linnaeus)]\n1. a4-a3 e3-d3\n"}
	// The start's 25 squares, then a3 and d3.
	if got, want := Coverage(l), 27.0/81; math.Abs(got-want) > 1e-9 {
		t.Fatalf("coverage %v, want %v", got, want)
	}
	if c := Coverage(arena.Line{Spec: "tablut", Record: "1. a4-a9"}); c != -1 {
		t.Fatalf("a bad record: %v", c)
	}
}

func TestReadErrors(t *testing.T) {
	if _, err := Read(strings.NewReader("{\"spec\":\"x\"}\nnot json\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("%v", err)
	}
}
