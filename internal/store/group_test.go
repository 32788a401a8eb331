package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestWritesWaitingAreGrouped: on SQLite, the moves that come while
// another write holds the connection are written together, in one
// transaction, once it is free; each is answered with what it did (a
// stale copy refused, the others stored), and every answered move is
// in the database.
func TestWritesWaitingAreGrouped(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "muster.db"))
	const n = 20
	games := make([]*Game, n)
	for i := range games {
		games[i] = &Game{ID: fmt.Sprintf("g%d", i), Spec: "tablut", Seats: []Seat{{Kind: SeatHuman}, {Kind: SeatHuman}}, DrawOffer: -1, TakebackOffer: -1}
		if err := s.Create(ctx, games[i]); err != nil {
			t.Fatal(err)
		}
	}
	// A move of the same kind, first: its statement is prepared (as a
	// server's is after its first move), so that none waits for the
	// connection to prepare it.
	warm := &Game{ID: "warm", Spec: "tablut", Seats: []Seat{{Kind: SeatHuman}, {Kind: SeatHuman}}, DrawOffer: -1, TakebackOffer: -1}
	if err := s.Create(ctx, warm); err != nil {
		t.Fatal(err)
	}
	warm.Actions = []string{"a4-a3"}
	if err := s.Update(ctx, warm, 0); err != nil {
		t.Fatal(err)
	}
	// A copy of the last game read before its move: its write is refused.
	stale, err := s.Get(ctx, games[n-1].ID)
	if err != nil {
		t.Fatal(err)
	}
	// The connection is held while the moves come: the first waits for
	// it alone, the others wait behind it.
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, n+1)
	for i, g := range games {
		g.Actions = []string{"a4-a3"}
		wg.Go(func() { errs[i] = s.Update(ctx, g, 0) })
	}
	stale.Actions = []string{"e4-f4"}
	wg.Go(func() { errs[n] = s.Update(ctx, stale, 0) })
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.group.mu.Lock()
		waiting := len(s.group.waiting)
		s.group.mu.Unlock()
		if waiting == n || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	conflicts := 0
	for i, err := range errs {
		switch {
		case errors.Is(err, ErrConflict):
			conflicts++
		case err != nil:
			t.Errorf("write %d: %v", i, err)
		}
	}
	// The stale copy and the last game's own move race: one of them is
	// refused, whichever came second.
	if conflicts != 1 {
		t.Errorf("%d writes refused, want 1 (the stale copy's or its game's)", conflicts)
	}
	if g, w := s.group.groups.Load(), s.group.grouped.Load(); g != 1 || w != n {
		t.Errorf("%d writes in %d grouped transactions, want %d in 1", w, g, n)
	}
	for i, g := range games[:n-1] {
		back, err := s.Get(ctx, g.ID)
		if err != nil || len(back.Actions) != 1 || back.Actions[0] != "a4-a3" {
			t.Errorf("game %d read back: %v, %v", i, back, err)
		}
	}
	if back, err := s.Get(ctx, games[n-1].ID); err != nil || len(back.Actions) != 1 {
		t.Errorf("the last game read back: %v, %v", back, err)
	}
}

// TestWritesLeaveTheCallersStackSmall: on SQLite a write (here a new
// player's) runs on the writer's goroutine, not the caller's, whose stack
// stays small (one that ran SQLite itself grew to 16 KB and kept it: the
// stacks of a server's connections, when 1,000 games are made at once).
// Writes made together by many goroutines are all stored.
func TestWritesLeaveTheCallersStackSmall(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "muster.db"))
	const n = 300
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	release := make(chan struct{})
	var wrote, done sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wrote.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			errs <- s.CreatePlayer(ctx, &Player{ID: fmt.Sprintf("p%04d", i), Address: "127.0.0.1"})
			wrote.Done()
			<-release // held, with whatever stack the write left it
		}()
	}
	wrote.Wait()
	runtime.ReadMemStats(&after)
	close(release)
	done.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	perCaller := float64(after.StackInuse-before.StackInuse) / n
	t.Logf("%.1f KB of stack a writing goroutine", perCaller/1024)
	if perCaller >= 8<<10 {
		t.Errorf("a goroutine that wrote holds %.1f KB of stack, want under 8 (a write run on it grew it to 16)", perCaller/1024)
	}
	for i := range n {
		if p, err := s.Player(ctx, fmt.Sprintf("p%04d", i)); err != nil || p == nil {
			t.Fatalf("player %d: %v, %v", i, p, err)
		}
	}
}
