package endgame

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
)

// oneTable returns tables holding only the shared test table, refusing
// to build any other.
func oneTable(t *testing.T) (*Tables, Line) {
	tb := built(t)
	ts := &Tables{Dir: t.TempDir(), NoBuild: true, tables: map[lanrick.Bitboard]*slot{}}
	sl := &slot{}
	sl.once.Do(func() { sl.t = tb })
	ts.tables[tb.Line] = sl
	for _, l := range Lines() {
		if l.Squares == tb.Line {
			return ts, l
		}
	}
	t.Fatal("the table's line is not among the 168")
	return nil, Line{}
}

// TestActPlaysPerfectly: from positions at the start of a turn, Act's
// value is the table's, and when both players follow Act the side the
// table names wins in exactly the number of turns it gives — through
// opening turns, ordinary turns, Rule 7's conversion and Rule 9.
func TestActPlaysPerfectly(t *testing.T) {
	ts, line := oneTable(t)
	g := lanrick.MustLoad("1893")
	r := rand.New(rand.NewPCG(11, 12))
	lengths := map[int]int{}
	for n := 0; n < 40; n++ {
		black, white := RandomPosition(r)
		side := r.IntN(2)
		opening := n%4 == 0
		s := state(t, g, black, white, line, side, opening)
		want, err := ts.Value(black, white, line.Squares, side)
		if opening {
			want, err = ts.Opening(black, white, line.Squares, side)
		}
		if err != nil {
			t.Fatal(err)
		}
		if want.Outcome == 0 {
			t.Fatalf("%s: a draw, but the tables have none", s)
		}
		start := s.String()
		turns := 0
		for acts := 0; !s.IsTerminal(); acts++ {
			if acts > 200 {
				t.Fatalf("%s: no end after 200 actions", start)
			}
			if s.TurnStart() {
				turns++
			}
			if !Applies(s) {
				if s.Phase() != lanrick.PhaseRemove {
					t.Fatalf("%s: left the tables' scope at %s", start, s)
				}
				s.Apply(s.LegalActions(nil)[0]) // Rule 7's choice: any wins
				continue
			}
			a, v, err := ts.Act(s)
			if err != nil {
				t.Fatal(err)
			}
			if s.TurnStart() && turns == 1 && v != want {
				t.Fatalf("%s: Act values it %v, the table %v", start, v, want)
			}
			s.Apply(a)
		}
		winner := side
		if want.Outcome < 0 {
			winner = 1 - side
		}
		if res := s.Result(); int(res.Winner) != winner || turns != want.Turns {
			t.Fatalf("%s: table %v for %d; played: %v won after %d turns", start, want, side, res, turns)
		}
		lengths[turns]++
	}
	if len(lengths) < 3 {
		t.Errorf("game lengths %v: want a spread of quick and slow wins", lengths)
	}
}

// TestActInterchange: before play, the non-setter's decision under Rule 5
// is the better of the two openings the tables give.
func TestActInterchange(t *testing.T) {
	ts, line := oneTable(t)
	g := lanrick.MustLoad("1893")
	r := rand.New(rand.NewPCG(13, 14))
	decided := map[string]int{}
	for n := 0; n < 200 && (decided["interchange"] == 0 || decided["no-interchange"] == 0 || n < 20); n++ {
		black, white := RandomPosition(r)
		if (black|white)&line.Squares != 0 {
			continue
		}
		// Black sets the mark; white decides.
		s, err := g.Build(lanrick.Setup{Black: black, White: white, ToAct: lanrick.Black, Phase: lanrick.PhaseMark,
			Rendezvous: 6, Setter: lanrick.Black, Mark: lanrick.NoSquare, Size: 3, Line: -1})
		if err != nil {
			t.Fatal(err)
		}
		a, err := s.ParseAction("mark " + line.String())
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		s.Apply(a)
		if s.Phase() != lanrick.PhaseInterchange {
			t.Fatalf("%s: want white's decision under Rule 5", s)
		}
		kept, _ := ts.Opening(black, white, line.Squares, 1)
		inter, _ := ts.Opening(white, black, line.Squares, 1)
		best := kept
		if inter.better(kept) {
			best = inter
		}
		act, v, err := ts.Act(s)
		if err != nil {
			t.Fatal(err)
		}
		name := s.ActionString(act)
		if v != best || name == "interchange" && inter != best || name == "no-interchange" && kept != best {
			t.Fatalf("%s: kept %v, interchanged %v; Act: %s, %v", s, kept, inter, name, v)
		}
		decided[name]++
	}
	if decided["interchange"] == 0 || decided["no-interchange"] == 0 {
		t.Errorf("decisions %v: want both", decided)
	}
}

// TestActScope: Act refuses positions outside the final rendezvous, and
// tables that may not be built are reported missing.
func TestActScope(t *testing.T) {
	ts, _ := oneTable(t)
	start := lanrick.MustLoad("1893").Start()
	if Applies(start) {
		t.Error("the opening position is not an endgame")
	}
	if _, _, err := ts.Act(start); err == nil {
		t.Error("Act at the start of the game: want an error")
	}
	const final = "board=7b/w7/8/8/8/8/8/b5w1 to=black phase=mark size=3 setter=black rdv=6 lost=black"
	each, err := lanrick.MustLoad("1893", game.KV{Key: "opening_turn", Value: "each_player"}).Parse(final)
	if err != nil {
		t.Fatal(err)
	}
	if Applies(each) {
		t.Error("opening_turn=each_player is not what the tables assume")
	}
	// Before the final mark every line is looked at: the tables of the
	// other classes are not on disk.
	s, err := lanrick.MustLoad("1893").Parse(final)
	if err != nil {
		t.Fatal(err)
	}
	if !Applies(s) {
		t.Fatalf("%s: the final mark is the tables' to decide", s)
	}
	if _, _, err := ts.Act(s); !errors.Is(err, ErrMissing) {
		t.Errorf("Act with tables missing: %v, want ErrMissing", err)
	}
}
