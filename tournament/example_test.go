package tournament_test

import (
	"fmt"

	"github.com/muster-games/muster/tournament"
)

// A round robin of four by Berger's tables, played out, and its
// standings with Sonneborn-Berger.
func Example() {
	rounds, _ := tournament.RoundRobin(4)
	var games []tournament.Game
	for r, round := range rounds {
		for _, p := range round {
			// The lower number wins, except that 3 beats 0.
			res := tournament.WhiteWin
			if p.White > p.Black != (p.White == 3 && p.Black == 0 || p.White == 0 && p.Black == 3) {
				res = tournament.BlackWin
			}
			games = append(games, tournament.Game{Round: r + 1, White: p.White, Black: p.Black, Result: res})
			fmt.Printf("round %d: %d-%d %s\n", r+1, p.White, p.Black, res)
		}
	}
	st, _ := tournament.Standings(4, games, []tournament.Tiebreak{tournament.SonnebornBerger})
	for _, s := range st {
		fmt.Printf("%d. player %d: %g points, Sonneborn-Berger %g\n", s.Rank, s.Player, s.Points(), float64(s.Tiebreaks[0])/4)
	}
	// Output:
	// round 1: 0-3 0-1
	// round 1: 1-2 1-0
	// round 2: 3-2 0-1
	// round 2: 0-1 1-0
	// round 3: 1-3 1-0
	// round 3: 2-0 0-1
	// 1. player 0: 2 points, Sonneborn-Berger 3
	// 2. player 1: 2 points, Sonneborn-Berger 2
	// 3. player 3: 1 points, Sonneborn-Berger 2
	// 4. player 2: 1 points, Sonneborn-Berger 1
}
