package lanrick

import (
	_ "embed"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/muster-games/muster/tune"
)

// Families of versions share fitted evaluation weights: the versions of a
// family play the same kind of game.
const (
	Family1893 = "1893-1899" // the 1893 rules and 1899's reprint: shrinking rendezvous, Rules 5–8
	Family1880 = "1880-1881" // 3×3 rendezvous, relocation of the loser's wanderers
	Family1879 = "1879"      // the first two versions: budgets by the last rendezvous (January), dice and scores (March)
	// FamilyFinal is the final rendezvous of 1893 and 1899 (two men a
	// side, the 3-square line), fitted on positions whose value the
	// endgame tables know, for play where the tables are not on disk.
	FamilyFinal = "1893-1899-final"
)

// Families lists the families, for the tuner.
var Families = []string{Family1893, Family1880, Family1879, FamilyFinal}

// Family names the family of versions these rules belong to.
func (r *Rules) Family() string {
	switch {
	case r.Version >= V1893:
		return Family1893
	case r.Version >= V1880Oct:
		return Family1880
	}
	return Family1879
}

// weightsJSON holds the weights fitted for each family by muster tune,
// with the command that made them.
//
//go:embed weights.json
var weightsJSON []byte

// fitted are the weights read from weightsJSON, by family.
var fitted = func() map[string]*Weights {
	w, err := ReadWeights(weightsJSON)
	if err != nil {
		panic(fmt.Sprintf("lanrick: weights.json: %v", err))
	}
	return w
}()

// Weights are a fitted evaluation: the logit of white's chance to win the
// rendezvous under way is Scale·(Constant + Σ Feature[i]·x[i])/100.
type Weights struct {
	Feature  [NumFeatures]float64
	Constant float64
	Scale    float64
}

// Rendezvous returns the chance that white wins the rendezvous under way
// in a position of features f.
func (w *Weights) Rendezvous(f [NumFeatures]int) float64 {
	z := w.Constant
	for i, x := range f {
		z += w.Feature[i] * float64(x)
	}
	return 1 / (1 + math.Exp(-w.Scale*z/100))
}

// ReadWeights reads a table of fitted weights (weights.json, or what
// muster tune writes) by family.
func ReadWeights(data []byte) (map[string]*Weights, error) {
	t, err := tune.Parse(data, FeatureNames[:])
	if err != nil {
		return nil, err
	}
	if t.Unit != FeatureNames[FEnter] {
		return nil, fmt.Errorf("unit %q, want %q", t.Unit, FeatureNames[FEnter])
	}
	out := map[string]*Weights{}
	for name, e := range t.Families {
		if !slices.Contains(Families, name) {
			return nil, fmt.Errorf("unknown family %q (known: %s)", name, strings.Join(Families, ", "))
		}
		if e.Scale <= 0 {
			return nil, fmt.Errorf("family %s has no scale", name)
		}
		w := Weights{Constant: float64(e.Constant), Scale: e.Scale}
		for i, f := range FeatureNames {
			w.Feature[i] = float64(e.Weights[f])
		}
		out[name] = &w
	}
	return out, nil
}

// weightsFor returns the fitted weights that evaluate s, or nil.
func weightsFor(s *State) *Weights {
	fam := s.g.Rules.Family()
	if fam == Family1893 && s.shape.Size == 3 && s.men[Black].count() == 2 && s.men[White].count() == 2 {
		if w := fitted[FamilyFinal]; w != nil {
			return w
		}
	}
	return fitted[fam]
}
