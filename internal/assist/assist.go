// Package assist remembers who had the engine's help lately, and when:
// the analysis board's evaluations and the exact verdicts of positions,
// by player and by address, so that a try at a puzzle made while its
// solver had that help is not rated (internal/puzzles).
package assist

import (
	"sync"
	"time"
)

// Log is the help given lately; its zero value is not ready: use New.
// It is safe for use by several goroutines.
type Log struct {
	mu   sync.Mutex
	keep time.Duration
	max  int
	// spans are each key's times of help, oldest first: uses closer than
	// gap to the span before extend it.
	spans map[string][]span
}

type span struct{ from, to time.Time }

// Bounds of what a Log holds.
const (
	// gap joins uses into one span.
	gap = time.Minute
	// spansPerKey bounds a key's spans: the oldest go first.
	spansPerKey = 32
)

// New returns a log that remembers help for keep, for at most max keys
// (beyond, the keys longest unhelped are forgotten first).
func New(keep time.Duration, max int) *Log {
	return &Log{keep: keep, max: max, spans: map[string][]span{}}
}

// Helped records help given at t to each of keys ("player ID",
// "addr 203.0.113.7").
func (l *Log) Helped(t time.Time, keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		ss := l.spans[k]
		if n := len(ss); n > 0 && t.Sub(ss[n-1].to) <= gap && !t.Before(ss[n-1].from) {
			if t.After(ss[n-1].to) {
				ss[n-1].to = t
			}
			continue
		}
		if len(ss) >= spansPerKey {
			ss = append(ss[:0], ss[1:]...)
		}
		l.spans[k] = append(ss, span{t, t})
	}
	if len(l.spans) > l.max {
		l.forget(t)
	}
}

// forget drops the spans older than keep, then, while too many keys
// remain, the key whose last help is oldest. The lock is held.
func (l *Log) forget(now time.Time) {
	for k, ss := range l.spans {
		if now.Sub(ss[len(ss)-1].to) > l.keep {
			delete(l.spans, k)
		}
	}
	for len(l.spans) > l.max {
		var oldest string
		var before time.Time
		for k, ss := range l.spans {
			if last := ss[len(ss)-1].to; oldest == "" || last.Before(before) {
				oldest, before = k, last
			}
		}
		delete(l.spans, oldest)
	}
}

// During reports whether any of keys had help between from and to, both
// included.
func (l *Log) During(from, to time.Time, keys ...string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		for _, s := range l.spans[k] {
			if !s.to.Before(from) && !s.from.After(to) {
				return true
			}
		}
	}
	return false
}
