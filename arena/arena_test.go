package arena

import (
	"context"
	"math"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/tablut"
)

func TestElo(t *testing.T) {
	cases := []struct {
		sc           Score
		diff, margin float64
	}{
		{Score{10, 10, 0}, 0, 148},  // 50%: Wilson [0.299, 0.701]
		{Score{15, 5, 0}, 191, 169}, // 75%: Wilson [0.531, 0.888]; 191 - 22
		{Score{20, 0, 0}, 636, 350}, // all wins: 97.5% shown; Wilson low 0.839 is +286
		{Score{0, 20, 0}, -636, 350},
	}
	for _, c := range cases {
		d, m := c.sc.Elo()
		if math.Abs(d-c.diff) > 1 || math.Abs(m-c.margin) > 2 {
			t.Errorf("%+v: Elo %+.1f ± %.1f, want %+.0f ± %.0f", c.sc, d, m, c.diff, c.margin)
		}
	}
	if got := (Score{12, 3, 5}).Line("a", "b"); got[:26] != "a 12 - 3 b, 5 draws, Elo +" {
		t.Errorf("line %q", got)
	}
}

// TestMatch: sides alternate, a match is repeatable for a seed whatever
// the number of workers, and a stronger agent wins.
func TestMatch(t *testing.T) {
	g := tablut.MustLoad("linnaeus")
	run := func(workers int) []Game {
		games, err := Match(context.Background(), g, "random", "alphabeta(depth=1)", 6, 42, Options{Workers: workers, Opening: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return games
	}
	a, b := run(1), run(2)
	for i := range a {
		if a[i].Seats != [2]int{i % 2, 1 - i%2} {
			t.Fatalf("game %d seats %v", i, a[i].Seats)
		}
		if a[i].Winner != b[i].Winner || a[i].Actions != b[i].Actions {
			t.Fatalf("game %d differs between runs: %+v %+v", i, a[i], b[i])
		}
		if _, err := game.Replay(a[i].Record); err != nil {
			t.Fatalf("game %d record: %v", i, err)
		}
	}
	// Pairs share their opening: the first two actions of games 0 and 1
	// are the same.
	if a[0].Record.Actions[0] != a[1].Record.Actions[0] || a[0].Record.Actions[1] != a[1].Record.Actions[1] {
		t.Errorf("games 0 and 1 open differently: %v %v", a[0].Record.Actions[:2], a[1].Record.Actions[:2])
	}
	if sc := Tally(a); sc.WinsB < 5 {
		t.Errorf("alphabeta(depth=1) won %d of 6 against random", sc.WinsB)
	}
}

// TestMatchLanrickChance: matches of a version with dice play the chance
// actions themselves.
func TestMatchLanrickChance(t *testing.T) {
	g := lanrick.MustLoad("1879-01", game.KV{Key: "no_progress", Value: "20"})
	games, err := Match(context.Background(), g, "random", "random", 2, 1, Options{Workers: 1}, nil)
	if err != nil || len(games) != 2 {
		t.Fatal(err)
	}
}

func TestMatchErrors(t *testing.T) {
	g := lanrick.MustLoad("1879-01")
	if _, err := Match(context.Background(), g, "alphabeta", "random", 2, 1, Options{}, nil); err == nil {
		t.Error("alphabeta cannot search dice; want an error for 1879-01")
	}
	if _, err := Match(context.Background(), g, "mcts(speed=9)", "random", 2, 1, Options{}, nil); err == nil {
		t.Error("unknown setting accepted")
	}
}
