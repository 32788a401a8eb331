package lanrick

import (
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

// oldFields are the fields of a position in play for a 3×3 rendezvous.
const oldFields = "rdv=1 size=9 placer=black placed=10 first=black opened=bw"

// placeAll sets the men given in the order of the setting phase.
func placeAll(t *testing.T, s *State, squares string) {
	t.Helper()
	for _, q := range strings.Fields(squares) {
		playAll(t, s, "@"+q)
	}
}

// --- 1879-01 ---

// TestV1Rule1Placement: "The Players set the men in turn, on any
// border-squares they like." (the MS correction: alternately)
func TestV1Rule1Placement(t *testing.T) {
	s := MustLoad("1879-01").Start()
	if s.phase != PhasePlace || s.toAct != Black || len(s.LegalActions(nil)) != 28 {
		t.Fatalf("start: %s, %d actions", s, len(s.LegalActions(nil)))
	}
	if _, err := s.ParseAction("@d4"); err == nil {
		t.Error("a man set on the field square d4")
	}
	playAll(t, s, "@a1")
	if s.toAct != White || !s.men[Black].has(sq(0, 0)) {
		t.Fatalf("after @a1: %s", s)
	}
	placeAll(t, s, "a2 a3 a4 a5 a6 a7 a8 b8 c8")
	if s.toAct != -1 || s.phase != PhaseRoll || s.men[Black].count() != 5 || s.men[White].count() != 5 {
		t.Fatalf("after the setting: %s", s)
	}
}

// TestV1Rule2Dice: "The die is thrown twice, and a square marked
// accordingly, the first throw fixing the row, the second the column; the
// marked square, with the 8 surrounding squares, forms the first
// 'rendezvous'." Rows and columns 1–6 are those of the interior.
func TestV1Rule2Dice(t *testing.T) {
	s := MustLoad("1879-01").Start()
	placeAll(t, s, "a1 a2 a3 a4 a5 a6 a7 a8 b8 c8")
	outs := s.ChanceOutcomes(nil)
	if len(outs) != 6 || outs[0].Prob != 1.0/6 {
		t.Fatalf("chance outcomes %v", outs)
	}
	playAll(t, s, "roll 3 roll 4")
	if s.mark != sq(4, 3) || s.rdv != squares(t, "d3 e3 f3 d4 e4 f4 d5 e5 f5") {
		t.Fatalf("row 3, column 4 should mark e4: %s", s)
	}
	// 1879-01 A-J2: he who placed first moves first; Rule 3: 6 squares.
	if s.toAct != Black || s.budget != 6 {
		t.Fatalf("black to move with 6: %s", s)
	}
	// A rendezvous at the border is allowed (A-J6): row 1, column 1 is b2.
	s = MustLoad("1879-01").Start()
	placeAll(t, s, "c1 d1 e1 f1 g1 h1 h2 h3 h4 h5")
	playAll(t, s, "roll 1 roll 1")
	if s.mark != sq(1, 1) {
		t.Fatalf("row 1, column 1: %s", s)
	}
}

// TestV1Rule5Rethrow: "If it be found that either Player has all his men
// already in the new 'rendezvous,' the die must be thrown again."
func TestV1Rule5Rethrow(t *testing.T) {
	s := MustLoad("1879-01").Start()
	// Black: a1 b1 c1 a2 a3, all within the 3×3 round b2.
	placeAll(t, s, "a1 h1 b1 h2 c1 h3 a2 h4 a3 h5")
	playAll(t, s, "roll 1 roll 1")
	if s.phase != PhaseRoll || s.mark != NoSquare {
		t.Fatalf("black is all in round b2: the die must be thrown again: %s", s)
	}
}

// TestV1Rule4LoserRemoves: "When one Player has got all his men into the
// 'rendezvous' the other must remove from the board one of his men that
// has failed to get in; … each Player may move over as many squares as he
// had men in the last 'rendezvous,' and one more."
func TestV1Rule4LoserRemoves(t *testing.T) {
	g := MustLoad("1879-01")
	s := position(t, g, "d3 e3 f3 d4 g4", "d5 a8 b8 c8 h1", "to=black phase=move mark=e4 setter=white budget=6 budgets=6,6 "+oldFields)
	playAll(t, s, "g4-f4")
	if s.phase != PhaseRemove || s.toAct != White {
		t.Fatalf("white (the loser) should choose: %s", s)
	}
	if got := legalTexts(s); strings.Join(got, " ") != "x a8 x b8 x c8 x h1" {
		t.Fatalf("white may remove only his men outside: %v", got)
	}
	playAll(t, s, "x h1")
	// Black had 5 in: 6 squares; white had 1 in (d5): 2 squares.
	if s.budgets != [2]int8{6, 2} || s.phase != PhaseRoll {
		t.Fatalf("budgets %v, want [6 2]: %s", s.budgets, s)
	}
	// Reading B: white's men on the board in the last rendezvous, and one.
	s = position(t, MustLoad("1879-01", game.KV{Key: "budget_reading", Value: "B"}), "d3 e3 f3 d4 g4", "d5 a8 b8 c8 h1",
		"to=black phase=move mark=e4 setter=white budget=6 budgets=6,6 "+oldFields)
	playAll(t, s, "g4-f4 x h1")
	if s.budgets != [2]int8{6, 6} {
		t.Fatalf("reading B budgets %v, want [6 6]", s.budgets)
	}
}

// TestV1Rule6End: "The Game ends when one Player has lost all his men."
func TestV1Rule6End(t *testing.T) {
	s := position(t, MustLoad("1879-01"), "d3 e3", "a8", "to=black phase=move mark=e4 setter=white budget=3 budgets=3,2 "+oldFields)
	playAll(t, s, "d3-d4")
	if !s.over || s.result.Winner != Black {
		t.Fatalf("white lost his last man: %s", s)
	}
}

// --- 1879-03 ---

// TestV2Rule2Setting: "The 'first Player' sets his men on any
// border-squares he likes: then the 'second Player' does the same."
func TestV2Rule2Setting(t *testing.T) {
	s := MustLoad("1879-03").Start()
	for i := 0; i < 5; i++ {
		if s.toAct != Black {
			t.Fatalf("man %d: %s to set", i, colourName(int(s.toAct)))
		}
		playAll(t, s, "@"+ring[i].String())
	}
	if s.toAct != White {
		t.Fatalf("then the second Player: %s", s)
	}
}

// TestV2Rule3Dice: "The die is thrown twice, all throws less then 'three'
// being neglected" — the centre lies in the central sixteen squares, and
// each of the three readings of the dice gives rows 3–6 only.
func TestV2Rule3Dice(t *testing.T) {
	for mode, throws := range map[string]string{
		"reroll":     "roll 1 roll 2 roll 5 roll 1 roll 3", // rows 5, column 3
		"mar1879_nb": "roll 2 roll 1 roll 3",               // 2·2+1 = 5, then 3
		"teetotum4":  "roll 3 roll 1",                      // 3 → row 5, 1 → column 3
	} {
		s := MustLoad("1879-03", game.KV{Key: "dice_mode", Value: mode}).Start()
		placeAll(t, s, "a1 a2 a3 a4 a5 h1 h2 h3 h4 h5")
		playAll(t, s, throws)
		if s.mark != sq(2, 4) {
			t.Errorf("%s: %s gives mark %s, want c5", mode, throws, s.mark)
		}
	}
	// The March N.B. is uniform over 3–6 (rules page, V2.3).
	var p [7]float64
	for a := 1; a <= 6; a++ {
		if a >= 3 {
			p[a] += 1.0 / 6
			continue
		}
		for b := 1; b <= 6; b++ {
			if b >= 3 {
				p[b] += 1.0 / 36
			} else {
				p[2*a+b] += 1.0 / 36
			}
		}
	}
	for v := 3; v <= 6; v++ {
		if p[v] < 0.2499 || p[v] > 0.2501 {
			t.Errorf("N.B. gives %d with probability %v, want 1/4", v, p[v])
		}
	}
}

// TestV2Rule4Budget: "Each Player may move as many squares as there are
// men belonging to the one who has fewest".
func TestV2Rule4Budget(t *testing.T) {
	s := position(t, MustLoad("1879-03"), "a8 b8 c8", "a1 b1 c1 d1 e1", "to=white phase=move mark=e5 setter=black "+oldFields)
	if s.budget != 3 {
		t.Fatalf("budget %d, want 3 (black has 3)", s.budget)
	}
}

// TestV2Rules5to8: "he removes from the board one of the men that have not
// got in, and sets the others (called 'wanderers') in the 'rendezvous.'
// The men in the 'rendezvous' then 'radiate' … If there were any
// 'wanderers,' the winner … may then move his men to other border-squares,
// moving twice as many squares as there were 'wanderers' … for which the
// winner of last is 'first Player.'"
func TestV2Rules5to8(t *testing.T) {
	g := MustLoad("1879-03")
	// Rendezvous round e5 (d4…f6). Black all in after c5-d5; white has
	// e5 inside, a1 a8 h1 h8 outside.
	s := position(t, g, "d4 e4 f4 d6 c5", "e5 a1 a8 h1 h8", "to=black phase=move mark=e5 setter=white budget=5 "+oldFields)
	playAll(t, s, "c5-d5")
	if s.phase != PhaseRemove || s.toAct != Black {
		t.Fatalf("black removes: %s", s)
	}
	playAll(t, s, "x h8")
	if s.phase != PhaseSetIn || s.toAct != Black || s.wanderers != 3 {
		t.Fatalf("black sets the 3 wanderers in: %s", s)
	}
	playAll(t, s, "a1-e6 a8-f6") // the last wanderer has one square left: set by itself
	// Radiating: every man goes out along his line from e5; the centre man
	// (white's e5) chooses among the vacant lines — none is vacant, all
	// eight neighbours are full, so any vacant border square.
	if s.phase != PhaseRadiate || s.toAct != White {
		t.Fatalf("white's centre man to place: %s", s)
	}
	for _, q := range (s.all() &^ bitOf(s.mark)).squares(nil) {
		if !Border.has(q) {
			t.Fatalf("%s did not radiate to the border: %s", q, s)
		}
	}
	if n := len(s.LegalActions(nil)); n != 28-8 {
		t.Fatalf("centre man: %d choices, want the 20 vacant border squares", n)
	}
	playAll(t, s, "e5-b1")
	if s.phase != PhaseBonus || s.toAct != Black || s.bonus != 6 {
		t.Fatalf("black's bonus of 2×3 squares: %s", s)
	}
	playAll(t, s, "end")
	if s.phase != PhaseRoll || s.first != Black {
		t.Fatalf("next rendezvous, black first Player: %s", s)
	}
}

// TestV2Rule9Scoring: "When one Player has only two men left, the other
// scores as many marks as he has men … The Player, who first scores five,
// wins the game." (20 Feb: "as he has above two", three wins)
func TestV2Rule9Scoring(t *testing.T) {
	for scoring, want := range map[string]int8{"mar": 5, "feb": 3} {
		s := position(t, MustLoad("1879-03", game.KV{Key: "scoring", Value: scoring}), "d4 e4 f4 d6 c5", "e5 a1 a8",
			"to=black phase=move mark=e5 setter=white budget=3 scores=0,0 "+oldFields)
		playAll(t, s, "c5-d5 x a8")
		if s.scores[Black] != want {
			t.Errorf("%s: black scores %d, want %d", scoring, s.scores[Black], want)
		}
		if scoring == "mar" {
			if !s.over || s.result.Winner != Black || len(s.result.Scores) != 2 {
				t.Errorf("five marks win: %s", s)
			}
			continue
		}
		// Feb: 3 marks is the target too; a fresh setting would follow a
		// round that does not reach it.
		if !s.over {
			t.Errorf("feb: 3 marks win: %s", s)
		}
	}
	// A round below the target: the men are set again, the second
	// Player of the last setting now first.
	s := position(t, MustLoad("1879-03"), "d4 e4 f4 c5", "e5 a1 a8", "to=black phase=move mark=e5 setter=white budget=3 scores=0,0 "+oldFields)
	playAll(t, s, "c5-d5 x a8")
	if s.over || s.scores[Black] != 4 || s.phase != PhasePlace || s.placer != White || s.all() != 0 {
		t.Fatalf("4 marks, new setting by white: %s", s)
	}
}

// --- 1880-10 ---

// TestV3Rules1to3: "One Player sets all the men … The other then selects a
// square (not a border-square) … the one, who did not select the
// 'rendenzvous', having the first move. Each may move as many squares …
// as he has men on the board."
func TestV3Rules1to3(t *testing.T) {
	s := MustLoad("1880-10").Start()
	placeAll(t, s, "a1 a2 a3 a4 a5 h1 h2 h3 h4 h5")
	if s.men[Black] != squares(t, "a1 a2 a3 a4 a5") || s.phase != PhaseMark || s.toAct != White {
		t.Fatalf("black sets all ten, five black first; white selects: %s", s)
	}
	if n := len(s.LegalActions(nil)); n != 36 {
		t.Fatalf("%d selections, want the 36 field squares", n)
	}
	playAll(t, s, "mark d4")
	if s.toAct != Black || s.budget != 5 {
		t.Fatalf("black moves first with 5: %s", s)
	}
}

// TestV3Rule4and5: "he removes from the board one of the 'wanderers' …
// and plays the others to border-squares. The other then selects a new
// 'rendenzvous' (which must be clear of the old one, and also, if
// possible, empty)".
func TestV3Rule4and5(t *testing.T) {
	g := MustLoad("1880-10")
	s := position(t, g, "d3 e3 f3 d4 g4", "d5 c6 b7 a8 h8", "to=black phase=move mark=e4 setter=white budget=5 "+oldFields)
	playAll(t, s, "g4-f4 x h8")
	// c6 and b7 are off the border and not in: black plays them out.
	if s.phase != PhaseRelocate || s.toAct != Black {
		t.Fatalf("black relocates: %s", s)
	}
	playAll(t, s, "c6-c8 b7-a6")
	if s.phase != PhaseMark || s.setter != White {
		t.Fatalf("white selects the next: %s", s)
	}
	for _, a := range legalTexts(s) {
		x, _ := parseActionText(a)
		_, m, _ := unpack(x)
		rdv, _ := Rendezvous(Square(m), Shape{9, -1})
		if rdv&s.prevRdv != 0 {
			t.Errorf("%s is not clear of the old rendezvous", a)
		}
		if rdv&s.all() != 0 {
			t.Errorf("%s holds men though empty ones exist", a)
		}
	}
}

// --- 1880-12 ---

// TestV4Rule3Selection: "The other then selects … a 'rendenzvous,' which
// must not include any of his own men".
func TestV4Rule3Selection(t *testing.T) {
	s := position(t, MustLoad("1880-12"), "a1 a2 a3 c3 a5", "h1 h2 h3 f6 h5", "to=white phase=mark setter=white "+oldFields)
	for _, a := range legalTexts(s) {
		x, _ := parseActionText(a)
		_, m, _ := unpack(x)
		rdv, _ := Rendezvous(Square(m), Shape{9, -1})
		if rdv&s.men[White] != 0 {
			t.Errorf("%s includes the selector's own men", a)
		}
	}
	if !strings.Contains(strings.Join(legalTexts(s), " "), "mark c4") {
		t.Error("a rendezvous may include the placer's men (June 1881: 'Yes')")
	}
}

// TestV4Rule5MarkMove: "He who did not select the rendenzvous plays first.
// He may, instead of moving his own men, move the rendenzvous-mark one
// square … any men who have got into the rendenzvous must also be moved
// one square … whenever this would bring two men upon the same square,
// the mark must not be moved in that direction. This privilege … is not
// allowed to the Player who laid it down."
func TestV4Rule5MarkMove(t *testing.T) {
	g := MustLoad("1880-12")
	s := position(t, g, "a1 a2 a3 a4 a5", "e5 f6 h1 h2 h3", "to=black phase=move mark=e4 setter=white privilege=yes budget=5 "+oldFields)
	legal := strings.Join(legalTexts(s), " ")
	if !strings.Contains(legal, "mark>d4") {
		t.Fatalf("black may move the mark: %s", legal)
	}
	// Moving the mark north-east would carry e5 onto f6, which is not
	// carried (outside the old rendezvous): forbidden.
	if strings.Contains(legal, "mark>f5") {
		t.Error("mark>f5 would bring two men upon f6")
	}
	playAll(t, s, "mark>d4")
	if s.mark != sq(3, 3) || !s.men[White].has(sq(3, 4)) || s.toAct != White {
		t.Fatalf("after mark>d4: e5 carried to d5, white to play: %s", s)
	}
	if strings.Contains(strings.Join(legalTexts(s), " "), "mark>") {
		t.Error("the selector may not move the mark")
	}
	// Once black has moved a man, the privilege is gone.
	playAll(t, s, "h1-g1 end a1-b1")
	if strings.Contains(strings.Join(legalTexts(s), " "), "mark>") {
		t.Error("the privilege lasts only while he has not moved his men")
	}
}

// TestV4Rule5MarkPrivilegeOption: mark_privilege=no leaves Rule 5's
// privilege out (to measure its value, Q11): the same position offers no
// mark move, and a new rendezvous does not grant one; the option means
// nothing outside 1880-12.
func TestV4Rule5MarkPrivilegeOption(t *testing.T) {
	g := MustLoad("1880-12", game.KV{Key: "mark_privilege", Value: "no"})
	s := position(t, g, "a1 a2 a3 a4 a5", "e5 f6 h1 h2 h3", "to=black phase=move mark=e4 setter=white privilege=yes budget=5 "+oldFields)
	if legal := strings.Join(legalTexts(s), " "); strings.Contains(legal, "mark>") {
		t.Fatalf("no mark moves without the privilege: %s", legal)
	}
	for _, privilege := range []string{"yes", "no"} {
		g := MustLoad("1880-12", game.KV{Key: "mark_privilege", Value: privilege})
		s := position(t, g, "a1 a2 a3 c3 a5", "h1 h2 h3 f6 h5", "to=white phase=mark setter=white "+oldFields)
		playAll(t, s, "mark d5")
		legal := strings.Join(legalTexts(s), " ")
		if s.phase != PhaseMove || s.toAct != Black || strings.Contains(legal, "mark>") != (privilege == "yes") {
			t.Errorf("mark_privilege=%s, black to play after mark d5: %s: %s", privilege, s, legal)
		}
	}
	if _, err := Load("1880-10", game.KV{Key: "mark_privilege", Value: "no"}); err == nil || !strings.Contains(err.Error(), "1880-12") {
		t.Errorf("mark_privilege in 1880-10: %v", err)
	}
}

// TestV4Rule6: "When a Player has all his men in the rendenzvous, he takes
// off the board one of those who are not in … The other Player then
// selects a new rendenzvous … until one Player has no men left."
func TestV4Rule6(t *testing.T) {
	s := position(t, MustLoad("1880-12"), "d3 e3 f3 d4 g4", "d5 c6 a8", "to=black phase=move mark=e4 setter=white budget=5 "+oldFields)
	playAll(t, s, "g4-f4")
	if s.phase != PhaseRemove || len(s.LegalActions(nil)) != 2 {
		t.Fatalf("black chooses c6 or a8: %s", s)
	}
	playAll(t, s, "x a8")
	// c6 is the only wanderer off the border; its moves are black's choice.
	playAll(t, s, "c6-c8")
	if s.phase != PhaseMark || s.setter != White || s.toAct != White {
		t.Fatalf("white selects: %s", s)
	}
}

// --- 1881 ---

// TestV5Rule4: "he who plays first may not move in that turn more than two
// squares … He may move a man more than once in one turn, provided it be
// along the same line of squares."
func TestV5Rule4(t *testing.T) {
	g := MustLoad("1881")
	s := g.Start()
	placeAll(t, s, "a1 h1 b1 h2 c1 h3 d1 h4 e1 h5")
	if s.phase != PhaseMark || s.toAct != Black {
		t.Fatalf("he who begins sets the mark: %s", s)
	}
	playAll(t, s, "mark e6")
	if s.toAct != White || s.budget != 2 {
		t.Fatalf("white first with 2 squares: %s", s)
	}
	playAll(t, s, "h5-g5")
	if _, err := s.ParseAction("g5-g6"); err == nil {
		t.Error("g5 moved west; it may not go on north")
	}
	playAll(t, s, "g5-f5")
	if s.toAct != Black || s.budget != 5 {
		t.Fatalf("black with 5: %s", s)
	}
}

// TestV5Rule5Mark: "taking care that none of his men are in the
// rendezvous, and that he cannot, in one turn, move them all in."
func TestV5Rule5Mark(t *testing.T) {
	s := position(t, MustLoad("1881"), "b3 c3 d3 e3 f3", "a8 b8 c8 d8 e8", "to=black phase=mark setter=black "+oldFields)
	for _, a := range legalTexts(s) {
		x, _ := parseActionText(a)
		_, m, _ := unpack(x)
		if m == int(sq(3, 4)) { // d5: b3…f3 are not all next to c4…e6
			continue
		}
		rdv, _ := Rendezvous(Square(m), Shape{9, -1})
		if rdv&s.men[Black] != 0 {
			t.Errorf("%s includes black's men", a)
		}
	}
	// d5 (c4…e6): b3 c3 d3 e3 f3 each step in? b3→c4, c3→c4/d4, d3→…,
	// f3→e4: five men, three squares c4 d4 e4 next to them: impossible.
	// e5 (d4…f6): d3→d4/e4, e3→…, f3→…, c3→d4, b3 cannot: allowed.
	legal := strings.Join(legalTexts(s), " ")
	if !strings.Contains(legal, "mark e5") {
		t.Errorf("mark e5 should be allowed: %s", legal)
	}
	// A mark where all could step in at once is refused.
	s = position(t, MustLoad("1881"), "c3 d3 e3", "a8 b8 c8 d8 e8 f8 g8", "to=black phase=mark setter=black "+oldFields)
	if strings.Contains(strings.Join(legalTexts(s), " "), "mark d5") {
		t.Error("mark d5: c3 d3 e3 step into c4 d4 e4 in one turn of 3; it must be refused")
	}
}

// TestV5Rules6to8: winning, relocating to the border, equalising the men
// in the field, and re-marshalling alternately; "till one Player has
// taken four of his adversary's men, which wins the game."
func TestV5Rules6to8(t *testing.T) {
	g := MustLoad("1881")
	s := position(t, g, "d3 e3 f3 d4 g4", "d5 c6 a8 g6 g2", "to=black phase=move mark=e4 setter=white budget=5 lines=- "+oldFields)
	playAll(t, s, "g4-f4")
	playAll(t, s, "x g2")
	// Rule 6: c6 and g6 go to the border, black's choice.
	playAll(t, s, "c6-c8 g6-g8")
	// Rule 7: black has 5 in the field, white 1 (d5): black moves four
	// of his own to the border.
	if s.phase != PhaseEqualise || s.toAct != Black {
		t.Fatalf("black equalises: %s", s)
	}
	playAll(t, s, "d3-d1 e3-e1 f3-f1 d4-a1")
	// Rule 8: 4 white v 5 black: white (fewest) begins; white d5, black
	// e4 alternately.
	if s.phase != PhaseMarshal || s.toAct != White {
		t.Fatalf("white begins the re-marshalling: %s", s)
	}
	playAll(t, s, "d5-d8 f4-h4")
	if s.phase != PhaseMark || s.setter != White {
		t.Fatalf("white, who began, sets the mark: %s", s)
	}
	// Taking the fourth man wins.
	s = position(t, g, "d3 e3 f3 d4 g4", "d5 a8", "to=black phase=move mark=e4 setter=white budget=5 lines=- "+oldFields)
	playAll(t, s, "g4-f4")
	if !s.over || s.result.Winner != Black || !strings.Contains(s.result.Reason, "taken four") {
		t.Fatalf("black takes the fourth man: %s", s)
	}
}

// TestOptionsApply: options of one version are errors on another, and
// unknown ones list the known ones.
func TestOptionsApply(t *testing.T) {
	if _, err := Load("1893", game.KV{Key: "dice_mode", Value: "reroll"}); err == nil || !strings.Contains(err.Error(), "applies to 1879-03") {
		t.Errorf("dice_mode on 1893: %v", err)
	}
	if _, err := Load("1893", game.KV{Key: "colour", Value: "x"}); err == nil || !strings.Contains(err.Error(), "known: first, multi_move") {
		t.Errorf("unknown option: %v", err)
	}
	if _, err := Load("1894"); err == nil || !strings.Contains(err.Error(), "1879-01, 1879-03, 1880-10, 1880-12, 1881, 1893, 1899") {
		t.Errorf("unknown ruleset: %v", err)
	}
}

// TestOptionFirstMover: 1879-01 A-J2 — first_mover=other gives the first
// move of the first rendezvous to the player who placed second.
func TestOptionFirstMover(t *testing.T) {
	s := MustLoad("1879-01", game.KV{Key: "first_mover", Value: "other"}).Start()
	placeAll(t, s, "a1 a2 a3 a4 a5 a6 a7 a8 b8 c8")
	playAll(t, s, "roll 3 roll 4")
	if s.toAct != White {
		t.Fatalf("white should move first: %s", s)
	}
}

// TestOptionStalledRound: 1879-03 A9 — a stalled round draws the game, or
// under stalled_round=replay the men are set again without a score.
func TestOptionStalledRound(t *testing.T) {
	for mode, over := range map[string]bool{"draw": true, "replay": false} {
		g := MustLoad("1879-03", game.KV{Key: "stalled_round", Value: mode}, game.KV{Key: "no_progress", Value: "2"})
		s := position(t, g, "a8 b8 c8 d8 e8", "a1 b1 c1 d1 e1", "to=white phase=move mark=e5 setter=black "+oldFields)
		playAll(t, s, "a1-a2 end a8-a7 end")
		if s.over != over {
			t.Errorf("%s: over=%v, want %v: %s", mode, s.over, over, s)
		}
		if !over && (s.phase != PhasePlace || s.all() != 0 || s.scores != [2]int8{}) {
			t.Errorf("replay: want a fresh setting: %s", s)
		}
	}
}

// TestV4SelectionOverAllMen: 1880-12 A-D7 — the selector may place the
// rendezvous over all the other's men ("Can a player fix a rendenzvous
// which includes one of his adversary's men?" 'Yes.'); the other then has
// all his men in and wins it at once (A-D6).
func TestV4SelectionOverAllMen(t *testing.T) {
	s := position(t, MustLoad("1880-12"), "a8", "c3 d3 e3 c4 d4", "to=black phase=mark setter=black "+oldFields)
	playAll(t, s, "mark d4")
	if !s.over || s.result.Winner != White {
		t.Fatalf("white is all in and wins the rendezvous, taking black's last man: %s", s)
	}
}

// TestOptionOpenGeometry: 1893 A-G5 — open_geometry=check counts only the
// border squares a queen on the mark would really check.
func TestOptionOpenGeometry(t *testing.T) {
	g := MustLoad("1893", game.KV{Key: "open_geometry", Value: "check"})
	// Mark c5, size 8: a man on c6 blocks the line north to c8; a man on
	// the border end a5 is itself checked.
	s := position(t, g, "c6 a5 h1 h2", "b1 c1 d1 e1 f1", "to=black phase=mark size=8 setter=black rdv=2")
	playAll(t, s, "mark c5")
	want := squares(t, "f8 h5 g1 c1 a3 a5 a7")
	if s.rdv != want {
		t.Fatalf("checked squares %s, want %s", squaresText(s.rdv), squaresText(want))
	}
	back, err := g.Parse(s.String())
	if err != nil || back.rdv != want {
		t.Fatalf("round trip: %v %s", err, back)
	}
}

// TestEdition2: the Second Edition of 1881 reads differently in words
// only; both editions give the same game (same perft after a setting).
func TestEdition2(t *testing.T) {
	a := MustLoad("1881").Start()
	b := MustLoad("1881", game.KV{Key: "edition", Value: "2"}).Start()
	placeAll(t, a, "a1 h1 b1 h2 c1 h3 d1 h4 e1 h5")
	placeAll(t, b, "a1 h1 b1 h2 c1 h3 d1 h4 e1 h5")
	if x, y := game.Perft(a, 3), game.Perft(b, 3); x != y {
		t.Fatalf("editions differ: %d v %d", x, y)
	}
}
