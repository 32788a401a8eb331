package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// BenchmarkUpdate is the write of a move: a game among 1,000 in play,
// one action longer, written over the last (SQLite, WAL).
func BenchmarkUpdate(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	games := make([]*Game, 1000)
	for i := range games {
		g := &Game{ID: fmt.Sprintf("game%08d", i), Spec: "tablut(linnaeus)", Status: StatusPlaying,
			Seats: []Seat{{Kind: SeatHuman, Player: fmt.Sprintf("p%d", 2*i)}, {Kind: SeatHuman, Player: fmt.Sprintf("p%d", 2*i+1)}}}
		if err := s.Create(ctx, g); err != nil {
			b.Fatal(err)
		}
		games[i] = g
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		g := games[i%len(games)]
		i++
		ply := len(g.Actions)
		g.Actions = append(g.Actions, "e3-e2")
		g.ToAct = fmt.Sprintf("p%d", i%2)
		if err := s.Update(ctx, g, ply); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpdateConcurrent is moves written by many games at once, as a
// busy server writes them (64 goroutines a processor, each its own games):
// on SQLite those that wait for the one writer are written together.
func BenchmarkUpdateConcurrent(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	var next atomic.Int64
	newGame := func() (*Game, error) {
		i := next.Add(1)
		g := &Game{ID: fmt.Sprintf("game%08d", i), Spec: "tablut(linnaeus)", Status: StatusPlaying,
			Seats: []Seat{{Kind: SeatHuman, Player: fmt.Sprintf("p%d", 2*i)}, {Kind: SeatHuman, Player: fmt.Sprintf("p%d", 2*i+1)}}}
		return g, s.Create(ctx, g)
	}
	b.ReportAllocs()
	b.SetParallelism(64)
	b.RunParallel(func(pb *testing.PB) {
		g, err := newGame()
		i := 0
		for pb.Next() {
			i++
			if i%40 == 0 {
				g, err = newGame() // a game of 40 moves, then another
			}
			if err != nil {
				b.Error(err)
				return
			}
			ply := len(g.Actions)
			g.Actions = append(g.Actions, "e3-e2")
			g.ToAct = g.Seats[i%2].Player
			if err := s.Update(ctx, g, ply); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// benchStore is a fresh SQLite store, closed when b ends.
func benchStore(b *testing.B) *Store {
	s, err := Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}
