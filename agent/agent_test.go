package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/lanrick/endgame"
	"github.com/muster-games/muster/tablut"
)

func TestSpecs(t *testing.T) {
	tg, lg := tablut.MustLoad("linnaeus"), lanrick.MustLoad("1893")
	for _, c := range []struct {
		spec string
		g    game.Game
		err  string
	}{
		{"random", tg, ""},
		{"easy", lg, ""},
		{"max", tg, ""},
		{"mcts(iterations=100,threads=2,c=0.8,playout=10)", lg, ""},
		{"alphabeta(time=2s,threads=0)", tg, ""},
		{"alphabeta(depth=2)", lg, ""},
		{"alphabeta", lanrick.MustLoad("1879-01"), "dice"},
		{"mcts(speed=2)", tg, "unknown setting \"speed\""},
		{"mcts(time=soon)", tg, "not a duration"},
		{"easy(depth=2)", tg, "takes no settings"},
		{"minimax", tg, "known: random, mcts, alphabeta, easy"},
		{"mcts(1000)", tg, "key=value"},
		{"random(x=1)", tg, "no settings"},
		{"mcts(iterations=100,endgame=yes)", lg, ""},
		{"alphabeta(depth=2,endgame=no)", tg, ""},
		{"mcts(endgame=maybe)", lg, "want yes or no"},
		{"alphabeta(depth=2,endgame=yes)", tg, "Lanrick's"},
		{"random(endgame=yes)", lg, "no settings"},
	} {
		a, err := New(c.spec, c.g, 1)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.spec, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want an error with %q", c.spec, err, c.err)
		case err == nil && a.Spec() != c.spec:
			t.Errorf("%s: Spec() = %q", c.spec, a.Spec())
		}
	}
}

// TestAgentsPlayLegalActions: every kind of agent returns legal actions in
// both games, including a multi-action Lanrick turn.
func TestAgentsPlayLegalActions(t *testing.T) {
	for _, g := range []game.Game{tablut.MustLoad("linnaeus"), lanrick.MustLoad("1893")} {
		for _, spec := range []string{"random", "mcts(iterations=50)", "alphabeta(depth=1)", "alphabeta(depth=2,threads=2)"} {
			a, err := New(spec, g, 3)
			if err != nil {
				t.Fatal(err)
			}
			s := g.NewState()
			for n := 0; n < 8 && !s.IsTerminal(); n++ {
				res, err := a.Act(context.Background(), s)
				if err != nil {
					t.Fatalf("%s %s: %v", g.Name(), spec, err)
				}
				if err := s.Play(res.Action); err != nil {
					t.Fatalf("%s %s: %v", g.Name(), spec, err)
				}
			}
		}
	}
}

// TestEndgameTables: with endgame=yes an agent plays the final rendezvous
// from the tables where they are on disk — the tables' own best action,
// proved — and searches as usual where they are not.
func TestEndgameTables(t *testing.T) {
	g := lanrick.MustLoad("1893")
	// White to move wins in 3 turns (the tables say; it is checked below).
	s, err := g.Parse("board=8/8/8/8/1w6/8/1w4b1/b7 to=white phase=move rdv=5 size=3 mark=e5 line=ne setter=black budget=3 opening=no opened=bw")
	if err != nil {
		t.Fatal(err)
	}
	EndgameDir = t.TempDir()
	a, err := New("mcts(iterations=50,endgame=yes)", g, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Act(context.Background(), s)
	if err != nil || !s.IsLegal(res.Action) {
		t.Fatalf("without tables: %v %v", res, err)
	}
	// Build the line's table into a new folder and play again.
	ts := &endgame.Tables{Dir: t.TempDir()}
	if _, _, err := ts.Table(s.RendezvousSquares()); err != nil {
		t.Fatal(err)
	}
	best, v, err := ts.Act(s)
	if err != nil {
		t.Fatal(err)
	}
	EndgameDir = ts.Dir
	res, err = a.Act(context.Background(), s)
	if err != nil || res.Action != best || res.Proven != v.Outcome || v != (endgame.Value{Outcome: 1, Turns: 3}) {
		t.Fatalf("with tables: %s, proven %d; the tables: %s, %v (err %v)", s.ActionString(res.Action), res.Proven, s.ActionString(best), v, err)
	}
	t.Logf("%s: %s, %v", s, s.ActionString(best), v)
}
