package lanrick

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestEvaluateProgress: the advantage drains in step with the turns left
// before A9b's no-progress draw: whole after progress, half with half the
// turns gone, none at the limit; a version without the rule keeps it.
func TestEvaluateProgress(t *testing.T) {
	g := MustLoad("1893")
	s := g.NewState().(*State)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 60 && !s.IsTerminal(); i++ {
		legal := s.LegalActions(nil)
		s.Apply(legal[rng.IntN(len(legal))])
	}
	if s.IsTerminal() {
		t.Fatal("the game ended before the test's position")
	}
	lim := g.Rules.NoProgress
	if lim <= 0 {
		t.Fatalf("1893 has no no-progress rule (%d)", lim)
	}
	for _, c := range []struct {
		used int
		want float64
	}{{0, 1}, {lim / 2, 0.5}, {lim - 1, 1 / float64(lim)}, {lim, 0}} {
		s.noProgress = int16(c.used)
		for p := game.Player(0); p < 2; p++ {
			if got, want := EvaluateProgress(s, p), c.want*Evaluate(s, p); math.Abs(got-want) > 1e-12 {
				t.Errorf("%d turns without progress, player %d: %v, want %v", c.used, p, got, want)
			}
		}
	}
	gOff, err := game.Load("lanrick(1893,no_progress=0)")
	if err != nil {
		t.Fatal(err)
	}
	off := gOff.NewState().(*State)
	off.noProgress = 50
	if EvaluateProgress(off, 0) != Evaluate(off, 0) {
		t.Error("without the rule, the value drained")
	}
}
