package lanrick

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestPromptsAskWithSquares: in every phase that is answered on the board
// (setting men, the mark, the interchange's choice, moving, removing, and
// the 1879–1881 phases after a win) the prompt names squares to click, and
// every action of such a phase but "end" and "pass" picks squares; only
// the dice, the interchange's question and a spent turn are buttons.
// Greedy games of every ruleset visit the phases.
func TestPromptsAskWithSquares(t *testing.T) {
	buttons := map[Phase]bool{PhaseRoll: true, PhaseInterchange: true}
	for i, rs := range rulesets {
		rng := rand.New(rand.NewPCG(uint64(i), 77))
		seen := map[Phase]bool{}
		for n := 0; n < 6; n++ {
			s := MustLoad(rs).Start()
			for steps := 0; !s.over && steps < 5000; steps++ {
				if s.toAct == -1 {
					outs := s.ChanceOutcomes(nil)
					s.Apply(outs[rng.IntN(len(outs))].Action)
					continue
				}
				legal := s.LegalActions(nil)
				seen[s.phase] = true
				p := s.Prompt()
				for _, a := range legal {
					d := s.Describe(a)
					if !buttons[s.phase] && d.Kind != "end" && d.Kind != "pass" && len(d.Squares) == 0 {
						t.Fatalf("%s %s: %s picks no square", rs, s.phase, d.Text)
					}
				}
				if !buttons[s.phase] && len(p.Squares) == 0 && !(len(legal) == 1 && (s.Describe(legal[0]).Kind == "end" || s.Describe(legal[0]).Kind == "pass")) {
					t.Fatalf("%s %s: the prompt %q names no square at %s", rs, s.phase, p.Text, s)
				}
				s.Apply(greedy(s, legal, rng))
			}
		}
		need := []Phase{PhaseMove, PhaseRemove}
		if !strings.HasPrefix(rs, "1879") {
			need = append(need, PhaseMark) // the 1879 dice fix the rendezvous
		}
		for _, ph := range need {
			if !seen[ph] {
				t.Errorf("%s: greedy games never reached the %s phase (%v)", rs, ph, seen)
			}
		}
	}
}

// TestEventsOfARendezvous: Carroll's Rule 7 and 8 of 1893 announced as
// they happen — a rendezvous won and by whom, the man converted, the
// outlying man removed and the next rendezvous with its setter.
func TestEventsOfARendezvous(t *testing.T) {
	g := MustLoad("1893")
	kinds := func(s *State) []string {
		var out []string
		for _, e := range s.Events() {
			out = append(out, e.Kind+":"+strings.Join(e.Squares, ","))
		}
		return out
	}
	s := position(t, g, "d5 e5 a8 b8 c8", "d3 e3 f3 d4 g4", "to=white phase=move size=9 mark=e4 setter=black opened=bw")
	playAll(t, s, "g4-f4")
	if got := kinds(s); len(got) != 1 || !strings.HasPrefix(got[0], "rendezvous-won:") || s.Events()[0].Player != White {
		t.Fatalf("after white fills the rendezvous: %v", got)
	}
	if p := s.Prompt(); !strings.Contains(p.Text, "convert") || strings.Join(p.Squares, " ") != "a8 b8 c8" {
		t.Fatalf("prompt %+v, want the three outlying men to convert", p)
	}
	playAll(t, s, "x c8")
	if got := kinds(s); !slices.Equal(got, []string{"converted:c8"}) || !strings.Contains(s.Events()[0].Text, "black man on c8 became white's") {
		t.Fatalf("after the conversion: %v %+v", got, s.Events())
	}
	s = position(t, g, "d5 e5 d4 e4 a8", "d3 e3 f3 f4 g6", "to=white phase=move size=9 mark=e4 setter=black opened=bw")
	playAll(t, s, "g6-f5")
	got := kinds(s)
	if len(got) != 3 || !strings.HasPrefix(got[0], "rendezvous-won") || got[1] != "removed:a8" || got[2] != "rendezvous-begun:" {
		t.Fatalf("after the rendezvous filled with one man outside: %v", got)
	}
	if e := s.Events()[2]; e.Player != Black || !strings.Contains(e.Text, "black sets the mark") {
		t.Fatalf("the next setter: %+v", e)
	}
}

// TestTurnsGroupActions: the move list's turns hold each player's actions
// of a turn, the mark and the interchange decision as turns of their own.
func TestTurnsGroupActions(t *testing.T) {
	g := MustLoad("1893")
	s := g.Start()
	playAll(t, s, "mark d5 no-interchange g1-g3 b8-b7 end")
	turns := game.Turns(g.Start(), s.History())
	var got []string
	for _, tu := range turns {
		got = append(got, g.PlayerName(tu.Player)+": "+strings.Join(tu.Actions, " "))
	}
	want := []string{"black: mark d5", "white: no-interchange", "white: g1-g3", "black: b8-b7 end"}
	if !slices.Equal(got, want) {
		t.Fatalf("turns %q, want %q", got, want)
	}
}

// TestConversionLabels: Rule 7's choice reads "convert g4" in 1893 (the
// man changes sides), and a setting reads "set a man on …" in 1881.
func TestConversionLabels(t *testing.T) {
	var l game.Lesson // converting an outlying man
	for _, x := range Info.Lessons {
		if x.Goal == "converted" {
			l = x
		}
	}
	s, err := MustLoad("1893").Parse(l.Position)
	if err != nil {
		t.Fatal(err)
	}
	if err := game.ApplyNotation(s, l.Solution[:3]); err != nil {
		t.Fatal(err)
	}
	labels := map[string]bool{}
	for _, d := range game.DescribeLegal(s) {
		labels[d.Label] = true
	}
	if !labels["convert g4"] || !labels["convert b1"] || len(labels) != 2 {
		t.Errorf("the conversion is offered as %v", labels)
	}
	start := MustLoad("1881").Start()
	if d := start.Describe(start.LegalActions(nil)[0]); !strings.HasPrefix(d.Label, "set a man on ") {
		t.Errorf("a setting reads %q", d.Label)
	}
}

// TestDiceEvents: a throw of 1879's die is announced with its face, and
// the throw that fixes the rendezvous names its nine squares.
func TestDiceEvents(t *testing.T) {
	s := MustLoad("1879-01").Start()
	rng := rand.New(rand.NewPCG(1, 2))
	throws, fixed := 0, 0
	for !s.IsTerminal() && throws < 20 {
		if s.ToAct() == game.Chance {
			outs := s.ChanceOutcomes(nil)
			s.Apply(outs[rng.IntN(len(outs))].Action)
			es := s.Events()
			if len(es) == 0 || es[0].Kind != "dice" || len(es[0].Dice) != 1 || es[0].Dice[0] < 1 || es[0].Dice[0] > 6 {
				t.Fatalf("a throw announced as %+v", es)
			}
			throws++
			if len(es[0].Squares) > 0 {
				if len(es[0].Squares) != 9 || s.mark == NoSquare {
					t.Fatalf("the throw fixing the rendezvous names %v", es[0].Squares)
				}
				for _, fact := range s.View().Facts {
					if fact.Key == "setter" && fact.Value != "the dice" {
						t.Fatalf("the mark of the dice is said to be set by %s", fact.Value)
					}
				}
				fixed++
			}
			continue
		}
		legal := s.LegalActions(nil)
		s.Apply(legal[rng.IntN(len(legal))])
	}
	if throws == 0 || fixed == 0 {
		t.Fatalf("%d throws, %d fixing a rendezvous", throws, fixed)
	}
}

// TestOneSquareSaid: a turn with one square left says "1 square", not "1
// squares" (issue 31, item 7); three say "3 squares".
func TestOneSquareSaid(t *testing.T) {
	g := MustLoad("1893")
	for budget, want := range map[int]string{1: "1 square left this turn", 3: "3 squares left this turn"} {
		s, err := g.Parse(fmt.Sprintf("board=8/8/8/8/1w6/8/1w4b1/b7 to=white phase=move rdv=5 size=3 mark=e5 line=ne setter=black budget=%d opening=no opened=bw", budget))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Prompt().Text; !strings.Contains(got, want) {
			t.Errorf("budget %d: %q, want %q", budget, got, want)
		}
	}
}

// TestInterchangeSaid: a demanded interchange is told as an event, with
// the squares of the men that changed places (issue 31, item 5: the men
// changed places with no message).
func TestInterchangeSaid(t *testing.T) {
	s := MustLoad("1893").NewState()
	if err := game.ApplyNotation(s, []string{"mark d5", "interchange"}); err != nil {
		t.Fatal(err)
	}
	evs := s.Events()
	if len(evs) != 1 || evs[0].Kind != "interchange" || evs[0].Player != game.Player(White) ||
		evs[0].Text != "White demanded an interchange: the black and the white men changed places; each player keeps his colour." || len(evs[0].Squares) != 10 {
		t.Fatalf("events after the interchange: %+v", evs)
	}
}

// TestChoiceCostsAndMarkPreview: where a line move and a border slide
// reach the same square (Carroll's third example, Rule 6), each says what
// it costs; a mark shows the rendezvous it would make (Def. 2–3); a turn
// lists the squares of each of its actions.
func TestChoiceCostsAndMarkPreview(t *testing.T) {
	g := MustLoad("1893")
	s, err := g.Parse("board=2b2b2/b7/6b1/b7/1w6/w7/8/2w3w1 to=white phase=move rdv=2 size=8 mark=c5 setter=black budget=4 opening=no opened=bw")
	if err != nil {
		t.Fatal(err)
	}
	playAll(t, s, "g1~h5 c1~g1")
	notes := map[string]string{}
	for _, d := range game.DescribeLegal(s) {
		if slices.Equal(d.Squares, []string{"a3", "c1"}) {
			notes[d.Text] = d.Note
		}
	}
	if notes["a3-c1"] != "2 squares, straight" || !strings.HasPrefix(notes["a3~c1"], "1 square along the border: a slide that stops at or before the first rendezvous square counts one") {
		t.Errorf("the two ways from a3 to c1 say %q", notes)
	}
	// The slide goes round the corner a1; the line move has no path.
	for _, d := range game.DescribeLegal(s) {
		switch d.Text {
		case "a3~c1":
			if !slices.Equal(d.Path, []string{"a3", "a2", "a1", "b1", "c1"}) {
				t.Errorf("the slide a3~c1 passes %v", d.Path)
			}
		case "a3-c1":
			if d.Path != nil {
				t.Errorf("the line move a3-c1 has a path %v", d.Path)
			}
		}
	}
	start := g.Start()
	for _, d := range game.DescribeLegal(start) {
		if d.Text == "mark d5" {
			want := []string{"c4", "d4", "e4", "c5", "d5", "e5", "c6", "d6", "e6"}
			got := slices.Clone(d.Preview)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("mark d5 previews %v, want %v", d.Preview, want)
			}
		}
	}
	playAll(t, start, "mark d5 no-interchange g1-g3")
	turns := game.Turns(g.Start(), start.History())
	last := turns[len(turns)-1]
	if len(last.Squares) != 1 || !slices.Equal(last.Squares[0], []string{"g1", "g3"}) {
		t.Errorf("the last turn's squares: %v", last.Squares)
	}
}

// TestAlikeActionsSayTheyAreAlike: where a straight move and a slide along
// the border join the same squares, they lead to the same position exactly
// when they cost the same (Rule 6 counts a short slide one square), and
// their descriptions say so (After), so that the page asks only where the
// choice means something; the notes say what each costs and why.
func TestAlikeActionsSayTheyAreAlike(t *testing.T) {
	s, err := MustLoad("1893").Parse("board=wb2w2b/8/8/8/b7/8/7b/w2b3w to=black phase=move rdv=2 size=8 mark=d4 setter=white budget=5 opening=no opened=bw")
	if err != nil {
		t.Fatal(err)
	}
	by := map[string][]game.ActionInfo{}
	for _, a := range s.LegalActions(nil) {
		d := s.Describe(a)
		k := strings.Join(d.Squares, " ")
		by[k] = append(by[k], d)
	}
	same, differ := 0, 0
	for k, ds := range by {
		if len(ds) != 2 {
			continue
		}
		a, b := ds[0], ds[1]
		if a.After == "" || b.After == "" {
			t.Fatalf("%s: no After", k)
		}
		costA, _, _ := strings.Cut(a.Note, " ")
		costB, _, _ := strings.Cut(b.Note, " ")
		if (a.After == b.After) != (costA == costB) {
			t.Errorf("%s: %s (%s) and %s (%s): alike %v", k, a.Text, a.Note, b.Text, b.Note, a.After == b.After)
		}
		if a.After == b.After {
			same++
		} else {
			differ++
		}
	}
	if same == 0 || differ == 0 {
		t.Fatalf("%d pairs alike, %d not: want both", same, differ)
	}
	// b8-d8 goes two squares; b8~d8 slides past c8 to the rendezvous square
	// d8 and counts one.
	for _, d := range by["b8 d8"] {
		want := map[string]string{"b8-d8": "2 squares, straight", "b8~d8": "1 square along the border: a slide that stops at or before the first rendezvous square counts one (Rule 6)"}[d.Text]
		if d.Note != want {
			t.Errorf("%s: note %q, want %q", d.Text, d.Note, want)
		}
	}
}

// TestTurnNumbersAreTheRecords: the turns a page numbers are numbered as
// the game's record numbers its lines (a newcomer found the move numbers
// on screen differing from the record's): each turn's actions stand, in
// order, on the record's line of its number; a conversion (Rule 7) is in
// the turn of the move that earned it.
func TestTurnNumbersAreTheRecords(t *testing.T) {
	for _, ruleset := range []string{"1893", "1899", "1881"} {
		g := MustLoad(ruleset)
		for seed := uint64(0); seed < 20; seed++ {
			rng := rand.New(rand.NewPCG(seed, 99))
			s := g.Start()
			for n := 0; n < 400 && !s.IsTerminal(); n++ {
				legal := s.LegalActions(nil)
				s.Apply(legal[rng.IntN(len(legal))])
			}
			rec := &game.Record{Spec: g.Spec(), Actions: game.Notation(g.Start(), s.History())}
			var b strings.Builder
			if err := g.WriteRecord(&b, rec); err != nil {
				t.Fatal(err)
			}
			lines := map[int]string{}
			for _, line := range strings.Split(b.String(), "\n") {
				var n int
				if _, err := fmt.Sscanf(line, "%d.", &n); err == nil {
					_, acts, _ := strings.Cut(line, ":")
					lines[n] += acts
				}
			}
			got := map[int]string{}
			for _, tu := range game.Turns(g.Start(), s.History()) {
				got[tu.Number] += " " + strings.Join(tu.Actions, " ")
				for i, a := range tu.Actions {
					if strings.HasPrefix(a, "x ") && ruleset != "1881" && i == 0 {
						t.Fatalf("%s seed %d: turn %d begins with the conversion %s", ruleset, seed, tu.Number, a)
					}
				}
			}
			if len(got) != len(lines) {
				t.Fatalf("%s seed %d: %d turn numbers, %d record lines", ruleset, seed, len(got), len(lines))
			}
			for n, acts := range lines {
				if got[n] != acts {
					t.Fatalf("%s seed %d: record line %d holds%q, the turns numbered %d%q", ruleset, seed, n, acts, n, got[n])
				}
			}
		}
	}
}
