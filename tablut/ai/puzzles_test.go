package ai

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"slices"
	"testing"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/tablut"
)

var update = flag.Bool("update", false, "write puzzles.json anew from GeneratePuzzles(60, 1)")

// TestPuzzlesFile: every puzzle in puzzles.json is what it says, proved
// again by the oracle: the side to move cannot win at once, wins in two
// turns (the oracle's verdict, three turns of both sides), and after the
// winning move every reply lets him win at once; the puzzles are many,
// distinct and easiest first. With -update it writes the file anew.
func TestPuzzlesFile(t *testing.T) {
	if *update {
		b, _ := json.MarshalIndent(GeneratePuzzles(60, 1), "", "  ")
		if err := os.WriteFile("puzzles.json", append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ps, err := agent.Puzzles("tablut", 1000, 0)
	if err != nil || len(ps) < 50 {
		t.Fatalf("%d puzzles: %v", len(ps), err)
	}
	g := tablut.MustLoad("linnaeus")
	ids := map[string]bool{}
	for i, p := range ps {
		if ids[p.ID] || (i > 0 && p.Rating < ps[i-1].Rating) {
			t.Fatalf("puzzle %d (%s): repeated, or out of order", i, p.ID)
		}
		ids[p.ID] = true
		s, err := g.ParseState(p.Position)
		if err != nil || p.Spec != g.Spec() || p.Turns != 2 || g.PlayerName(s.ToAct()) != p.Side {
			t.Fatalf("puzzle %s: %v %+v", p.ID, err, p)
		}
		ts := s.(*tablut.State)
		if want := themesOf(ts.Copy()); len(p.Themes) == 0 || !slices.Equal(p.Themes, want) {
			t.Fatalf("puzzle %s: themes %v, its position's %v", p.ID, p.Themes, want)
		}
		if _, now := winNow(ts); now {
			t.Fatalf("puzzle %s wins at once", p.ID)
		}
		v, ok := agent.Verdict(s)
		if !ok || v.Proven != 1 || v.Turns != 3 {
			t.Fatalf("puzzle %s: verdict %+v %v", p.ID, v, ok)
		}
		// The verdict's move, then every reply: a win at once is there.
		c := ts.Copy()
		c.Apply(v.Action)
		if w, ok := agent.Verdict(c); !ok || w.Proven != -1 || w.Turns != 2 {
			t.Fatalf("puzzle %s after %s: %+v %v", p.ID, ts.ActionString(v.Action), w, ok)
		}
		for _, r := range c.LegalActions(nil) {
			d := c.Copy()
			d.Apply(r)
			if w, ok := agent.Verdict(d); !d.IsTerminal() && (!ok || w.Proven != 1 || w.Turns != 1) {
				t.Fatalf("puzzle %s: after the reply %s no win at once", p.ID, c.ActionString(r))
			}
		}
	}
}

// TestGeneratePuzzles: the generator's puzzles come from games played to
// them, each proved, and the same seed gives the same puzzles.
func TestGeneratePuzzles(t *testing.T) {
	a, b := GeneratePuzzles(3, 7), GeneratePuzzles(3, 7)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if len(a) != 3 || !bytes.Equal(ja, jb) {
		t.Fatalf("%d puzzles; the same seed twice: %v", len(a), bytes.Equal(ja, jb))
	}
	for _, p := range a {
		s, _ := tablut.MustLoad("linnaeus").ParseState(p.Position)
		if v, ok := agent.Verdict(s); !ok || v.Proven != 1 || v.Turns != 3 {
			t.Fatalf("%s: %+v", p.ID, v)
		}
	}
	// The oracle knows nothing of the start, and says a finished game is
	// not its to judge.
	if _, ok := agent.Verdict(tablut.MustLoad("linnaeus").Start()); ok {
		t.Fatal("the start is decided?")
	}
	var _ game.State = tablut.MustLoad("linnaeus").Start()
}
