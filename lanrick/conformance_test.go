package lanrick

import (
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/game/gametest"
)

// rulesets are every ruleset id of docs/lanrick-rules.md that is implemented.
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

// TestPerftAfterSetting counts atomic actions after a fixed setting of the
// men (a1 h1 b1 h2 c1 h3 d1 h4 e1 h5 in the order each version sets them):
// the throws of the die (1879; 6 × 6 at depth 2) or the marks, then the
// moves. From the very start every 3×3 version has 28·27·26·25 = 491,400
// ways to set the first four men.
func TestPerftAfterSetting(t *testing.T) {
	table := map[string][]uint64{
		"1879-01": {6, 36, 2304, 83916},
		"1879-03": {6, 36, 936, 28688},
		"1880-10": {36, 1836, 56448, 1801584},
		"1880-12": {27, 1540, 52279, 1717781},
		"1881":    {31, 899, 31093, 1253846},
	}
	for rs, want := range table {
		s := MustLoad(rs).Start()
		if got := game.Perft(s, 4); got != 491400 {
			t.Errorf("%s perft(4) from the start = %d, want 491400", rs, got)
		}
		placeAll(t, s, "a1 h1 b1 h2 c1 h3 d1 h4 e1 h5")
		for d, w := range want {
			if testing.Short() && d >= 3 {
				break
			}
			if got := game.Perft(s, d+1); got != w {
				t.Errorf("%s perft(%d) after the setting = %d, want %d", rs, d+1, got, w)
			}
		}
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
