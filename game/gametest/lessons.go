package gametest

import (
	"slices"
	"strings"
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
		if l.Title == "" || l.Task == "" || l.Text == "" || l.Done == "" || l.Hint == "" {
			t.Errorf("lesson %d lacks words: %+v", i+1, l)
		}
		// The task is one line: the why is folded away.
		if n := len(strings.Fields(l.Task)); n > 25 {
			t.Errorf("lesson %d's task has %d words; keep it to a line", i+1, n)
		}
	}
}

// Figures checks a game's rules-page diagrams: at least min, each with
// its words, from a position its ruleset accepts, with actions that play
// by the rules and are written as the game writes them. It returns the
// states the figures show, for the game's own checks of what they show.
func Figures(t *testing.T, info game.Info, min int) []game.State {
	t.Helper()
	if len(info.Figures) < min {
		t.Fatalf("%s: %d figures, want at least %d", info.Name, len(info.Figures), min)
	}
	var states []game.State
	for i, f := range info.Figures {
		g, err := game.Load(info.Name + "(" + f.Ruleset + ")")
		if err != nil {
			t.Fatalf("figure %d: %v", i+1, err)
		}
		s, err := f.State(g)
		if err != nil {
			t.Fatalf("figure %d: %v", i+1, err)
		}
		start, _ := game.Figure{Title: f.Title, Position: f.Position}.State(g)
		if got := game.Notation(start, s.History()); !slices.Equal(got, f.Actions) && len(f.Actions) > 0 {
			t.Errorf("figure %d (%s): the actions %v are written %v by the game", i+1, f.Title, f.Actions, got)
		}
		if f.Title == "" || f.Caption == "" {
			t.Errorf("figure %d lacks words: %+v", i+1, f)
		}
		states = append(states, s)
	}
	return states
}

// A WatchClaim is what the caption of one action of a step to watch
// (game.GoalWatch) says happens: words the caption holds, and what must
// hold of the game's states just before and just after that action.
type WatchClaim[S game.State] struct {
	Words string
	Holds func(before, after S) bool
}

// WatchClaims plays a step's Watch from its position under g and checks
// each claim on the action whose caption holds its words; every claim
// must be found in some caption, so that a caption changed without its
// claim fails.
func WatchClaims[S game.State](t *testing.T, g game.Game, l game.Lesson, claims []WatchClaim[S]) {
	t.Helper()
	s, err := g.ParseState(l.Position)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, w := range l.Watch {
		before := s.Clone()
		a, err := s.ParseAction(w.Action)
		if err != nil {
			t.Fatalf("%s: %v", w.Action, err)
		}
		s.Apply(a)
		for _, c := range claims {
			if strings.Contains(w.Say, c.Words) {
				checked++
				if !c.Holds(before.(S), s.(S)) {
					t.Errorf("after %s the step says %q; the rules disagree", w.Action, c.Words)
				}
			}
		}
	}
	if checked != len(claims) {
		t.Fatalf("%d of %d claims found in the step's words: a caption changed without its claim", checked, len(claims))
	}
}

// LessonRules checks that every step of a game's walkthrough states a
// rule, and that the rules are listed, in order and word for word, the
// summary its rules doc gives (read by the caller).
func LessonRules(t *testing.T, info game.Info, listed []string) {
	t.Helper()
	var rules []string
	for _, l := range info.Lessons {
		if l.Rule == "" {
			t.Errorf("%q states no rule", l.Title)
		}
		rules = append(rules, l.Rule)
	}
	if !slices.Equal(listed, rules) {
		t.Fatalf("the summary lists\n%q\nthe steps state\n%q", listed, rules)
	}
}
