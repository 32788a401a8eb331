package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestFigures: the rules page's diagrams come as boards the games
// describe; an unknown game is a 404 naming the known ones.
func TestFigures(t *testing.T) {
	h := newHarness(t, "", testConfig())
	for _, name := range game.Names() {
		info, _ := game.Lookup(name)
		var figs []figureView
		if code := h.call("GET", "/api/rules/"+name+"/figures", nil, &figs); code != http.StatusOK || len(figs) != len(info.Figures) || len(figs) == 0 {
			t.Fatalf("%s: %d, %d figures", name, code, len(figs))
		}
		for _, f := range figs {
			if len(f.Board.Pieces) == 0 || f.Board.Width == 0 || len(f.Traits.Players) != 2 {
				t.Errorf("%s: %s: %+v", name, f.Title, f.Board)
			}
		}
	}
	var e struct{ Error string }
	if code := h.call("GET", "/api/rules/chess/figures", nil, &e); code != http.StatusNotFound || !strings.Contains(e.Error, "tablut") {
		t.Errorf("chess: %d %q", code, e.Error)
	}
}
