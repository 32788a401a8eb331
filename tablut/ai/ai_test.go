package ai

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
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

// TestEvalFile: eval= may name a weights file as muster tune writes it
// (in the working folder: a spec's values have no slashes); alpha-beta
// then evaluates by its family's weights there (the game's own for a
// family the file lacks), and a missing or malformed file is an error
// when the agent is made.
func TestEvalFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	names := tablut.FeatureNames
	weights := map[string]int{}
	for i, n := range names {
		weights[n] = 10 * (i + 1)
	}
	data, err := json.Marshal(map[string]any{"unit": "defender", "families": map[string]any{
		tablut.FamilyCamps: map[string]any{"weights": weights, "constant": 7},
	}})
	if err != nil {
		t.Fatal(err)
	}
	path := "w.json"
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := agent.New("alphabeta(depth=1,eval="+path+")", tablut.MustLoad("ashton"), 1); err != nil {
		t.Fatal(err)
	}
	for _, g := range []*tablut.Game{tablut.MustLoad("ashton"), tablut.MustLoad("linnaeus")} {
		s := g.Start()
		rng := rand.New(rand.NewPCG(3, 4))
		for range 9 {
			s.Apply(s.RandomAction(rng))
		}
		p := s.Position()
		f := g.Rules.Features(&p)
		want := g.Rules.Evaluate(&p) // linnaeus: not in the file
		if g.Rules.Family() == tablut.FamilyCamps {
			want = 7
			for i, x := range f {
				want += 10 * (i + 1) * x
			}
		}
		if s.ToMove() == tablut.Attackers {
			want = -want
		}
		pos, _ := support.Position(s, path)
		if got := pos.Evaluate(); got != want {
			t.Errorf("%s: %d, want %d", g.Name(), got, want)
		}
	}
	bad := "bad.json"
	os.WriteFile(bad, []byte(`{"unit": "defender", "families": {"camps": {"weights": {"attacker": 1}}}}`), 0o600)
	for _, c := range []struct{ file, err string }{
		{"none.json", "no such file"},
		{bad, "has no weight for"},
	} {
		_, err := agent.New("alphabeta(depth=1,eval="+c.file+")", tablut.MustLoad("ashton"), 1)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("eval=%s: %v, want an error with %q", c.file, err, c.err)
		}
	}
}
