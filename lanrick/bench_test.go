package lanrick

import (
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/game"
)

// BenchmarkPlayout plays uniformly random games (chance actions with their
// probabilities) on one core; the floor is 1 million atomic actions per
// second.
func BenchmarkPlayout(b *testing.B) {
	for _, rs := range []string{"1893", "1880-12", "1879-01"} {
		b.Run(rs, func(b *testing.B) {
			start := MustLoad(rs).Start()
			rng := rand.New(rand.NewPCG(1, 2))
			buf := make([]game.Action, 0, MaxActions)
			actions := 0
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s := start.Copy()
				var n int
				n, buf = game.Playout(s, rng, 1<<20, buf)
				actions += n
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(actions)/sec, "actions/s")
			b.ReportMetric(float64(b.N)/sec, "games/s")
			b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
		})
	}
}

// BenchmarkLegalActions lists the actions of a position in play.
func BenchmarkLegalActions(b *testing.B) {
	s := MustLoad("1893").Start()
	playAll(b, s, "mark d5 no-interchange a7-a5")
	buf := make([]game.Action, 0, MaxActions)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = s.LegalActions(buf[:0])
	}
}

// TestMoveGenerationAllocatesNothing: listing and applying man-moves
// allocates nothing once the buffers have room.
func TestMoveGenerationAllocatesNothing(t *testing.T) {
	for _, rs := range []string{"1893", "1880-12", "1881"} {
		s := position(t, MustLoad(rs), "a8 b8 c8 d8 e8", "a1 b1 c1 d1 e1", "to=white phase=move mark=d4 setter=black privilege=yes "+map[bool]string{true: oldFields, false: "size=9 opened=bw"}[rs != "1893"])
		buf := make([]game.Action, 0, MaxActions)
		c := s.Copy()
		c.hashes = make([]uint64, 0, 1024)
		c.actions = make([]game.Action, 0, 1024)
		allocs := testing.AllocsPerRun(50, func() {
			buf = s.LegalActions(buf[:0])
			c.Apply(buf[0])
			c.men, c.moved, c.budget, c.toAct, c.phase, c.movedAny = s.men, s.moved, s.budget, s.toAct, s.phase, s.movedAny
			c.hashes, c.actions = c.hashes[:0], c.actions[:0]
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per run, want 0", rs, allocs)
		}
	}
}
