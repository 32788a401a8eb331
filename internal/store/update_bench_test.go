package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkUpdate is the write of a move: a game among 1,000 in play,
// one action longer, written over the last (SQLite, WAL).
func BenchmarkUpdate(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
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
