package play

import (
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/tablut"
)

// BenchmarkView is what a room spends on a view after each action, in a
// Tablut game 20 actions in: the position described with its legal
// actions, and the view encoded as JSON (once, for every watcher), as
// the room does and, for comparison, by encoding/json alone.
func BenchmarkView(b *testing.B) {
	g, err := game.Load("tablut(linnaeus)")
	if err != nil {
		b.Fatal(err)
	}
	s := g.NewState()
	rng := rand.New(rand.NewPCG(1, 2))
	var buf []game.Action
	for i := 0; i < 20 && !s.IsTerminal(); i++ {
		var a game.Action
		a, buf = game.RandomAction(s, rng, buf)
		s.Apply(a)
	}
	tl := newTurnLog(g.NewState())
	for _, a := range s.History() {
		tl.add(a)
	}
	rec := &store.Game{ID: "abcdefghijkl", Status: store.StatusPlaying}
	b.Run("describe", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			viewOf(rec, s, tl.list(), nil, nil, game.View{}, nil)
		}
	})
	// As publish does: the legal actions described into a list kept from
	// the change before, the board drawn into its lists.
	b.Run("describe-reused", func(b *testing.B) {
		var legal []game.ActionInfo
		var board game.View
		b.ReportAllocs()
		for b.Loop() {
			v := viewOf(rec, s, tl.list(), legal[:0], nil, board, nil)
			legal, board = v.Legal, v.Board
		}
	})
	v := viewOf(rec, s, tl.list(), nil, nil, game.View{}, nil)
	out, err := httpx.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	// As a room encodes it: the legal actions by hand.
	b.Run("encode", func(b *testing.B) {
		gs := &Games{}
		b.ReportAllocs()
		b.SetBytes(int64(len(out)))
		for b.Loop() {
			gs.marshalView(v)
		}
	})
	// All of it by encoding/json, as before.
	b.Run("encode-reflect", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(out)))
		for b.Loop() {
			httpx.Marshal(v)
		}
	})
}
