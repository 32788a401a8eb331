package play

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strconv"
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
	everyRuleset(t, func(g game.Game, rs game.RulesetInfo) {
		rng := rand.New(rand.NewPCG(uint64(len(rs.ID)), 9))
		s := g.NewState()
		turns := newTurnLog(g.NewState())
		var buf []game.Action
		for ply := 0; ply < 60 && !s.IsTerminal(); ply++ {
			v := viewOf(rec, s, turns.list(), nil, nil, game.View{}, nil)
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
			turns.add(a)
		}
	})
	t.Logf("%d views of %v compared", views, game.Names())
	if views < 100 {
		t.Fatalf("only %d views compared", views)
	}
}

// TestViewEncodingEveryField: a view with every field set, at every
// depth, and one with none, are encoded as encoding/json encodes them: a
// field added to a view, its board or its seats fails here until
// appendView writes it.
func TestViewEncodingEveryField(t *testing.T) {
	gs := &Games{}
	n := 0
	var v View
	fill(reflect.ValueOf(&v).Elem(), &n)
	v.Spec = "fill-test" // traits of a ruleset of their own
	var tail []game.Turn
	fill(reflect.ValueOf(&tail).Elem(), &n)
	for _, turn := range tail {
		want, _ := json.Marshal(turn)
		if got := appendTurn(nil, &turn); !bytes.Equal(got, want) {
			t.Fatalf("a turn with every field set:\n got %s\nwant %s", got, want)
		}
	}
	v.Turns = turnList{done: []byte(`{"number":1,"player":0,"first":0,"actions":["a"],"labels":["a"],"squares":null}`), tail: tail}
	floats := []float64{1500, 1523.4567, -0.25, 1e-7, 3e21, 123456789.125}
	for i, f := range floats {
		v.Seats[0].Rating, v.RatingChanges[1].After = f, floats[(i+1)%len(floats)]
		want, err := httpx.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := gs.marshalView(v); !bytes.Equal(got, want) {
			t.Fatalf("every field, rating %g:\n got %s\nwant %s", f, got, want)
		}
	}
	for _, v := range []View{{}, {Described: Described{Spec: "empty-test", Board: game.View{Meter: &game.Meter{}}}, Clock: &clockView{}}} {
		want, _ := httpx.Marshal(v)
		if got := gs.marshalView(v); !bytes.Equal(got, want) {
			t.Fatalf("empty fields:\n got %s\nwant %s", got, want)
		}
	}
	if n < 60 {
		t.Fatalf("only %d fields set", n)
	}
}

// fill sets every field of v, and of what it holds, to something not
// empty: strings with characters JSON escapes, two of each list.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString([]string{"e5", "say \"<hi>\" & go", "é–\u2028", "a\\b"}[*n%4] + strconv.Itoa(*n))
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(*n) * []int64{1, -1, 1000003}[*n%3])
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), n)
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), n)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, n)
		fill(e, n)
		v.SetMapIndex(k, e)
	}
}

// TestTurnListIsEncodingJSON: a game's turns, settled and encoded as
// they come, are written as encoding/json writes the turns grouped at
// once ([] for none), for every registered game and ruleset all along
// random games (at every ply of the first 40, then at every fifth: the
// turns grouped at once are grouped from the whole history, so that a
// check costs as much as the game so far); a list given out is written
// the same after later actions; the room's counts (turns, each seat's
// last) are the turns'.
func TestTurnListIsEncodingJSON(t *testing.T) {
	lists := 0
	everyRuleset(t, func(g game.Game, rs game.RulesetInfo) {
		rng := rand.New(rand.NewPCG(uint64(len(rs.ID)), 11))
		s := g.NewState()
		log := newTurnLog(g.NewState())
		var before turnList
		var beforeJSON []byte
		for ply := 0; ply < 150 && !s.IsTerminal(); ply++ {
			if ply >= 40 && ply%5 != 0 {
				a, _ := game.RandomAction(s, rng, nil)
				s.Apply(a)
				log.add(a)
				continue
			}
			all := game.Turns(g.NewState(), s.History())
			want := []byte("[]")
			if len(all) > 0 {
				want, _ = json.Marshal(all)
			}
			list := log.list()
			if got := appendTurnList(nil, list); !bytes.Equal(got, want) {
				t.Fatalf("%s at ply %d:\n got %s\nwant %s", g.Spec(), ply, got, want)
			}
			if got, _ := json.Marshal(list); !bytes.Equal(got, want) {
				t.Fatalf("%s at ply %d, by encoding/json:\n got %s\nwant %s", g.Spec(), ply, got, want)
			}
			if got := appendTurnList(nil, before); !bytes.Equal(got, beforeJSON) && ply > 0 {
				t.Fatalf("%s: a list given out before ply %d changed by ply %d", g.Spec(), ply, ply)
			}
			// List gives the turns back (as JSON tells them: an empty
			// list read back is nil).
			if got, _ := json.Marshal(list.List()); len(all) > 0 && !bytes.Equal(got, want) {
				t.Fatalf("%s at ply %d: List %s, want %s", g.Spec(), ply, got, want)
			}
			var back turnList
			if err := json.Unmarshal(want, &back); err != nil || !bytes.Equal(appendTurnList(nil, back), want) {
				t.Fatalf("%s at ply %d: read back and written as %s (%v), want %s", g.Spec(), ply, appendTurnList(nil, back), err, want)
			}
			if log.len() != len(all) {
				t.Fatalf("%s at ply %d: %d turns, want %d", g.Spec(), ply, log.len(), len(all))
			}
			for seat := range 2 {
				last := -1
				for _, turn := range all {
					if int(turn.Player) == seat {
						last = turn.First
					}
				}
				if got := log.lastTurnOf(seat); got != last {
					t.Fatalf("%s at ply %d: seat %d's last turn at %d, want %d", g.Spec(), ply, seat, got, last)
				}
			}
			lists++
			before, beforeJSON = list, want
			a, _ := game.RandomAction(s, rng, nil)
			s.Apply(a)
			log.add(a)
		}
	})
	if lists < 500 {
		t.Fatalf("only %d lists compared", lists)
	}
}

// everyRuleset calls f with each registered game's every ruleset.
func everyRuleset(t *testing.T, f func(g game.Game, rs game.RulesetInfo)) {
	t.Helper()
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
			f(g, rs)
		}
	}
}

// TestAppendActions: legal actions are encoded as encoding/json encodes
// them, every field and escape (the strings by jsontext, tested there).
func TestAppendActions(t *testing.T) {
	legal := []game.ActionInfo{{Text: "x", Kind: "k", Squares: []string{}, Label: "l", Path: []string{"a1"}, Preview: []string{"b2", "c3"}, Note: "<n>", After: "ff", EndsTurn: true}, {}}
	want, _ := json.Marshal(legal)
	if got := appendActions(nil, legal); !bytes.Equal(got, want) {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := appendActions(nil, nil); string(got) != "null" {
		t.Errorf("nil: %s", got)
	}
}
