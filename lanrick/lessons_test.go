package lanrick

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/muster-games/muster/docs"
	"github.com/muster-games/muster/game"
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
		// The first step says the same of any conversion, shown here.
		if first := Info.Lessons[0]; !strings.Contains(first.Text, "turned into one of the winner's while the rendezvous has room (and the same race goes on)") {
			t.Fatalf("%q says %q", first.Title, first.Text)
		}
		return
	}
	t.Fatal("no step teaches a conversion")
}

// TestLessonClaims: what each step of "Learn Lanrick" says happens, the
// rules do. Each claim quotes the words it checks (which must stand in the
// step's text, task, hint or result) and checks them on the step's
// position before the solution, or after it; a sentence changed without
// its claim, or a rule that disagrees with a sentence, fails.
func TestLessonClaims(t *testing.T) {
	sq := func(name string) Square {
		q, err := ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	type claim struct {
		words string
		after bool // checked after the solution (else on the position)
		holds func(s *State) bool
	}
	men := func(s *State, p int) int { return s.men[p].count() }
	claims := map[string][]claim{
		"Moving your men": {
			{"you have five", false, func(s *State) bool { return s.budget == 5 && men(s, White) > 4 }},
			{"the rendezvous around the mark on d5", false, func(s *State) bool { return s.mark == sq("d5") && s.rdv.has(sq("d5")) && s.rdv.count() == 9 }},
			{"black moves next", true, func(s *State) bool { return s.toAct == Black }},
		},
		"The budget and the cap of three": {
			{"the rendezvous around f6", false, func(s *State) bool { return s.mark == sq("f6") }},
			{"two of your men are outside", false, func(s *State) bool { return (s.men[White] &^ s.rdv).count() == 2 }},
			{"four squares from e5", false, func(s *State) bool { return s.rdv.has(sq("e5")) && s.men[White].has(sq("a1")) }},
			// The cap: a1 may not go four squares while g4 is outside too.
			{"no man may move more than three squares, unless he is your only man", false, func(s *State) bool {
				_, err := s.ParseAction("a1-e5")
				return err != nil
			}},
		},
		"The game begins: the first mark": {
			{"c6, d5, e4 or f3", false, func(s *State) bool {
				var legal []string
				for _, a := range s.LegalActions(nil) {
					legal = append(legal, s.ActionString(a))
				}
				slices.Sort(legal)
				return strings.Join(legal, ",") == "mark c6,mark d5,mark e4,mark f3"
			}},
			{"White moves first", true, func(s *State) bool { return s.toAct == White && s.phase == PhaseMove }},
			{"you still play Black", true, func(s *State) bool {
				// The men changed squares, not colours: five a side, black's
				// where white's stood.
				return men(s, Black) == 5 && men(s, White) == 5 && s.men[Black].has(sq("a7")) && s.men[White].has(sq("b8"))
			}},
			{"the diagonal that holds no men (from a8 to h1)", false, func(s *State) bool {
				for _, q := range []string{"a8", "b7", "c6", "d5", "e4", "f3", "g2", "h1"} {
					if s.all().has(sq(q)) {
						return false
					}
				}
				return true
			}},
		},
		"Demanding the interchange": {
			{"the setter's men and the other's swap squares (each player still plays his own colour)", true, func(s *State) bool {
				// The learner (white) now stands where black's men stood.
				return s.men[White].has(sq("b8")) && s.men[White].has(sq("d1")) && s.men[Black].has(sq("a7"))
			}},
			{"each side is 13 squares away in all", false, func(s *State) bool {
				return distance(s, White) == 13 && distance(s, Black) == 13
			}},
		},
		"The first turn has two squares": {
			{"only 2 squares", false, func(s *State) bool { return s.budget == 2 && s.opening }},
			{"the turn passes to Black, who has five", true, func(s *State) bool { return s.toAct == Black && s.budget == 5 }},
		},
		"Ending a turn early": {
			{"move at least one square and press End turn", false, func(s *State) bool {
				// No End turn before a square is moved; one after.
				if _, err := s.ParseAction("end"); err == nil {
					return false
				}
				c := s.Copy()
				a, err := c.ParseAction("a7-b6")
				if err != nil {
					return false
				}
				c.Apply(a)
				_, err = c.ParseAction("end")
				return err == nil && c.budget == 4 && c.toAct == White
			}},
			{"Black moves next, with his five", true, func(s *State) bool { return s.toAct == Black && s.budget == 5 && s.phase == PhaseMove }},
		},
		"Carroll's first example: a chain of moves": {
			{"black's man outside, on g4, is removed", true, func(s *State) bool { return !s.all().has(sq("g4")) && men(s, Black) == 4 }},
		},
		"Carroll's second example: the longer chain": {
			{"takes all five of your squares", true, func(s *State) bool { return men(s, Black) == 4 }},
		},
		"Carroll's third example: sliding along the border": {
			{"the rendezvous is open", false, func(s *State) bool { return s.rdv.count() == 8 && men(s, Black)+men(s, White) == 9 }},
			{"black's man on g6 is removed", true, func(s *State) bool { return !s.all().has(sq("g6")) }},
		},
		"Sliding past a rendezvous square": {
			{"sliding down to a7 costs one square, to a6 two, to a5 three", false, func(s *State) bool {
				for to, left := range map[string]int{"a7": 3, "a6": 2, "a5": 1} {
					c := s.Copy()
					a, err := c.ParseAction("a8~" + to)
					if err != nil {
						return false
					}
					c.Apply(a)
					if int(c.budget) != left {
						return false
					}
				}
				return true
			}},
			{"and to a4 four, which no man may move while another of yours is outside", false, func(s *State) bool {
				_, err := s.ParseAction("a8~a4")
				return err != nil && (s.men[White]&^s.rdv).count() == 2
			}},
			{"the two empty rendezvous squares are a7 and a5; your man on b7 can reach only a7", false, func(s *State) bool {
				if s.rdv&^s.all() != bitOf(sq("a7"))|bitOf(sq("a5")) {
					return false
				}
				for _, a := range s.LegalActions(nil) {
					if k, x, y := unpack(a); (k == kMove || k == kSlide) && Square(x) == sq("b7") && s.rdv.has(Square(y)) && Square(y) != sq("a7") {
						return false
					}
				}
				return true
			}},
			{"black's man on e4 is removed", true, func(s *State) bool { return !s.all().has(sq("e4")) }},
			{"with the men equal he sets the next mark", true, func(s *State) bool {
				return men(s, Black) == men(s, White) && s.phase == PhaseMark && s.toAct == Black
			}},
		},
		"Converting an outlying man": {
			{"his turn ends, and the same rendezvous goes on", true, func(s *State) bool { return s.toAct == Black && s.rendezvous == 1 }},
			{"Black moves next, with his full squares", true, func(s *State) bool {
				full := 3
				switch n := men(s, Black); {
				case n > 4:
					full = 5
				case n == 4:
					full = 4
				}
				return s.toAct == Black && int(s.budget) == full && !s.opening
			}},
		},
		"Setting the next mark": {
			{"nine men make eight squares", false, func(s *State) bool { return men(s, Black)+men(s, White) == 9 }},
			{"The player with fewer men sets the mark", false, func(s *State) bool { return men(s, White) < men(s, Black) && s.toAct == White }},
			{"This is the board the first step's rendezvous left", false, func(s *State) bool {
				// The first step's rendezvous, played out: the same men on
				// the same squares, the same setter, and this step's mark
				// to set.
				first := Info.Lessons[0]
				w, err := MustLoad(first.Ruleset).Parse(first.Position)
				if err != nil {
					return false
				}
				for _, shown := range first.Watch {
					a, err := w.ParseAction(shown.Action)
					if err != nil {
						return false
					}
					w.Apply(a)
				}
				return w.men == s.men && w.setter == s.setter && w.phase == s.phase && w.rendezvous == s.rendezvous && w.lastLoser == s.lastLoser
			}},
			{"your opponent may answer with the interchange", true, func(s *State) bool { return s.phase == PhaseInterchange && s.toAct == Black && s.rdv.count() == 8 }},
		},
		"An interchange with unequal numbers": {
			{"has five men to your four", false, func(s *State) bool { return men(s, Black) == 5 && men(s, White) == 4 && s.phase == PhaseSwap }},
			{"the one you leave out keeps his square", true, func(s *State) bool { return s.men[Black].has(sq("e5")) }},
			{"c6 and d6, two squares from the green squares, then two of d4, d5 and e5, three away", false, func(s *State) bool {
				for q, d := range map[string]int{"c6": 2, "d6": 2, "d4": 3, "d5": 3, "e5": 3} {
					if !s.men[Black].has(sq(q)) || distanceOf(s, sq(q)) != d {
						return false
					}
				}
				return true
			}},
			{"your men go where they stand, and black's go where yours stood", true, func(s *State) bool {
				for _, q := range []string{"c6", "d6", "d4", "d5"} {
					if !s.men[White].has(sq(q)) {
						return false
					}
				}
				for _, q := range []string{"e6", "c5", "c4", "e4"} {
					if !s.men[Black].has(sq(q)) {
						return false
					}
				}
				return true
			}},
			{"Black, who did not set the mark, moves first, with two squares", true, func(s *State) bool {
				return s.toAct == Black && s.setter == White && s.phase == PhaseMove && s.budget == 2
			}},
		},
		"The smaller rendezvous: 7, 6 and 5 squares": {
			{"with eight men on the board the rendezvous has seven squares", false, func(s *State) bool {
				return men(s, Black)+men(s, White) == 8 && s.shape.Size == 7 && s.phase == PhaseMark
			}},
			{"The setter chooses only where the mark goes", false, func(s *State) bool {
				// One action sets the mark on e4: no direction to choose.
				n := 0
				for _, a := range s.LegalActions(nil) {
					if k, x, _ := unpack(a); k == kMark && Square(x) == sq("e4") {
						n++
					}
				}
				return n == 1
			}},
			{"d4 and f4, beside the mark along the rank, are not in the rendezvous", true, func(s *State) bool {
				want := Bitboard(0)
				for _, q := range []string{"e4", "d5", "e5", "f5", "d3", "e3", "f3"} {
					want |= bitOf(sq(q))
				}
				return s.rdv == want && s.phase == PhaseInterchange
			}},
		},
		"How a game is drawn": {
			{"Here 99 such turns have passed", false, func(s *State) bool { return s.noProgress == 99 && s.g.Rules.NoProgress == 100 }},
			{"win this rendezvous now, or the game is drawn", false, func(s *State) bool {
				// A turn that wins nothing ends the game drawn.
				c := s.Copy()
				for _, text := range []string{"c8-c7", "end"} {
					a, err := c.ParseAction(text)
					if err != nil {
						return false
					}
					c.Apply(a)
				}
				r := c.Returns()
				return c.IsTerminal() && r[Black] == r[White]
			}},
			{"when the same position (the men, the mark, whose turn and what is left of it) comes a third time", false, func(s *State) bool {
				// The same board without the 99 turns: both sides shuttle a
				// man out and back; the position's third coming draws.
				c, err := s.g.Parse(strings.Replace(Info.Lessons[len(Info.Lessons)-2].Position, "quiet=99", "quiet=0", 1))
				if err != nil {
					return false
				}
				cycle := []string{"c8-c7", "end", "h1-h2", "end", "c7-c8", "end", "h2-h1", "end"}
				for round := 1; round <= 2; round++ {
					if c.IsTerminal() {
						return false // drawn before the third coming
					}
					for _, text := range cycle {
						a, err := c.ParseAction(text)
						if err != nil {
							return false
						}
						c.Apply(a)
					}
				}
				r := c.Returns()
				return c.IsTerminal() && r[Black] == r[White] && c.noProgress < 100
			}},
			{"black's man on h1 is removed", true, func(s *State) bool { return !s.all().has(sq("h1")) && men(s, Black) == 2 }},
			{"the count of turns without progress starts again from nothing", true, func(s *State) bool { return s.noProgress == 0 && !s.IsTerminal() }},
		},
		"How the game is won": {
			{"three squares in a line", false, func(s *State) bool { return s.rdv.count() == 3 && men(s, Black)+men(s, White) == 4 }},
			{"Black has one man left: you have won", true, func(s *State) bool { return men(s, Black) == 1 && s.IsTerminal() && s.Returns()[White] > 0 }},
		},
	}
	checked := 0
	for _, l := range Info.Lessons {
		cs, ok := claims[l.Title]
		if !ok {
			continue
		}
		words := strings.Join([]string{l.Rule, l.Task, l.Text, l.Done, l.Hint}, " ")
		s, err := MustLoad(l.Ruleset).Parse(l.Position)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if !strings.Contains(words, c.words) {
				t.Errorf("%q no longer says %q: check its claim again", l.Title, c.words)
			}
			if !c.after && !c.holds(s) {
				t.Errorf("%q says %q; its position disagrees", l.Title, c.words)
			}
		}
		for _, text := range l.Solution {
			a, err := s.ParseAction(text)
			if err != nil {
				t.Fatalf("%q: %s: %v", l.Title, text, err)
			}
			s.Apply(a)
		}
		for _, text := range l.Reply {
			a, err := s.ParseAction(text)
			if err != nil {
				t.Fatalf("%q: the reply %s: %v", l.Title, text, err)
			}
			s.Apply(a)
		}
		for _, c := range cs {
			if c.after && !c.holds(s) {
				t.Errorf("%q says %q; after its solution the rules disagree", l.Title, c.words)
			}
			checked++
		}
	}
	if checked < 40 {
		t.Fatalf("%d claims checked: a step's title changed?", checked)
	}
}

// TestLessonInterchangeEitherWay: the step on demanding the interchange
// says "whichever you chose, you move first": both choices leave the
// learner to move, with the 2-square opening turn.
func TestLessonInterchangeEitherWay(t *testing.T) {
	l := lesson(t, "Demanding the interchange")
	if !strings.Contains(l.Done, "Whichever you chose, you move first") {
		t.Fatalf("the step says %q", l.Done)
	}
	for _, choice := range []string{"interchange", "no-interchange"} {
		s, err := MustLoad(l.Ruleset).Parse(l.Position)
		if err != nil {
			t.Fatal(err)
		}
		learner := s.toAct
		a, err := s.ParseAction(choice)
		if err != nil {
			t.Fatalf("%s: %v", choice, err)
		}
		s.Apply(a)
		if s.toAct != learner || s.phase != PhaseMove || s.budget != 2 {
			t.Fatalf("after %s: %d to act (the learner %d), phase %d, budget %d", choice, s.toAct, learner, s.phase, s.budget)
		}
	}
}

// distance is how many squares a player's men have to go, in all, each to
// the nearest square of the rendezvous (a queen's moves: the larger of the
// files and ranks between).
func distance(s *State, p int) int {
	var sum int
	for _, m := range s.men[p].squares(nil) {
		best := 64
		for _, r := range s.rdv.squares(nil) {
			best = min(best, max(abs(m.File()-r.File()), abs(m.Rank()-r.Rank())))
		}
		sum += best
	}
	return sum
}

// distanceOf is how far the man on q is from the nearest square of the
// rendezvous, as distance counts.
func distanceOf(s *State, q Square) int {
	best := 64
	for _, r := range s.rdv.squares(nil) {
		best = min(best, max(abs(q.File()-r.File()), abs(q.Rank()-r.Rank())))
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestLessonRulesAreTheSummary: docs/lanrick-rules.md's "1893 in brief"
// lists the rule each step of Learn Lanrick states, in order, word for
// word, and every step states one.
func TestLessonRulesAreTheSummary(t *testing.T) {
	listed, err := docs.Numbered("lanrick-rules.md", "1893 in brief")
	if err != nil {
		t.Fatal(err)
	}
	gametest.LessonRules(t, Info, listed)
}

// TestLessonFiguresShowEverySize: the step that sets a later mark shows
// the rendezvous of every size, nine squares down to three, as its text
// says.
func TestLessonFiguresShowEverySize(t *testing.T) {
	l := lesson(t, "Setting the next mark")
	if !strings.Contains(l.Text, "the drawings show every size") {
		t.Fatalf("the step says %q", l.Text)
	}
	var sizes []string
	for _, i := range l.Figures {
		if i < 0 || i >= len(Info.Figures) {
			t.Fatalf("figure %d of %d", i, len(Info.Figures))
		}
		f := Info.Figures[i]
		s, err := MustLoad(f.Ruleset).Parse(f.Position)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, fmt.Sprint(s.rdv.count()))
		if !strings.Contains(f.Title, fmt.Sprintf("%d squares", s.rdv.count())) {
			t.Errorf("figure %q draws %d squares", f.Title, s.rdv.count())
		}
	}
	if got := strings.Join(sizes, " "); got != "9 8 7 6 5 4 3" {
		t.Fatalf("the step shows rendezvous of %s squares", got)
	}
}

// lesson is the step of Learn Lanrick with the title.
func lesson(t *testing.T, title string) game.Lesson {
	t.Helper()
	for _, l := range Info.Lessons {
		if l.Title == title {
			return l
		}
	}
	t.Fatalf("no step %q", title)
	return game.Lesson{}
}

// TestLessonWatchClaims: what the first step's words say of the rendezvous
// it plays out, the rules do. Each claim quotes words of one move's
// caption and is checked on the states just before and just after that
// move.
func TestLessonWatchClaims(t *testing.T) {
	l := lesson(t, "What the game is about: one rendezvous")
	sq := func(name string) Square {
		q, err := ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	out := func(s *State, p int) Bitboard { return s.men[p] &^ s.rdv }
	claims := []gametest.WatchClaim[*State]{
		{Words: "the nine green squares round it are the rendezvous", Holds: func(_, s *State) bool {
			return s.mark == sq("d5") && s.rdv.count() == 9 && s.rdv.has(sq("c4")) && s.rdv.has(sq("e6"))
		}},
		{Words: "Each side has five men on the border", Holds: func(_, s *State) bool {
			return s.men[Black].count() == 5 && s.men[White].count() == 5 && s.all()&^Border == 0
		}},
		{Words: "White may demand an interchange", Holds: func(b, _ *State) bool { return b.phase == PhaseInterchange && b.toAct == White }},
		{Words: "both sides are 13 squares from the rendezvous", Holds: func(b, _ *State) bool { return distance(b, White) == 13 && distance(b, Black) == 13 }},
		{Words: "moves first; the first turn of a rendezvous has only two squares", Holds: func(b, s *State) bool {
			return b.toAct == White && b.opening && b.budget == 2 && s.toAct == White
		}},
		{Words: "Black has five squares a turn", Holds: func(b, _ *State) bool { return b.toAct == Black && b.budget == 5 && !b.opening }},
		{Words: "at most three for any one man", Holds: func(b, _ *State) bool {
			// b8 may not run four squares to d4... nor h8 three and more:
			// no legal move of Black's here goes further than three.
			for _, a := range b.LegalActions(nil) {
				if k, x, y := unpack(a); k == kMove && max(abs(Square(x).File()-Square(y).File()), abs(Square(x).Rank()-Square(y).Rank())) > 3 {
					return false
				}
			}
			return true
		}},
		{Words: "Black's first man is in the rendezvous", Holds: func(b, s *State) bool {
			return (b.men[Black]&b.rdv).count() == 0 && (s.men[Black]&s.rdv).count() == 1
		}},
		{Words: "every turn from now on has five squares", Holds: func(b, _ *State) bool { return b.toAct == White && b.budget == 5 && !b.opening }},
		{Words: "Black's turn: again five squares", Holds: func(b, _ *State) bool { return b.toAct == Black && b.budget == 5 }},
		{Words: "White's turn: b3 and f3 step into the rendezvous", Holds: func(b, s *State) bool {
			// Both stand outside, a square from it (f3 steps in to e4 next).
			return b.toAct == White && out(b, White).has(sq("b3")) && out(b, White).has(sq("f3")) && distanceOf(b, sq("f3")) == 1 &&
				s.men[White].has(sq("c4")) && s.rdv.has(sq("c4"))
		}},
		{Words: "Black has three men outside, on d3, f4 and f6, each a square from the rendezvous", Holds: func(b, _ *State) bool {
			return b.toAct == Black && b.budget == 5 && out(b, Black) == bitOf(sq("d3"))|bitOf(sq("f4"))|bitOf(sq("f6")) && distance(b, Black) == 3
		}},
		{Words: "Black's men are 3 squares from the rendezvous in all, White's 6", Holds: func(_, s *State) bool {
			return distance(s, Black) == 3 && distance(s, White) == 6
		}},
		{Words: "White has four men in, and one, on f5, outside: a square short", Holds: func(_, s *State) bool {
			return (s.men[White]&s.rdv).count() == 4 && out(s, White) == bitOf(sq("f5")) && distance(s, White) == 1
		}},
		{Words: "Black wins the rendezvous", Holds: func(_, s *State) bool {
			for _, e := range s.Events() {
				if e.Kind == "rendezvous-won" && e.Player == Black {
					return true
				}
			}
			return false
		}},
		{Words: "It is full, so White's man left outside, on f5, is taken off the board", Holds: func(b, s *State) bool {
			return b.rdv.count() == 9 && !s.all().has(sq("f5")) && s.men[White].count() == 4 && s.men[Black].count() == 5
		}},
		{Words: "The next rendezvous has eight squares, and White, who has fewer men now, sets its mark", Holds: func(_, s *State) bool {
			return s.rendezvous == 2 && s.phase == PhaseMark && s.toAct == White && s.men[Black].count()+s.men[White].count() == 9
		}},
	}
	gametest.WatchClaims(t, MustLoad(l.Ruleset), l, claims)
	// White moved first and lost by a square, as the step's result says.
	if !strings.Contains(l.Done, "Black won it by a single square") {
		t.Fatalf("the step's result says %q", l.Done)
	}
}
