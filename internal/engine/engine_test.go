package engine

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func bg() context.Context { return context.Background() }

// waitFor polls until cond holds (a test's other goroutines are queued).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

// TestFullPoolAnswersClearly: the slots taken and the queue full, a
// move is refused at once with ErrFull; a queued move runs once a slot is
// given back.
func TestFullPoolAnswersClearly(t *testing.T) {
	p := New(Config{Slots: 2, Queue: 1})
	l1, err := p.Acquire(bg(), Move, 1)
	if err != nil {
		t.Fatal(err)
	}
	l2, err := p.Acquire(bg(), Move, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.TryPonder(bg(), 1); ok {
		t.Fatal("pondering took a slot of a full pool")
	}
	got := make(chan error, 1)
	go func() {
		l, err := p.Acquire(bg(), Move, 1)
		if l != nil {
			defer l.Release()
		}
		got <- err
	}()
	waitFor(t, "one move queued", func() bool { return p.Stats().Waiting == 1 })
	if !p.Full() {
		t.Fatal("Full is false with every slot taken and the queue full")
	}
	if _, err := p.Acquire(bg(), Move, 1); !errors.Is(err, ErrFull) {
		t.Fatalf("a move past the queue: %v, want ErrFull", err)
	}
	l1.Release()
	l1.Release() // a second release gives nothing back
	if err := <-got; err != nil {
		t.Fatalf("the queued move: %v", err)
	}
	l2.Release()
	if s := p.Stats(); s.Busy != 0 || s.Waiting != 0 || s.Searches != 3 || s.Refused[Move] != 1 {
		t.Fatalf("stats after all released: %+v", s)
	}
}

// TestWeights: a search on every core (threads 0) takes the whole pool.
func TestWeights(t *testing.T) {
	p := New(Config{Slots: 4})
	l, ok := p.TryPonder(bg(), 0)
	if !ok || p.Stats().Busy != 4 {
		t.Fatalf("threads=0 took %d of 4 slots", p.Stats().Busy)
	}
	if _, ok := p.TryPonder(bg(), 1); ok {
		t.Fatal("a slot free beside a search on every core")
	}
	l.Release()
	l, ok = p.TryPonder(bg(), 9)
	if !ok || p.Stats().Busy != 4 {
		t.Fatalf("threads beyond the pool took %d slots", p.Stats().Busy)
	}
	l.Release()
}

// TestQueuedSearchGivesUp: a queued search whose context ends leaves the
// queue with an error.
func TestQueuedSearchGivesUp(t *testing.T) {
	p := New(Config{Slots: 1, Queue: 4})
	l, _ := p.Acquire(bg(), Move, 1)
	defer l.Release()
	ctx, cancel := context.WithTimeout(bg(), 20*time.Millisecond)
	defer cancel()
	if _, err := p.Acquire(ctx, Move, 1); err == nil {
		t.Fatal("a search queued past its context ran")
	}
	if w := p.Stats().Waiting; w != 0 {
		t.Fatalf("%d still waiting", w)
	}
}

// TestAnalysisHasAShare (hostile finding 1: one visitor's evaluations held
// every slot and a game's computer waited 42 s): the analysis board holds
// at most its share of the slots, its queue is its own, and the slots
// left stay free for the computer's moves.
func TestAnalysisHasAShare(t *testing.T) {
	p := New(Config{Slots: 4, Queue: 8, AnalysisSlots: 2, AnalysisQueue: 1})
	var leases []*Lease
	for range 2 {
		l, err := p.Acquire(bg(), Analysis, 1)
		if err != nil {
			t.Fatal(err)
		}
		leases = append(leases, l)
	}
	queued := make(chan *Lease, 1)
	go func() {
		l, _ := p.Acquire(bg(), Analysis, 1)
		queued <- l
	}()
	waitFor(t, "an evaluation queued beyond the share", func() bool { return p.Stats().WaitingBy[Analysis] == 1 })
	if _, err := p.Acquire(bg(), Analysis, 1); !errors.Is(err, ErrAnalysisFull) {
		t.Fatalf("an evaluation past the analysis queue: %v, want ErrAnalysisFull", err)
	}
	for range 2 {
		l, err := p.Acquire(bg(), Move, 1)
		if err != nil {
			t.Fatalf("a move beside the analysis board's share: %v", err)
		}
		defer l.Release()
	}
	for _, l := range leases {
		if l.Context().Err() != nil {
			t.Fatal("an evaluation was stopped though the moves found free slots")
		}
	}
	leases[0].Release()
	l := <-queued
	if l == nil {
		t.Fatal("the queued evaluation never ran")
	}
	l.Release()
	leases[1].Release()
	if s := p.Stats(); s.Refused[Analysis] != 1 || s.Runs[Analysis] != 3 || s.Runs[Move] != 2 {
		t.Fatalf("stats: %+v", s)
	}
}

// TestMovesPreemptAnalysis: with a pool of one slot held by an evaluation,
// a computer's move stops the evaluation (its context ends, as
// ErrPreempted) and runs as soon as the slot is given back, before any
// evaluation queued earlier.
func TestMovesPreemptAnalysis(t *testing.T) {
	p := New(Config{Slots: 1, Queue: 4, AnalysisQueue: 4})
	ev, err := p.Acquire(bg(), Analysis, 1)
	if err != nil {
		t.Fatal(err)
	}
	evQueued := make(chan *Lease, 1)
	go func() {
		l, _ := p.Acquire(bg(), Analysis, 1)
		evQueued <- l
	}()
	waitFor(t, "an evaluation queued", func() bool { return p.Stats().WaitingBy[Analysis] == 1 })
	move := make(chan *Lease, 1)
	go func() {
		l, _ := p.Acquire(bg(), Move, 1)
		move <- l
	}()
	<-ev.Context().Done()
	if !errors.Is(context.Cause(ev.Context()), ErrPreempted) {
		t.Fatalf("the evaluation ended for %v, want ErrPreempted", context.Cause(ev.Context()))
	}
	ev.Release()
	m := <-move
	if m == nil || p.Stats().BusyBy[Move] != 1 || p.Stats().WaitingBy[Analysis] != 1 {
		t.Fatalf("the move after the evaluation gave its slot back: %+v", p.Stats())
	}
	m.Release()
	if l := <-evQueued; l == nil {
		t.Fatal("the evaluation queued before the move never ran")
	} else {
		l.Release()
	}
	if s := p.Stats(); s.Preempted != 1 {
		t.Fatalf("preempted %d, want 1", s.Preempted)
	}
}

// TestWaitingSearchPreemptsPondering (hostile finding 8: the max level's
// thinking on a person's time held slots for up to 60 s while others
// waited): pondering takes only slots nobody asks for, and is told to stop
// as soon as a move or an evaluation waits.
func TestWaitingSearchPreemptsPondering(t *testing.T) {
	for _, kind := range []Kind{Move, Analysis} {
		p := New(Config{Slots: 2, Queue: 4, AnalysisSlots: 2, AnalysisQueue: 4})
		ponder, ok := p.TryPonder(bg(), 2)
		if !ok {
			t.Fatal("pondering found no free slots in an idle pool")
		}
		got := make(chan *Lease, 1)
		go func() {
			l, _ := p.Acquire(bg(), kind, 1)
			got <- l
		}()
		select {
		case <-ponder.Context().Done():
		case <-time.After(10 * time.Second):
			t.Fatalf("a %s waiting did not stop the pondering", kind)
		}
		ponder.Release()
		l := <-got
		if l == nil {
			t.Fatalf("the %s never ran", kind)
		}
		l.Release()
	}
}

// TestPoolUnderRace: moves, evaluations and pondering from many
// goroutines at once leave the pool whole: every slot given back, none
// granted twice.
func TestPoolUnderRace(t *testing.T) {
	p := New(Config{Slots: 3, Queue: 50, AnalysisSlots: 1, AnalysisQueue: 50})
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Go(func() {
			kind := Kind(i % 3)
			var l *Lease
			var err error
			if kind == Ponder {
				var ok bool
				if l, ok = p.TryPonder(bg(), 1); !ok {
					return
				}
			} else if l, err = p.Acquire(bg(), kind, 1+i%2); err != nil {
				return
			}
			if s := p.Stats(); s.Busy > s.Slots || s.BusyBy[Analysis] > 1 {
				t.Errorf("over the limits: %+v", s)
			}
			select {
			case <-l.Context().Done():
			case <-time.After(time.Millisecond):
			}
			l.Release()
		})
	}
	wg.Wait()
	if s := p.Stats(); s.Busy != 0 || s.Waiting != 0 || s.BusyBy != [3]int{} {
		t.Fatalf("after all: %+v", s)
	}
}
