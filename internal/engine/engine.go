// Package engine bounds the searches a server runs — the computer's moves,
// its thinking on a person's time, the analysis board — to the cores the
// operator gives them. A search takes as many slots as it runs threads;
// searches beyond the slots wait in a queue of bounded length, and past
// that the pool answers ErrFull at once.
package engine

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"

	"golang.org/x/sync/semaphore"

	"github.com/muster-games/muster/internal/httpx"
)

// ErrFull answers a search the pool has no room for, running or queued.
var ErrFull = httpx.NewError(http.StatusServiceUnavailable, "the computer players are all busy: try again in a minute")

// Pool is the engine pool. It is safe for concurrent use.
type Pool struct {
	slots, queue int64
	sem          *semaphore.Weighted
	waiting      atomic.Int64
	running      atomic.Int64
	// Searches counts the searches the pool let run.
	searches atomic.Int64
}

// New returns a pool of slots (at least 1) with at most queue searches
// waiting.
func New(slots, queue int) *Pool {
	slots = max(slots, 1)
	return &Pool{slots: int64(slots), queue: int64(max(queue, 0)), sem: semaphore.NewWeighted(int64(slots))}
}

// Slots is the pool's size.
func (p *Pool) Slots() int { return int(p.slots) }

// weight is the slots a search of threads takes: one for each thread,
// all of them for a search on every core (threads 0 or beyond the pool).
func (p *Pool) weight(threads int) int64 {
	if threads <= 0 || int64(threads) > p.slots {
		return p.slots
	}
	return int64(threads)
}

// Acquire takes the slots of a search of threads, waiting in the queue
// while they are taken, until ctx is done; it returns ErrFull at once
// when the queue is full. The release it returns gives the slots back
// (once).
func (p *Pool) Acquire(ctx context.Context, threads int) (release func(), err error) {
	w := p.weight(threads)
	if p.sem.TryAcquire(w) {
		return p.taken(w), nil
	}
	if p.waiting.Add(1) > p.queue {
		p.waiting.Add(-1)
		return nil, ErrFull
	}
	err = p.sem.Acquire(ctx, w)
	p.waiting.Add(-1)
	if err != nil {
		return nil, errors.Join(ErrFull, err)
	}
	return p.taken(w), nil
}

// TryAcquire takes the slots of a search of threads if they are free
// now, never waiting: for work that may be skipped (thinking on a
// person's time).
func (p *Pool) TryAcquire(threads int) (release func(), ok bool) {
	w := p.weight(threads)
	if !p.sem.TryAcquire(w) {
		return nil, false
	}
	return p.taken(w), true
}

func (p *Pool) taken(w int64) func() {
	p.running.Add(w)
	p.searches.Add(1)
	var done atomic.Bool
	return func() {
		if done.CompareAndSwap(false, true) {
			p.running.Add(-w)
			p.sem.Release(w)
		}
	}
}

// Full reports whether a search of one thread asked for now would be
// refused: every slot taken and the queue full.
func (p *Pool) Full() bool { return p.running.Load() >= p.slots && p.waiting.Load() >= p.queue }

// Stats is what the pool is doing.
type Stats struct {
	// Slots is the pool's size, Busy the slots taken, Waiting the
	// searches queued, Searches those let run so far.
	Slots, Busy, Waiting int
	Searches             int64
}

// Stats returns what the pool is doing now.
func (p *Pool) Stats() Stats {
	return Stats{Slots: int(p.slots), Busy: int(p.running.Load()), Waiting: int(p.waiting.Load()), Searches: p.searches.Load()}
}
