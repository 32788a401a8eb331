package mcts_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/mcts"
	"github.com/muster-games/muster/tablut"
)

// TestFindsWinInOne: with the king on an open line, the defenders escape,
// and the solver proves it.
func TestFindsWinInOne(t *testing.T) {
	g := tablut.MustLoad("linnaeus")
	s, err := g.Parse("/9/9/2t6/9/9/4K4/9/6t2/9/ defenders")
	if err != nil {
		t.Fatal(err)
	}
	m := mcts.New(mcts.Config{Seed: 1, Eval: tablut.Value, PlayoutLimit: 20})
	res := m.Search(context.Background(), s, search.Limits{Iterations: 2000})
	c := s.Copy()
	c.Apply(res.Action)
	if !c.IsTerminal() || c.Result().Winner != 1 {
		t.Fatalf("chose %s, not an escape", s.ActionString(res.Action))
	}
	if res.Proven != 1 {
		t.Errorf("the win is not proven: %+v", res)
	}
}

// TestDeterministic: one thread, an iteration limit and a seed give the
// same choice and statistics every time.
func TestDeterministic(t *testing.T) {
	g := lanrick.MustLoad("1893")
	s := g.Start()
	var first search.Result
	for i := 0; i < 3; i++ {
		m := mcts.New(mcts.Config{Seed: 7, Eval: lanrick.Evaluate, PlayoutLimit: 10, MAST: true, Prior: 2})
		res := m.Search(context.Background(), s, search.Limits{Iterations: 500})
		if i == 0 {
			first = res
			continue
		}
		if res.Action != first.Action || res.Value != first.Value || res.Iterations != first.Iterations {
			t.Fatalf("run %d: %v %v, first %v %v", i, res.Action, res.Value, first.Action, first.Value)
		}
	}
}

// TestChanceAndTurns: the tree goes through chance nodes (1879-01's dice)
// and multi-action turns; the search returns legal actions along a game.
func TestChanceAndTurns(t *testing.T) {
	for _, rs := range []string{"1879-01", "1893"} {
		g := lanrick.MustLoad(rs)
		s := g.NewState()
		m := mcts.New(mcts.Config{Seed: 3, Eval: lanrick.Evaluate, PlayoutLimit: 8, Threads: 2})
		var buf []game.Action
		for n := 0; n < 40 && !s.IsTerminal(); n++ {
			if s.ToAct() == game.Chance {
				var a game.Action
				a, buf = game.RandomAction(s, nil2(), buf)
				s.Apply(a)
				continue
			}
			res := m.Search(context.Background(), s, search.Limits{Iterations: 100})
			if err := s.Play(res.Action); err != nil {
				t.Fatalf("%s: %v", rs, err)
			}
		}
	}
}

// TestTreeReuse: after the opponent's reply, the next search starts from
// the reused subtree (more than this search's iterations at the root).
func TestTreeReuse(t *testing.T) {
	g := tablut.MustLoad("linnaeus")
	s := g.Start()
	m := mcts.New(mcts.Config{Seed: 1, Eval: tablut.Value, PlayoutLimit: 10})
	res := m.Search(context.Background(), s, search.Limits{Iterations: 3000})
	s.Apply(res.Action)
	// The reply the tree thought best.
	if len(res.PV) < 2 {
		t.Fatalf("no expected reply in %v", res.PV)
	}
	s.Apply(res.PV[1])
	res2 := m.Search(context.Background(), s, search.Limits{Iterations: 100})
	if res2.Iterations <= 100 {
		t.Errorf("root visits %d: the subtree was not reused", res2.Iterations)
	}
}

func nil2() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
