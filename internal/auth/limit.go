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
