package gametest

import (
	"testing"

	"github.com/muster-games/muster/game"
)

// Lessons checks a game's walkthrough: at least min steps, each with its
// words, from a position its ruleset accepts, and a solution that, played
// by the rules, meets the goal with its last action and not before.
func Lessons(t *testing.T, info game.Info, min int) {
	t.Helper()
	if len(info.Lessons) < min {
		t.Fatalf("%s: %d lessons, want at least %d", info.Name, len(info.Lessons), min)
	}
	for i, l := range info.Lessons {
		g, err := game.Load(info.Name + "(" + l.Ruleset + ")")
		if err != nil {
			t.Fatalf("lesson %d: %v", i+1, err)
		}
		if ok, err := l.Play(g); err != nil || !ok {
			t.Errorf("lesson %d (%s): the solution %v does not meet the goal %q (%v)", i+1, l.Title, l.Solution, l.Goal, err)
		}
		if l.Title == "" || l.Text == "" || l.Done == "" || l.Hint == "" {
			t.Errorf("lesson %d lacks words: %+v", i+1, l)
		}
	}
}
