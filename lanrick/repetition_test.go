package lanrick

import (
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestSeenHoldsEveryHash: the filter that spares the scan for a
// repetition has the bit of every hash since the last progress, after
// every action of random games under every ruleset, in copies and reset
// states too; and a hash added is had (TestDraws draws on the third
// occurrence through it).
func TestSeenHoldsEveryHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var buf []game.Action
	for _, rs := range Info.Rulesets {
		g := MustLoad(rs.ID)
		for range 20 {
			s := g.Start()
			for n := 0; !s.IsTerminal() && n < 2000; n++ {
				var a game.Action
				a, buf = game.RandomAction(s, rng, buf)
				s.Apply(a)
				for _, c := range []*State{s, s.Copy()} {
					for _, h := range c.hashes {
						if !c.seen.has(h) {
							t.Fatalf("%s after %d actions: hash %x not in the filter", rs.ID, n+1, h)
						}
					}
				}
			}
			r := g.Start()
			r.Reset(s)
			if r.seen != s.seen {
				t.Fatalf("%s: Reset left another filter", rs.ID)
			}
		}
	}
	var f hashFilter
	for h := uint64(0); h < 1024; h += 3 {
		f.add(h * 0x9e3779b97f4a7c15)
	}
	for h := uint64(0); h < 1024; h++ {
		if got, want := f.has(h*0x9e3779b97f4a7c15), h%3 == 0; want && !got {
			t.Fatalf("hash %d added but not had", h)
		}
	}
}
