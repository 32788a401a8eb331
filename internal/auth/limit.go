package auth

import (
	"sync"
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
