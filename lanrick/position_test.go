package lanrick

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestBuildMatchesParse builds, from Go, the start of every turn and every
// mark of greedy games of 1893 and 1899 and compares the position with the
// one the game reached (its text, hash and legal actions).
func TestBuildMatchesParse(t *testing.T) {
	for _, rs := range []string{"1893", "1899"} {
		g := MustLoad(rs)
		rng := rand.New(rand.NewPCG(3, 4))
		built := 0
		for range 4 {
			s := g.Start()
			for !s.IsTerminal() && len(s.actions) < 2000 {
				if s.TurnStart() || s.phase == PhaseMark {
					u := Setup{Black: s.men[Black], White: s.men[White], ToAct: int(s.toAct), Phase: s.phase,
						Rendezvous: int(s.rendezvous), Setter: int(s.setter), Mark: s.mark, Size: s.shape.Size,
						Line: s.shape.Line, Budget: int(s.budget), Opening: s.opening, Opened: s.openingDone}
					b, err := g.Build(u)
					if err != nil {
						t.Fatalf("%s: build %s: %v", rs, s, err)
					}
					b.lastLoser, b.lone, b.noProgress, b.passes = s.lastLoser, s.lone, s.noProgress, s.passes
					b.hashes = append(b.hashes[:0], b.Hash())
					if b.String() != s.String() || b.Hash() != s.Hash() {
						t.Fatalf("%s: built\n%s\nwant\n%s", rs, b, s)
					}
					if la, lb := s.LegalActions(nil), b.LegalActions(nil); len(la) != len(lb) {
						t.Fatalf("%s: built position has %d legal actions, want %d", rs, len(lb), len(la))
					}
					built++
				}
				s.Apply(greedy(s, s.LegalActions(nil), rng))
			}
		}
		if built < 50 {
			t.Errorf("%s: only %d positions built", rs, built)
		}
	}
}

// TestBuildRefusesNonsense: a Setup that no game reaches is an error, not
// a position.
func TestBuildRefusesNonsense(t *testing.T) {
	g := MustLoad("1893")
	d5, _ := ParseSquare("d5")
	ok := Setup{Black: bitOf(0) | bitOf(9), White: bitOf(63) | bitOf(54), ToAct: White, Phase: PhaseMark, Setter: White, Mark: NoSquare, Line: -1}
	if _, err := g.Build(ok); err != nil {
		t.Fatalf("a mark to set: %v", err)
	}
	for name, u := range map[string]Setup{
		"both sides on a square": {Black: bitOf(0), White: bitOf(0), Phase: PhaseMark, Setter: White, Mark: NoSquare, Line: -1},
		"chance to act":          {Black: bitOf(0), White: bitOf(9), ToAct: -1, Phase: PhaseMark, Setter: White, Mark: NoSquare, Line: -1},
		"moving with no mark":    {Black: bitOf(0), White: bitOf(9), Phase: PhaseMove, Mark: NoSquare, Line: -1},
		"line of a 9-square":     {Black: bitOf(0), White: bitOf(9), Phase: PhaseMove, Mark: d5, Size: 9, Line: 0, Setter: White},
		"line pointing south":    {Black: bitOf(0), White: bitOf(9), Phase: PhaseMove, Mark: d5, Size: 3, Line: 4, Setter: White},
		"mark off the board":     {Black: bitOf(0), White: bitOf(9), Phase: PhaseMark, Mark: 64, Setter: White, Line: -1},
	} {
		if _, err := g.Build(u); !errors.Is(err, game.ErrSyntax) {
			t.Errorf("%s: Build gave %v, want a syntax error", name, err)
		}
	}
}
