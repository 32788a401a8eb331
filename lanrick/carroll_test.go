package lanrick

import (
	"math/rand/v2"
	"testing"
)

// TestQ6LegalMarksAlwaysExist settles Q6 of the rules page for 1881: "taking
// care that none of his men are in the rendezvous, and that he cannot, in
// one turn, move them all in". The mark is set when every man stands on the
// border (after the setting, and after the re-marshalling of Rule 8). A
// 3×3 round d4, e4, d5 or e5 has no border square and no square next to the
// border, so none of the setter's men is in it and none can step into it
// with one square, which each man would need (A-E3): those four marks are
// always legal. The test checks it over random settings and reports how
// many marks are legal.
func TestQ6LegalMarksAlwaysExist(t *testing.T) {
	g := MustLoad("1881")
	rng := rand.New(rand.NewPCG(6, 6))
	inner := []string{"mark d4", "mark e4", "mark d5", "mark e5"}
	fewest, most, sum := 99, 0, 0
	const n = 20000
	for i := 0; i < n; i++ {
		s := g.Start()
		for s.phase == PhasePlace {
			legal := s.LegalActions(nil)
			s.Apply(legal[rng.IntN(len(legal))])
		}
		texts := map[string]bool{}
		for _, a := range s.LegalActions(nil) {
			texts[actionText(a)] = true
		}
		for _, m := range inner {
			if !texts[m] {
				t.Fatalf("%s not legal after %v", m, s)
			}
		}
		k := len(texts)
		fewest, most, sum = min(fewest, k), max(most, k), sum+k
	}
	t.Logf("over %d random settings: %d to %d legal marks, mean %.1f", n, fewest, most, float64(sum)/n)
}
