package lanrick

import (
	"slices"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

// squares parses "a1 b2 …" into a bitboard.
func squares(t testing.TB, names string) Bitboard {
	t.Helper()
	b, err := parseSquares(strings.ReplaceAll(strings.TrimSpace(names), " ", ","))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// position builds a position from the men of each side and extra fields.
func position(t testing.TB, g *Game, black, white, fields string) *State {
	t.Helper()
	men := [2]Bitboard{squares(t, black), squares(t, white)}
	s, err := g.Parse("board=" + boardText(men) + " " + fields)
	if err != nil {
		t.Fatalf("position %s / %s %s: %v", black, white, fields, err)
	}
	return s
}

func playAll(t testing.TB, s *State, actions string) {
	t.Helper()
	for _, a := range splitActions(actions) {
		x, err := s.ParseAction(a)
		if err != nil {
			t.Fatalf("%s: %v (at %s)", a, err, s)
		}
		s.Apply(x)
	}
}

func legalTexts(s *State) []string {
	var out []string
	for _, a := range s.LegalActions(nil) {
		out = append(out, actionText(a))
	}
	slices.Sort(out)
	return out
}

// TestShapes checks the 1893 rendezvous of every size against Carroll's
// diagrams (Defs. 2–3), drawn with the mark on c5.
func TestShapes(t *testing.T) {
	c5 := sq(2, 4)
	cases := []struct {
		shape Shape
		want  string
	}{
		// Def. 3 (8): the border squares "in check" from a queen on c5.
		{Shape{8, -1}, "c8 f8 h5 g1 c1 a3 a5 a7"},
		// (6): the same without the two on the mark's own rank.
		{Shape{6, -1}, "c8 f8 g1 c1 a3 a7"},
		// (4): the diagonal ray ends only.
		{Shape{4, -1}, "f8 a7 a3 g1"},
		// Def. 2 (9): the marked square and all eight round it.
		{Shape{9, -1}, "b4 c4 d4 b5 c5 d5 b6 c6 d6"},
		// (7): without the two beside the mark on its rank.
		{Shape{7, -1}, "b4 c4 d4 c5 b6 c6 d6"},
		// (5): the mark and its four diagonal neighbours.
		{Shape{5, -1}, "b4 d4 c5 b6 d6"},
		// 3: "a line of 3 squares, having the marked square in the middle".
		{Shape{3, N}, "c4 c5 c6"},
		{Shape{3, E}, "b5 c5 d5"},
		{Shape{3, NE}, "b4 c5 d6"},
		{Shape{3, NW}, "d4 c5 b6"},
	}
	for _, c := range cases {
		got, ok := Rendezvous(c5, c.shape)
		if !ok || got != squares(t, c.want) {
			t.Errorf("size %d line %d on c5: %s, want %s", c.shape.Size, c.shape.Line, squaresText(got), c.want)
		}
		if got.count() != c.shape.Size {
			t.Errorf("size %d has %d squares", c.shape.Size, got.count())
		}
	}
	// Marks across the board: every shape fits exactly on the field
	// squares (sizes 9–4), and a 3-square one on every square but the
	// corners, along the edge on a border square (A-G14).
	for size := 4; size <= 9; size++ {
		n := 0
		for m := Square(0); m < Squares; m++ {
			if _, ok := Rendezvous(m, Shape{size, -1}); ok {
				n++
				if Border.has(m) {
					t.Errorf("size %d fits on the border square %s", size, m)
				}
			}
		}
		if n != 36 {
			t.Errorf("size %d fits on %d squares, want the 36 of the field", size, n)
		}
	}
	for m := Square(0); m < Squares; m++ {
		lines := 0
		for _, d := range lineDirs {
			if _, ok := Rendezvous(m, Shape{3, d}); ok {
				lines++
			}
		}
		want := 4
		switch {
		case m == 0 || m == 7 || m == 56 || m == 63:
			want = 0
		case Border.has(m):
			want = 1
		}
		if lines != want {
			t.Errorf("3-square lines on %s: %d, want %d", m, lines, want)
		}
	}
}

// TestStart1893 checks Rule 2's diagram, its half-turn symmetry with the
// colours exchanged, and the four first marks.
func TestStart1893(t *testing.T) {
	s := MustLoad("1893").Start()
	if s.men[Black] != squares(t, "b8 h8 a4 h2 d1") || s.men[White] != squares(t, "e8 a7 h5 a1 g1") {
		t.Fatalf("start %s", boardText(s.men))
	}
	rot := func(b Bitboard) Bitboard {
		var r Bitboard
		for _, q := range b.squares(nil) {
			r |= bitOf(63 - q)
		}
		return r
	}
	if rot(s.men[Black]) != s.men[White] || rot(firstMarks) != firstMarks {
		t.Error("the start is not symmetric under a half turn with the colours exchanged")
	}
	if Border&(s.all()) != s.all() {
		t.Error("all ten men stand on the border")
	}
	// "Then one Player sets the Mark on any one of the central four
	// squares … of the diagonal not containing men."
	if got := legalTexts(s); strings.Join(got, " ") != "mark c6 mark d5 mark e4 mark f3" {
		t.Errorf("first marks %v", got)
	}
	// 1899: "Then one Player sets the Mark." — anywhere it fits, with
	// none of his own men in it.
	s99 := MustLoad("1899").Start()
	want := 0
	for m := Square(0); m < Squares; m++ {
		clear := !Border.has(m)
		for _, b := range s99.men[Black].squares(nil) {
			if chebyshev(m, b) <= 1 {
				clear = false
			}
		}
		if clear {
			want++
		}
	}
	if n := len(s99.LegalActions(nil)); n != want || want != 25 {
		t.Errorf("1899 first marks: %d, want %d (field squares whose 3×3 holds no black man)", n, want)
	}
}

// TestRule2NonSetterPlaysFirst: "he, who did not set the Mark, having the
// first turn" — and Rule 3: "In playing the first turn for a Rendezvous, a
// Player may move 2 squares only."
func TestRule2NonSetterPlaysFirst(t *testing.T) {
	s := MustLoad("1893").Start()
	playAll(t, s, "mark d5 no-interchange")
	if s.toAct != White || s.phase != PhaseMove || s.budget != 2 {
		t.Fatalf("after the mark: %s", s)
	}
	for _, a := range legalTexts(s) {
		if m, err := parseActionText(a); err == nil {
			if k, x, y := unpack(m); k == kMove && chebyshev(Square(x), Square(y)) > 2 {
				t.Errorf("opening turn offers %s, longer than 2", a)
			}
		}
	}
	playAll(t, s, "a7-a5")
	if s.toAct != Black || s.budget != 5 {
		t.Fatalf("black's first turn should have 5 squares: %s", s)
	}
}

// TestRule3Budget: "he may move 5, 4, or 3 squares, according as he has
// on the Board more than 4, 4, or less than 4 men … may not move more
// than 3 of them with any one man, unless it be his only man outside the
// Rendezvous … After once playing a man and letting go of it, he may not
// move it again in that turn."
func TestRule3Budget(t *testing.T) {
	g := MustLoad("1893")
	fields := "to=white phase=move size=8 mark=d4 setter=black opened=bw"
	for _, c := range []struct {
		black, white string
		budget       int8
	}{
		{"a8 b8 c8 d8", "a1 b1 c1 e2 e3", 5},
		{"a8 b8 c8 d8 e8", "a1 b1 e2 e3", 4},
		{"a8 b8 c8 d8 e8 f8", "a1 e2 e3", 3},
	} {
		s := position(t, g, c.black, c.white, fields)
		if s.budget != c.budget {
			t.Errorf("%s: budget %d, want %d", c.white, s.budget, c.budget)
		}
	}
	// The cap: e2 may go 3 squares, not 4 (e2-e6 is 4), while other men
	// are outside.
	s := position(t, g, "a8 b8 c8 d8", "a1 b1 c1 e2 e3", fields)
	if _, err := s.ParseAction("e3-e7"); err == nil || !strings.Contains(err.Error(), "more than 3") {
		t.Errorf("e3-e7 (4 squares) with other men outside: %v", err)
	}
	playAll(t, s, "e3-e6")
	if _, err := s.ParseAction("e6-e7"); err == nil || !strings.Contains(err.Error(), "already moved") {
		t.Errorf("moving e6 again: %v", err)
	}
	// The only man outside may use the whole budget: white men in the
	// size-8 rendezvous of d4 (a1 a7 d8 g1 … ), one outside on c4.
	rdv, _ := Rendezvous(sq(3, 3), Shape{8, -1})
	in := rdv.squares(nil)
	s = position(t, g, "b7 c7", in[0].String()+" "+in[1].String()+" "+in[2].String()+" "+in[3].String()+" c4", fields)
	if got := s.cap(sq(2, 3)); got != s.budget {
		t.Errorf("the lone outsider's cap is %d, want the budget %d", got, s.budget)
	}
}

// TestRule1NoJumping: "Each man may be moved along any line of unoccupied
// squares, straight or slanting; but it may not … change its direction."
func TestRule1NoJumping(t *testing.T) {
	s := position(t, MustLoad("1893"), "c4", "c3 c5 a1 h8", "to=white phase=move size=4 mark=d4 setter=black opened=bw")
	for move, why := range map[string]string{"c3-c5": "occupied", "c3-c6": "blocked", "c3-d5": "straight line"} {
		if _, err := s.ParseAction(move); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: %v, want %q", move, err, why)
		}
	}
	if _, err := s.ParseAction("c3-e5"); err != nil {
		t.Errorf("c3-e5 (diagonal, 2 squares): %v", err)
	}
}

// TestHintsExamples plays Carroll's three worked examples from the 1893
// Hints: each turn is legal at exactly the stated cost and wins the
// rendezvous, which is then full, so the outlying man is removed (Rule 8).
func TestHintsExamples(t *testing.T) {
	g := MustLoad("1893")
	cases := []struct {
		name, black, white, fields, moves, removed string
		cost                                       int8
	}{
		// "you may win the Rendezvous by moving A into the vacant square,
		// D into A's place, and E into D's."
		{"close 9, A D E", "d4 f4 g4 d3 e3", "d5 e5 f5 g5 e4", "size=9 mark=e4 budget=5",
			"e4-f3 f5-e4 g5-f5", "g4", 3},
		// "moving A into the vacant square, B into A's place, C into B's,
		// D into C's, and E into D's."
		{"close 9, A B C D E", "d5 e4 f4 g4 d3", "e5 f5 g5 d4 e3", "size=9 mark=e4 budget=5",
			"e3-f3 d4-e3 e5-d4 f5-e5 g5-f5", "g4", 5},
		// Open 8: "you may win the Rendezvous by moving A into the vacant
		// Rendezvous-square, B into A's place, C into B's, and D into C's"
		// — three Rule 6 slides round corners at one square each.
		{"open 8, slides", "c8 f8 a7 a5 g6", "g1 c1 a3 b4", "size=8 mark=c5 budget=4",
			"g1~h5 c1~g1 a3~c1 b4-a3", "g6", 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := position(t, g, c.black, c.white, "to=white phase=move setter=black opened=bw "+c.fields)
			actions := splitActions(c.moves)
			for i, a := range actions {
				x, err := s.ParseAction(a)
				if err != nil {
					t.Fatalf("%s: %v", a, err)
				}
				s.Apply(x)
				if i < len(actions)-1 && s.toAct != White {
					t.Fatalf("turn ended early after %s", a)
				}
			}
			if s.men[Black].has(squares(t, c.removed).squares(nil)[0]) {
				t.Fatalf("the outlying man %s was not removed: %s", c.removed, s)
			}
			if s.men[Black].count() != 4 || s.phase != PhaseMark {
				t.Fatalf("after the win: %s", s)
			}
		})
	}
	// The stated costs: replay and sum the cost of each action.
	for _, c := range cases {
		s := position(t, g, c.black, c.white, "to=white phase=move setter=black opened=bw "+c.fields)
		var total int8
		for _, a := range splitActions(c.moves) {
			x, _ := s.ParseAction(a)
			k, from, to := unpack(x)
			cost := chebyshev(Square(from), Square(to))
			if k == kSlide {
				cost = s.slideCost(Square(from), Square(to))
			}
			total += cost
			s.Apply(x)
		}
		if total != c.cost {
			t.Errorf("%s: cost %d, want %d", c.name, total, c.cost)
		}
	}
}

// TestRule6Slides: "a Player may move any man, that is on the border,
// along it, without regarding the corners … if not moved beyond the first
// Rendezvous-square, reckons as having been moved one square only; but, if
// it be moved beyond, each square must be counted."
func TestRule6Slides(t *testing.T) {
	g := MustLoad("1893")
	// Open 8 on c5: c8 f8 h5 g1 c1 a3 a5 a7. White on d1 may slide to
	// c1 (1, the first rendezvous square), b1 (2 beyond: 2 squares), a1 (3).
	s := position(t, g, "e4 e5 e6 d6 c6", "d1 f2 f3 f4", "to=white phase=move size=8 mark=c5 setter=black opened=bw budget=4")
	want := map[string]int8{"d1~c1": 1, "d1~b1": 2, "d1~a1": 3, "d1~e1": 1, "d1~g1": 1, "d1~h1": 4}
	for a, cost := range want {
		x, err := s.ParseAction(a)
		if err != nil {
			if a == "d1~h1" {
				continue // 4 squares beyond: over the cap of 3
			}
			t.Errorf("%s: %v", a, err)
			continue
		}
		_, from, to := unpack(x)
		if got := s.slideCost(Square(from), Square(to)); got != cost {
			t.Errorf("%s costs %d, want %d", a, got, cost)
		}
	}
	if _, err := s.ParseAction("d1~h1"); err == nil {
		t.Error("d1~h1 (4 squares beyond g1) passed the cap of 3")
	}
	// A slide and a line move to the same square are separate actions.
	legal := legalTexts(s)
	if !slices.Contains(legal, "d1-c1") || !slices.Contains(legal, "d1~c1") {
		t.Errorf("want both d1-c1 and d1~c1 in %v", legal)
	}
	// No slides for a close rendezvous.
	s = position(t, g, "e4 e5 e6 d6 c6", "d1 f2 f3 f4", "to=white phase=move size=9 mark=c5 setter=black opened=bw budget=4")
	for _, a := range legalTexts(s) {
		if strings.Contains(a, "~") {
			t.Errorf("close rendezvous offers the slide %s", a)
		}
	}
}

// TestRule5Interchange: "he, who did not set the Mark, may … demand an
// 'interchange'; in which case he, who set the Mark, must interchange all
// his own men with whichever he chooses of the others."
func TestRule5Interchange(t *testing.T) {
	g := MustLoad("1893")
	s := g.Start()
	playAll(t, s, "mark c6 interchange")
	// Equal numbers: a complete exchange of sides, with no choice.
	if s.men[White] != squares(t, "b8 h8 a4 h2 d1") || s.toAct != White || s.phase != PhaseMove {
		t.Fatalf("after interchange: %s", s)
	}
	// The setter with fewer men picks which of the other's men change.
	s = position(t, g, "a8 b8 c8", "a1 b1 c1 d1", "to=black phase=mark size=6 setter=black rdv=2")
	playAll(t, s, "mark d4 interchange")
	if s.phase != PhaseSwap || s.toAct != Black {
		t.Fatalf("want black to choose: %s", s)
	}
	playAll(t, s, "swap a1 swap c1 swap d1")
	if s.men[Black] != squares(t, "a1 c1 d1") || s.men[White] != squares(t, "a8 b8 c8 b1") || s.toAct != White {
		t.Fatalf("after the swaps: %s", s)
	}
	// interchange=no leaves Rule 5 out.
	s = MustLoad("1893", game.KV{Key: "interchange", Value: "no"}).Start()
	playAll(t, s, "mark c6")
	if s.phase != PhaseMove || s.toAct != White {
		t.Fatalf("without Rule 5: %s", s)
	}
}

// TestRule7Conversion: "When a Player gets all his men into the
// Rendezvous, it being not yet full, he removes one of the outlying men
// from the Board, replacing it with a fresh man of his own colour; and
// this ends his turn."
func TestRule7Conversion(t *testing.T) {
	g := MustLoad("1893")
	// Close 9 on e4; white has 4 men in and one to bring in; black has 5
	// outside, 2 of them in.
	s := position(t, g, "d5 e5 a8 b8 c8", "d3 e3 f3 d4 g4", "to=white phase=move size=9 mark=e4 setter=black opened=bw")
	playAll(t, s, "g4-f4")
	if s.phase != PhaseRemove || s.toAct != White {
		t.Fatalf("want white to choose a man to convert: %s", s)
	}
	if got := legalTexts(s); strings.Join(got, " ") != "x a8 x b8 x c8" {
		t.Fatalf("conversion choices %v, want the three outlying men", got)
	}
	playAll(t, s, "x c8")
	if !s.men[White].has(sq(2, 7)) || s.men[Black].count() != 4 || s.toAct != Black || s.phase != PhaseMove {
		t.Fatalf("after x c8: %s", s)
	}
	// The same rendezvous goes on, with a full turn for black (4 men: 4).
	if s.mark != sq(4, 3) || s.budget != 4 {
		t.Fatalf("the rendezvous must go on: %s", s)
	}
}

// TestRule8FullAndNextSetter: "When a Player has got all his men into the
// Rendezvous, it being now full, he removes the outlying man from the
// Board. Then he who has fewest men on the Board, or in the case of
// equality he who has just lost a man, sets the Mark."
func TestRule8FullAndNextSetter(t *testing.T) {
	g := MustLoad("1893")
	// Close 9 on e4 (d3…f5); white brings g6 into the last square f5;
	// the rendezvous is full and black's outlying a8 is removed.
	s := position(t, g, "d5 e5 d4 e4 a8", "d3 e3 f3 f4 g6", "to=white phase=move size=9 mark=e4 setter=black opened=bw")
	playAll(t, s, "g6-f5")
	if s.men[Black].has(sq(0, 7)) || s.men[Black].count() != 4 {
		t.Fatalf("a8 not removed: %s", s)
	}
	// 4 v 5: black, with fewer men, sets the next mark, for 8 squares.
	if s.phase != PhaseMark || s.setter != Black || s.toAct != Black || s.shape.Size != 8 {
		t.Fatalf("black should set an 8-square mark: %s", s)
	}
	// Open 8 on d4 (d8 h8 h4 g1 d1 a1 a4 a7): 5 v 4 before, 4 v 4 after;
	// in the equality black, who has just lost a man, sets the mark.
	s = position(t, g, "d8 h8 h4 g1 e6", "d1 a1 a4 b7", "to=white phase=move size=8 mark=d4 setter=black opened=bw")
	playAll(t, s, "b7-a7")
	if s.men[Black].count() != 4 || s.men[White].count() != 4 || s.setter != Black || s.shape.Size != 7 {
		t.Fatalf("4 v 4: black, who lost the man, sets a 7-square mark: %s", s)
	}
}

// TestRule9OneManLoses: "When a Player has only one man left, he has lost
// the Game."
func TestRule9OneManLoses(t *testing.T) {
	g := MustLoad("1893")
	// The final 3-square rendezvous: 2 v 2; white completes it.
	s := position(t, g, "e4 a8", "e3 g3", "to=white phase=move size=3 mark=e4 line=n setter=black opened=bw")
	playAll(t, s, "g3-e5")
	if !s.over || s.result.Winner != White || !strings.Contains(s.result.Reason, "one man left") {
		t.Fatalf("want white to win: %s", s)
	}
}

// Test1899SetterNoOwnMan: the 1899 Rule 4: the mark "may be set on any but
// a border-square … provided that he, who sets it, has no man in the
// Rendezvous thus determined."
func Test1899SetterNoOwnMan(t *testing.T) {
	s := position(t, MustLoad("1899"), "d4 a8 b8 c8", "a1 b1 c1", "to=black phase=mark size=6 setter=black rdv=2")
	for _, a := range legalTexts(s) {
		x, _ := parseActionText(a)
		_, m, _ := unpack(x)
		rdv, _ := Rendezvous(Square(m), Shape{6, -1})
		if rdv&s.men[Black] != 0 {
			t.Errorf("%s puts a black man in the rendezvous", a)
		}
	}
	s93 := position(t, MustLoad("1893"), "d4 a8 b8 c8", "a1 b1 c1", "to=black phase=mark size=6 setter=black rdv=2")
	if len(legalTexts(s93)) <= len(legalTexts(s)) {
		t.Error("1893 Rule 4 has no restriction about the setter's men; it should offer more marks")
	}
}

// TestDraws: Carroll (June 1881) "ought to be a drawn game" — made
// concrete as the third occurrence of a state and 100 turns without
// progress (A9).
func TestDraws(t *testing.T) {
	g := MustLoad("1893")
	s := position(t, g, "a8 b8 c8 h8", "a1 b1 c1 d1 e2", "to=white phase=move size=8 mark=d4 setter=black opened=bw")
	playAll(t, s, "e2-e3 end h8-h7 end e3-e2 end h7-h8 end") // the start state again
	playAll(t, s, "e2-e3 end h8-h7 end e3-e2 end h7-h8")
	if s.over {
		t.Fatalf("over too soon: %s", s.result.Reason)
	}
	playAll(t, s, "end") // the start state a third time
	if !s.over || s.result.Reason != "threefold repetition" {
		t.Fatalf("want threefold repetition: %v %s", s.over, s.result.Reason)
	}
	s = position(t, MustLoad("1893", game.KV{Key: "no_progress", Value: "4"}), "a8 b8 c8 h8", "a1 b1 c1 d1 e2", "to=white phase=move size=8 mark=d4 setter=black opened=bw")
	playAll(t, s, "e2-e3 end h8-h7 end e3-e4 end")
	if s.over {
		t.Fatal("over after 3 turns")
	}
	playAll(t, s, "h7-h6 end")
	if !s.over || !strings.Contains(s.result.Reason, "without progress") {
		t.Fatalf("want a no-progress draw: %s", s.result.Reason)
	}
}

// TestRemovalsShown: the view names the men the last action took off or
// turned, for the board to show.
func TestRemovalsShown(t *testing.T) {
	g := MustLoad("1893")
	s := position(t, g, "d5 e5 a8 b8 c8", "d3 e3 f3 d4 g4", "to=white phase=move size=9 mark=e4 setter=black opened=bw")
	playAll(t, s, "g4-f4 x c8")
	if v := s.View(); len(v.Converted) != 1 || v.Converted[0] != "c8" || len(v.Removed) != 0 {
		t.Fatalf("after the conversion: %+v", v)
	}
	s = position(t, g, "d5 e5 d4 e4 a8", "d3 e3 f3 f4 g6", "to=white phase=move size=9 mark=e4 setter=black opened=bw")
	playAll(t, s, "g6-f5")
	if v := s.View(); len(v.Removed) != 1 || v.Removed[0] != "a8" {
		t.Fatalf("after the removal: %+v", v)
	}
	playAll(t, s, "mark d4")
	if v := s.View(); len(v.Removed) != 0 {
		t.Fatalf("the next action clears it: %+v", v)
	}
}
