package tablut

import (
	_ "embed"
	"fmt"

	"github.com/muster-games/muster/tune"
)

// Families of rulesets share fitted evaluation weights: the rules that most
// change what a position is worth decide the family.
const (
	FamilyCamps        = "camps"        // Bologna's camps (ashton)
	FamilyStrongKing   = "strong_king"  // a king taken only on four sides (ludii-smith, foteviken)
	FamilyEncirclement = "encirclement" // a king taken by two, the attackers winning by enclosing the defenders (opentafl)
	FamilyPlain        = "plain"        // the others: a king taken by two away from the castle, no camps, no encirclement
)

// Families lists the families, for the tuner.
var Families = []string{FamilyCamps, FamilyStrongKing, FamilyEncirclement, FamilyPlain}

// Family names the family of rulesets these rules belong to.
func (r *Rules) Family() string {
	switch {
	case r.Camps == CampsAshton:
		return FamilyCamps
	case r.KingCapture == KingStrong:
		return FamilyStrongKing
	case r.Encirclement:
		// A ring of attackers wins here, and self-play, whose attackers
		// never aim for one, teaches nothing of it: weights fitted
		// without it left the king at home, and OpenTafl's AI enclosed
		// him (docs/strength.md).
		return FamilyEncirclement
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
	w, err := ReadWeights(data)
	if err != nil {
		panic(fmt.Sprintf("tablut: weights.json: %v", err))
	}
	return w
}

// ReadWeights reads a weights file as muster tune writes it, by family.
func ReadWeights(data []byte) (map[string]*Weights, error) {
	t, err := tune.Parse(data, FeatureNames[:])
	if err != nil {
		return nil, err
	}
	if t.Unit != FeatureNames[FDefender] {
		return nil, fmt.Errorf("unit %q, want %q", t.Unit, FeatureNames[FDefender])
	}
	out := map[string]*Weights{}
	for name, e := range t.Families {
		w := Weights{Constant: e.Constant}
		for i, f := range FeatureNames {
			w.Feature[i] = e.Weights[f]
		}
		out[name] = &w
	}
	return out, nil
}

// WeightsOf returns the evaluation weights of a family: the fitted ones,
// or the hand weights when none were fitted.
func WeightsOf(family string) *Weights {
	if w, ok := fitted[family]; ok {
		return w
	}
	return &HandWeights
}
