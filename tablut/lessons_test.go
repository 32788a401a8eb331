package tablut

import "testing"

// TestLessonsPlay: every step of "Learn Tablut" starts from a position the
// rules accept, and its solution, played by the rules, meets the goal with
// its last action and not before.
func TestLessonsPlay(t *testing.T) {
	if len(Info.Lessons) < 4 {
		t.Fatalf("%d lessons", len(Info.Lessons))
	}
	for i, l := range Info.Lessons {
		g, err := Load(l.Ruleset)
		if err != nil {
			t.Fatalf("lesson %d: %v", i+1, err)
		}
		ok, err := l.Play(g)
		if err != nil || !ok {
			t.Errorf("lesson %d (%s): the solution %v does not meet the goal %q (%v)", i+1, l.Title, l.Solution, l.Goal, err)
		}
		if l.Title == "" || l.Text == "" || l.Done == "" || l.Hint == "" {
			t.Errorf("lesson %d lacks words", i+1)
		}
	}
}
