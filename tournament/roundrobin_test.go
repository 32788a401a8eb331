package tournament

import (
	"fmt"
	"strings"
	"testing"
)

// berger writes rounds in Berger's numbers (player+1), as the tables
// print them: "1-6 2-5 3-4".
func berger(rounds [][]Pairing) []string {
	var out []string
	for _, r := range rounds {
		var games []string
		for _, g := range r {
			if g.Black == Bye {
				games = append(games, fmt.Sprintf("%d-bye", g.White+1))
			} else {
				games = append(games, fmt.Sprintf("%d-%d", g.White+1, g.Black+1))
			}
		}
		out = append(out, strings.Join(games, " "))
	}
	return out
}

// TestRoundRobinBergerTables: the rounds are FIDE's Berger tables
// (Handbook C.05, Annex 1), for 4, 6 and 8 players as printed there, and
// for 5 the table of 6 with player 6's partner on the bye.
func TestRoundRobinBergerTables(t *testing.T) {
	for _, c := range []struct {
		n    int
		want []string
	}{
		{4, []string{"1-4 2-3", "4-3 1-2", "2-4 3-1"}},
		{6, []string{"1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"}},
		{8, []string{"1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
			"3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"}},
		{5, []string{"1-bye 2-5 3-4", "4-bye 5-3 1-2", "2-bye 3-1 4-5", "5-bye 1-4 2-3", "3-bye 4-2 5-1"}},
	} {
		rounds, err := RoundRobin(c.n)
		if err != nil {
			t.Fatal(err)
		}
		if got := berger(rounds); strings.Join(got, " / ") != strings.Join(c.want, " / ") {
			t.Errorf("%d players:\n got %q\nwant %q", c.n, got, c.want)
		}
	}
}

// TestRoundRobinMeetsEveryoneOnce: for 2 to 20 players, every two meet
// exactly once, nobody plays twice in a round, colours differ by at most
// one for the fixed player and two for the rest, and the double cycle
// gives each pair one game with each colour.
func TestRoundRobinMeetsEveryoneOnce(t *testing.T) {
	for n := 2; n <= 20; n++ {
		rounds, err := RoundRobin(n)
		if err != nil {
			t.Fatal(err)
		}
		met := map[[2]int]int{}
		white := make([]int, n)
		black := make([]int, n)
		for ri, r := range rounds {
			busy := map[int]bool{}
			for _, g := range r {
				for _, p := range []int{g.White, g.Black} {
					if p == Bye {
						continue
					}
					if busy[p] {
						t.Fatalf("%d players, round %d: %d plays twice", n, ri+1, p)
					}
					busy[p] = true
				}
				if g.Black == Bye {
					continue
				}
				met[[2]int{min(g.White, g.Black), max(g.White, g.Black)}]++
				white[g.White]++
				black[g.Black]++
			}
			if len(busy) != n {
				t.Errorf("%d players, round %d: %d placed", n, ri+1, len(busy))
			}
		}
		if len(met) != n*(n-1)/2 {
			t.Errorf("%d players: %d pairs met, want %d", n, len(met), n*(n-1)/2)
		}
		for pair, k := range met {
			if k != 1 {
				t.Errorf("%d players: %v met %d times", n, pair, k)
			}
		}
		for p := range n {
			if d := white[p] - black[p]; d < -2 || d > 2 {
				t.Errorf("%d players: player %d has %d whites, %d blacks", n, p, white[p], black[p])
			}
		}
		double, err := DoubleRoundRobin(n)
		if err != nil {
			t.Fatal(err)
		}
		games := map[Pairing]int{}
		for _, r := range double {
			for _, g := range r {
				if g.Black != Bye {
					games[g]++
				}
			}
		}
		if len(games) != n*(n-1) {
			t.Errorf("%d players, double: %d distinct games, want %d", n, len(games), n*(n-1))
		}
	}
	if _, err := RoundRobin(1); err == nil {
		t.Error("one player: no error")
	}
}
