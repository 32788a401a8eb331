package lanrick

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestFeaturesOfARace reads the features of a final rendezvous worked by
// hand: the line d3–d5, two men a side, so each turn moves at most three
// squares (Rule 3) and each man once.
func TestFeaturesOfARace(t *testing.T) {
	g := MustLoad("1893")
	// Black: d1 goes up the file to d3 (one move, 2 squares); a8 down the
	// diagonal to d5 (one move, 3): 5 squares, 2 turns. White: h1 and h8
	// are off every line through the rendezvous: a diagonal and a
	// straight part each (h1-f3-d3, h8-e5-d5), 4 squares each, 8 in all:
	// 3 turns.
	s, err := g.Parse("board=b6w/8/8/8/8/8/8/3b3w to=black phase=move rdv=5 size=3 mark=d4 line=n setter=white budget=3")
	if err != nil {
		t.Fatal(err)
	}
	want := [NumFeatures]int{
		FSquares: 8 - 5,
		FTurns:   3 - 2,
		FRace:    -1, // black gets in first
		FFar:     2 - 1,
		FEnter:   0 - 2, // black's both can move in; white's neither (d4 is 4 squares from h8)
		FToMove:  -1,
		FSetter:  1,
	}
	if got := s.Features(); got != want {
		t.Errorf("features %v, want %v", got, want)
	}
	// White on d7 instead of h8 (straight down, 2 squares): white needs
	// 6 squares, 2 turns, and black, to move, still gets in first; with
	// white to move white does. White's d7 can move in at once.
	s, _ = g.Parse("board=b7/3w4/8/8/8/8/8/3b3w to=black phase=move rdv=5 size=3 mark=d4 line=n setter=white budget=3")
	if f := s.Features(); f[FTurns] != 0 || f[FRace] != -1 || f[FSquares] != 1 || f[FEnter] != -1 {
		t.Errorf("black to move: %v", f)
	}
	s, _ = g.Parse("board=b7/3w4/8/8/8/8/8/3b3w to=white phase=move rdv=5 size=3 mark=d4 line=n setter=black budget=3")
	if f := s.Features(); f[FRace] != 1 || f[FToMove] != 1 || f[FSetter] != -1 {
		t.Errorf("white to move: %v", f)
	}
}

// TestFeaturesOpenRendezvous: in an open rendezvous a man on the border
// slides into the first square of it he meets for one square (Rule 6).
func TestFeaturesOpenRendezvous(t *testing.T) {
	g := MustLoad("1893")
	// Five men, the 4-square rendezvous at the ends of the diagonals from
	// d4: a1, a7, g1 and h8, white in on h8.
	s, err := g.Parse("board=7w/8/8/8/8/b1b5/8/4w2w to=black phase=move rdv=3 size=4 mark=d4 setter=white budget=3")
	if err != nil {
		t.Fatal(err)
	}
	var r [2]raceOf
	for q := range 2 {
		r[q] = s.race(q)
	}
	// White: e1 and h1 slide to g1, a square each. Black: a3 slides to
	// a1 (1 square); c3 runs down the diagonal to a1 (2 squares).
	if r[Black] != (raceOf{turns: 1, squares: 3, far: 1}) || r[White] != (raceOf{turns: 1, squares: 2, far: 1}) {
		t.Errorf("races %+v", r)
	}
}

// TestFeaturesSwapWithColours plays random games of 1893 and, at every
// start of a turn, checks that the position with the colours swapped has
// the features negated: each feature is white's less black's.
func TestFeaturesSwapWithColours(t *testing.T) {
	g := MustLoad("1893")
	rng := rand.New(rand.NewPCG(5, 25))
	checked := 0
	for range 20 {
		s := g.Start()
		var buf []game.Action
		for !s.IsTerminal() && len(s.History()) < 400 {
			if s.TurnStart() {
				f := s.Features()
				swapped, err := g.Parse(swapColours(s.String()))
				if err != nil {
					t.Fatalf("%s: %v", swapColours(s.String()), err)
				}
				sf := swapped.Features()
				for i := range f {
					if sf[i] != -f[i] {
						t.Fatalf("%s: %s is %d; with the colours swapped %d\n%s", s, FeatureNames[i], f[i], sf[i], swapped)
					}
				}
				if v, w := Evaluate(s, White), Evaluate(swapped, Black); math.Abs(v-w) > 1e-12 {
					t.Fatalf("%s: white's value %v; with the colours swapped black's %v", s, v, w)
				}
				checked++
			}
			buf = s.LegalActions(buf[:0])
			s.Apply(buf[rng.IntN(len(buf))])
		}
	}
	if checked < 200 {
		t.Errorf("only %d positions checked", checked)
	}
}

// swapColours swaps black and white in a position text of 1893.
func swapColours(text string) string {
	colour := map[string]string{"black": "white", "white": "black", "-": "-"}
	fs := strings.Fields(text)
	for i, f := range fs {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "board":
			v = strings.Map(func(r rune) rune {
				switch r {
				case 'b':
					return 'w'
				case 'w':
					return 'b'
				}
				return r
			}, v)
		case "to", "setter", "lost":
			v = colour[v]
		case "opened":
			o := []byte("--")
			if v[1] == 'w' {
				o[0] = 'b'
			}
			if v[0] == 'b' {
				o[1] = 'w'
			}
			v = string(o)
		}
		fs[i] = k + "=" + v
	}
	return strings.Join(fs, " ")
}

// TestEvaluateBothSides: the evaluation of one player is the negation of
// the other's, within [-1, 1]; and hand-weighted where asked.
func TestEvaluateBothSides(t *testing.T) {
	for _, id := range versionIDs {
		g := MustLoad(id)
		rng := rand.New(rand.NewPCG(7, uint64(len(id))))
		s := g.Start()
		var buf []game.Action
		for n := 0; !s.IsTerminal() && n < 300; n++ {
			if s.ToAct() == game.Chance {
				outs := s.ChanceOutcomes(nil)
				s.Apply(outs[rng.IntN(len(outs))].Action)
				continue
			}
			for _, eval := range []func(game.State, game.Player) float64{Evaluate, EvaluateHand} {
				b, w := eval(s, Black), eval(s, White)
				if b != -w || b < -1 || b > 1 {
					t.Fatalf("%s: %s: black %v, white %v", id, s, b, w)
				}
			}
			buf = s.LegalActions(buf[:0])
			s.Apply(buf[rng.IntN(len(buf))])
		}
	}
}

// TestMenValue: the chance to win from a count of men, every rendezvous a
// fair toss, by the rules that take a man from the loser.
func TestMenValue(t *testing.T) {
	for _, c := range []struct {
		version string
		w, b    int
		want    float64
	}{
		{"1893", 5, 5, 0.5},
		{"1893", 3, 2, 2.0 / 3},  // the gambler's ruin: (w−1)/(w+b−2)
		{"1893", 6, 4, 5.0 / 8},  // the first rendezvous won: a man converted
		{"1893", 2, 1, 1},        // one man left: beaten
		{"1880-12", 2, 1, 0.75},  // removals to none: white needs one win before black wins two
		{"1880-12", 1, 1, 0.5},   // one toss left
		{"1881", 2, 2, 0.5},      // to one man
		{"1881", 3, 2, 0.75},     // white two wins to black's one
		{"1879-03", 3, 3, 0.5},   // the round scored at two men
		{"1879-03", 4, 3, 0.75},  // black one more loss, white two
		{"1879-01", 3, 1, 0.875}, // black one loss from none, white three
	} {
		g := MustLoad(c.version)
		if got := MenValue(&g.Rules, c.w, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s, white %d men, black %d: %v, want %v", c.version, c.w, c.b, got, c.want)
		}
	}
}

// TestEvaluateWonRendezvous: once white has got all his men in and is
// converting (Rule 7), the rendezvous is his whatever the features say:
// white's value is what the men will be worth after it.
func TestEvaluateWonRendezvous(t *testing.T) {
	g := MustLoad("1893")
	// The 4-square rendezvous a1, a7, g1, h8 (the mark on d4): five men,
	// white's three all in, black's two outside.
	s, err := g.Parse("board=7w/8/8/8/8/b1b5/8/w5w1 to=white phase=remove rdv=3 size=4 mark=d4 setter=black budget=0")
	if err != nil {
		t.Fatal(err)
	}
	// After the conversion white has 4 men and black 1: the game is won.
	if v := Evaluate(s, White); v != 1 {
		t.Errorf("white's value %v, want 1", v)
	}
}

// TestFeaturesFinish: a player whose men outside can all move in, within
// his budget, may win the rendezvous this turn.
func TestFeaturesFinish(t *testing.T) {
	g := MustLoad("1893")
	// The line d3–d5: black's d1 (2 squares) and d7 (2) could both move in,
	// 4 squares, but the budget is 3; white's c2 (1 square, diagonally
	// to d3) and e6 (1, to d5): 2 squares.
	s, err := g.Parse("board=8/3b4/4w3/8/8/8/2w5/3b4 to=white phase=move rdv=5 size=3 mark=d4 line=n setter=black budget=3")
	if err != nil {
		t.Fatal(err)
	}
	f := s.Features()
	if f[FEnter] != 0 || f[FFinish] != 1 || f[FFinishNow] != 1 {
		t.Errorf("white to move: enter %d, finish %d, finish now %d; want 0, 1, 1", f[FEnter], f[FFinish], f[FFinishNow])
	}
	s, _ = g.Parse("board=8/3b4/4w3/8/8/8/2w5/3b4 to=black phase=move rdv=5 size=3 mark=d4 line=n setter=white budget=3")
	if f := s.Features(); f[FFinish] != 1 || f[FFinishNow] != 0 {
		t.Errorf("black to move: finish %d, finish now %d; want 1 (white's), 0", f[FFinish], f[FFinishNow])
	}
}
