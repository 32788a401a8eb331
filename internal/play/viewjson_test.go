package play

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	_ "github.com/muster-games/muster/examples/konane" // a third game, with its own actions
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
)

// TestViewEncodingIsEncodingJSON: a view whose legal actions are written
// by hand is, byte for byte, the view encoding/json writes, for every
// registered game and ruleset, all along random games.
func TestViewEncodingIsEncodingJSON(t *testing.T) {
	gs := &Games{}
	rec := &store.Game{ID: "abcdefghijkl", Status: store.StatusPlaying}
	views := 0
	for _, name := range game.Names() {
		info, err := game.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, rs := range info.Rulesets {
			g, err := game.Load(name + "(" + rs.ID + ")")
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(len(rs.ID)), 9))
			s := g.NewState()
			var buf []game.Action
			for ply := 0; ply < 60 && !s.IsTerminal(); ply++ {
				v := viewOf(rec, s, game.Turns(g.NewState(), s.History()), nil)
				want, err := httpx.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if got := gs.marshalView(v); !bytes.Equal(got, want) {
					t.Fatalf("%s at ply %d:\n got %s\nwant %s", g.Spec(), ply, got, want)
				}
				views++
				var a game.Action
				a, buf = game.RandomAction(s, rng, buf)
				s.Apply(a)
			}
		}
	}
	t.Logf("%d views of %v compared", views, game.Names())
	if views < 100 {
		t.Fatalf("only %d views compared", views)
	}
}

// TestAppendString: the strings encoding/json escapes are escaped alike.
func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "e3-e2", `say "hi"`, `back\slash`, "<b>&", "line north–south", "a\u2028b", "tab\tnew\nline\r\b\f", "\x01", "bad \xff utf-8", "é"} {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
	legal := []game.ActionInfo{{Text: "x", Kind: "k", Squares: []string{}, Label: "l", Path: []string{"a1"}, Preview: []string{"b2", "c3"}, Note: "<n>", After: "ff", EndsTurn: true}, {}}
	want, _ := json.Marshal(legal)
	if got := appendActions(nil, legal); !bytes.Equal(got, want) {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := appendActions(nil, nil); string(got) != "null" {
		t.Errorf("nil: %s", got)
	}
}
