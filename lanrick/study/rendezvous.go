package study

import (
	"fmt"
	"math/bits"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
)

// Rendezvous is who won the first rendezvous of a recorded game.
type Rendezvous struct {
	// Won[k] is the colour that won rendezvous k+1 (lanrick.Black or
	// White), -1 where the game did not get so far.
	Won [3]int
	// Winner of the game, -1 for a draw or an unfinished game.
	Winner int
	// Excluded counts, for 1893's Rule 7 conversions, how many of the
	// loser's men stood outside the rendezvous when the winner got all
	// his in, keyed by the rendezvous's size and that number.
	Excluded map[[2]int]int
}

// Replay plays a record of a game of Lanrick and says who won each of its
// first three rendezvous: a rendezvous is won where a player's men
// decrease with none of his converted (the loser loses a man in every
// version).
func Replay(g game.Game, rec *game.Record) (Rendezvous, error) {
	r := Rendezvous{Won: [3]int{-1, -1, -1}, Winner: -1, Excluded: map[[2]int]int{}}
	gs := g.NewState()
	if rec.Start != "" {
		var err error
		if gs, err = g.ParseState(rec.Start); err != nil {
			return r, err
		}
	}
	s, ok := gs.(*lanrick.State)
	if !ok {
		return r, fmt.Errorf("%s is not a game of Lanrick", g.Spec())
	}
	count := func(b lanrick.Bitboard) int { return bits.OnesCount64(uint64(b)) }
	won := 0
	for _, a := range rec.Actions {
		before := [2]int{count(s.Men(0)), count(s.Men(1))}
		rdv := s.RendezvousSquares()
		outside := [2]lanrick.Bitboard{s.Men(0) &^ rdv, s.Men(1) &^ rdv}
		if err := game.ApplyNotation(s, []string{a}); err != nil {
			return r, err
		}
		after := [2]int{count(s.Men(0)), count(s.Men(1))}
		for p := range 2 {
			if after[p] < before[p] && after[1-p] > before[1-p] { // converted: Rule 7
				r.Excluded[[2]int{count(rdv), count(outside[p])}]++
			}
			if after[p] < before[p] && after[1-p] <= before[1-p] && won < 3 {
				r.Won[won] = 1 - p
				won++
			}
		}
	}
	if res := s.Result(); s.IsTerminal() && res.Winner >= 0 {
		r.Winner = int(res.Winner)
	}
	return r, nil
}
