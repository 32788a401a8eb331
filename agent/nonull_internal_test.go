package agent

import (
	"testing"

	"github.com/muster-games/muster/search/alphabeta"
)

// passer is a position that can pass (only its type matters here).
type passer struct{ alphabeta.Position }

func (passer) MakeNull()                   {}
func (passer) UnmakeNull()                 {}
func (p passer) Clone() alphabeta.Position { return p }

// TestNoNullHidesPassing: null=no's wrapper, and its clones for helper
// threads, are no Passer, so the search makes no null move in them.
func TestNoNullHidesPassing(t *testing.T) {
	var p alphabeta.Position = passer{}
	if _, ok := p.(alphabeta.Passer); !ok {
		t.Fatal("the test position cannot pass")
	}
	var w alphabeta.Position = noNull{p}
	if _, ok := w.(alphabeta.Passer); ok {
		t.Error("null=no's position can pass")
	}
	if _, ok := w.Clone().(alphabeta.Passer); ok {
		t.Error("a clone of null=no's position can pass")
	}
}
