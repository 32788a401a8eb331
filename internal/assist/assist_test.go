package assist

import (
	"testing"
	"time"
)

// TestDuring: help is found in the spans it was given in, by any of its
// keys, and not outside them; uses a minute apart or less make one span.
func TestDuring(t *testing.T) {
	l := New(time.Hour, 100)
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	l.Helped(t0, "player p", "addr a")
	l.Helped(t0.Add(30*time.Second), "player p")
	l.Helped(t0.Add(10*time.Minute), "player p")
	for _, c := range []struct {
		from, to time.Duration
		keys     []string
		want     bool
	}{
		{-time.Minute, -time.Second, []string{"player p"}, false},
		{-time.Minute, 0, []string{"player p"}, true},
		{10 * time.Second, 20 * time.Second, []string{"player p"}, true}, // within the first span
		{10 * time.Second, 20 * time.Second, []string{"addr a"}, false},  // the address's use was at t0 alone
		{2 * time.Minute, 9 * time.Minute, []string{"player p", "addr a"}, false},
		{9 * time.Minute, 11 * time.Minute, []string{"player q", "player p"}, true},
		{0, time.Hour, []string{"player q"}, false},
	} {
		if got := l.During(t0.Add(c.from), t0.Add(c.to), c.keys...); got != c.want {
			t.Errorf("During(%s, %s, %v) = %v, want %v", c.from, c.to, c.keys, got, c.want)
		}
	}
}

// TestBounded: a log holds at most its keys, forgetting the longest
// unhelped first and the help older than it keeps.
func TestBounded(t *testing.T) {
	l := New(time.Hour, 3)
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	for i, k := range []string{"a", "b", "c", "d"} {
		l.Helped(t0.Add(time.Duration(i)*time.Second), k)
	}
	if len(l.spans) != 3 || l.During(t0, t0.Add(time.Hour), "a") || !l.During(t0, t0.Add(time.Hour), "d") {
		t.Fatalf("after four keys in a log of three: %v", l.spans)
	}
	l.Helped(t0.Add(2*time.Hour), "e", "f")
	if len(l.spans) != 2 {
		t.Fatalf("help older than an hour kept: %v", l.spans)
	}
	for range 100 {
		l.Helped(t0.Add(3*time.Hour), "e")
	}
	l.Helped(t0.Add(5*time.Hour), "e")
	if n := len(l.spans["e"]); n > spansPerKey {
		t.Fatalf("%d spans for one key", n)
	}
}
