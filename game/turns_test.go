package game_test

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/tablut"
)

// TestTurnBuilderAsTurns: turns grouped as actions come equal those
// grouped at once after every action, and a slice given out earlier is
// never changed by later actions (a game in play shares it with its
// readers). Lanrick of 1879 throws dice (chance) and plays several actions
// a turn; Tablut one.
func TestTurnBuilderAsTurns(t *testing.T) {
	for _, spec := range []string{"lanrick(1879-03)", "lanrick(1893)", "tablut(linnaeus)"} {
		g, err := game.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		start := g.NewState()
		s := start.Clone()
		b := game.NewTurnBuilder(start)
		var given [][]game.Turn
		var copies [][]game.Turn
		for i := 0; i < 300 && !s.IsTerminal(); i++ {
			var a game.Action
			a, _ = game.RandomAction(s, rng, nil)
			s.Apply(a)
			b.Add(a)
			got := b.Turns()
			if want := game.Turns(start, s.History()); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s after %d actions: built %+v, grouped at once %+v", spec, i+1, got, want)
			}
			given = append(given, got)
			copies = append(copies, deepCopy(got))
		}
		for i := range given {
			if !reflect.DeepEqual(given[i], copies[i]) {
				t.Fatalf("%s: the turns given out after %d actions changed later", spec, i+1)
			}
		}
		if b.Len() != len(s.History()) {
			t.Fatalf("%s: Len %d, %d actions", spec, b.Len(), len(s.History()))
		}
		// Paths: one per action where any action of the turn has one,
		// else none (a view carries no list of nils).
		withPaths := 0
		for _, turn := range b.Turns() {
			if turn.Paths == nil {
				continue
			}
			withPaths++
			if len(turn.Paths) != len(turn.Actions) {
				t.Fatalf("%s: turn %d has %d actions and %d paths", spec, turn.Number, len(turn.Actions), len(turn.Paths))
			}
			if !slices.ContainsFunc(turn.Paths, func(p []string) bool { return p != nil }) {
				t.Fatalf("%s: turn %d has paths, all nil", spec, turn.Number)
			}
		}
		if strings.HasPrefix(spec, "tablut") && withPaths != 0 {
			t.Errorf("%s: %d turns with paths (Tablut's men move along a line: none)", spec, withPaths)
		}
	}
}

// TestTurnBuilderSettle: the turns Settle hands over, in order, then
// those Turns still gives, are the turns grouped at once, whenever it is
// called (after each action, now and then, never), the actions added by
// Add or played by the caller (AddPlayed); a turn handed over, and a list
// Turns gave, is never changed after.
func TestTurnBuilderSettle(t *testing.T) {
	for _, spec := range []string{"lanrick(1879-03)", "lanrick(1893)", "lanrick(1899)", "tablut(linnaeus)"} {
		g, err := game.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, every := range []int{1, 3, 1000, -1, -3} {
			// every < 0: the actions are played by the caller, each on a
			// new state as a game in play does, from action 10 on.
			rng := rand.New(rand.NewPCG(5, uint64(every+10)))
			start := g.NewState()
			s := start.Clone()
			b := game.NewTurnBuilder(start)
			var settled, copies []game.Turn
			var given, givenCopies [][]game.Turn
			for i := 0; i < 300 && !s.IsTerminal(); i++ {
				a, _ := game.RandomAction(s, rng, nil)
				if every < 0 && i >= 10 {
					next := s.Clone()
					next.Apply(a)
					b.AddPlayed(s, a, next)
					s = next
				} else {
					s.Apply(a)
					b.Add(a)
				}
				if i%max(every, -every) == 0 {
					n := b.Settle(func(t *game.Turn) {
						settled = append(settled, *t)
						copies = append(copies, deepCopy([]game.Turn{*t})...)
					})
					if n != len(settled) {
						t.Fatalf("%s: Settle says %d settled, handed over %d", spec, n, len(settled))
					}
				}
				// What Turns gives is shared with readers: later actions
				// and settlings must leave it as it was.
				given = append(given, b.Turns())
				givenCopies = append(givenCopies, deepCopy(b.Turns()))
				got := append(slices.Clone(settled), b.Turns()...)
				if want := game.Turns(start, s.History()); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, settled every %d, after %d actions: %+v, grouped at once %+v", spec, every, i+1, got, want)
				}
			}
			if !reflect.DeepEqual(settled, copies) {
				t.Fatalf("%s: a turn handed over changed later", spec)
			}
			for i := range given {
				if !reflect.DeepEqual(given[i], givenCopies[i]) {
					t.Fatalf("%s, settled every %d: the turns given after %d actions changed later", spec, every, i+1)
				}
			}
			if (every == 1 || every == -1) && len(settled) < 10 {
				t.Fatalf("%s: only %d turns settled", spec, len(settled))
			}
		}
	}
}

func deepCopy(ts []game.Turn) []game.Turn {
	out := make([]game.Turn, len(ts))
	for i, t := range ts {
		c := t
		c.Actions = append([]string(nil), t.Actions...)
		c.Labels = append([]string(nil), t.Labels...)
		c.Squares = append([][]string(nil), t.Squares...)
		c.Paths = append([][]string(nil), t.Paths...)
		c.Events = append([]game.Event(nil), t.Events...)
		out[i] = c
	}
	return out
}
