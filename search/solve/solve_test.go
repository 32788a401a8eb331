package solve

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
)

// nim is a small game for the tests: players take 1 or 2 from a pile and
// whoever takes the last wins, so the player to move loses exactly when the
// pile is a multiple of 3. Optionally a chance node first makes the pile 3
// or 4, and action 0 ("wait") ends the game in a draw decided by history.
type nim struct {
	pile    int
	toAct   game.Player
	chance  bool
	wait    bool
	over    bool
	result  game.Result
	history []game.Action
}

func (s *nim) Game() game.Game { return nil }
func (s *nim) ToAct() game.Player {
	return map[bool]game.Player{true: game.Chance, false: s.toAct}[s.chance]
}
func (s *nim) IsTerminal() bool       { return s.over }
func (s *nim) Result() game.Result    { return s.result }
func (s *nim) History() []game.Action { return s.history }
func (s *nim) Hash() uint64 {
	h := uint64(s.pile)<<8 | uint64(s.toAct)<<4
	if s.chance {
		h |= 1
	}
	if s.over {
		h |= 2
	}
	return h
}
func (s *nim) String() string                          { return fmt.Sprintf("pile %d, player %d", s.pile, s.toAct) }
func (s *nim) ActionString(a game.Action) string       { return fmt.Sprint(a) }
func (s *nim) ParseAction(string) (game.Action, error) { return 0, errors.New("nim: no notation") }
func (s *nim) Play(a game.Action) error                { s.Apply(a); return nil }
func (s *nim) Clone() game.State {
	c := *s
	c.history = append([]game.Action(nil), s.history...)
	return &c
}
func (s *nim) View() game.View                        { return game.View{} }
func (s *nim) Describe(a game.Action) game.ActionInfo { return game.ActionInfo{Text: fmt.Sprint(a)} }
func (s *nim) Prompt() game.Prompt                    { return game.Prompt{} }
func (s *nim) Events() []game.Event                   { return nil }
func (s *nim) Returns() []float64 {
	if !s.over || s.result.Winner < 0 {
		return []float64{0, 0}
	}
	r := []float64{-1, -1}
	r[s.result.Winner] = 1
	return r
}
func (s *nim) LegalActions(dst []game.Action) []game.Action {
	if s.over || s.chance {
		return dst
	}
	if s.wait {
		dst = append(dst, 0)
	}
	for k := 1; k <= min(2, s.pile); k++ {
		dst = append(dst, game.Action(k))
	}
	return dst
}
func (s *nim) ChanceOutcomes(dst []game.Outcome) []game.Outcome {
	if !s.chance {
		return dst
	}
	return append(dst, game.Outcome{Action: 3, Prob: 0.5}, game.Outcome{Action: 4, Prob: 0.5})
}
func (s *nim) Apply(a game.Action) {
	s.history = append(s.history, a)
	switch {
	case s.chance:
		s.pile, s.chance = int(a), false
	case a == 0:
		s.over, s.result = true, game.Result{Winner: -1, Reason: "repetition", History: true}
	default:
		s.pile -= int(a)
		if s.pile == 0 {
			s.over, s.result = true, game.Result{Winner: s.toAct, Reason: "took the last"}
			return
		}
		s.toAct = 1 - s.toAct
	}
}

// TestNim: every pile is proved won or lost as the theory says, the win
// in the fewest actions and the loss in the most.
func TestNim(t *testing.T) {
	for n := 1; n <= 12; n++ {
		res, err := Solve(context.Background(), &nim{pile: n}, search.Limits{Depth: 20})
		if err != nil {
			t.Fatal(err)
		}
		want := 1.0
		if n%3 == 0 {
			want = -1
		}
		if !res.Proved() || res.Lo != want {
			t.Fatalf("pile %d: %v, want value %g", n, res, want)
		}
		// Optimal play ends a won pile in 2·⌊n/3⌋+1 actions and a lost one,
		// the loser taking 1 each time, in 2·(n/3) actions.
		plies := 2*(n/3) + 1
		if n%3 == 0 {
			plies = 2 * (n / 3)
		}
		if res.Plies != plies || len(res.PV) != plies {
			t.Errorf("pile %d: %d actions, line %v, want %d", n, res.Plies, res.PV, plies)
		}
	}
}

// TestHorizon: nothing is claimed beyond the horizon.
func TestHorizon(t *testing.T) {
	res, _ := Solve(context.Background(), &nim{pile: 9}, search.Limits{Depth: 4})
	if res.Proved() || res.Lo != -1 || res.Hi != 1 || res.Depth != 4 {
		t.Fatalf("pile 9 to depth 4: %+v, want nothing proved", res)
	}
}

// TestChance: chance nodes are averaged: a pile of 3 or 4, even odds, is
// worth 0 to the player to move after the throw.
func TestChance(t *testing.T) {
	res, _ := Solve(context.Background(), &nim{chance: true}, search.Limits{Depth: 10})
	if !res.Proved() || res.Lo != 0 {
		t.Fatalf("%v: want the value 0 proved", res)
	}
}

// TestHistoryIsUnknown: an ending decided by the game's history does not
// count as a draw, for either side; a real win at hand still counts.
func TestHistoryIsUnknown(t *testing.T) {
	res, _ := Solve(context.Background(), &nim{pile: 3, wait: true}, search.Limits{Depth: 10})
	if res.Proved() || res.Hi != 1 {
		t.Fatalf("pile 3 with a history draw at hand: %v, want not proved (the draw is not a value)", res)
	}
	res, _ = Solve(context.Background(), &nim{pile: 4, wait: true}, search.Limits{Depth: 10})
	if res.Proved() {
		t.Fatalf("pile 4, the loser able to escape by history: %v, want no proof", res)
	}
	res, _ = Solve(context.Background(), &nim{pile: 2, wait: true}, search.Limits{Depth: 10})
	if !res.Proved() || res.Lo != 1 || res.Plies != 1 {
		t.Fatalf("pile 2: %v, want a win in 1", res)
	}
}

func TestLimits(t *testing.T) {
	res, _ := Solve(context.Background(), &nim{pile: 30}, search.Limits{Depth: 60, Nodes: 5})
	if !res.Stopped || res.Proved() {
		t.Fatalf("%+v: want stopped by the node limit", res)
	}
	if _, err := Solve(context.Background(), &nim{over: true}, search.Limits{Depth: 3}); !errors.Is(err, ErrOver) {
		t.Fatalf("a finished game: %v, want ErrOver", err)
	}
}
