package agent

import (
	"testing"

	"github.com/muster-games/muster/search/alphabeta"
	"github.com/muster-games/muster/tablut"
)

// TestSearchOptions: null=no and extend=no reach the search's options, and
// the default searches with everything; the position searched keeps its
// history (a wrapper that hid the null moves once hid it too).
func TestSearchOptions(t *testing.T) {
	g := tablut.MustLoad("ashton")
	for spec, want := range map[string]alphabeta.Options{
		"alphabeta(depth=2)":                     {},
		"alphabeta(depth=2,null=yes,extend=yes)": {},
		"alphabeta(depth=2,null=no)":             {NoNull: true},
		"alphabeta(depth=2,extend=no)":           {NoExtend: true},
		"alphabeta(null=no,extend=no)":           {NoNull: true, NoExtend: true},
	} {
		a, err := New(spec, g, 1)
		if err != nil {
			t.Fatal(err)
		}
		ab := a.(*abAgent)
		if ab.opt != want {
			t.Errorf("%s: options %+v, want %+v", spec, ab.opt, want)
		}
		if _, ok := ab.searchPosition(g.Start()).(alphabeta.Repeater); !ok {
			t.Errorf("%s: the search does not see repetitions", spec)
		}
	}
}
