package auth

import (
	"container/list"
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Limiter allows at most N events per key in any window of length Per (a
// sliding window over the events' times), remembering at most MaxKeys
// keys: when full it forgets the key that recorded an event least
// recently, so that many keys cost bounded memory. It is safe for
// concurrent use.
type Limiter struct {
	N       int
	Per     time.Duration
	MaxKeys int

	mu   sync.Mutex
	keys map[string]*list.Element // of *limited, in order
	// order holds the keys, the one that recorded an event least
	// recently first: forgetting it takes no search of every key (which
	// a full limiter made at each new key, a key an address: at 100,000
	// keys, a few milliseconds, the lock held, for each request from an
	// address not seen before).
	order list.List
}

// limited is a key's events, oldest first.
type limited struct {
	key    string
	events []time.Time
}

// NewLimiter returns a limiter of n events per window for up to maxKeys
// keys.
func NewLimiter(n int, per time.Duration, maxKeys int) *Limiter {
	return &Limiter{N: n, Per: per, MaxKeys: maxKeys, keys: map[string]*list.Element{}}
}

// Allow records an event for key at now if the key has had fewer than N
// in the window, and reports whether it did; if not, retry is how long
// until one more is allowed.
func (l *Limiter) Allow(key string, now time.Time) (ok bool, retry time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.recent(key, now)
	if e != nil {
		k := e.Value.(*limited)
		if len(k.events) >= l.N {
			return false, k.events[0].Add(l.Per).Sub(now)
		}
		k.events = append(k.events, now)
		l.order.MoveToBack(e)
		return true, 0
	}
	if l.N <= 0 {
		return false, l.Per
	}
	if l.keys == nil {
		l.keys = map[string]*list.Element{}
	}
	if len(l.keys) >= l.MaxKeys {
		if oldest := l.order.Front(); oldest != nil {
			l.forget(oldest)
		}
	}
	l.keys[key] = l.order.PushBack(&limited{key: key, events: []time.Time{now}})
	return true, 0
}

// Seen reports whether key has recorded an event within the window
// before now.
func (l *Limiter) Seen(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.recent(key, now) != nil
}

// Reset forgets a key's events (a successful login clears its failures).
func (l *Limiter) Reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.keys[key]; e != nil {
		l.forget(e)
	}
}

// recent drops a key's events older than the window and returns the key,
// or nil where none is left (the key then forgotten).
func (l *Limiter) recent(key string, now time.Time) *list.Element {
	e := l.keys[key]
	if e == nil {
		return nil
	}
	k := e.Value.(*limited)
	i := 0
	for i < len(k.events) && !k.events[i].After(now.Add(-l.Per)) {
		i++
	}
	if i == len(k.events) {
		l.forget(e)
		return nil
	}
	k.events = k.events[i:]
	return e
}

// forget forgets a key.
func (l *Limiter) forget(e *list.Element) {
	delete(l.keys, e.Value.(*limited).key)
	l.order.Remove(e)
}

// Locks is a mutex per key (an address, a player): what counts the
// events of a key and then records one holds its key's lock meanwhile,
// so that requests arriving at once cannot all pass a limit that only one
// more may pass. Keys no one holds cost nothing. It is safe for
// concurrent use.
type Locks struct {
	mu   sync.Mutex
	held map[string]*keyLock
}

type keyLock struct {
	mu      sync.Mutex
	waiters int
}

// Lock locks key and returns its unlock.
func (l *Locks) Lock(key string) (unlock func()) {
	l.mu.Lock()
	if l.held == nil {
		l.held = map[string]*keyLock{}
	}
	k := l.held[key]
	if k == nil {
		k = &keyLock{}
		l.held[key] = k
	}
	k.waiters++
	l.mu.Unlock()
	k.mu.Lock()
	return func() {
		k.mu.Unlock()
		l.mu.Lock()
		if k.waiters--; k.waiters == 0 {
			delete(l.held, key)
		}
		l.mu.Unlock()
	}
}

// Gate bounds the costly work (password hashes) running at once and
// shares its places fairly: a caller names a group (an account) and a key
// within it (an address), and as places free up the groups waiting are
// served in turn, and within a group its keys in turn. So one key's many
// callers never stand between another key and its place, nor one group's
// many keys between another group and its place: a flood of guesses at
// one account from a hundred addresses leaves the other accounts' owners
// a place at every other turn. A caller waits until its context ends; a
// key has at most PerKey callers waiting, more are refused at once.
type Gate struct {
	// PerKey bounds a key's callers waiting.
	PerKey int

	mu   sync.Mutex
	free int
	// groups are the groups with callers waiting, turn their order.
	groups map[string]*gateGroup
	turn   []string
	// running, peak and runs count the work under way, the most at once,
	// and all that has run.
	running, peak, runs atomic.Int64
}

// gateGroup is a group's callers waiting: each key's in order, and the
// keys' order.
type gateGroup struct {
	queues map[string][]chan struct{}
	turn   []string
}

// ErrGateBusy is Do's answer to a key with PerKey callers waiting already.
var ErrGateBusy = errors.New("auth: too many waiting from one address")

// NewGate returns a gate of n places (at least 1), at most perKey
// callers of a key waiting (at least 1).
func NewGate(n, perKey int) *Gate {
	return &Gate{PerKey: max(perKey, 1), free: max(n, 1), groups: map[string]*gateGroup{}}
}

// Do runs f once a place is free and the turn of key, in group, has come;
// or returns ctx's error (or ErrGateBusy at once).
func (g *Gate) Do(ctx context.Context, group, key string, f func()) error {
	g.mu.Lock()
	if g.free > 0 && len(g.turn) == 0 {
		g.free--
		g.mu.Unlock()
	} else {
		gr := g.groups[group]
		if gr == nil {
			gr = &gateGroup{queues: map[string][]chan struct{}{}}
			g.groups[group] = gr
			g.turn = append(g.turn, group)
		}
		if len(gr.queues[key]) >= g.PerKey {
			g.mu.Unlock()
			return ErrGateBusy
		}
		ready := make(chan struct{})
		if len(gr.queues[key]) == 0 {
			gr.turn = append(gr.turn, key)
		}
		gr.queues[key] = append(gr.queues[key], ready)
		g.mu.Unlock()
		select {
		case <-ready:
		case <-ctx.Done():
			g.mu.Lock()
			if g.remove(group, key, ready) {
				g.mu.Unlock()
				return ctx.Err()
			}
			g.mu.Unlock()
			// Given a place as ctx ended: give it on.
			g.release()
			return ctx.Err()
		}
	}
	n := g.running.Add(1)
	for p := g.peak.Load(); n > p && !g.peak.CompareAndSwap(p, n); p = g.peak.Load() {
	}
	defer g.release()
	defer g.running.Add(-1)
	g.runs.Add(1)
	f()
	return nil
}

// remove takes a caller out of its queue, reporting whether it was there;
// the mutex is held.
func (g *Gate) remove(group, key string, ready chan struct{}) bool {
	gr := g.groups[group]
	if gr == nil {
		return false
	}
	i := slices.Index(gr.queues[key], ready)
	if i < 0 {
		return false
	}
	gr.queues[key] = slices.Delete(gr.queues[key], i, i+1)
	if len(gr.queues[key]) == 0 {
		delete(gr.queues, key)
		gr.turn = slices.DeleteFunc(gr.turn, func(k string) bool { return k == key })
	}
	if len(gr.turn) == 0 {
		delete(g.groups, group)
		g.turn = slices.DeleteFunc(g.turn, func(k string) bool { return k == group })
	}
	return true
}

// release gives a place to the next group's next key in turn, or frees
// it.
func (g *Gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.turn) == 0 {
		g.free++
		return
	}
	group := g.turn[0]
	g.turn = g.turn[1:]
	gr := g.groups[group]
	key := gr.turn[0]
	gr.turn = gr.turn[1:]
	q := gr.queues[key]
	close(q[0])
	if len(q) == 1 {
		delete(gr.queues, key)
	} else {
		gr.queues[key] = q[1:]
		gr.turn = append(gr.turn, key)
	}
	if len(gr.turn) == 0 {
		delete(g.groups, group)
	} else {
		g.turn = append(g.turn, group)
	}
}

// Runs counts the work that has run.
func (g *Gate) Runs() int { return int(g.runs.Load()) }

// Running counts the work running now.
func (g *Gate) Running() int { return int(g.running.Load()) }

// Peak is the most work that ran at once.
func (g *Gate) Peak() int { return int(g.peak.Load()) }

// Budget gives each key (an address, a player) a bucket of Cap units,
// refilled evenly at Cap every Per: a cost taken from it is allowed while
// the bucket holds it. It bounds work by its cost (the analysis board's
// engine time) where Limiter counts events. It remembers at most MaxKeys
// keys, forgetting the fullest when full (a forgotten key starts full).
// It is safe for concurrent use.
type Budget struct {
	Cap     float64
	Per     time.Duration
	MaxKeys int

	mu   sync.Mutex
	keys map[string]*bucket
}

type bucket struct {
	left float64
	at   time.Time
}

// NewBudget returns a budget of capacity units a key, refilled every per.
func NewBudget(capacity float64, per time.Duration, maxKeys int) *Budget {
	return &Budget{Cap: capacity, Per: per, MaxKeys: maxKeys, keys: map[string]*bucket{}}
}

// Take takes cost from every key's bucket at now if each holds it, and
// reports whether it did; if not, retry is how long until it would.
// Nothing is taken from any key unless every key allows it.
func (b *Budget) Take(cost float64, now time.Time, keys ...string) (ok bool, retry time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, k := range keys {
		if left := b.level(k, now); left < cost {
			rate := b.Cap / b.Per.Seconds()
			retry = max(retry, time.Duration((cost-left)/rate*float64(time.Second)))
		}
	}
	if retry > 0 {
		return false, retry
	}
	for _, k := range keys {
		bk := b.keys[k]
		if bk == nil {
			if len(b.keys) >= b.MaxKeys {
				b.forgetFullest(now)
			}
			bk = &bucket{left: b.Cap, at: now}
			b.keys[k] = bk
		}
		bk.left = b.level(k, now) - cost
		bk.at = now
	}
	return true, 0
}

// level is what key's bucket holds at now.
func (b *Budget) level(key string, now time.Time) float64 {
	bk := b.keys[key]
	if bk == nil {
		return b.Cap
	}
	return min(b.Cap, bk.left+now.Sub(bk.at).Seconds()*b.Cap/b.Per.Seconds())
}

func (b *Budget) forgetFullest(now time.Time) {
	var fullest string
	best := -1.0
	for k := range b.keys {
		if l := b.level(k, now); l > best {
			fullest, best = k, l
		}
	}
	delete(b.keys, fullest)
}

// InFlight bounds the requests of each key (an address, a player) under
// way at once. It is safe for concurrent use; keys with nothing under way
// cost nothing.
type InFlight struct {
	N int

	mu sync.Mutex
	n  map[string]int
}

// NewInFlight returns a bound of n requests at once a key.
func NewInFlight(n int) *InFlight { return &InFlight{N: n, n: map[string]int{}} }

// Enter counts a request under every key if none is at its bound, and
// reports whether it did; leave uncounts it (once).
func (f *InFlight) Enter(keys ...string) (leave func(), ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, k := range keys {
		if f.n[k] >= f.N {
			return nil, false
		}
	}
	for _, k := range keys {
		f.n[k]++
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			for _, k := range keys {
				if f.n[k]--; f.n[k] <= 0 {
					delete(f.n, k)
				}
			}
		})
	}, true
}
