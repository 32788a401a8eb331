package tablut

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestForkAsClone: a game played move by move on forks, each of the state
// before (as a game's room plays it), reads as the same game played on one
// state: position, hash, history, legal moves, events, end (repetitions
// included, which read the hashes the forks share); each state forked
// reads afterwards as it did before, and a fork played and dropped (a move
// that failed to be stored) leaves the next fork as a first one. Each
// state is released once its fork is played, and each fork dropped, as
// the room releases them: the forks made of their memory read as new
// ones, and the histories they gave out (a snapshot's) stay as they were.
func TestForkAsClone(t *testing.T) {
	for _, info := range Info.Rulesets {
		rng := rand.New(rand.NewPCG(1, 2))
		for range 20 {
			one := MustLoad(info.ID).Start()
			var forked game.State = one.Copy()
			var given, copies [][]game.Action // histories given out, and copies of them
			for ply := 0; ply < 300 && !one.IsTerminal(); ply++ {
				legal := one.LegalActions(nil)
				a := legal[rng.IntN(len(legal))]
				before, history, events := forked.String(), slices.Clone(forked.History()), forked.Events()
				given, copies = append(given, forked.History()), append(copies, history)
				if rng.IntN(4) == 0 {
					dropped := game.Fork(forked)
					dropped.Apply(legal[rng.IntN(len(legal))])
					game.Release(dropped)
				}
				next := game.Fork(forked)
				next.Apply(a)
				one.Apply(a)
				if forked.String() != before || !slices.Equal(forked.History(), history) || !slices.EqualFunc(forked.Events(), events, sameEvent) {
					t.Fatalf("%s ply %d: the state forked changed: %s, %v; was %s, %v", info.ID, ply, forked.String(), forked.History(), before, history)
				}
				game.Release(forked)
				forked = next
				if forked.String() != one.String() || forked.Hash() != one.Hash() || !slices.Equal(forked.History(), one.History()) ||
					forked.IsTerminal() != one.IsTerminal() || !reflect.DeepEqual(forked.Result(), one.Result()) ||
					!slices.Equal(forked.LegalActions(nil), one.LegalActions(nil)) || !slices.EqualFunc(forked.Events(), one.Events(), sameEvent) {
					t.Fatalf("%s ply %d: forked %s (%v), on one state %s (%v)", info.ID, ply, forked.String(), forked.Result(), one.String(), one.Result())
				}
			}
			for i := range given {
				if !slices.Equal(given[i], copies[i]) {
					t.Fatalf("%s: the history given out at ply %d changed", info.ID, i)
				}
			}
		}
	}
}

func sameEvent(a, b game.Event) bool {
	return a.Kind == b.Kind && a.Player == b.Player && a.Text == b.Text && slices.Equal(a.Squares, b.Squares)
}
