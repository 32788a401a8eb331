package lanrick

import (
	"testing"

	"github.com/muster-games/muster/game/gametest"
)

// TestFiguresShowEveryShape (1893 Definitions 1–3): the rules page draws
// every size of rendezvous from 9 to 3 once, each with one man more than
// its squares on the board and its squares shown as the rendezvous.
func TestFiguresShowEveryShape(t *testing.T) {
	seen := map[int]bool{}
	for i, s := range gametest.Figures(t, Info, 7) {
		ls := s.(*State)
		v := ls.View()
		n := 0
		for _, r := range v.Regions {
			if r.Kind == "rendezvous" {
				n += len(r.Squares)
			}
		}
		size := ls.shape.Size
		if n != size || len(v.Pieces) != size+1 || seen[size] {
			t.Errorf("figure %d: %d rendezvous squares, %d men, size %d (seen: %v)", i+1, n, len(v.Pieces), size, seen[size])
		}
		seen[size] = true
	}
	if len(seen) != 7 {
		t.Errorf("sizes shown: %v", seen)
	}
}
