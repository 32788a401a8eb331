package lanrick

import (
	"strings"
	"testing"

	"github.com/muster-games/muster/game/gametest"
)

// TestLessonsPlay: every step of "Learn Lanrick" starts from a position the
// rules accept, and its solution, played by the rules, meets the goal with
// its last action and not before.
func TestLessonsPlay(t *testing.T) { gametest.Lessons(t, Info, 6) }

// TestLessonConversionKeepsTheRendezvous: the step that teaches Rule 7
// says the rendezvous goes on after a conversion, not full, the converted
// man outside it; the rules agree (a newcomer was once told "the next
// rendezvous begins").
func TestLessonConversionKeepsTheRendezvous(t *testing.T) {
	for _, l := range Info.Lessons {
		if l.Goal != "converted" {
			continue
		}
		g := MustLoad(l.Ruleset)
		s, err := g.Parse(l.Position)
		if err != nil {
			t.Fatal(err)
		}
		before := s.rendezvous
		for _, text := range l.Solution {
			a, err := s.ParseAction(text)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			s.Apply(a)
		}
		if s.rendezvous != before || s.rdv == 0 {
			t.Fatalf("%q: after the conversion rendezvous %d (squares %v), was %d", l.Title, s.rendezvous, s.rdv, before)
		}
		if s.all()&s.rdv == s.rdv {
			t.Fatalf("%q: the rendezvous is full after the conversion", l.Title)
		}
		// The converted man is the learner's now, outside the rendezvous,
		// as the step says of g4.
		g4, _ := ParseSquare("g4")
		if !strings.Contains(l.Done, "g4") || !s.men[White].has(g4) || s.rdv.has(g4) {
			t.Fatalf("%q: after the conversion g4 is white's %v, in the rendezvous %v", l.Title, s.men[White].has(g4), s.rdv.has(g4))
		}
		if b1, _ := ParseSquare("b1"); !strings.Contains(l.Done, "b1") || !s.men[Black].has(b1) || s.rdv.has(b1) {
			t.Fatalf("%q: black's man on b1 is not outside the rendezvous after the conversion", l.Title)
		}
		if !strings.Contains(l.Done, "goes on") || strings.Contains(l.Done, "next rendezvous begins") {
			t.Fatalf("%q says %q", l.Title, l.Done)
		}
		return
	}
	t.Fatal("no step teaches a conversion")
}
