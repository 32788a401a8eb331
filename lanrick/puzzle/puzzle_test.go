package puzzle

import (
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/lanrick/endgame"
	"github.com/muster-games/muster/lanrick/endgame/endgametest"
)

// TestPuzzlesFromTheTables: the puzzles drawn from the shared test table
// are wins for the side to move in the turns they say, and playing the
// tables' best turns for both sides wins in exactly that many of the
// solver's turns; a turn that lets the win go is seen as such.
func TestPuzzlesFromTheTables(t *testing.T) {
	dir := endgametest.Dir(t)
	ts := &endgame.Tables{Dir: dir, NoBuild: true}
	lines := Lines(dir)
	if len(lines) == 0 {
		t.Fatal("no line has its table in the test folder")
	}
	ps, err := Generate(ts, lines, 8, 1)
	if err != nil || len(ps) < 4 {
		t.Fatalf("%d puzzles: %v", len(ps), err)
	}
	g := lanrick.MustLoad(Ruleset)
	spoiled := 0
	for _, p := range ps {
		s, err := g.Parse(p.Position)
		if err != nil {
			t.Fatal(err)
		}
		me := int(s.ToAct())
		if name := [2]string{"black", "white"}[me]; name != p.Side || p.Turns < 1 || p.Turns > 4 || p.Context == "" {
			t.Fatalf("puzzle %+v", p)
		}
		v, ok := Verdict(ts, s, me)
		if !ok || v.Outcome != 1 || (v.Turns+1)/2 != p.Turns {
			t.Fatalf("%s: the tables say %v, the puzzle %d turns", p.Position, v, p.Turns)
		}
		// A first action that lets the win go, where there is one.
		for _, a := range s.LegalActions(nil) {
			c := s.Copy()
			c.Apply(a)
			if w, ok := Verdict(ts, c, me); ok && (w.Outcome != 1 || w.Turns > v.Turns) {
				spoiled++
				break
			}
		}
		// Best play both ways wins in the turns said.
		start := s.Copy()
		for steps := 0; !s.IsTerminal() && steps < 200; steps++ {
			if !endgame.Applies(s) {
				// Rule 7's choice of the man to convert: any ends the game.
				s.Apply(s.LegalActions(nil)[0])
				continue
			}
			a, _, err := ts.Act(s)
			if err != nil {
				t.Fatalf("%s: %v", p.Position, err)
			}
			s.Apply(a)
		}
		turns := 0
		for _, tu := range game.Turns(start, s.History()) {
			// Rule 7's conversion, which follows the move that got the
			// men in, is not a turn of moves.
			if int(tu.Player) == me && !strings.HasPrefix(tu.Actions[0], "x ") {
				turns++
			}
		}
		if r := s.Returns(); !s.IsTerminal() || r[me] <= 0 || turns > p.Turns {
			t.Fatalf("%s: best play ends %v after %d of the solver's turns, want a win in %d", p.Position, r, turns, p.Turns)
		}
	}
	if spoiled == 0 {
		t.Error("no puzzle has a first move that spoils it: the checks were never tried")
	}
}

// TestNoFivePuzzlesWithoutTables: without five-man tables on disk there
// are no classes to draw from, and GenerateFive says what builds them.
func TestNoFivePuzzlesWithoutTables(t *testing.T) {
	ts := &endgame.Tables{Dir: t.TempDir(), NoBuild: true}
	cs := FiveClasses(ts)
	if len(cs) != 0 {
		t.Fatalf("%d classes in an empty folder", len(cs))
	}
	if _, err := GenerateFive(ts, cs, 3, 1); err == nil || !strings.Contains(err.Error(), "--five") {
		t.Errorf("GenerateFive without tables: %v", err)
	}
	// A position of the 4-square rendezvous reads back as one.
	pos := fivePosition(1<<3|1<<5|1<<60, 1<<9|1<<20, 9, 1)
	s, err := lanrick.MustLoad(Ruleset).Parse(pos)
	if err != nil || !endgame.AppliesFive(s) || s.ToAct() != lanrick.White {
		t.Fatalf("%s: %v", pos, err)
	}
}
