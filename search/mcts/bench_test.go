package mcts_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/mcts"
	"github.com/muster-games/muster/tablut"
)

// BenchmarkIterations reports MCTS iterations per second from the start of
// Tablut and of Lanrick 1893 (mark d5 set, no interchange), with one and
// two threads: Lanrick with its fitted evaluation and the levels' 2-action
// playouts, with the fitted evaluation and the 24-action playouts the
// levels had before, and with the hand evaluation and those (the search
// as it was).
func BenchmarkIterations(b *testing.B) {
	l := lanrick.MustLoad("1893").NewState()
	for _, a := range []string{"mark d5", "no-interchange"} {
		x, _ := l.ParseAction(a)
		l.Apply(x)
	}
	cases := []struct {
		name  string
		s     game.State
		eval  mcts.Evaluator
		limit int
	}{
		{"tablut", tablut.MustLoad("linnaeus").NewState(), tablut.Value, 40},
		{"lanrick-1893", l, lanrick.Evaluate, 2},
		{"lanrick-1893-playout24", l, lanrick.Evaluate, 24},
		{"lanrick-1893-hand-playout24", l, lanrick.EvaluateHand, 24},
	}
	for _, c := range cases {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", c.name, threads), func(b *testing.B) {
				iters := 0
				for i := 0; i < b.N; i++ {
					m := mcts.New(mcts.Config{Seed: uint64(i), Eval: c.eval, PlayoutLimit: c.limit, MAST: true, Prior: 3, Threads: threads})
					iters += m.Search(context.Background(), c.s, search.Limits{Iterations: 2000}).Iterations
				}
				b.ReportMetric(float64(iters)/b.Elapsed().Seconds(), "iterations/s")
			})
		}
	}
}
