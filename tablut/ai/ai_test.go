package ai

import (
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/tablut"
)

// TestEvalSetting: alpha-beta's position evaluates with the family's
// weights by default and with the hand weights under eval=hand, for the
// side to move.
func TestEvalSetting(t *testing.T) {
	g := tablut.MustLoad("ashton")
	s := g.Start()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 7 {
		s.Apply(s.RandomAction(rng))
	}
	p := s.Position()
	f := g.Rules.Features(&p)
	hand := 0
	for i, x := range f {
		hand += tablut.HandWeights.Feature[i] * x
	}
	sign := 1
	if s.ToMove() == tablut.Attackers {
		sign = -1
	}
	for eval, want := range map[string]int{"": sign * g.Rules.Evaluate(&p), evalFitted: sign * g.Rules.Evaluate(&p), evalHand: sign * hand} {
		pos, ok := support.Position(s, eval)
		if !ok {
			t.Fatalf("eval %q: no position", eval)
		}
		if got := pos.Evaluate(); got != want {
			t.Errorf("eval %q: %d, want %d", eval, got, want)
		}
	}
}

// TestTuningSamples: the tuner's samples are the features of quiet
// positions only.
func TestTuningSamples(t *testing.T) {
	g := tablut.MustLoad("linnaeus")
	tn, err := agent.TuningOf(g)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start()
	x, ok := tn.Sample(s)
	if !ok || len(x) != len(tn.Features) || x[tablut.FAttacker] != 16 {
		t.Errorf("the start: %v %v", x, ok)
	}
	if tn.Family(g) != tablut.FamilyPlain || tn.Unit != "defender" {
		t.Errorf("family %q unit %q", tn.Family(g), tn.Unit)
	}
}
