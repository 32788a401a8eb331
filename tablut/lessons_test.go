package tablut

import (
	"slices"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/game/gametest"
)

// TestLessonsPlay: every step of "Learn Tablut" starts from a position the
// rules accept, and its solution, played by the rules, meets the goal with
// its last action and not before.
func TestLessonsPlay(t *testing.T) { gametest.Lessons(t, Info, 4) }

// TestLessonClaims: what the steps of "Learn Tablut" say happens, the
// rules do: the empty castle captures for either side; a king with two
// open lines is in tuichu, drawn as two lines, where he had none.
func TestLessonClaims(t *testing.T) {
	byTitle := map[string]game.Lesson{}
	for _, l := range Info.Lessons {
		byTitle[l.Title] = l
	}
	castle := byTitle["The empty castle captures too"]
	if !strings.Contains(castle.Rule, "hostile to every piece") || !strings.Contains(castle.Text, "does the same to your own men") {
		t.Fatalf("the castle step says %q / %q", castle.Rule, castle.Text)
	}
	s, err := MustLoad(castle.Ruleset).Parse(castle.Position)
	if err != nil {
		t.Fatal(err)
	}
	play(t, s, strings.Join(castle.Solution, " "))
	if v := s.View(); pieceOn(v, "e4") || pieceOn(v, "e5") {
		t.Fatal("e4 not taken against the empty castle")
	}
	// The same for the defenders: an attacker beside the empty castle.
	mirror, err := MustLoad(castle.Ruleset).Parse("/9/9/T8/4t4/9/9/6K2/9/9/ defenders")
	if err != nil {
		t.Fatal(err)
	}
	play(t, mirror, "a3-e3xe4")

	tuichu := byTitle["Raichi and tuichu"]
	s, err = MustLoad(tuichu.Ruleset).Parse(tuichu.Position)
	if err != nil {
		t.Fatal(err)
	}
	if n := openLines(s.View()); n != 0 {
		t.Fatalf("the king has %d open lines before, the step says none", n)
	}
	play(t, s, strings.Join(tuichu.Solution, " "))
	v := s.View()
	if n := openLines(v); n != 2 || !strings.Contains(tuichu.Done, "two open lines") {
		t.Fatalf("after %v the king has %d open lines", tuichu.Solution, n)
	}
	if !slices.ContainsFunc(v.Facts, func(f game.Fact) bool { return f.Label == "Tuichu" }) {
		t.Fatalf("no tuichu among the facts %+v", v.Facts)
	}
	// Every reply of the attackers leaves him a way out.
	for _, a := range s.LegalActions(nil) {
		c := s.Clone()
		c.Apply(a)
		if openLines(c.View()) == 0 {
			t.Fatalf("%s blocks both lines", s.ActionString(a))
		}
	}
	escape := byTitle["The king escapes"]
	if strings.Contains(escape.Text, "south") || strings.Contains(escape.Text, "north") {
		t.Fatalf("the escape step names a compass point the board may draw upside down: %q", escape.Text)
	}
}

func pieceOn(v game.View, sq string) bool {
	return slices.ContainsFunc(v.Pieces, func(p game.Piece) bool { return p.Square == sq })
}

func openLines(v game.View) int {
	n := 0
	for _, r := range v.Regions {
		if r.Kind == "open-line" {
			n++
		}
	}
	return n
}
