package tablut

import (
	_ "embed"
	"fmt"

	"github.com/muster-games/muster/tune"
)

// Families of rulesets share fitted evaluation weights: the rules that most
// change what a position is worth decide the family.
const (
	FamilyCamps      = "camps"       // Bologna's camps (ashton)
	FamilyStrongKing = "strong_king" // a king taken only on four sides (ludii-smith, foteviken)
	FamilyPlain      = "plain"       // the others: a king taken by two away from the castle, no camps
)

// Families lists the families, for the tuner.
var Families = []string{FamilyCamps, FamilyStrongKing, FamilyPlain}

// Family names the family of rulesets these rules belong to.
func (r *Rules) Family() string {
	switch {
	case r.Camps == CampsAshton:
		return FamilyCamps
	case r.KingCapture == KingStrong:
		return FamilyStrongKing
	}
	return FamilyPlain
}

// weightsJSON holds the weights fitted for each family by muster tune, with
// the command that made them.
//
//go:embed weights.json
var weightsJSON []byte

// fitted are the weights read from weightsJSON, by family.
var fitted = mustReadWeights(weightsJSON)

func mustReadWeights(data []byte) map[string]*Weights {
	t, err := tune.Parse(data, FeatureNames[:])
	if err != nil {
		panic(fmt.Sprintf("tablut: weights.json: %v", err))
	}
	if t.Unit != FeatureNames[FDefender] {
		panic(fmt.Sprintf("tablut: weights.json: unit %q, want %q", t.Unit, FeatureNames[FDefender]))
	}
	out := map[string]*Weights{}
	for name, e := range t.Families {
		var w Weights
		for i, f := range FeatureNames {
			w[i] = e.Weights[f]
		}
		out[name] = &w
	}
	return out
}

// WeightsOf returns the evaluation weights of a family: the fitted ones,
// or the hand weights when none were fitted.
func WeightsOf(family string) *Weights {
	if w, ok := fitted[family]; ok {
		return w
	}
	return &HandWeights
}
