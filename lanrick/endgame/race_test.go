package endgame

import (
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/lanrick"
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

// TestRaceProves checks Prove against the tables: where the player to
// move wins within its depth it finds a win, no sooner than the tables'
// and whose first action keeps the win; where he does not, it finds none.
func TestRaceProves(t *testing.T) {
	tb := built(t)
	g := lanrick.MustLoad("1893")
	line := lineOfSquares(t, tb.Line)
	race := RaceOf(tb.Line)
	ts := &Tables{tables: map[lanrick.Bitboard]*slot{}}
	sl := &slot{t: tb}
	sl.once.Do(func() {})
	ts.tables[tb.Line] = sl
	r := rand.New(rand.NewPCG(8, 8))
	const depth = 3
	found, none := 0, 0
	for n := 0; n < 3000 && (found < 12 || none < 8); n++ {
		black, white := RandomPosition(r)
		side := r.IntN(2)
		v, _ := tb.Value(black, white, side)
		if v.Outcome == 0 {
			continue
		}
		s := state(t, g, black, white, line, side, false)
		a, turns, ok := race.Prove(s, depth)
		switch {
		case v.Outcome == 1 && v.Turns <= depth:
			if !ok || turns != v.Turns {
				t.Fatalf("%s: the tables win in %d turns, Prove says %v in %d", s, v.Turns, ok, turns)
			}
			c := s.Copy()
			c.Apply(a)
			if w, err := ts.ahead(c, side, 1); err != nil || w.Outcome != 1 {
				t.Fatalf("%s: Prove's %s leaves %v (%v)", s, s.ActionString(a), w, err)
			}
			found++
		case v.Outcome == -1 || v.Turns > depth:
			if ok {
				t.Fatalf("%s: the tables say %v, Prove found a win in %d", s, v, turns)
			}
			none++
		}
	}
	if found < 12 || none < 8 {
		t.Fatalf("%d wins found, %d positions without: too few", found, none)
	}
}

func lineOfSquares(t *testing.T, sq lanrick.Bitboard) Line {
	for _, l := range Lines() {
		if l.Squares == sq {
			return l
		}
	}
	t.Fatalf("no line %x", uint64(sq))
	return Line{}
}

// Best (for the tests, which check the search's values with it) searches
// depth turns from the start of a turn (opening: Rule 3's
// 2-square first turn) and returns the men of the player to move after
// his best turn and its score for him: above RaceWin-100 a proved win
// in RaceWin-score turns, below -(RaceWin-100) a proved loss.
func (r *Race) Best(mine, theirs lanrick.Bitboard, depth int, opening bool) (after lanrick.Bitboard, score int) {
	tt := map[[2]uint64]raceEntry{}
	budget := turnBudget
	if opening {
		budget = openingBudget
	}
	var best uint64
	for d := 1; d <= depth; d++ {
		best, score = r.root(uint64(mine), uint64(theirs), d, budget, tt)
		if score > RaceWin-100 || score < -(RaceWin-100) {
			break
		}
	}
	return lanrick.Bitboard(best), score
}

func (r *Race) root(mine, theirs uint64, depth, budget int, tt map[[2]uint64]raceEntry) (uint64, int) {
	moves, won := r.turns(mine, theirs, budget)
	if won != 0 {
		return won, RaceWin - 1
	}
	best, bestV := moves[0], -2*RaceWin
	alpha := -2 * RaceWin
	for _, m := range moves {
		v := -r.negamax(theirs, m, depth-1, -2*RaceWin, -alpha, 2, tt)
		if v > bestV {
			best, bestV = m, v
		}
		alpha = max(alpha, v)
	}
	return best, bestV
}
