package server

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/engine"
	"github.com/muster-games/muster/internal/httpx"
)

// behindProxy is a test configuration whose requests may say, through
// X-Forwarded-For, which address they come from: the proxy is the test
// itself, on loopback.
func behindProxy() Config {
	cfg := testConfig()
	cfg.Proxies, _ = httpx.ParseProxies([]string{"127.0.0.1", "::1"})
	return cfg
}

// from is a new browser at address addr.
func (h *harness) from(addr string) *person {
	p := h.person()
	p.hdr = map[string]string{"X-Forwarded-For": addr}
	return p
}

// counts are answers counted by status.
type counts struct{ m sync.Map }

func (c *counts) add(code int) {
	v, _ := c.m.LoadOrStore(code, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

func (c *counts) n(code int) int64 {
	if v, ok := c.m.Load(code); ok {
		return v.(*atomic.Int64).Load()
	}
	return 0
}

// flood posts body to path from n workers spread over addrs, each again
// as soon as it is answered (20 ms later when refused, as a script in a
// loop would), until stop is closed; it counts the answers.
func (h *harness) flood(stop <-chan struct{}, path string, addrs []string, n int, body string, got *counts) *sync.WaitGroup {
	var wg sync.WaitGroup
	for i := range n {
		addr := addrs[i%len(addrs)]
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				r, _ := http.NewRequest("POST", h.http.URL+path, strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("X-Forwarded-For", addr)
				code := 0
				if res, err := http.DefaultClient.Do(r); err == nil {
					res.Body.Close()
					code = res.StatusCode
				}
				got.add(code)
				if code != http.StatusOK {
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
	return &wg
}

// TestAnalysisFloodLeavesGamesTheirComputer (hostile finding 1: 120
// parallel evaluations from one address made another visitor's first
// computer move take 42 s, and from three addresses every new game against
// the computer got 503). With 120 evaluations of 3 s each re-sent from one
// address, and then from three, another visitor still creates a game
// against the computer, and its move waits for no evaluation: the moves
// go before the analysis board, which holds at most its share of the
// engines, and each address has at most two evaluations under way.
func TestAnalysisFloodLeavesGamesTheirComputer(t *testing.T) {
	for _, addrs := range [][]string{{"203.0.113.1"}, {"203.0.113.1", "203.0.113.2", "203.0.113.3"}} {
		cfg := behindProxy()
		cfg.Engines = 2
		cfg.AnalysisTime = 3 * time.Second
		h := newHarness(t, "", cfg)
		stop := make(chan struct{})
		var got counts
		wg := h.flood(stop, "/api/analysis/eval", addrs, 120, `{"spec":"lanrick","actions":[],"ms":3000}`, &got)
		time.Sleep(500 * time.Millisecond) // the flood fills the engines
		visitor := h.from("198.51.100.7")
		var c createResponse
		began := time.Now()
		if code := visitor.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "defenders"}, &c); code != http.StatusCreated {
			t.Fatalf("%d flooding addresses: a new game against the computer: %d", len(addrs), code)
		}
		before := got.n(http.StatusOK)
		var v struct{ Ply int }
		for v.Ply == 0 && time.Since(began) < 60*time.Second {
			visitor.call("GET", "/api/games/"+c.ID, nil, &v)
			time.Sleep(10 * time.Millisecond)
		}
		took := time.Since(began)
		// The move waited for no queue of evaluations to drain: at most
		// the few under way when it was asked for ended before it.
		ahead := got.n(http.StatusOK) - before
		close(stop)
		wg.Wait()
		if v.Ply == 0 {
			t.Fatalf("%d flooding addresses: the computer had not moved after %v", len(addrs), took)
		}
		t.Logf("%d flooding addresses: the computer moved %.2f s after the game was made, %d evaluations answered meanwhile; the flood got %d answers 200, %d 429, %d 503",
			len(addrs), took.Seconds(), ahead, got.n(200), got.n(429), got.n(503))
		if ahead > 4 {
			t.Errorf("%d evaluations were answered while the computer's move waited", ahead)
		}
		if got.n(http.StatusTooManyRequests) == 0 {
			t.Error("no evaluation was refused for its address's limit")
		}
		h.close()
	}
}

// TestAnalysisLimitsPerAddress: an address has at most AnalysisInFlight
// evaluations under way and AnalysisEngineTime of thinking a minute; past
// either it gets 429, and another address is not held back.
func TestAnalysisLimitsPerAddress(t *testing.T) {
	cfg := behindProxy()
	cfg.AnalysisInFlight = 1
	cfg.AnalysisEngineTime = 2 * time.Second
	cfg.Engines = 2
	h := newHarness(t, "", cfg)
	a, b := h.from("203.0.113.1"), h.from("203.0.113.2")
	eval := func(p *person, ms int) int {
		return p.call("POST", "/api/analysis/eval", map[string]any{"spec": "tablut", "actions": []string{}, "ms": ms}, nil)
	}
	// One at a time: a second while the first is under way (queued
	// behind the analysis board's one slot, which this test holds) is
	// refused.
	held, err := h.srv.pool.Acquire(context.Background(), engine.Analysis, 1)
	if err != nil {
		t.Fatal(err)
	}
	first := make(chan int)
	go func() { first <- eval(a, 1500) }()
	deadline := time.Now().Add(10 * time.Second)
	for h.srv.pool.Stats().WaitingBy[engine.Analysis] == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if code := eval(a, 100); code != http.StatusTooManyRequests {
		t.Fatalf("a second evaluation at once from one address: %d, want 429", code)
	}
	held.Release()
	if code := <-first; code != http.StatusOK {
		t.Fatalf("the first: %d", code)
	}
	// 1.5 s of the 2 s a minute are spent: one more second is not there.
	if code := eval(a, 1000); code != http.StatusTooManyRequests {
		t.Fatalf("past the engine time of a minute: %d, want 429", code)
	}
	if code := eval(b, 1000); code != http.StatusOK {
		t.Fatalf("another address: %d", code)
	}
}
