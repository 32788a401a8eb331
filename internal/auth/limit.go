package auth

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Limiter allows at most N events per key in any window of length Per (a
// sliding window over the events' times), remembering at most MaxKeys
// keys: when full it forgets the key whose last event is oldest, so that
// many keys cost bounded memory. It is safe for concurrent use.
type Limiter struct {
	N       int
	Per     time.Duration
	MaxKeys int

	mu   sync.Mutex
	keys map[string][]time.Time
}

// NewLimiter returns a limiter of n events per window for up to maxKeys
// keys.
func NewLimiter(n int, per time.Duration, maxKeys int) *Limiter {
	return &Limiter{N: n, Per: per, MaxKeys: maxKeys, keys: map[string][]time.Time{}}
}

// Allow records an event for key at now if the key has had fewer than N
// in the window, and reports whether it did; if not, retry is how long
// until one more is allowed.
func (l *Limiter) Allow(key string, now time.Time) (ok bool, retry time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ev := l.recent(key, now)
	if len(ev) >= l.N {
		return false, ev[0].Add(l.Per).Sub(now)
	}
	if _, known := l.keys[key]; !known && len(l.keys) >= l.MaxKeys {
		l.forgetOldest()
	}
	l.keys[key] = append(ev, now)
	return true, 0
}

// Reset forgets a key's events (a successful login clears its failures).
func (l *Limiter) Reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.keys, key)
}

// recent drops a key's events older than the window and returns the rest.
func (l *Limiter) recent(key string, now time.Time) []time.Time {
	ev := l.keys[key]
	i := 0
	for i < len(ev) && !ev[i].After(now.Add(-l.Per)) {
		i++
	}
	ev = ev[i:]
	if len(ev) == 0 {
		delete(l.keys, key)
		return nil
	}
	l.keys[key] = ev
	return ev
}

// forgetOldest forgets the key whose last event is oldest.
func (l *Limiter) forgetOldest() {
	var oldest string
	var at time.Time
	for k, ev := range l.keys {
		if last := ev[len(ev)-1]; oldest == "" || last.Before(at) {
			oldest, at = k, last
		}
	}
	delete(l.keys, oldest)
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

// Gate bounds the costly work (password hashes) running at once: a
// caller waits for a place until its context ends.
type Gate struct {
	places chan struct{}
	// running, peak and runs count the work under way, the most at once,
	// and all that has run.
	running, peak, runs atomic.Int64
}

// NewGate returns a gate of n places (at least 1).
func NewGate(n int) *Gate { return &Gate{places: make(chan struct{}, max(n, 1))} }

// Do runs f once a place is free, or returns ctx's error.
func (g *Gate) Do(ctx context.Context, f func()) error {
	select {
	case g.places <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	n := g.running.Add(1)
	for p := g.peak.Load(); n > p && !g.peak.CompareAndSwap(p, n); p = g.peak.Load() {
	}
	defer func() { g.running.Add(-1); <-g.places }()
	g.runs.Add(1)
	f()
	return nil
}

// Runs counts the work that has run.
func (g *Gate) Runs() int { return int(g.runs.Load()) }

// Peak is the most work that ran at once.
func (g *Gate) Peak() int { return int(g.peak.Load()) }
