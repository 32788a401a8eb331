package watch

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
)

// games is a fake of the games in play: one game, "g1", whose seat is
// held by the player "p1"; the test sends its views to each watcher's
// channel, the newest last.
type games struct {
	mu    sync.Mutex
	views []chan []byte
}

// send gives the newest watcher a view, once it has subscribed.
func (g *games) send(t *testing.T, n int, view string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		g.mu.Lock()
		if len(g.views) >= n {
			g.views[n-1] <- []byte(view)
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("watcher %d never subscribed", n)
		}
	}
}

var errNoGame = httpx.NewError(http.StatusNotFound, "no such game")

func (g *games) Seated(_ context.Context, id, player string) (bool, error) {
	if id != "g1" {
		return false, errNoGame
	}
	return player == "p1", nil
}

func (g *games) Subscribe(_ context.Context, id string) (<-chan []byte, func(), error) {
	if id != "g1" {
		return nil, nil, errNoGame
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	ch := make(chan []byte, 1)
	g.views = append(g.views, ch)
	return ch, func() {}, nil
}

// chat is a fake of the chat: it records who watches, and sends lines.
type chat struct {
	mu      sync.Mutex
	players []bool
	lines   chan []byte
	// slow makes Watch take its time before it counts the watcher.
	slow time.Duration
}

func (c *chat) Watch(game string, player bool) (<-chan []byte, func()) {
	time.Sleep(c.slow)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.players = append(c.players, player)
	return c.lines, func() {}
}

// ids is a fake identity: the header X-Player names the player, and the
// player "revoked" is nobody once asked again.
type ids struct{}

func (ids) Me(r *http.Request) (*store.Player, error) {
	if p := r.Header.Get("X-Player"); p != "" {
		return &store.Player{ID: p}, nil
	}
	return nil, nil
}

func (ids) Fresh(r *http.Request) (*store.Player, error) {
	if r.Header.Get("X-Player") == "revoked" {
		return nil, httpx.NewError(http.StatusUnauthorized, "revoked")
	}
	return ids{}.Me(r)
}

func newWatchers(t *testing.T, cfg Config) (*httptest.Server, *games, *chat) {
	g := &games{}
	c := &chat{lines: make(chan []byte, 1)}
	api := &httpx.API{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 16}
	ctx, cancel := context.WithCancel(context.Background())
	mux := http.NewServeMux()
	New(api, g, c, ids{}, httpx.NewSockets(ctx, 32), cfg).Routes(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { cancel(); srv.Close() })
	return srv, g, c
}

// TestViewsAndChatTogether: a WebSocket and a stream get the game's views
// and the chat lines, the chat asked for a seat holder's or a spectator's
// lines as the watcher is one or the other; an unknown game is refused.
func TestViewsAndChatTogether(t *testing.T) {
	srv, g, c := newWatchers(t, Config{Spectators: 8, PerClient: 8})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws/games/g1", &websocket.DialOptions{HTTPHeader: http.Header{"X-Player": {"p1"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	g.send(t, 1, `{"ply":0}`)
	c.lines <- []byte(`{"chat":{"text":"hi"}}`)
	got := map[string]bool{}
	for range 2 {
		_, b, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got[string(b)] = true
	}
	if !got[`{"ply":0}`] || !got[`{"chat":{"text":"hi"}}`] {
		t.Fatalf("the WebSocket got %v", got)
	}
	// A spectator's stream.
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/games/g1/stream", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	g.send(t, 2, `{"ply":1}`)
	rd := bufio.NewReader(res.Body)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(line) == `{"ply":1}` {
			break
		}
	}
	c.mu.Lock()
	if len(c.players) != 2 || !c.players[0] || c.players[1] {
		t.Errorf("the chat was asked for %v, want a seat's lines then a spectator's", c.players)
	}
	c.mu.Unlock()
	if res, err := http.Get(srv.URL + "/api/games/zz/stream"); err != nil || res.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown game: %v %v", res.StatusCode, err)
	}
}

// TestChatWatchedBeforeTheFirstView: a WebSocket's first view comes once
// its chat lines are watched (however long that takes): the page reads
// the chat again at that view, and every line said after comes on the
// socket.
func TestChatWatchedBeforeTheFirstView(t *testing.T) {
	srv, g, c := newWatchers(t, Config{Spectators: 8, PerClient: 8})
	c.slow = 100 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws/games/g1", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	g.send(t, 1, `{"ply":0}`)
	if _, b, err := conn.Read(ctx); err != nil || string(b) != `{"ply":0}` {
		t.Fatalf("first message %q, %v", b, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.players) != 1 {
		t.Fatal("the first view came before the chat was watched")
	}
}

// TestSeatsNeverCountedAsSpectators: with the game's one spectator place
// taken, another spectator is refused and the seat's player is not.
func TestSeatsNeverCountedAsSpectators(t *testing.T) {
	srv, _, _ := newWatchers(t, Config{Spectators: 1, PerClient: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	open := func(player string) int {
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/games/g1/stream", nil)
		if player != "" {
			req.Header.Set("X-Player", player)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res.StatusCode
	}
	if code := open("spectator"); code != http.StatusOK {
		t.Fatalf("the one spectator: %d", code)
	}
	if code := open("another"); code != http.StatusTooManyRequests {
		t.Fatalf("a second spectator: %d, want 429", code)
	}
	if code := open("p1"); code != http.StatusOK {
		t.Fatalf("the seat's player: %d", code)
	}
}

// TestRevokedTokenEndsTheStream: a stream opened with a bot token ends
// once the token no longer holds.
func TestRevokedTokenEndsTheStream(t *testing.T) {
	old := TokenRecheck
	TokenRecheck = 20 * time.Millisecond
	defer func() { TokenRecheck = old }()
	srv, _, _ := newWatchers(t, Config{Spectators: 8, PerClient: 8})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/games/g1/stream", nil)
	req.Header.Set("X-Player", "revoked")
	req.Header.Set("Authorization", "Bearer x")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if _, err := io.ReadAll(res.Body); err != nil || ctx.Err() != nil {
		t.Fatalf("the stream of a revoked token went on: %v", err)
	}
}
