package tablut

import (
	"slices"
	"strings"
	"testing"

	"github.com/muster-games/muster/docs"
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
	// The rules the steps state above their tasks, each tried on a
	// position of its own.
	says := func(title, words string) {
		t.Helper()
		if !strings.Contains(byTitle[title].Rule, words) {
			t.Fatalf("%q no longer says %q: check its claim again", title, words)
		}
	}
	load := func(pos string) *State {
		t.Helper()
		s, err := MustLoad("linnaeus").Parse(pos)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	says("Moving", "only the king may stand on the castle")
	s = load(castle.Position)
	for _, a := range s.LegalActions(nil) {
		if Move(a).To() == Castle {
			t.Fatalf("%s reaches the castle", s.ActionString(a))
		}
	}
	says("The empty castle captures too", "hostile to a defender beside it only once attackers hold the castle's three other sides")
	s = load("/2t6/9/9/4t4/3TKt3/4t4/9/9/9/ attackers")
	play(t, s, "c1-c5xd5")
	s = load("/2t6/9/9/4t4/3TKt3/9/9/9/9/ attackers") // two sides held, not three
	play(t, s, "c1-c5")
	if at, _ := ParseSquare("d5"); s.pos.board[at] != Defender {
		t.Fatal("the defender beside the king's castle was taken with two of its sides held")
	}
	says("Capturing", "the king helps his side to capture")
	s = load("/9/9/2Kt4T/9/9/9/9/9/9/ defenders")
	play(t, s, "i3-e3xd3")
	says("Capturing", "moving between two enemies is safe")
	s = load("/3t5/9/9/2T1T4/9/9/6K2/9/9/ attackers")
	play(t, s, "d1-d4")
	if at, _ := ParseSquare("d4"); s.pos.board[at] != Attacker {
		t.Fatal("the attacker that moved between two defenders was taken")
	}
	says("Capturing the king", "Away from the castle the king is captured like any piece, between two attackers")
	says("Capturing the king", "on the castle it takes four, and beside it three, the castle making the fourth")
	for _, c := range []struct {
		pos, move string
		taken     bool
	}{
		{"/4t4/9/9/9/3tKt3/4t4/9/9/9/ attackers", "e1-e4", true}, // four round the castle
		{"/9/9/9/9/3tK4/9/9/9/5t3/ attackers", "f9-f5", false},   // two do not take him there
		{"/9/9/t8/3tKt3/9/9/9/9/9/ attackers", "a3-e3", true},    // three beside it
	} {
		s = load(c.pos)
		play(t, s, c.move)
		if got := s.IsTerminal() && s.Result().Reason == reasonKingCaptured; got != c.taken {
			t.Fatalf("%s then %s: the king taken %v, want %v", c.pos, c.move, got, c.taken)
		}
	}
	says("No move, or the same position three times", "A side left without a legal move on its turn loses")
	ends := byTitle["No move, or the same position three times"]
	s = load(ends.Position)
	play(t, s, strings.Join(ends.Solution, " "))
	if r := s.Returns(); !s.IsTerminal() || r[Attackers] <= r[Defenders] || len(s.LegalActions(nil)) != 0 {
		t.Fatalf("after %v: over %v, returns %v", ends.Solution, s.IsTerminal(), r)
	}
	says("No move, or the same position three times", "a position that comes a third time, the same side to move, draws the game")
	if !strings.Contains(ends.Done, "the third time the position came round the game would have been drawn") {
		t.Fatalf("the step's result says %q", ends.Done)
	}
	s = load(ends.Position)
	for round := 1; round <= 2; round++ {
		if s.IsTerminal() {
			t.Fatalf("drawn after %d shuttles, before the third coming", round-1)
		}
		play(t, s, "g1-g2 f5-g5 g2-g1 g5-f5")
	}
	if r := s.Returns(); !s.IsTerminal() || r[Attackers] != r[Defenders] {
		t.Fatalf("the position's third coming: over %v, returns %v", s.IsTerminal(), r)
	}
	says("The king escapes", "as soon as the king stands on any square of the board's edge")
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

// TestLessonWatchClaims: what the first step's captions say of the game
// it plays out, the rules do. Each claim quotes words of one move's
// caption and is checked on the states just before and just after it.
func TestLessonWatchClaims(t *testing.T) {
	var l game.Lesson
	for _, x := range Info.Lessons {
		if x.Goal == game.GoalWatch {
			l = x
		}
	}
	at := func(s *State, name string) Piece {
		q, err := ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		return s.pos.board[q]
	}
	lineTo := func(s *State, edge string) bool {
		for _, r := range s.View().Regions {
			if r.Kind == "open-line" && slices.Contains(r.Squares, edge) {
				return true
			}
		}
		return false
	}
	captured := func(s *State, sq string) bool {
		return slices.ContainsFunc(s.Events(), func(e game.Event) bool { return e.Kind == "capture" && slices.Equal(e.Squares, []string{sq}) })
	}
	claims := []gametest.WatchClaim[*State]{
		{Words: "The attackers move first", Holds: func(b, _ *State) bool { return b.ToMove() == Attackers && len(b.History()) == 0 }},
		{Words: "on the castle in the centre", Holds: func(b, _ *State) bool { return b.pos.king == Castle && Square(Castle).String() == "e5" }},
		{Words: "traps the defender on e3 against the attacker on e2, and takes him", Holds: func(b, s *State) bool {
			return at(b, "e3") == Defender && at(b, "e2") == Attacker && captured(s, "e3") && at(s, "e3") == Empty
		}},
		{Words: "traps the attacker on e4 against f4", Holds: func(b, s *State) bool {
			return at(b, "f4") == Defender && captured(s, "e4") && at(s, "e4") == Empty
		}},
		{Words: "traps the defender on c5 against b5", Holds: func(b, s *State) bool {
			return at(b, "b5") == Attacker && captured(s, "c5")
		}},
		{Words: "Two lines run free from him to the edge, drawn on the board: tuichu", Holds: func(_, s *State) bool {
			return s.pos.king != Castle && s.g.Rules.EscapeRoutes(&s.pos) == 2 && lineTo(s, "a3") && lineTo(s, "i3")
		}},
		{Words: "The attackers can block only one", Holds: func(_, s *State) bool {
			for _, a := range s.LegalActions(nil) {
				c := s.Clone().(*State)
				c.Apply(a)
				if c.g.Rules.EscapeRoutes(&c.pos) == 0 {
					return false
				}
			}
			return true
		}},
		{Words: "block the line to a3, and take the defender on d4 between d3 and d5; the line to i3 stays open", Holds: func(b, s *State) bool {
			return lineTo(b, "a3") && !lineTo(s, "a3") && captured(s, "d4") && at(s, "d5") == Attacker && lineTo(s, "i3")
		}},
		{Words: "he has escaped, and the defenders win", Holds: func(_, s *State) bool {
			return s.IsTerminal() && s.Result().Winner == game.Player(Defenders) && s.Result().Reason == reasonKingEscaped
		}},
	}
	gametest.WatchClaims(t, MustLoad(l.Ruleset), l, claims)
}

// TestLessonRulesAreTheSummary: docs/tablut-rules.md's "linnaeus in
// brief" lists the rule each step of Learn Tablut states, in order, word
// for word; every step states one.
func TestLessonRulesAreTheSummary(t *testing.T) {
	listed, err := docs.Numbered("tablut-rules.md", "linnaeus in brief")
	if err != nil {
		t.Fatal(err)
	}
	gametest.LessonRules(t, Info, listed)
}
