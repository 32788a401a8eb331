package lanrick

import (
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/game/gametest"
)

// rulesets are every ruleset id of rules/lanrick.md that is implemented.
var rulesets = []string{"1893", "1899"}

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
