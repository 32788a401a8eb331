package alphabeta_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/alphabeta"
	"github.com/muster-games/muster/tablut"
)

// BenchmarkNodes reports alpha-beta nodes per second on Tablut (linnaeus,
// depth 5 from the start) with one and two threads, and on Lanrick 1893
// (depth 3 after mark d5 and no interchange, through the generic state
// adapter). OpenTafl searched about 77,000 nodes per second (2016); the
// target is 20 times that per core.
func BenchmarkNodes(b *testing.B) {
	g := tablut.MustLoad("linnaeus")
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("tablut/threads=%d", threads), func(b *testing.B) {
			var nodes int64
			for i := 0; i < b.N; i++ {
				res := alphabeta.Search(context.Background(), pos(g.Start()), search.Limits{Depth: 5, Threads: threads}, alphabeta.NewTable(1<<20))
				nodes += res.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
	l := lanrick.MustLoad("1893").NewState()
	for _, a := range []string{"mark d5", "no-interchange"} {
		x, _ := l.ParseAction(a)
		l.Apply(x)
	}
	eval := func(s game.State, p game.Player) int { return int(1000 * lanrick.Evaluate(s, p)) }
	b.Run("lanrick-1893/threads=1", func(b *testing.B) {
		var nodes int64
		for i := 0; i < b.N; i++ {
			res := alphabeta.Search(context.Background(), alphabeta.FromState(l, eval), search.Limits{Depth: 3}, alphabeta.NewTable(1<<18))
			nodes += res.Nodes
		}
		b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	})
}

// BenchmarkTimeToDepth reports the nodes and time alpha-beta needs to
// finish depth 6 on the Tablut Challenge's ashton rules, from the start and
// from a middle game (the reduction and pruning of the search show here;
// nodes per second stay in BenchmarkNodes).
func BenchmarkTimeToDepth(b *testing.B) {
	g := tablut.MustLoad("ashton")
	mid := g.Start()
	for _, mv := range []string{"e3-b3", "d1-d3", "e4-c4", "i4-g4", "c5-c7", "e8-d8"} {
		m, err := mid.ParseMove(mv)
		if err != nil {
			b.Fatal(mv, err)
		}
		mid.ApplyMove(m)
	}
	for name, s := range map[string]*tablut.State{"start": g.Start(), "middle": mid} {
		b.Run(name, func(b *testing.B) {
			var nodes int64
			for i := 0; i < b.N; i++ {
				res := alphabeta.Search(context.Background(), pos(s), search.Limits{Depth: 6}, alphabeta.NewTable(1<<20))
				nodes += res.Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
