// Package gametest is the conformance suite that every game of the
// registry must pass: random games to their end, clone independence, text
// round trips of positions and actions, and the hash against a recompute
// after every action.
//
// It runs in stages, so that a new game is green at each step of its
// building: RunRules checks the rules alone (a state may still embed
// game.Undescribed); Run checks the rules and the description together;
// Lessons and Figures check the walkthrough and the rules page's diagrams.
package gametest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/muster-games/muster/game"
)

// Options tunes the suite for a game.
type Options struct {
	// Games is the number of random games to play (default 20).
	Games int
	// MaxActions stops a game that has not ended (default 20,000).
	MaxActions int
	// Seed seeds the random choices.
	Seed uint64
	// Policy, if set, picks the action among the legal ones instead of a
	// uniform draw, to steer games into the rules' later phases.
	Policy func(s game.State, legal []game.Action, rng *rand.Rand) game.Action
}

// RunRules is the first stage: it plays random games of g and checks the
// rules as Run does, without the description (the traits' board, the
// views, descriptors, prompts and events).
func RunRules(t *testing.T, g game.Game, o Options) {
	t.Helper()
	run(t, g, o, false)
}

// Run plays random games of g and checks, after every action, that
//   - the legal actions are distinct, and each parses back from its
//     notation to itself and is accepted by Play;
//   - the position text round-trips: parsing it gives a state with the
//     same text, hash and player to act;
//   - the hash equals the hash of the state parsed from its text (a full
//     recompute);
//   - a clone is independent: playing on it leaves the original unchanged;
//   - an action that is not legal is refused by Play, which changes
//     nothing;
//   - the game ends, and a terminal state has no legal actions and
//     returns that sum to zero for a win or draw;
//   - the description (describe.go): the traits fit the game, every view
//     has its pieces, regions and marks on the board, every legal action
//     has a descriptor whose squares lie on the board (actions on the same
//     squares told apart by their labels), the prompt's squares are
//     exactly the first squares of the legal actions, an action that does
//     not end its turn leaves its player to act, every event is said in
//     words, the game's end is announced, and the turns partition the
//     history.
func Run(t *testing.T, g game.Game, o Options) {
	t.Helper()
	run(t, g, o, true)
}

func run(t *testing.T, g game.Game, o Options, describe bool) {
	t.Helper()
	if o.Games == 0 {
		o.Games = 20
	}
	if o.MaxActions == 0 {
		o.MaxActions = 20000
	}
	checkPlayers(t, g)
	if describe {
		checkDescribed(t, g)
		checkTraits(t, g)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x6d7573746572))
	buf := make([]game.Action, 0, g.MaxActions())
	var outcomes []game.Outcome
	var scratch game.State // reused by CopyInto from game to game
	for i := 0; i < o.Games; i++ {
		s := g.NewState()
		checkState(t, g, s, describe)
		n := 0
		for !s.IsTerminal() {
			if n >= o.MaxActions {
				t.Fatalf("game %d: not over after %d actions", i, n)
			}
			var a game.Action
			if s.ToAct() == game.Chance {
				outcomes = s.ChanceOutcomes(outcomes[:0])
				if len(outcomes) == 0 {
					t.Fatalf("game %d: chance node without outcomes at %s", i, s)
				}
				sum := 0.0
				for _, oc := range outcomes {
					sum += oc.Prob
				}
				if sum < 0.999 || sum > 1.001 {
					t.Fatalf("game %d: chance probabilities sum to %v", i, sum)
				}
				a = outcomes[rng.IntN(len(outcomes))].Action
				if !g.Traits().Chance {
					t.Fatalf("game %d: chance acts, but the traits say it never does", i)
				}
			} else {
				buf = s.LegalActions(buf[:0])
				if len(buf) == 0 {
					t.Fatalf("game %d: no legal action in a state that is not over: %s", i, s)
				}
				if len(buf) > g.MaxActions() {
					t.Fatalf("game %d: %d legal actions, more than MaxActions %d", i, len(buf), g.MaxActions())
				}
				checkActions(t, s, buf)
				if describe {
					checkDescriptors(t, g, s, buf)
				}
				a = buf[rng.IntN(len(buf))]
				if o.Policy != nil {
					a = o.Policy(s, buf, rng)
				}
			}
			before := s.String()
			c := s.Clone()
			if err := s.Play(a); err != nil {
				t.Fatalf("game %d: Play(%s) refused a legal action: %v", i, c.ActionString(a), err)
			}
			if c.String() != before {
				t.Fatalf("game %d: playing on the original changed its clone", i)
			}
			c.Apply(a)
			if c.String() != s.String() || c.Hash() != s.Hash() {
				t.Fatalf("game %d: clone and original differ after the same action", i)
			}
			// A copy made by CopyInto (a Resetter's Reset of an old
			// copy) is the clone's equal, and plays on as it does.
			scratch = game.CopyInto(scratch, c)
			if scratch.String() != s.String() || scratch.Hash() != s.Hash() || scratch.ToAct() != s.ToAct() || len(scratch.History()) != len(s.History()) {
				t.Fatalf("game %d: a copy made by CopyInto differs from the state it copies", i)
			}
			if !s.IsTerminal() && s.ToAct() != game.Chance {
				next := s.LegalActions(nil)
				b := next[rng.IntN(len(next))]
				c.Apply(b)
				scratch.Apply(b)
				if scratch.String() != c.String() || scratch.Hash() != c.Hash() || scratch.IsTerminal() != c.IsTerminal() {
					t.Fatalf("game %d: a copy made by CopyInto plays %s otherwise than a clone", i, s.ActionString(b))
				}
			}
			n++
			if len(s.History()) != n {
				t.Fatalf("game %d: history has %d actions, want %d", i, len(s.History()), n)
			}
			checkState(t, g, s, describe)
			if describe {
				checkEvents(t, g, s)
			}
		}
		if describe {
			checkEnd(t, g, s)
		}
		checkTerminal(t, s, buf, i)
	}
}

// checkTerminal checks a finished game: nothing legal, nobody to act,
// returns that sum to zero for a win or draw, and a result with a name.
func checkTerminal(t *testing.T, s game.State, buf []game.Action, i int) {
	t.Helper()
	if got := s.LegalActions(buf[:0]); len(got) != 0 {
		t.Fatalf("game %d: terminal state has %d legal actions", i, len(got))
	}
	if s.ToAct() != game.Terminal {
		t.Fatalf("game %d: terminal state says %d is to act", i, s.ToAct())
	}
	if r := s.Result(); r.Scores == nil {
		sum := 0.0
		for _, v := range s.Returns() {
			sum += v
		}
		if sum != 0 {
			t.Fatalf("game %d: returns %v do not sum to zero", i, s.Returns())
		}
	}
	if game.ResultName(s) == "" {
		t.Fatalf("game %d: no result name", i)
	}
}

func checkActions(t *testing.T, s game.State, legal []game.Action) {
	t.Helper()
	sorted := slices.Clone(legal)
	slices.Sort(sorted)
	if len(slices.Compact(sorted)) != len(legal) {
		t.Fatalf("duplicate legal actions at %s", s)
	}
	for _, a := range legal {
		text := s.ActionString(a)
		back, err := s.ParseAction(text)
		if err != nil {
			t.Fatalf("ParseAction(%q) at %s: %v", text, s, err)
		}
		if back != a {
			t.Fatalf("ParseAction(%q) = %d, want %d", text, back, a)
		}
	}
	// An action that is not legal is refused and changes nothing.
	for _, bad := range []game.Action{legal[0] + 1, legal[0] ^ 0x8080, 0xFFFFFFF} {
		if slices.Contains(legal, bad) {
			continue
		}
		c := s.Clone()
		before := c.String()
		if err := c.Play(bad); err == nil {
			t.Fatalf("Play accepted the action %d, not legal at %s", bad, s)
		}
		if c.String() != before || len(c.History()) != len(s.History()) {
			t.Fatalf("a refused action changed the state")
		}
	}
}

func checkState(t *testing.T, g game.Game, s game.State, describe bool) {
	t.Helper()
	if describe {
		checkView(t, g, s)
	}
	text := s.String()
	p, err := g.ParseState(text)
	if err != nil {
		t.Fatalf("ParseState(%q): %v", text, err)
	}
	if p.String() != text {
		t.Fatalf("position text does not round-trip: %q became %q", text, p.String())
	}
	if p.Hash() != s.Hash() {
		t.Fatalf("hash %x differs from the recomputed %x at %s", s.Hash(), p.Hash(), text)
	}
	if s.IsTerminal() {
		return
	}
	if p.ToAct() != s.ToAct() {
		t.Fatalf("parsed state has %d to act, want %d, at %s", p.ToAct(), s.ToAct(), text)
	}
}
