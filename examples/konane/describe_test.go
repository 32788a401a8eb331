package konane

import (
	"slices"
	"testing"

	"github.com/muster-games/muster/game"
)

// A jump that may go on does not end the turn; the page then shows the
// jumping stone and a button to stop.
func TestDescribeARunOfJumps(t *testing.T) {
	g := MustLoad("", game.KV{Key: "size", Value: "6"})
	s := parse(t, g, "board=6/6/6/2w3/2w3/bw1w2 to=black")
	a, _ := s.ParseAction("a1-c1")
	if d := s.Describe(a); d.Kind != "jump" || d.EndsTurn || !slices.Equal(d.Squares, []string{"a1", "c1"}) || d.Note != "takes b1" {
		t.Fatalf("a1-c1: %+v", d)
	}
	play(t, s, "a1-c1")
	v := s.View()
	if !slices.Equal(v.Captured, []string{"b1"}) || !slices.Equal(v.Last, []string{"a1", "c1"}) ||
		!slices.ContainsFunc(v.Regions, func(r game.Region) bool { return r.Kind == regionRun && slices.Equal(r.Squares, []string{"c1"}) }) {
		t.Fatalf("view after a1-c1: %+v", v)
	}
	if p := s.Prompt(); p.Player != Black || p.Text != "Jump on with the stone on c1, east, or stop." || !slices.Equal(p.Squares, []string{"c1"}) {
		t.Fatalf("prompt %+v", p)
	}
	if d := s.Describe(Pass); d.Kind != "end" || len(d.Squares) != 0 || d.Label != "Stop jumping" || !d.EndsTurn {
		t.Fatalf("pass: %+v", d)
	}
	if e := s.Events(); len(e) != 1 || e[0].Kind != "capture" || e[0].Text != "Black took the stone on b1." {
		t.Fatalf("events %+v", e)
	}
	play(t, s, "c1-e1")
	e := s.Events()
	if !s.IsTerminal() || len(e) != 2 || e[1].Kind != "game-over" || e[1].Text != "Black wins: white cannot jump." {
		t.Fatalf("events at the end %+v (over %v)", e, s.IsTerminal())
	}
	if p := s.Prompt(); p.Player != game.Terminal || p.Text != "Black wins: white cannot jump." {
		t.Fatalf("prompt at the end %+v", p)
	}
}

func TestDescribeTheOpening(t *testing.T) {
	s := MustLoad("observed").Start()
	v := s.View()
	if len(v.Pieces) != 100 || len(v.Regions) != 1 || v.Regions[0].Kind != regionLift || len(v.Regions[0].Squares) != 4 {
		t.Fatalf("start view: %d pieces, regions %+v", len(v.Pieces), v.Regions)
	}
	if p := s.Prompt(); !slices.Equal(p.Squares, []string{"j1", "a10", "f5", "e6"}) {
		t.Fatalf("prompt %+v", p)
	}
	play(t, s, "f5")
	if v := s.View(); len(v.Regions) != 0 || !slices.Equal(v.Removed, []string{"f5"}) {
		t.Fatalf("after f5: %+v", v)
	}
	if e := s.Events(); len(e) != 1 || e[0].Kind != "removed" || e[0].Text != "Black lifted the stone on f5." {
		t.Fatalf("events %+v", e)
	}
}
