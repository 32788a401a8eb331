package metrics

import (
	"bytes"
	"context"
	"testing"

	"github.com/muster-games/muster/arena"
)

// BenchmarkTraceOf: the state metrics' replay of one game, every legal
// action of every position valued (the report's slow part), over random
// games of Tablut and Lanrick as muster eval writes them.
func BenchmarkTraceOf(b *testing.B) {
	for _, spec := range []string{"tablut(linnaeus)", "lanrick(1893)"} {
		b.Run(spec, func(b *testing.B) {
			var out bytes.Buffer
			cfg := arena.EvalConfig{Specs: []string{spec}, Agents: [2]string{"random", "random"}, Games: 40, Seed: 5, Workers: 1, Opening: 2}
			if err := arena.Eval(context.Background(), cfg, nil, &out, nil); err != nil {
				b.Fatal(err)
			}
			lines, err := Read(&out)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, ok := TraceOf(lines[i%len(lines)], nil); !ok {
					b.Fatal("no trace")
				}
			}
		})
	}
}
