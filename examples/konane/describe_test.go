package konane

import (
	"slices"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/game/gametest"
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
	if !s.IsTerminal() || len(e) != 3 || e[1].Text != "Black has taken 2 stones in one turn." || e[2].Kind != "game-over" || e[2].Text != "Black wins: white cannot jump." {
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

func TestLessonsAndFigures(t *testing.T) {
	gametest.Lessons(t, Info, 4)
	states := gametest.Figures(t, Info, 3)
	if v := states[2].View(); !slices.Equal(v.Captured, []string{"d1"}) {
		t.Fatalf("the run's figure shows %+v", v)
	}
}

// The lessons' positions teach what they say: the run may not turn, and of
// the two last jumps one lets White answer.
func TestLessonsTeachWhatTheySay(t *testing.T) {
	g := MustLoad("suggested")
	s := parse(t, g, lessons[2].Position)
	play(t, s, "a1-c1")
	if got := legal(s); !slices.Equal(got, []string{"c1-e1", "pass"}) {
		t.Fatalf("after a1-c1 (c2 white, c3 empty): %v", got)
	}
	s = parse(t, g, lessons[3].Position)
	if got := legal(s); !slices.Equal(got, []string{"b1-d1", "e1-g1"}) {
		t.Fatalf("the last jump: %v", got)
	}
	wrong := s.Copy()
	play(t, wrong, "e1-g1")
	if wrong.IsTerminal() {
		t.Fatalf("e1-g1 leaves White no jump: %s", wrong)
	}
}
