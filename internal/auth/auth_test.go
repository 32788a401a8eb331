package auth

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestPasswordHash(t *testing.T) {
	h, err := HashPassword("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("hash %q is not argon2id with OWASP's parameters", h)
	}
	if ok, err := CheckPassword(h, "correct horse"); !ok || err != nil {
		t.Errorf("the right password: %v %v", ok, err)
	}
	if ok, err := CheckPassword(h, "correct horsf"); ok || err != nil {
		t.Errorf("a wrong password: %v %v", ok, err)
	}
	h2, _ := HashPassword("correct horse")
	if h2 == h {
		t.Error("two hashes of one password are equal: no salt")
	}
}

func TestMalformedHashes(t *testing.T) {
	for _, h := range []string{
		"",
		"plain",
		"$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5",
		"$argon2id$v=18$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5",
		"$argon2id$v=19$m=99999999,t=2,p=1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5", // a doctored cost
		"$argon2id$v=19$m=19456,t=0,p=1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5",
		"$argon2id$v=19$m=19456,t=2,p=1$!!$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5",
		"$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$a2V5",
	} {
		if ok, err := CheckPassword(h, "x"); ok || !errors.Is(err, ErrMalformedHash) {
			t.Errorf("CheckPassword(%q) = %v, %v", h, ok, err)
		}
	}
}

// FuzzCheckPassword: no stored string panics the check or passes an empty
// password unless it is a real hash of it.
func FuzzCheckPassword(f *testing.F) {
	f.Add("$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5")
	f.Add("$argon2id$v=19$m=,t=2,p=1$$")
	f.Fuzz(func(t *testing.T, h string) {
		if ok, err := CheckPassword(h, ""); ok && err != nil {
			t.Fatalf("ok with an error: %v", err)
		}
	})
}

func TestNewPasswordsAndUsernames(t *testing.T) {
	for pw, ok := range map[string]bool{"short": false, "long enough": true, strings.Repeat("x", 257): false, "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8": false} {
		if err := CheckNewPassword(pw); (err == nil) != ok {
			t.Errorf("CheckNewPassword(%q) = %v", pw, err)
		}
	}
	for name, ok := range map[string]bool{
		"linnaeus": true, "Carroll_1879": true, "a-b": true, "x": false, "_lead": false,
		"<script>": false, "ünicode": false, "two words": false, strings.Repeat("n", 21): false,
	} {
		if err := CheckUsername(name); (err == nil) != ok {
			t.Errorf("CheckUsername(%q) = %v", name, err)
		}
	}
	if UsernameKey("Linnaeus") != UsernameKey("linnaeus") {
		t.Error("usernames differ by case")
	}
}

func TestLimiter(t *testing.T) {
	l := NewLimiter(3, time.Minute, 100)
	t0 := time.Unix(1000, 0)
	for i := range 3 {
		if ok, _ := l.Allow("1.2.3.4", t0.Add(time.Duration(i)*time.Second)); !ok {
			t.Fatalf("attempt %d refused", i+1)
		}
	}
	ok, retry := l.Allow("1.2.3.4", t0.Add(10*time.Second))
	if ok || retry != 50*time.Second {
		t.Errorf("the fourth attempt in a minute: %v, retry %v (want refused, 50s)", ok, retry)
	}
	if ok, _ := l.Allow("5.6.7.8", t0.Add(10*time.Second)); !ok {
		t.Error("another key was limited")
	}
	if ok, _ := l.Allow("1.2.3.4", t0.Add(61*time.Second)); !ok {
		t.Error("an attempt after the first left the window was refused")
	}
	l.Reset("1.2.3.4")
	for range 3 {
		if ok, _ := l.Allow("1.2.3.4", t0.Add(62*time.Second)); !ok {
			t.Fatal("refused after a reset")
		}
	}
}

func TestLimiterBoundsItsKeys(t *testing.T) {
	l := NewLimiter(1, time.Hour, 10)
	t0 := time.Unix(0, 0)
	for i := range 1000 {
		l.Allow(strings.Repeat("k", i%50+1)+string(rune('a'+i%26)), t0.Add(time.Duration(i)*time.Millisecond))
	}
	if len(l.keys) > 10 {
		t.Errorf("%d keys kept, want at most 10", len(l.keys))
	}
}

// TestLimiterForgetsLeastRecent: a full limiter forgets the key that
// recorded an event least recently, and keeps one that recorded an event
// since, however early its first.
func TestLimiterForgetsLeastRecent(t *testing.T) {
	l := NewLimiter(2, time.Hour, 3)
	t0 := time.Unix(0, 0)
	for i, k := range []string{"a", "b", "c", "a", "d"} {
		if ok, _ := l.Allow(k, t0.Add(time.Duration(i)*time.Second)); !ok {
			t.Fatalf("%s refused", k)
		}
	}
	if _, kept := l.keys["b"]; kept || len(l.keys) != 3 {
		t.Fatalf("kept %v, want a, c and d", l.keys)
	}
	if ok, _ := l.Allow("a", t0.Add(5*time.Second)); ok {
		t.Fatal("a third event of a in the hour allowed: its events were forgotten")
	}
}

// BenchmarkLimiterNewKeys: an event of a key not seen before, the
// limiter full (100,000 keys, as the server's are).
func BenchmarkLimiterNewKeys(b *testing.B) {
	l := NewLimiter(10, time.Minute, 100000)
	t0 := time.Unix(0, 0)
	for i := range 100000 {
		l.Allow(strconv.Itoa(i), t0)
	}
	b.ResetTimer()
	for i := range b.N {
		l.Allow("n"+strconv.Itoa(i), t0.Add(time.Second))
	}
}

// TestLocksOrderAKey: two holders of one key never run at once; other
// keys do not wait; a key let go leaves nothing behind.
func TestLocksOrderAKey(t *testing.T) {
	var l Locks
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			unlock := l.Lock("10.0.0.1")
			if n := inside.Add(1); n > most.Load() {
				most.Store(n)
			}
			time.Sleep(time.Millisecond)
			inside.Add(-1)
			unlock()
		})
	}
	other := l.Lock("10.0.0.2") // never waits for the first key
	other()
	wg.Wait()
	if most.Load() != 1 || len(l.held) != 0 {
		t.Fatalf("at most %d inside at once, %d keys left", most.Load(), len(l.held))
	}
}

// TestGateBounds: no more than the gate's places run at once.
func TestGateBounds(t *testing.T) {
	g := NewGate(2, 100)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() { g.Do(context.Background(), "", fmt.Sprint(i%3), func() { time.Sleep(2 * time.Millisecond) }) })
	}
	wg.Wait()
	if g.Peak() > 2 || g.Peak() < 1 || g.Runs() != 10 {
		t.Fatalf("peak %d, want at most 2; %d runs", g.Peak(), g.Runs())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g2 := NewGate(1, 1)
	hold := make(chan struct{})
	go g2.Do(context.Background(), "", "a", func() { <-hold })
	for g2.running.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	if err := g2.Do(ctx, "", "b", func() { t.Fatal("ran with no place") }); err == nil {
		t.Fatal("a full gate and an ended context: no error")
	}
	close(hold)
}

// TestGateTakesTurns (hostile finding 9: sign-ins from 100 addresses
// filled the password hashes and the owner's own got 503): the groups
// waiting (accounts) are served in turn, and within a group its keys
// (addresses): an account's owner arriving behind a flood of guesses at
// another account from many addresses runs next but one, and so does an
// address arriving behind another's many callers at one account. A key's
// callers beyond PerKey are refused at once.
func TestGateTakesTurns(t *testing.T) {
	g := NewGate(1, 3)
	hold := make(chan struct{})
	go g.Do(context.Background(), "x", "x", func() { <-hold })
	for g.running.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	var order []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	wait := func(group, key string, n int) {
		for range n {
			wg.Go(func() {
				g.Do(context.Background(), group, key, func() { mu.Lock(); order = append(order, group+"/"+key); mu.Unlock() })
			})
		}
		for {
			g.mu.Lock()
			queued := 0
			if gr := g.groups[group]; gr != nil {
				queued = len(gr.queues[key])
			}
			g.mu.Unlock()
			if queued == n {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	for a := range 4 {
		wait("victim", fmt.Sprint("attacker", a), 3)
	}
	if err := g.Do(context.Background(), "victim", "attacker0", func() {}); !errors.Is(err, ErrGateBusy) {
		t.Fatalf("a fourth caller of one key waiting: %v, want ErrGateBusy", err)
	}
	wait("owner", "home", 1)
	wait("victim", "victimhome", 1)
	close(hold)
	wg.Wait()
	if order[1] != "owner/home" || !slices.Contains(order[:6], "victim/victimhome") {
		t.Fatalf("served in the order %v: want the other account's owner second, the attacked one's within the first six", order)
	}
}

// TestNewPasswordRefusesEmptyAndCommon: eight spaces, eight NULs, the
// replacement character (what invalid UTF-8 becomes through JSON) and the
// commonest passwords are refused (hostile finding, low).
func TestNewPasswordRefusesEmptyAndCommon(t *testing.T) {
	for _, bad := range []string{"        ", "\x00\x00\x00\x00\x00\x00\x00\x00", "pass\uFFFDword", "Password1", "12345678", "line\nbreak!"} {
		if CheckNewPassword(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, good := range []string{"correct horse", "jabberwocky 1871", "вечерний чай"} {
		if err := CheckNewPassword(good); err != nil {
			t.Errorf("%q refused: %v", good, err)
		}
	}
}

// TestBudget: a key spends its bucket and waits for it to refill; a cost
// is taken from every key or none; keys are forgotten within MaxKeys.
func TestBudget(t *testing.T) {
	b := NewBudget(10, 10*time.Second, 2)
	t0 := time.Unix(1000, 0)
	if ok, _ := b.Take(6, t0, "addr", "player"); !ok {
		t.Fatal("a first cost refused")
	}
	if ok, retry := b.Take(6, t0, "addr"); ok || retry != 2*time.Second {
		t.Fatalf("past the budget: %v, retry %v; want refused, 2s", ok, retry)
	}
	if ok, _ := b.Take(6, t0, "other", "player"); ok {
		t.Fatal("a cost passed one key's empty bucket")
	}
	if ok, _ := b.Take(6, t0, "other"); !ok {
		t.Fatal("the refused cost was taken from a key that allowed it")
	}
	if ok, _ := b.Take(6, t0.Add(2*time.Second), "addr"); !ok {
		t.Fatal("refilled for 2 s, the bucket did not hold 6")
	}
	if n := len(b.keys); n > 2 {
		t.Fatalf("%d keys remembered, at most 2", n)
	}
}

// TestInFlight: at most N under way a key; leaving frees a place once.
func TestInFlight(t *testing.T) {
	f := NewInFlight(2)
	l1, ok1 := f.Enter("a", "p")
	_, ok2 := f.Enter("a")
	if !ok1 || !ok2 {
		t.Fatal("within the bound, refused")
	}
	if _, ok := f.Enter("a"); ok {
		t.Fatal("a third at once passed")
	}
	if _, ok := f.Enter("b", "a"); ok {
		t.Fatal("passed with one key at its bound")
	}
	l1()
	l1()
	if _, ok := f.Enter("a"); !ok {
		t.Fatal("after one left, refused")
	}
	if _, ok := f.Enter("a"); ok {
		t.Fatal("a second leave freed a second place")
	}
	if f.n["p"] != 0 {
		t.Fatalf("p counts %d after leaving", f.n["p"])
	}
}
