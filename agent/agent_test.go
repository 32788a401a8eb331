package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/muster-games/muster/agent"
	_ "github.com/muster-games/muster/examples/konane"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/lanrick/ai"
	"github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

func TestSpecs(t *testing.T) {
	tg, lg := tablut.MustLoad("linnaeus"), lanrick.MustLoad("1893")
	kg, err := game.Load("konane")
	if err != nil {
		t.Fatal(err)
	}
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
		// Tablut's oracle proves wins and losses within two turns.
		{"alphabeta(depth=2,endgame=yes)", tg, ""},
		{"alphabeta(depth=2,endgame=yes)", kg, "has no endgame tables"},
		{"random(endgame=yes)", lg, "no settings"},
		{"mcts(iterations=100,turns=3)", lg, ""},
		{"mcts(iterations=100,transpose=yes,playout=0)", lg, ""},
		{"mcts(iterations=100,transpose=no)", tg, ""},
		{"mcts(transpose=sometimes)", lg, "want yes or no"},
		{"mcts(iterations=100,turns=0)", lg, "from 1 to 6"},
		{"mcts(iterations=100,turns=x)", lg, "from 1 to 6"},
		{"alphabeta(depth=2,turns=2)", tg, "no turn-level search"},
		{"random(turns=2)", lg, "no settings"},
		{"alphabeta(depth=2,eval=hand)", tg, ""},
		{"alphabeta(eval=fitted)", tg, ""},
		{"alphabeta(eval=best)", tg, `eval="best": unknown evaluation (known: fitted, hand`},
		{"alphabeta(depth=2,eval=hand)", lg, ""},
		{"mcts(iterations=100,eval=hand)", lg, ""},
		{"mcts(eval=fitted)", lg, ""},
		{"mcts(eval=best)", lg, `eval="best": unknown evaluation (known: fitted, hand`},
		{"mcts(eval=hand)", tg, "only alpha-beta reads tablut's evaluations by name"},
		{"mcts(iterations=100,contempt=0.3,prior=5)", lg, ""},
		{"mcts(contempt=2)", lg, "a draw costs 0 to 1"},
		{"mcts(contempt=-1)", lg, "not a number"},
		{"alphabeta(depth=2,null=no)", tg, ""},
		{"alphabeta(null=maybe)", tg, "want yes or no"},
		{"alphabeta(depth=2,extend=no)", tg, ""},
		{"alphabeta(extend=1)", tg, "extend=\"1\": want yes or no"},
		// A level's budget scaled.
		{"hard(x4)", lg, ""},
		{"max(x0.5)", tg, ""},
		{"hard(x4)", tg, ""},
		{"hard(x0.5)", tg, "effort=0.5"},
		{"hard(y4)", lg, "not a budget's factor"},
		{"hard(x0)", lg, "not a budget's factor"},
		{"hard(x4,threads=2)", lg, "takes no settings but its budget's factor"},
		{"alphabeta(depth=2,effort=3)", tg, ""},
		{"alphabeta(time=1s,effort=3)", tg, "effort=3"},
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

// TestBudgetScaled: a level's xK multiplies its budget, whatever it is
// (docs/strength.md: "does more search pay" as one match): Lanrick's hard
// searches four times its iterations, keeping the rest of its spec;
// Tablut's max half its time; Tablut's hard, bounded by its depth alone,
// searches each position four times the nodes its depth takes there,
// deeper.
func TestBudgetScaled(t *testing.T) {
	tg, lg := tablut.MustLoad("linnaeus"), lanrick.MustLoad("1893")
	must := func(spec string, g game.Game) agent.Agent {
		a, err := agent.New(spec, g, 1)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	base := must("hard", lg)
	scaled, err := agent.New("hard(x4)", lg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b, s := agent.Limits(base), agent.Limits(scaled); s.Iterations != 4*b.Iterations || b.Iterations == 0 {
		t.Errorf("hard(x4) of Lanrick: %d iterations, hard %d", s.Iterations, b.Iterations)
	}
	if m, h := agent.Limits(must("max(x0.5)", tg)), agent.Limits(must("max", tg)); m.Time != h.Time/2 || h.Time == 0 {
		t.Errorf("max(x0.5) of Tablut: %s, max %s", m.Time, h.Time)
	}
	s := tg.NewState()
	ctx := context.Background()
	hard, err := must("hard", tg).Act(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	more, err := must("hard(x4)", tg).Act(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if more.Depth <= hard.Depth || more.Nodes < 3*hard.Nodes || more.Nodes > 6*hard.Nodes {
		t.Errorf("hard(x4) of Tablut: depth %d, %d nodes; hard: depth %d, %d nodes", more.Depth, more.Nodes, hard.Depth, hard.Nodes)
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

// TestPonder: an agent that pondered the position after its move searches
// its next move deeper in the same nodes than one that did not, whatever
// the opponent played; an agent that cannot ponder says so.
func TestPonder(t *testing.T) {
	g := tablut.MustLoad("ashton")
	after := g.Start()
	m, _ := after.ParseMove("e3-b3") // the agent's move; the attackers to move
	after.ApplyMove(m)
	reply := after.Copy()
	r, _ := reply.ParseMove("d1-d3")
	reply.ApplyMove(r)
	// The pondering lasts five times the cold search, so that the test
	// means the same on a slow machine or under the race detector.
	var ponderTime time.Duration
	depth := func(ponder bool) int {
		a, err := agent.New("alphabeta(nodes=200000)", g, 1)
		if err != nil {
			t.Fatal(err)
		}
		if ponder {
			ctx, cancel := context.WithTimeout(context.Background(), ponderTime)
			if !agent.Ponder(ctx, a, after) {
				t.Fatal("alpha-beta did not ponder")
			}
			cancel()
		}
		res, err := a.Act(context.Background(), reply)
		if err != nil {
			t.Fatal(err)
		}
		ponderTime = 5 * res.Elapsed
		return res.Depth
	}
	cold, warm := depth(false), depth(true)
	if warm <= cold {
		t.Errorf("depth %d after pondering, %d without", warm, cold)
	}
	a, _ := agent.New("mcts(iterations=10)", g, 1)
	if agent.Ponder(context.Background(), a, after) {
		t.Error("MCTS claims to ponder")
	}
}
