package alphabeta_test

import (
	"context"
	"testing"

	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/alphabeta"
	"github.com/muster-games/muster/tablut"
)

// BenchmarkNodes reports alpha-beta nodes per second on Tablut (linnaeus),
// depth 5 from the start, one core. OpenTafl searched about 77,000 nodes
// per second (2016); the target is 20 times that.
func BenchmarkNodes(b *testing.B) {
	g := tablut.MustLoad("linnaeus")
	var nodes int64
	for i := 0; i < b.N; i++ {
		res := alphabeta.Search(context.Background(), tablut.NewSearchPosition(g.Start()), search.Limits{Depth: 5}, alphabeta.NewTable(1<<20))
		nodes += res.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
