// Package arena plays agents against each other: single games, matches
// with sides alternated, and the Elo difference they show.
package arena

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
)

// Game is one finished game.
type Game struct {
	Index int
	// Seats[p] is the agent (0 = A, 1 = B) that played player p.
	Seats   [2]int
	Result  game.Result
	Winner  int // the winning agent (0 = A, 1 = B), -1 for a draw
	Actions int
	Record  *game.Record
}

// Options tune a match.
type Options struct {
	// Opening is the number of uniformly random actions that start each
	// game; the two games of a pair (2k, 2k+1) share their opening with
	// the sides swapped, so that deterministic agents do not replay one
	// game over and over.
	Opening int
	// Workers is the number of games played at once (0: one per core).
	Workers int
}

// Match plays n games between the agents of specs a and b, A taking
// player 0 in even games and player 1 in odd ones. Each game's opening,
// agents and dice are seeded from seed, the game string and the game's
// index, as in Eval, so a match is repeatable whatever the workers. done is
// called as each game ends.
func Match(ctx context.Context, g game.Game, a, b string, n int, seed uint64, o Options, done func(Game)) ([]Game, error) {
	for _, spec := range []string{a, b} {
		if _, err := agent.New(spec, g, 0); err != nil {
			return nil, err
		}
	}
	games := make([]Game, n)
	var mu sync.Mutex
	err := inParallel(ctx, o.Workers, n, func(i int) error {
		pl, err := pairing{g: g, specs: [2]string{a, b}, index: i, seed: seed, random: o.Opening}.play(ctx)
		if err != nil {
			return err
		}
		s := pl.state
		gm := Game{Index: i, Seats: pl.seats, Result: s.Result(), Winner: -1, Actions: len(s.History()), Record: pl.record([2]string{a, b})}
		if s.IsTerminal() && s.Result().Winner >= 0 {
			gm.Winner = pl.seats[s.Result().Winner]
		}
		if !s.IsTerminal() {
			gm.Result = game.Result{Winner: -1, Reason: fmt.Sprintf("stopped after %d actions", MaxActions)}
		}
		mu.Lock()
		defer mu.Unlock()
		games[i] = gm
		if done != nil {
			done(gm)
		}
		return nil
	})
	return games, err
}

// Score sums a match from A's side.
type Score struct {
	WinsA, WinsB, Draws int
}

// Tally counts the games.
func Tally(games []Game) Score {
	var sc Score
	for _, gm := range games {
		switch gm.Winner {
		case 0:
			sc.WinsA++
		case 1:
			sc.WinsB++
		default:
			sc.Draws++
		}
	}
	return sc
}

// Elo returns A's Elo difference over B and a margin: the distance from
// it to the end, nearer to zero, of the 95% Wilson interval of A's score
// fraction (draws count half), so that the difference is significant when
// it exceeds the margin. A score of all wins or all losses is moved half a
// game inwards so that the figure stays finite.
func (sc Score) Elo() (diff, margin float64) {
	n := float64(sc.WinsA + sc.WinsB + sc.Draws)
	if n == 0 {
		return 0, 0
	}
	p := (float64(sc.WinsA) + float64(sc.Draws)/2) / n
	elo := func(x float64) float64 {
		x = math.Min(math.Max(x, 1e-9), 1-1e-9)
		return -400 * math.Log10(1/x-1)
	}
	diff = elo(math.Min(math.Max(p, 0.5/n), 1-0.5/n))
	const z = 1.96
	centre := (p + z*z/(2*n)) / (1 + z*z/n)
	half := z / (1 + z*z/n) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	lo, hi := centre-half, centre+half
	if diff >= 0 {
		return diff, diff - elo(lo)
	}
	return diff, elo(hi) - diff
}

// Line writes the match's last line: "A 12 - 3 B, 5 draws, Elo +245 ± 180".
func (sc Score) Line(a, b string) string {
	d, e := sc.Elo()
	return fmt.Sprintf("%s %d - %d %s, %d draws, Elo %+.0f ± %.0f", a, sc.WinsA, sc.WinsB, b, sc.Draws, d, e)
}
