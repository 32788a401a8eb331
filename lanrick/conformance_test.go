package lanrick

import (
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/game/gametest"
)

// rulesets are every ruleset id of rules/lanrick.md that is implemented.
var rulesets = []string{"1879-01", "1879-03", "1880-10", "1880-12", "1881", "1893", "1899"}

// TestConformance runs the shared suite on every ruleset: random games to
// their end, clone independence, text round trips, hash recompute.
func TestConformance(t *testing.T) {
	for i, rs := range rulesets {
		t.Run(rs, func(t *testing.T) {
			gametest.Run(t, MustLoad(rs), gametest.Options{Games: 10, Seed: uint64(i)})
		})
	}
}

// TestPerft counts atomic actions from the start. 1893: 4 first marks
// (Rule 2), each with interchange or not (Rule 5), then 40 two-square
// opening moves for white in each of the 8 positions, which are all one
// position under the half-turn symmetry of the start.
func TestPerft(t *testing.T) {
	table := map[string][]uint64{
		"1893": {4, 8, 320, 10448, 436192},
		"1899": {25, 50, 2000, 65300, 2726200},
	}
	for rs, want := range table {
		s := MustLoad(rs).Start()
		for d, w := range want {
			if testing.Short() && d >= 4 {
				break
			}
			if got := game.Perft(s, d+1); got != w {
				t.Errorf("%s perft(%d) = %d, want %d", rs, d+1, got, w)
			}
		}
	}
}

// greedy plays toward the rendezvous: it takes the action after which the
// mover has the most men in and the least way to go, with some chance of
// a random action; it drives games through wins, removals and the phases
// after them, which uniform play seldom reaches.
func greedy(gs game.State, legal []game.Action, rng *rand.Rand) game.Action {
	if rng.IntN(10) == 0 {
		return legal[rng.IntN(len(legal))]
	}
	s := gs.(*State)
	p := int(s.toAct)
	best, bestScore := legal[0], -1<<30
	for _, a := range legal {
		c := s.Copy()
		c.Apply(a)
		score := rng.IntN(3)
		switch {
		case c.over && c.result.Winner == game.Player(p):
			score += 1 << 20
		case c.rendezvous > s.rendezvous || c.men[p].count() > s.men[p].count():
			score += 1 << 16
		}
		if c.mark >= 0 {
			score += 100 * (c.men[p] & c.rdv).count()
			for _, q := range (c.men[p] &^ c.rdv).squares(nil) {
				score -= int(chebyshev(q, c.mark))
			}
		}
		if k, _, _ := unpack(a); k == kEnd || k == kPass {
			score -= 50
		}
		if score > bestScore {
			best, bestScore = a, score
		}
	}
	return best
}

// TestConformanceGreedy runs the suite with greedy play, so that games of
// every ruleset reach their real ends.
func TestConformanceGreedy(t *testing.T) {
	for i, rs := range rulesets {
		t.Run(rs, func(t *testing.T) {
			gametest.Run(t, MustLoad(rs), gametest.Options{Games: 6, Seed: uint64(100 + i), Policy: greedy})
		})
	}
}

// TestGreedyGamesEnd: greedy games of every ruleset end with a winner
// (rendezvous are won and men lost) more often than not.
func TestGreedyGamesEnd(t *testing.T) {
	for i, rs := range rulesets {
		g := MustLoad(rs)
		rng := rand.New(rand.NewPCG(uint64(i), 9))
		reasons := map[string]int{}
		won := 0
		for n := 0; n < 20; n++ {
			s := g.Start()
			for steps := 0; !s.over && steps < 20000; steps++ {
				if s.toAct == -1 {
					outs := s.ChanceOutcomes(nil)
					s.Apply(outs[rng.IntN(len(outs))].Action)
					continue
				}
				s.Apply(greedy(s, s.LegalActions(nil), rng))
			}
			reasons[s.result.Reason]++
			if s.result.Winner >= 0 {
				won++
			}
		}
		t.Logf("%s: %v", rs, reasons)
		if won < 10 {
			t.Errorf("%s: only %d of 20 greedy games have a winner: %v", rs, won, reasons)
		}
	}
}
