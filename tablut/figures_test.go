package tablut

import (
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/game/gametest"
)

// TestFiguresShowWhatTheySay (Linnaeus's rules 1–14 as linnaeus reads
// them): the first figure is the start; the others end with the event
// their title names: a capture (against an attacker, then against the
// empty castle), the king's escape, his capture away from the castle and
// on it.
func TestFiguresShowWhatTheySay(t *testing.T) {
	states := gametest.Figures(t, Info, 6)
	g, err := game.Load("tablut(linnaeus)")
	if err != nil {
		t.Fatal(err)
	}
	if states[0].String() != g.NewState().String() {
		t.Errorf("the first figure is not the start: %s", states[0])
	}
	want := []string{"", "capture", "capture", "king-escaped", "king-captured", "king-captured"}
	for i, s := range states[1:] {
		kinds := map[string]bool{}
		for _, e := range s.Events() {
			kinds[e.Kind] = true
		}
		if !kinds[want[i+1]] {
			t.Errorf("figure %d (%s): events %v, want %s", i+2, Info.Figures[i+1].Title, s.Events(), want[i+1])
		}
	}
}
