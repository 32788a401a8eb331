package lanrick

import (
	"errors"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestOddPositionsDoNotCrash: every phase of every ruleset, given with few
// fields, is either refused with a syntax error or read as a position that
// writes itself back the same; every legal action (and chance outcome) is
// then played on it, and each position reached writes and reads back too.
// Enough of them must be read for the test to mean something.
func TestOddPositionsDoNotCrash(t *testing.T) {
	boards := []string{"b7/8/8/3bw3/8/8/8/7w", "8/8/8/3bw3/8/8/8/8", "bbbbb3/8/8/8/8/8/8/wwwww3"}
	extras := []string{"", " lost=white", " lost=black mstart=black", " lost=white setter=black size=3 line=n", " to=white lost=black budget=3 moved=d5"}
	read, played := 0, 0
	for _, rs := range versionIDs {
		g := MustLoad(rs)
		for _, ph := range phaseNames {
			for _, b := range boards {
				for _, x := range extras {
					text := "board=" + b + " to=black phase=" + ph + " mark=e5 setter=white placer=black placed=10" + x
					s, err := g.Parse(text)
					if err != nil {
						if !errors.Is(err, game.ErrSyntax) && !errors.Is(err, game.ErrIllegal) {
							t.Errorf("%s: %q: %v wraps neither ErrSyntax nor ErrIllegal", rs, text, err)
						}
						continue
					}
					read++
					roundTrip(t, g, s)
					for _, a := range s.LegalActions(nil) {
						c := s.Copy()
						c.Apply(a)
						roundTrip(t, g, c)
						if v := c.View(); v.Width != 8 || v.Height != 8 {
							t.Fatalf("%s: the view after %s is %d×%d", rs, s.ActionString(a), v.Width, v.Height)
						}
						played++
					}
					for _, o := range s.ChanceOutcomes(nil) {
						c := s.Copy()
						c.Apply(o.Action)
						roundTrip(t, g, c)
						played++
					}
				}
			}
		}
	}
	if read < 100 || played < 1000 {
		t.Fatalf("only %d odd positions read and %d actions played on them", read, played)
	}
	t.Logf("%d odd positions read, %d actions played on them", read, played)
}

// roundTrip checks that a position reads back as itself, with its hash.
func roundTrip(t *testing.T, g *Game, s *State) {
	t.Helper()
	text := s.String()
	back, err := g.Parse(text)
	if err != nil {
		t.Fatalf("%s: %q does not read back: %v", g.Spec(), text, err)
	}
	if back.String() != text || back.Hash() != s.Hash() {
		t.Fatalf("%s: %q reads back as %q", g.Spec(), text, back.String())
	}
}
