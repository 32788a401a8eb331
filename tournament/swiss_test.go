package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// line writes a round's games White first: "0-4 5-1 2-6 7-3".
func line(games []Game) string {
	var out []string
	for _, g := range games {
		if g.Black == Bye {
			out = append(out, fmt.Sprintf("%d-bye", g.White))
		} else {
			out = append(out, fmt.Sprintf("%d-%d", g.White, g.Black))
		}
	}
	return strings.Join(out, " ")
}

// play sets the results of a round's games from "1-0 ½ 0-1 …".
func play(t *testing.T, games []Game, results string) []Game {
	t.Helper()
	rs := strings.Fields(results)
	if len(rs) != len(games) {
		t.Fatalf("%d results for %d games", len(rs), len(games))
	}
	for i, r := range rs {
		switch r {
		case "1-0":
			games[i].Result = WhiteWin
		case "½":
			games[i].Result = Draw
		case "0-1":
			games[i].Result = BlackWin
		case "bye":
		default:
			t.Fatalf("result %q", r)
		}
	}
	return games
}

// TestSwissWorkedExample: the worked example of docs/web.md's Swiss,
// eight players over three rounds, each pairing and colour by the rules
// of Swiss's comment.
//
// Round 1: the top half against the bottom half, 0-4 1-5 2-6 3-7; the
// top half White on boards 1 and 3. After it 0, 3 and 6 have a point,
// 1 and 5 a half. Round 2: the group {0 3 6} pairs 0 with 3 (half the
// group down); 6, alone, floats into {1 5} and meets 1; 5, alone, floats
// into {2 4 7} and meets 4; 2-7. Colours: 3, 4 and 7 have had fewer
// Whites or the Black last (7 and 2 both White: the higher-placed 2
// takes Black). After it 6 has 2; 0, 3, 5 1½; 1, 2, 7 ½; 4 0. Round 3:
// 6 floats into {0 3 5} and meets 3; 0-5; 1-2; 7-4.
func TestSwissWorkedExample(t *testing.T) {
	var games []Game
	for i, c := range []struct{ want, results string }{
		{"0-4 5-1 2-6 7-3", "1-0 ½ 0-1 0-1"},
		{"3-0 6-1 4-5 7-2", "½ 1-0 0-1 ½"},
		{"3-6 0-5 1-2 4-7", "0-1 1-0 ½ 1-0"},
	} {
		round, err := Swiss(8, games, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := line(round); got != c.want {
			t.Fatalf("round %d: %s, want %s", i+1, got, c.want)
		}
		games = append(games, play(t, round, c.results)...)
	}
	// The standings after it, with Buchholz and Sonneborn-Berger (by
	// hand: 0 met 4, 3, 5 with 1, 1½, 1½: Buchholz 4; beat 4 and 5, drew
	// with 3: Sonneborn-Berger 1 + 1½ + ¾ = 3¼).
	st, err := Standings(8, games, []Tiebreak{Buchholz, SonnebornBerger})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range st {
		got = append(got, fmt.Sprintf("%d:%d %d:%v", s.Rank, s.Player, s.Halves, s.Tiebreaks))
	}
	want := "1:6 6:[7 14] 2:0 5:[8 13] 3:3 3:[12 7] 4:5 3:[9 6] 5:1 2:[11 5] 6:2 2:[9 3] 7:4 2:[9 2] 8:7 1:[7 2]"
	if strings.Join(got, " ") != want {
		t.Errorf("standings\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestSwissBye: with an odd number the lowest-placed player without a
// bye sits out, for a point, and never twice while others have had none;
// a withdrawn player is not paired.
func TestSwissBye(t *testing.T) {
	round, err := Swiss(5, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := line(round); got != "0-2 3-1 4-bye" {
		t.Errorf("round 1: %s", got)
	}
	games := play(t, round, "1-0 1-0 bye")
	round, err = Swiss(5, games, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 0, 3, 4 on a point: 4 has had the bye, so the lowest other, 2 or 1
	// on nothing: 2 (the higher number).
	if got := line(round); !strings.HasSuffix(got, "2-bye") {
		t.Errorf("round 2: %s, want the bye for 2", got)
	}
	round, err = Swiss(5, games, []int{4})
	if err != nil {
		t.Fatal(err)
	}
	if got := line(round); strings.Contains(got, "4") || strings.Contains(got, "bye") {
		t.Errorf("round 2 without 4: %s", got)
	}
	st, _ := Standings(5, games, nil)
	if st[0].Halves != 2 || st[0].Byes+st[1].Byes+st[2].Byes != 1 {
		t.Errorf("standings %+v", st)
	}
}

// TestSwissNeverRepeats: random Swiss events of 2 to 12 players, as many
// rounds as can be paired: no two players meet twice, everyone left
// plays once a round, and where Swiss finds no pairing an exhaustive
// search finds none either.
func TestSwissNeverRepeats(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 2; n <= 12; n++ {
		for trial := range 20 {
			var games []Game
			for r := 1; r < n+2; r++ {
				round, err := Swiss(n, games, nil)
				if errors.Is(err, ErrNoPairing) {
					if pairable(n, games) {
						t.Fatalf("%d players, trial %d, round %d: no pairing found, but one exists", n, trial, r)
					}
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				seen := map[int]bool{}
				for i := range round {
					g := &round[i]
					for _, p := range []int{g.White, g.Black} {
						if p != Bye && seen[p] {
							t.Fatalf("%d players round %d: %d twice", n, r, p)
						}
						seen[p] = true
					}
					for _, old := range games {
						if g.Black != Bye && (old.White == g.White && old.Black == g.Black || old.White == g.Black && old.Black == g.White) {
							t.Fatalf("%d players round %d: %d and %d meet again", n, r, g.White, g.Black)
						}
					}
					if g.Black != Bye {
						g.Result = Result(1 + rng.IntN(3))
					}
				}
				if len(seen) != n+n%2 {
					t.Fatalf("%d players round %d: %d placed", n, r, len(seen))
				}
				games = append(games, round...)
			}
		}
	}
}

// pairable reports whether the players (all of them, less one for the
// bye where n is odd) can be paired with no repeat.
func pairable(n int, games []Game) bool {
	met := map[[2]int]bool{}
	for _, g := range games {
		met[[2]int{g.White, g.Black}] = true
		met[[2]int{g.Black, g.White}] = true
	}
	var match func(left []int) bool
	match = func(left []int) bool {
		if len(left) == 0 {
			return true
		}
		p := left[0]
		for i := 1; i < len(left); i++ {
			if met[[2]int{p, left[i]}] {
				continue
			}
			rest := append(append([]int{}, left[1:i]...), left[i+1:]...)
			if match(rest) {
				return true
			}
		}
		return false
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	if n%2 == 0 {
		return match(all)
	}
	for bye := range n {
		rest := append(append([]int{}, all[:bye]...), all[bye+1:]...)
		if match(rest) {
			return true
		}
	}
	return false
}

// TestSwissRefusesBadInput: an unfinished game or a player out of range
// is an error, not a pairing.
func TestSwissRefusesBadInput(t *testing.T) {
	if _, err := Swiss(4, []Game{{Round: 1, White: 0, Black: 1}}, nil); err == nil {
		t.Error("an unfinished game: no error")
	}
	if _, err := Swiss(4, []Game{{Round: 1, White: 0, Black: 9, Result: Draw}}, nil); err == nil {
		t.Error("player 9 of 4: no error")
	}
}
