package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

func TestStore(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "muster.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	g := &Game{ID: "abc", Spec: "lanrick(1893)", Seats: []Seat{{Kind: "human", SecretHash: "h"}, {Kind: "ai", Agent: "easy"}}, Owner: "1.2.3.4", DrawOffer: -1}
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, g); err == nil {
		t.Fatal("the same id twice")
	}
	g.Actions = []string{"mark d5", "no-interchange"}
	if err := s.Update(ctx, g, 0); err != nil {
		t.Fatal(err)
	}
	// A writer that read the game at ply 0 is refused.
	g2 := *g
	g2.Actions = []string{"mark c6"}
	if err := s.Update(ctx, &g2, 0); !errors.Is(err, ErrConflict) {
		t.Fatalf("stale update: %v", err)
	}
	// Reopen: the game is there as written (a restart loses nothing).
	s.Close()
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Get(ctx, "abc")
	if err != nil {
		t.Fatal(err)
	}
	if got.Spec != g.Spec || len(got.Actions) != 2 || got.Actions[0] != "mark d5" || got.Seats[1].Agent != "easy" || got.Status != "playing" || got.DrawOffer != -1 {
		t.Fatalf("read back %+v", got)
	}
	if _, err := s.Get(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
	if n, err := s.CountSince(ctx, "1.2.3.4", time.Now().Add(-time.Hour)); err != nil || n != 1 {
		t.Fatalf("count %d %v", n, err)
	}
	ids, err := s.Playing(ctx)
	if err != nil || len(ids) != 1 {
		t.Fatalf("playing %v %v", ids, err)
	}
	var mode string
	if err := s.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal mode %q %v", mode, err)
	}
}

// TestUpdatedGrows: every update moves Updated on by at least a
// millisecond, however quick, so that clients can order views by it.
func TestUpdatedGrows(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g := &Game{ID: "g1", Spec: "tablut", Seats: []Seat{{Kind: SeatHuman}, {Kind: SeatHuman}}, DrawOffer: -1}
	if err := s.Create(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	last := g.Updated.UnixMilli()
	for i := range 20 {
		g.Actions = append(g.Actions, "a4-a3")
		if err := s.Update(context.Background(), g, i); err != nil {
			t.Fatal(err)
		}
		if now := g.Updated.UnixMilli(); now <= last {
			t.Fatalf("update %d: updated %d after %d", i, now, last)
		} else {
			last = now
		}
	}
	back, err := s.Get(context.Background(), "g1")
	if err != nil || back.Updated.UnixMilli() != last {
		t.Fatalf("stored updated %v, want %d (%v)", back.Updated, last, err)
	}
}
