package bot

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/muster-games/muster/game"
	_ "github.com/muster-games/muster/tablut"
)

// idle is a player that never has to act (the fake server's games wait
// for the other side) and counts the players open at once.
type idle struct{ open *atomic.Int32 }

func (p idle) Act(context.Context, game.State, time.Duration) (string, error) {
	return "", fmt.Errorf("not expected to act")
}

func (p idle) Close() error { p.open.Add(-1); return nil }

// announcer is a server that says n games have started for the bot, each
// waiting for the other side until the test ends it.
type announcer struct {
	n    int
	mu   sync.Mutex
	ends map[string]chan struct{}
}

func (a *announcer) end(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if ch, ok := a.ends[id]; ok {
		close(ch)
		delete(a.ends, id)
	}
}

func (a *announcer) endCh(id string) chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ends[id] == nil {
		a.ends[id] = make(chan struct{})
	}
	return a.ends[id]
}

func (a *announcer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	flush := func() { w.(http.Flusher).Flush() }
	view := func(status string) string {
		return `{"spec":"tablut","history":[],"ply":0,"to_act":0,"status":"` + status + `"}` + "\n"
	}
	switch p := r.URL.Path; {
	case p == "/api/stream/event":
		w.WriteHeader(http.StatusOK)
		for i := range a.n {
			fmt.Fprintf(w, `{"type":"gameStart","game":{"id":"g%03d","spec":"tablut","seat":1}}`+"\n", i)
		}
		flush()
		<-r.Context().Done()
	case strings.HasSuffix(p, "/stream"):
		id := strings.Split(p, "/")[3]
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, view("playing"))
		flush()
		select {
		case <-a.endCh(id):
			fmt.Fprint(w, view("over"))
		case <-r.Context().Done():
		}
	case strings.HasPrefix(p, "/api/games/"):
		fmt.Fprint(w, view("playing"))
	default:
		http.NotFound(w, r)
	}
}

// TestGamesStartedWithinTheBound (hostile finding 7: a server announcing
// 300 games made muster bot --games 4 start 272 engine processes in 12 s):
// the bound applies to the games started, not only to the challenges
// accepted; the games beyond it wait, and start as others end.
func TestGamesStartedWithinTheBound(t *testing.T) {
	a := &announcer{n: 300, ends: map[string]chan struct{}{}}
	srv := httptest.NewServer(a)
	defer srv.Close()
	var open, most, made atomic.Int32
	c := &Client{URL: srv.URL, Token: "t", MaxGames: 4, Retry: 10 * time.Millisecond,
		NewPlayer: func(id, spec string) (Player, error) {
			n := open.Add(1)
			made.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			return idle{&open}, nil
		}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- c.Run(ctx) }()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("never: %s (players made %d, open %d)", what, made.Load(), open.Load())
			}
		}
	}
	waitFor("four games played", func() bool { return made.Load() == 4 })
	time.Sleep(200 * time.Millisecond) // the other 296 announced meanwhile
	if n := made.Load(); n != 4 {
		t.Fatalf("%d players made for 300 games announced, at most 4 at once", n)
	}
	// Two games end: two waiting take their places.
	a.end("g000")
	a.end("g001")
	waitFor("the next two games", func() bool { return made.Load() == 6 })
	cancel()
	<-done
	if m := most.Load(); m > 4 {
		t.Fatalf("%d players open at once, at most 4", m)
	}
	if c.waiting == nil || len(c.waiting) > maxWaiting {
		t.Fatalf("%d games remembered to play later, at most %d", len(c.waiting), maxWaiting)
	}
}

// TestLongLinesRefused: a line from the server longer than its bound ends
// the stream with an error rather than filling memory.
func TestLongLinesRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, `{"type":"`+strings.Repeat("x", 2*maxEventLine)+`"}`+"\n")
	}))
	defer srv.Close()
	c := &Client{URL: srv.URL, Token: "t", HTTP: srv.Client()}
	got := 0
	err := c.stream(context.Background(), "/api/stream/event", maxEventLine, func([]byte) { got++ })
	if err == nil || got != 0 {
		t.Fatalf("a line of %d bytes: %d delivered, err %v", 2*maxEventLine, got, err)
	}
}
