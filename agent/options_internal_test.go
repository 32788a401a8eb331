package agent

import (
	"testing"

	"github.com/muster-games/muster/search/alphabeta"
	"github.com/muster-games/muster/tablut"
)

// TestSearchOptions: null=no and extend=no reach the search's options, and
// the default searches with everything.
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
		if got := a.(*abAgent).opt; got != want {
			t.Errorf("%s: options %+v, want %+v", spec, got, want)
		}
	}
}
