package lanrick

import "testing"

// TestOddPositionsDoNotCrash: every phase of every ruleset, given with few
// fields, is either refused with an error or played on (every legal action)
// without a crash.
func TestOddPositionsDoNotCrash(t *testing.T) {
	boards := []string{"b7/8/8/3bw3/8/8/8/7w", "8/8/8/3bw3/8/8/8/8", "bbbbb3/8/8/8/8/8/8/wwwww3"}
	extras := []string{"", " lost=white", " lost=black mstart=black", " lost=white setter=black size=3 line=n", " to=white lost=black budget=3 moved=d5"}
	for _, rs := range versionIDs {
		for _, ph := range phaseNames {
			for _, b := range boards {
				for _, x := range extras {
					s, err := MustLoad(rs).Parse("board=" + b + " to=black phase=" + ph + " mark=e5 setter=white placer=black placed=10" + x)
					if err != nil {
						continue
					}
					for _, a := range s.LegalActions(nil) {
						c := s.Copy()
						c.Apply(a)
						_ = c.String()
						_ = c.View()
					}
					for _, o := range s.ChanceOutcomes(nil) {
						s.Copy().Apply(o.Action)
					}
				}
			}
		}
	}
}
