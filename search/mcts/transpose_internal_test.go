package mcts

import (
	"context"
	"slices"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/search"
)

// TestTransposeSharesOneTurnsStates: with Transpose, a Lanrick turn of
// five squares over several men reaches some states by more than one order
// of its actions, and each such node has one state: every path to it,
// replayed from the root, gives the same position, the same player to act
// and the same hash, and every path is the same up to the start of the
// turn whose actions reach it.
func TestTransposeSharesOneTurnsStates(t *testing.T) {
	g := lanrick.MustLoad("1893")
	s := g.Start()
	play := New(Config{Seed: 2, Eval: lanrick.Evaluate, PlayoutLimit: 2, MAST: true, Prior: 3, C: 0.05})
	for s.Opening() || !s.TurnStart() || s.Budget() < 5 {
		s.Apply(play.Search(context.Background(), s, search.Limits{Iterations: 50}).Action)
		if s.IsTerminal() {
			t.Fatal("the game ended before a turn of five squares")
		}
	}
	m := New(Config{Seed: 1, Eval: lanrick.Evaluate, PlayoutLimit: 2, MAST: true, Prior: 3, C: 0.05, Transpose: true})
	m.Search(context.Background(), s, search.Limits{Iterations: 3000})
	type seen struct {
		path []game.Action
		text string
		hash uint64
	}
	nodes := map[*node]seen{}
	shared := 0
	var walk func(n *node, path []game.Action)
	walk = func(n *node, path []game.Action) {
		x := game.State(s.Copy())
		for _, a := range path {
			x.Apply(a)
		}
		if first, ok := nodes[n]; ok {
			shared++
			if first.text != x.String() || first.hash != x.Hash() {
				t.Fatalf("one node, two states:\n%v: %s\n%v: %s", first.path, first.text, path, x)
			}
			i, j := turnStart(s, first.path), turnStart(s, path)
			if i != j || !slices.Equal(first.path[:i], path[:j]) || len(first.path) != len(path) {
				t.Fatalf("one node reached by %v and by %v: not two orders of one turn from one start", first.path, path)
			}
			return
		}
		nodes[n] = seen{append([]game.Action(nil), path...), x.String(), x.Hash()}
		for i, c := range n.children {
			if len(path) > 12 {
				break
			}
			walk(c, append(path, n.acts[i]))
		}
	}
	walk(m.trees[0].root, nil)
	if shared == 0 {
		t.Fatalf("no state of the turn reached twice in %d nodes", len(nodes))
	}
	t.Logf("%d nodes, %d second paths", len(nodes), shared)
}

// turnStart returns the number of actions of path (from s) played before
// the turn of its last action began.
func turnStart(s game.State, path []game.Action) int {
	x := s.Clone()
	players := make([]game.Player, len(path))
	for i, a := range path {
		players[i] = x.ToAct()
		x.Apply(a)
	}
	k := len(path) - 1
	for k > 0 && players[k-1] == players[len(path)-1] {
		k--
	}
	return k
}
