package endgame

import (
	"math/rand/v2"
	"testing"
)

func benchNodes(g *fiveGraph) []uint32 {
	r := rand.New(rand.NewPCG(1, 1))
	var ns []uint32
	for len(ns) < 4096 {
		n := uint32(r.IntN(g.ix.nodes()))
		if _, _, _, ok := g.ix.decodeNode(n); ok {
			ns = append(ns, n)
		}
	}
	return ns
}

// benchGraph is a full-board five-man graph (d4's rendezvous) and 4,096
// of its nodes.
func benchGraph() (*fiveGraph, []uint32) {
	rdv, _ := openFour(27)
	g := &fiveGraph{ix: fullIndex(), rdv: uint64(rdv), exit: testExit}
	return g, benchNodes(g)
}

// BenchmarkFiveForward measures the edges out of one node of a full-board
// five-man graph, the work of the solver's first pass.
func BenchmarkFiveForward(b *testing.B) {
	g, ns := benchGraph()
	var buf []manMove
	edges := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = g.forward(ns[i%len(ns)], buf, func(int, uint32, Value) { edges++ })
	}
	b.ReportMetric(float64(edges)/float64(b.N), "edges/node")
}

// BenchmarkFiveBackward measures the edges into one node, the work of the
// solver's second pass for each node it values.
func BenchmarkFiveBackward(b *testing.B) {
	g, ns := benchGraph()
	var buf []manMove
	edges := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = g.backward(ns[i%len(ns)], buf, func(int, uint32) { edges++ })
	}
	b.ReportMetric(float64(edges)/float64(b.N), "edges/node")
}
