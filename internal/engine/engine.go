// Package engine bounds the searches a server runs — the computer's moves,
// its thinking on a person's time, the analysis board — to the cores the
// operator gives them, and shares them fairly between those kinds of work.
//
// A search takes as many slots as it runs threads. The kinds are served in
// order of their claim on the cores:
//
//   - Move, the computer's move in a game: someone is waiting for it. It is
//     served first, and a move that finds no free slot takes them back from
//     the thinking on a person's time and from the analysis board, whose
//     searches are told to stop (their lease's context ends) and answer
//     with what they have found.
//   - Analysis, the analysis board: at most AnalysisSlots at once and never
//     ahead of a move waiting; it has its own, shorter queue.
//   - Ponder, the computer thinking on a person's time: only slots nobody
//     asks for, and given back as soon as anyone waits.
//
// Past its queue a search is refused at once with ErrFull (or
// ErrAnalysisFull), which the server answers 503.
package engine

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/muster-games/muster/internal/httpx"
)

// ErrFull answers a computer's move the pool has no room for, running or
// queued.
var ErrFull = httpx.NewError(http.StatusServiceUnavailable, "the computer players are all busy: try again in a minute")

// ErrAnalysisFull answers an evaluation of the analysis board the pool has
// no room for: its share of the cores and its queue are taken.
var ErrAnalysisFull = httpx.NewError(http.StatusServiceUnavailable, "the analysis engine is busy: try again in a minute")

// Kind is a kind of search, by its claim on the cores.
type Kind int

// The kinds of search, first served first.
const (
	// Move is the computer's move in a game.
	Move Kind = iota
	// Analysis is an evaluation of the analysis board.
	Analysis
	// Ponder is the computer thinking on a person's time.
	Ponder
)

var kindNames = [...]string{"move", "analysis", "ponder"}

func (k Kind) String() string { return kindNames[k] }

// Config sizes a pool.
type Config struct {
	// Slots are the cores the pool shares (at least 1).
	Slots int
	// Queue bounds the moves waiting for slots.
	Queue int
	// AnalysisSlots bounds the slots the analysis board holds at once
	// (0: half the pool, at least one); AnalysisQueue the evaluations
	// waiting (0: none wait).
	AnalysisSlots, AnalysisQueue int
}

// Pool is the engine pool. It is safe for concurrent use.
type Pool struct {
	cfg Config

	mu sync.Mutex
	// free are the slots nobody holds.
	free int
	// busy are the slots held, by kind.
	busy [3]int
	// waiting are the searches queued, moves and evaluations, in order.
	waiting [2][]*waiter
	// held are the searches that may be told to stop: pondering and
	// evaluations, oldest first.
	held []*Lease
	// counts of what the pool did: searches let run by kind, refused by
	// kind, and those told to stop early.
	runs, refused [3]int64
	preempted     int64
	// waits counts the searches that waited for their slots, waited how
	// long in all, by kind.
	waits  [2]int64
	waited [2]time.Duration
}

type waiter struct {
	w     int
	ready chan *Lease // given the lease once granted
}

// Lease is a search's hold on its slots.
type Lease struct {
	p    *Pool
	kind Kind
	w    int
	ctx  context.Context
	stop context.CancelCauseFunc
	once sync.Once
}

// ErrPreempted is the cause of a lease's context ending because a move
// needed its slots.
var ErrPreempted = errors.New("engine: the slots went to a computer's move")

// New returns a pool sized by cfg.
func New(cfg Config) *Pool {
	cfg.Slots = max(cfg.Slots, 1)
	cfg.Queue = max(cfg.Queue, 0)
	if cfg.AnalysisSlots <= 0 {
		cfg.AnalysisSlots = max(cfg.Slots/2, 1)
	}
	cfg.AnalysisSlots = min(cfg.AnalysisSlots, cfg.Slots)
	cfg.AnalysisQueue = max(cfg.AnalysisQueue, 0)
	return &Pool{cfg: cfg, free: cfg.Slots}
}

// Slots is the pool's size.
func (p *Pool) Slots() int { return p.cfg.Slots }

// weight is the slots a search of threads takes: one for each thread,
// all of them for a search on every core (threads 0 or beyond the pool).
func (p *Pool) weight(threads int) int {
	if threads <= 0 || threads > p.cfg.Slots {
		return p.cfg.Slots
	}
	return threads
}

// Acquire takes the slots of a search of threads of kind Move or
// Analysis, waiting in the kind's queue while they are taken, until ctx
// is done; it returns ErrFull (ErrAnalysisFull) at once when the queue is
// full. The lease's context ends with ctx, or when a move takes back the
// slots of an evaluation; Release gives them back.
func (p *Pool) Acquire(ctx context.Context, kind Kind, threads int) (*Lease, error) {
	if kind == Ponder {
		return nil, errors.New("engine: pondering takes only free slots (TryPonder)")
	}
	w := p.weight(threads)
	if kind == Analysis {
		// An evaluation on more threads than the analysis board's share
		// counts as the share, or it would never run.
		w = min(w, p.cfg.AnalysisSlots)
	}
	p.mu.Lock()
	if p.grantable(kind, w) {
		l := p.grant(kind, w)
		l.ctx, l.stop = context.WithCancelCause(ctx)
		p.mu.Unlock()
		return l, nil
	}
	if len(p.waiting[kind]) >= p.queueOf(kind) {
		p.refused[kind]++
		p.mu.Unlock()
		return nil, p.fullErr(kind)
	}
	wt := &waiter{w: w, ready: make(chan *Lease, 1)}
	p.waiting[kind] = append(p.waiting[kind], wt)
	p.reclaim()
	p.mu.Unlock()
	began := time.Now()
	select {
	case l := <-wt.ready:
		l.adopt(ctx)
		p.mu.Lock()
		p.waits[kind]++
		p.waited[kind] += time.Since(began)
		p.mu.Unlock()
		return l, nil
	case <-ctx.Done():
	}
	p.mu.Lock()
	if i := indexOf(p.waiting[kind], wt); i >= 0 {
		p.waiting[kind] = append(p.waiting[kind][:i], p.waiting[kind][i+1:]...)
		p.mu.Unlock()
		return nil, errors.Join(p.fullErr(kind), ctx.Err())
	}
	p.mu.Unlock()
	// Granted as ctx ended: give it back.
	(<-wt.ready).Release()
	return nil, errors.Join(p.fullErr(kind), ctx.Err())
}

// TryPonder takes the slots of a search of threads for thinking on a
// person's time if they are free and nobody waits for any, never
// waiting. The lease's context ends with ctx or as soon as another search
// wants the slots.
func (p *Pool) TryPonder(ctx context.Context, threads int) (*Lease, bool) {
	w := p.weight(threads)
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.grantable(Ponder, w) {
		return nil, false
	}
	l := p.grant(Ponder, w)
	l.ctx, l.stop = context.WithCancelCause(ctx)
	return l, true
}

func (p *Pool) fullErr(kind Kind) error {
	if kind == Analysis {
		return ErrAnalysisFull
	}
	return ErrFull
}

func (p *Pool) queueOf(kind Kind) int {
	if kind == Analysis {
		return p.cfg.AnalysisQueue
	}
	return p.cfg.Queue
}

// grantable reports whether a search of kind and weight w may run now:
// the slots are free, nobody of a kind served before it waits, and an
// evaluation stays within its share. The mutex is held.
func (p *Pool) grantable(kind Kind, w int) bool {
	if p.free < w {
		return false
	}
	switch kind {
	case Move:
		return len(p.waiting[Move]) == 0
	case Analysis:
		return len(p.waiting[Move]) == 0 && len(p.waiting[Analysis]) == 0 && p.busy[Analysis]+w <= p.cfg.AnalysisSlots
	default:
		return len(p.waiting[Move]) == 0 && len(p.waiting[Analysis]) == 0
	}
}

// grant takes w slots for a search of kind; the mutex is held. The
// caller gives the lease its context (a waiter's, as it wakes: adopt).
func (p *Pool) grant(kind Kind, w int) *Lease {
	p.free -= w
	p.busy[kind] += w
	p.runs[kind]++
	l := &Lease{p: p, kind: kind, w: w}
	if kind != Move {
		p.held = append(p.held, l)
	}
	return l
}

// adopt gives a lease granted to a waiter its context, derived from
// ctx; a lease told to stop meanwhile begins stopped.
func (l *Lease) adopt(ctx context.Context) {
	l.p.mu.Lock()
	defer l.p.mu.Unlock()
	l.ctx, l.stop = context.WithCancelCause(ctx)
	if l.kind != Move && indexOf(l.p.held, l) < 0 {
		l.stop(ErrPreempted) // told to stop before it began
	}
}

// reclaim tells searches to stop so that those waiting get their slots:
// any search waiting ends the pondering; moves waiting end evaluations
// too, oldest first, until the slots they free cover the moves. The mutex
// is held.
func (p *Pool) reclaim() {
	need := 0
	for _, wt := range p.waiting[Move] {
		need += wt.w
	}
	need -= p.free
	kept := p.held[:0]
	for _, l := range p.held {
		switch {
		case l.kind == Ponder, l.kind == Analysis && need > 0:
			need -= l.w
			p.preempted++
			if l.stop != nil {
				l.stop(ErrPreempted)
			}
		default:
			kept = append(kept, l)
		}
	}
	clear(p.held[len(kept):])
	p.held = kept
}

// dispatch gives freed slots to the searches waiting, moves first; the
// mutex is held.
func (p *Pool) dispatch() {
	for _, kind := range []Kind{Move, Analysis} {
		for len(p.waiting[kind]) > 0 {
			wt := p.waiting[kind][0]
			if p.free < wt.w || kind == Analysis && (len(p.waiting[Move]) > 0 || p.busy[Analysis]+wt.w > p.cfg.AnalysisSlots) {
				break
			}
			p.waiting[kind] = p.waiting[kind][1:]
			wt.ready <- p.grant(kind, wt.w)
		}
	}
}

// Context is the search's context: it ends with the one the lease was
// asked with, or when a move takes the slots back.
func (l *Lease) Context() context.Context { return l.ctx }

// Release gives the slots back (once).
func (l *Lease) Release() {
	l.once.Do(func() {
		p := l.p
		p.mu.Lock()
		defer p.mu.Unlock()
		if l.stop != nil {
			l.stop(context.Canceled)
		}
		if i := indexOf(p.held, l); i >= 0 {
			p.held = append(p.held[:i], p.held[i+1:]...)
		}
		p.free += l.w
		p.busy[l.kind] -= l.w
		p.dispatch()
		if len(p.waiting[Move]) > 0 {
			p.reclaim()
		}
	})
}

func indexOf[T comparable](s []T, x T) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

// Full reports whether a computer's move asked for now would be refused:
// no slot free and the queue full.
func (p *Pool) Full() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.free == 0 && len(p.waiting[Move]) >= p.cfg.Queue
}

// Stats is what the pool is doing.
type Stats struct {
	// Slots is the pool's size, Busy the slots taken (BusyBy by kind),
	// Waiting the searches queued (WaitingBy by kind: moves,
	// evaluations).
	Slots, Busy int
	BusyBy      [3]int
	Waiting     int
	WaitingBy   [2]int
	// Searches are those let run so far (Runs by kind), Refused those
	// turned away by kind, Preempted those told to stop for a move.
	Searches  int64
	Runs      [3]int64
	Refused   [3]int64
	Preempted int64
	// Waits counts the moves and evaluations that waited for their
	// slots, Waited how long they waited in all.
	Waits  [2]int64
	Waited [2]time.Duration
}

// Stats returns what the pool is doing now.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := Stats{Slots: p.cfg.Slots, Busy: p.cfg.Slots - p.free, BusyBy: p.busy, Runs: p.runs, Refused: p.refused, Preempted: p.preempted, Waits: p.waits, Waited: p.waited}
	for k, w := range p.waiting {
		s.WaitingBy[k] = len(w)
		s.Waiting += len(w)
	}
	for _, n := range p.runs {
		s.Searches += n
	}
	return s
}
