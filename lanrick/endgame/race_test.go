package endgame

import (
	"math/rand/v2"
	"testing"
)

// TestRaceFindsTablesWins checks the turn-level race search against the
// tables: where the tables say the player to move wins within the
// search's depth, it proves a win in that many turns and its turn keeps
// it; where they say he loses within it, it proves the loss.
func TestRaceFindsTablesWins(t *testing.T) {
	tb := built(t)
	race := RaceOf(tb.Line)
	r := rand.New(rand.NewPCG(5, 5))
	const depth = 3
	checked := map[int]int{}
	for n := 0; n < 4000 && (checked[1] < 25 || checked[-1] < 12); n++ {
		black, white := RandomPosition(r)
		side := r.IntN(2)
		v, _ := tb.Value(black, white, side)
		if v.Outcome == 0 || v.Turns > depth || checked[v.Outcome] >= 25 {
			continue
		}
		mine, theirs := black, white
		if side == 1 {
			mine, theirs = white, black
		}
		after, score := race.Best(mine, theirs, depth, false)
		switch v.Outcome {
		case 1:
			if score != RaceWin-v.Turns {
				t.Fatalf("%s v %s: the tables win in %d turns, the search scores %d", squares(mine), squares(theirs), v.Turns, score)
			}
			if after&^tb.Line != 0 {
				b, w := after, theirs
				if side == 1 {
					b, w = theirs, after
				}
				if u, _ := tb.Value(b, w, 1-side); u.Outcome != -1 {
					t.Fatalf("%s v %s: the search's turn to %s leaves the other %v", squares(mine), squares(theirs), squares(after), u)
				}
			}
		case -1:
			if score != -(RaceWin - v.Turns) {
				t.Fatalf("%s v %s: the tables lose in %d turns, the search scores %d", squares(mine), squares(theirs), v.Turns, score)
			}
		}
		checked[v.Outcome]++
	}
	if checked[1] < 25 || checked[-1] < 12 {
		t.Fatalf("checked %v: too few", checked)
	}
}

// BenchmarkRaceBest measures a search of the final rendezvous from random
// starts of a turn, by depth in turns.
func BenchmarkRaceBest(b *testing.B) {
	for _, depth := range []int{2, 3, 4} {
		b.Run(string(rune('0'+depth)), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			lines := Lines()
			for i := 0; i < b.N; i++ {
				l := lines[r.IntN(len(lines))]
				black, white := RandomPosition(r)
				RaceOf(l.Squares).Best(black, white, depth, false)
			}
		})
	}
}
