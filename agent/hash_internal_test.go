package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/muster-games/muster/search/alphabeta"
	"github.com/muster-games/muster/tablut"
)

// TestHashSetting: hash= sizes the table, checked by parsing, and the
// table is made at the first search, not when the agent is.
func TestHashSetting(t *testing.T) {
	tg := tablut.MustLoad("linnaeus")
	for _, c := range []struct {
		spec, err string
	}{
		{"alphabeta(depth=1,hash=1)", ""},
		{"alphabeta(depth=1,hash=0.0625)", ""},
		{"alphabeta(depth=1,hash=0)", "0.015625 to 4096 MiB"},
		{"alphabeta(depth=1,hash=5000)", "0.015625 to 4096 MiB"},
		{"alphabeta(depth=1,hash=x)", "not a number"},
		{"easy", ""},
	} {
		err := Check(c.spec, tg)
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("Check(%s) = %v, want %q", c.spec, err, c.err)
		}
	}
	a, err := New("alphabeta(depth=1,hash=2)", tg, 1)
	if err != nil {
		t.Fatal(err)
	}
	ab := a.(*abAgent)
	if ab.tt != nil || ab.entries != 2<<20/alphabeta.EntryBytes {
		t.Fatalf("before a search: table %v, %d entries", ab.tt != nil, ab.entries)
	}
	if _, err := a.Act(context.Background(), tg.NewState()); err != nil {
		t.Fatal(err)
	}
	if ab.tt == nil {
		t.Fatal("no table after a search")
	}
}
