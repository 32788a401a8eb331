package engine

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestFullPoolAnswersClearly: the slots taken and the queue full, a
// search is refused at once with ErrFull; a queued search runs once a
// slot is given back.
func TestFullPoolAnswersClearly(t *testing.T) {
	p := New(2, 1)
	r1, err := p.Acquire(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := p.Acquire(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.TryAcquire(1); ok {
		t.Fatal("TryAcquire took a slot of a full pool")
	}
	got := make(chan error, 1)
	go func() {
		rel, err := p.Acquire(context.Background(), 1)
		if rel != nil {
			defer rel()
		}
		got <- err
	}()
	for p.Stats().Waiting != 1 {
		time.Sleep(time.Millisecond)
	}
	if _, err := p.Acquire(context.Background(), 1); !errors.Is(err, ErrFull) {
		t.Fatalf("a search past the queue: %v, want ErrFull", err)
	}
	r1()
	r1() // a second release gives nothing back
	if err := <-got; err != nil {
		t.Fatalf("the queued search: %v", err)
	}
	r2()
	if s := p.Stats(); s.Busy != 0 || s.Waiting != 0 || s.Searches != 3 {
		t.Fatalf("stats after all released: %+v", s)
	}
}

// TestWeights: a search on every core (threads 0) takes the whole pool.
func TestWeights(t *testing.T) {
	p := New(4, 0)
	rel, ok := p.TryAcquire(0)
	if !ok || p.Stats().Busy != 4 {
		t.Fatalf("threads=0 took %d of 4 slots", p.Stats().Busy)
	}
	if _, ok := p.TryAcquire(1); ok {
		t.Fatal("a slot free beside a search on every core")
	}
	rel()
	rel, ok = p.TryAcquire(9)
	if !ok || p.Stats().Busy != 4 {
		t.Fatalf("threads beyond the pool took %d slots", p.Stats().Busy)
	}
	rel()
}

// TestQueuedSearchGivesUp: a queued search whose context ends leaves the
// queue with an error.
func TestQueuedSearchGivesUp(t *testing.T) {
	p := New(1, 4)
	rel, _ := p.TryAcquire(1)
	defer rel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := p.Acquire(ctx, 1); err == nil {
		t.Fatal("a search queued past its context ran")
	}
	if w := p.Stats().Waiting; w != 0 {
		t.Fatalf("%d still waiting", w)
	}
}
