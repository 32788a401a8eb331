package study

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/search"
)

// hurry plays toward the rendezvous: the action after which the mover has
// the most men in it, ties and one action in eight drawn at random.
func hurry(s *lanrick.State, rng *rand.Rand) game.Action {
	legal := s.LegalActions(nil)
	if rng.IntN(8) == 0 {
		return legal[rng.IntN(len(legal))]
	}
	me := int(s.ToAct())
	best, score := legal[0], -1
	for _, a := range legal {
		c := s.Copy()
		c.Apply(a)
		n := 4*bits.OnesCount64(uint64(c.Men(me)&c.RendezvousSquares())) + rng.IntN(4)
		if c.IsTerminal() && c.Result().Winner == game.Player(me) {
			n += 1000
		}
		if n > score {
			best, score = a, n
		}
	}
	return best
}

// TestReplayAgreesWithEvents replays games of 1893 and 1899 and compares
// the winners Replay finds, from the men alone, with the rendezvous-won
// events the game announced as it was played.
func TestReplayAgreesWithEvents(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	compared := 0
	for _, rs := range []string{"1893", "1899"} {
		g := lanrick.MustLoad(rs)
		for range 6 {
			s := g.Start()
			announced := []int{}
			for !s.IsTerminal() && len(s.History()) < 600 {
				s.Apply(hurry(s, rng))
				for _, e := range s.Events() {
					if e.Kind == "rendezvous-won" && len(announced) < 3 {
						announced = append(announced, int(e.Player))
					}
				}
			}
			rec := game.NewRecord("", s)
			r, err := Replay(g, rec)
			if err != nil {
				t.Fatal(err)
			}
			for k, c := range r.Won {
				// Replay counts a rendezvous won by a removal, not by a
				// conversion (Rule 7), so it may name fewer.
				if c >= 0 && !slices.Contains(announced, c) {
					t.Errorf("%s: Replay says %s won rendezvous %d; the events named %v", rs, g.PlayerName(game.Player(c)), k+1, announced)
				}
				if c >= 0 {
					compared++
				}
			}
			if w := s.Result().Winner; s.IsTerminal() && r.Winner != int(w) {
				t.Errorf("%s: Replay's winner %d, the game's %d", rs, r.Winner, w)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no rendezvous won in any game: the test checks nothing")
	}
}

// TestSelectorCounts: every sampled position is counted once, and a
// proved win of the selector is a win when solved again alone.
func TestSelectorCounts(t *testing.T) {
	g := lanrick.MustLoad("1880-12")
	r, err := Selector(g, 1, 1, 12, 3, search.Limits{Depth: 8})
	if err != nil {
		t.Fatal(err)
	}
	if r.Positions+r.NoMark != 12 || r.Win+r.Loss+r.Open != r.Positions {
		t.Errorf("counts do not add up: %+v", r)
	}
	if r.WinField > r.Win || r.LossField > r.Loss {
		t.Errorf("field counts exceed the totals: %+v", r)
	}
	if _, err := Selector(lanrick.MustLoad("1893"), 1, 1, 0, 1, search.Limits{Depth: 4}); err == nil {
		t.Error("the selector question of 1893 gave no error")
	}
	if _, err := Selector(g, 2, 1, 0, 1, search.Limits{Depth: 4}); err == nil {
		t.Error("two men a side without a sample gave no error")
	}
}

// TestTurnToReachesTheMen: the turn TurnTo finds ends with the mover's men
// where it was asked to put them.
func TestTurnToReachesTheMen(t *testing.T) {
	g := lanrick.MustLoad("1893")
	rng := rand.New(rand.NewPCG(9, 9))
	for range 20 {
		s := g.Start()
		for !s.IsTerminal() && !s.TurnStart() || len(s.History()) < 8 {
			s.Apply(hurry(s, rng))
		}
		if s.IsTerminal() {
			continue
		}
		me := int(s.ToAct())
		want := s.Copy()
		for want.ToAct() == game.Player(me) && !want.IsTerminal() && want.Phase() == lanrick.PhaseMove {
			want.Apply(hurry(want, rng))
		}
		acts := TurnTo(s, want.Men(me))
		if acts == nil {
			t.Fatalf("%s: no turn reaches %v", s, want.Men(me))
		}
		c := s.Copy()
		for _, a := range acts {
			c.Apply(a)
		}
		if c.Men(me) != want.Men(me) {
			t.Fatalf("%s: the turn %v ends with %v, want %v", s, game.Notation(s, acts), c.Men(me), want.Men(me))
		}
	}
}
