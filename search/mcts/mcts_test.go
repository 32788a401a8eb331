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
	// The second line: the other escape, also proven, its line its own.
	sec := res.Second
	if sec == nil || sec.Action == res.Action || len(sec.PV) == 0 || sec.PV[0] != sec.Action {
		t.Fatalf("second line %+v beside %s", sec, s.ActionString(res.Action))
	}
	c2 := s.Copy()
	c2.Apply(sec.Action)
	if !c2.IsTerminal() || sec.Proven != 1 {
		t.Errorf("the second line %s (proven %d) is not the other escape", s.ActionString(sec.Action), sec.Proven)
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

// gamble is a game of one choice: the first player takes a draw ("safe")
// or a toss that he wins 45 times in 100 ("risk"), worth −0.1 to him.
// Only what the search calls is implemented.
type gamble struct {
	game.State
	history []game.Action
	winner  game.Player
}

const (
	safe game.Action = iota
	risk
	won
	lost
)

func (g *gamble) Game() game.Game { return nil }
func (g *gamble) ToAct() game.Player {
	switch {
	case g.IsTerminal():
		return game.Terminal
	case len(g.history) == 1:
		return game.Chance
	}
	return 0
}
func (g *gamble) LegalActions(dst []game.Action) []game.Action {
	if g.ToAct() != 0 {
		return dst
	}
	return append(dst, safe, risk)
}
func (g *gamble) ChanceOutcomes(dst []game.Outcome) []game.Outcome {
	if g.ToAct() != game.Chance {
		return dst
	}
	return append(dst, game.Outcome{Action: won, Prob: 0.45}, game.Outcome{Action: lost, Prob: 0.55})
}
func (g *gamble) Apply(a game.Action) {
	g.history = append(g.history, a)
	switch a {
	case safe:
		g.winner = -1
	case won:
		g.winner = 0
	case lost:
		g.winner = 1
	}
}
func (g *gamble) Clone() game.State {
	c := *g
	c.history = append([]game.Action(nil), g.history...)
	return &c
}
func (g *gamble) IsTerminal() bool {
	return len(g.history) > 0 && g.history[0] == safe || len(g.history) == 2
}
func (g *gamble) Result() game.Result { return game.Result{Winner: g.winner} }
func (g *gamble) Returns() []float64 {
	switch {
	case !g.IsTerminal() || g.winner < 0:
		return []float64{0, 0}
	case g.winner == 0:
		return []float64{1, -1}
	}
	return []float64{-1, 1}
}
func (g *gamble) History() []game.Action { return g.history }

// TestContempt: a searcher takes the draw where the toss is worse than
// even, and the toss where a draw costs it more than the toss's −0.1.
func TestContempt(t *testing.T) {
	for _, c := range []struct {
		contempt float64
		want     game.Action
	}{{0, safe}, {0.3, risk}} {
		m := mcts.New(mcts.Config{Seed: 3, Contempt: c.contempt})
		if res := m.Search(context.Background(), &gamble{}, search.Limits{Iterations: 4000}); res.Action != c.want {
			t.Errorf("contempt %v: chose %d, want %d (value %v)", c.contempt, res.Action, c.want, res.Value)
		}
	}
}

// TestPlayoutLimitBelowZero: a negative PlayoutLimit plays no playout, so
// each iteration evaluates the node it has just added (one action below
// the root after one iteration); a limit of 2 evaluates two actions
// further down.
func TestPlayoutLimitBelowZero(t *testing.T) {
	g := lanrick.MustLoad("1893")
	s := g.Start()
	root := len(s.History())
	for _, c := range []struct{ limit, want int }{{-1, 1}, {2, 3}} {
		var depths []int
		eval := func(x game.State, p game.Player) float64 {
			depths = append(depths, len(x.History())-root)
			return lanrick.Evaluate(x, p)
		}
		m := mcts.New(mcts.Config{Seed: 1, Eval: eval, PlayoutLimit: c.limit, MAST: true})
		m.Search(context.Background(), s, search.Limits{Iterations: 1})
		if len(depths) != 1 || depths[0] != c.want {
			t.Errorf("PlayoutLimit %d: evaluated at %v actions below the root, want [%d]", c.limit, depths, c.want)
		}
	}
}
