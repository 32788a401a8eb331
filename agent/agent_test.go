package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/lanrick/ai"
	"github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
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
		{"alphabeta(depth=2,endgame=yes)", tg, "has no endgame tables"},
		{"random(endgame=yes)", lg, "no settings"},
	} {
		a, err := agent.New(c.spec, c.g, 1)
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
			a, err := agent.New(spec, g, 3)
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
