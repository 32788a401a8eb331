package watch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
// held by the player "p1"; the test hands its views to each watcher, the
// newest last.
type games struct {
	mu    sync.Mutex
	views []func(*httpx.Lent)
	acted []acted
}

// send hands watcher n (from 1, in the order they subscribed) a view,
// once he has subscribed.
func (g *games) send(t *testing.T, n int, view string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		g.mu.Lock()
		if len(g.views) >= n {
			g.views[n-1](httpx.Lend([]byte(view), nil))
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

func (g *games) Subscribe(_ context.Context, id string, deliver func(*httpx.Lent), gone func()) (func(), error) {
	if id != "g1" {
		return nil, errNoGame
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.views = append(g.views, deliver)
	return func() {}, nil
}

// acted is an action the fake games were asked to play.
type acted struct {
	id, player, secret, action string
	ply                        int
}

// Act records the action, played for the request's player; the secret
// "wrong" is refused as the games refuse a seat's wrong secret.
func (g *games) Act(r *http.Request, id, secret, action string, ply *int) error {
	if secret == "wrong" {
		return httpx.NewError(http.StatusForbidden, "that secret holds no seat of this game")
	}
	if ply == nil {
		return httpx.NewError(http.StatusBadRequest, "an action needs the ply it was made at")
	}
	p, _ := ids{}.Me(r)
	a := acted{id: id, secret: secret, action: action, ply: *ply}
	if p != nil {
		a.player = p.ID
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.acted = append(g.acted, a)
	return nil
}

// chat is a fake of the chat: it records who watches, and hands them
// lines.
type chat struct {
	mu       sync.Mutex
	players  []bool
	delivers []func([]byte)
	// slow makes Watch take its time before it counts the watcher.
	slow time.Duration
}

func (c *chat) Watch(game string, player bool, deliver func([]byte)) func() {
	time.Sleep(c.slow)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.players = append(c.players, player)
	c.delivers = append(c.delivers, deliver)
	return func() {}
}

// say hands the first watcher a line.
func (c *chat) say(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.delivers[0]([]byte(line))
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

func (ids) Detach(ctx context.Context, r *http.Request) *http.Request { return r.WithContext(ctx) }

// Keep keeps X-Player alone of the headers.
func (ids) Keep(r *http.Request) *http.Request {
	m := r.Clone(r.Context())
	m.Header = http.Header{"X-Player": r.Header["X-Player"]}
	return m
}

func (ids) WatchTokens(string, func()) func() { return func() {} }

func (ids) Fresh(r *http.Request) (*store.Player, error) {
	if r.Header.Get("X-Player") == "revoked" {
		return nil, httpx.NewError(http.StatusUnauthorized, "revoked")
	}
	return ids{}.Me(r)
}

func newWatchers(t *testing.T, cfg Config) (*httptest.Server, *games, *chat) {
	g := &games{}
	c := &chat{}
	api := &httpx.API{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 16}
	ctx, cancel := context.WithCancel(context.Background())
	mux := http.NewServeMux()
	New(api, g, c, ids{}, httpx.NewSockets(ctx, 32), cfg).Routes(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { cancel(); srv.Close() })
	return srv, g, c
}

// dial opens game g1's WebSocket on srv as player (X-Player; "" for
// nobody), closed when the test ends.
func dial(t *testing.T, ctx context.Context, srv *httptest.Server, player string) *websocket.Conn {
	t.Helper()
	opts := &websocket.DialOptions{}
	if player != "" {
		opts.HTTPHeader = http.Header{"X-Player": {player}}
	}
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws/games/g1", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}

// TestViewsAndChatTogether: a WebSocket and a stream get the game's views
// and the chat lines, the chat asked for a seat holder's or a spectator's
// lines as the watcher is one or the other; an unknown game is refused.
func TestViewsAndChatTogether(t *testing.T) {
	srv, g, c := newWatchers(t, Config{Spectators: 8, PerClient: 8})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn := dial(t, ctx, srv, "p1")
	g.send(t, 1, `{"ply":0}`)
	c.say(`{"chat":{"text":"hi"}}`)
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
	conn := dial(t, ctx, srv, "")
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

// TestActionsOnTheSocket: a page's action sent on the game's WebSocket is
// played for the socket's request (its player) with the message's secret,
// action and ply; an action refused, a message that is not an action and
// one that is not JSON are each answered on the socket with the error and
// its status, and the connection stays open; a binary message closes it.
func TestActionsOnTheSocket(t *testing.T) {
	srv, g, _ := newWatchers(t, Config{Spectators: 8, PerClient: 8})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn := dial(t, ctx, srv, "p1")
	g.send(t, 1, `{"ply":0}`)
	if _, b, err := conn.Read(ctx); err != nil || string(b) != `{"ply":0}` {
		t.Fatalf("first view %q, %v", b, err)
	}
	for _, c := range []struct{ msg, want string }{
		{`{"act":{"secret":"wrong","action":"e3-e2","ply":0}}`, `{"error":"that secret holds no seat of this game","code":403,"what":"act"}`},
		{`{"act":{"secret":"s","action":"e3-e2"}}`, `{"error":"an action needs the ply it was made at","code":400,"what":"act"}`},
		{`{"chat":"hi"}`, `"code":400`},
		{`{}`, `"code":400`},
		{`{"act":{"secret":"s","action":"e3-e2","ply":0}} {}`, `one JSON object a message`},
		{`not json`, `"code":400`},
		{`{"act":{"secret":"s","action":"e3-e2","ply":0}}`, ""},
	} {
		if err := conn.Write(ctx, websocket.MessageText, []byte(c.msg)); err != nil {
			t.Fatal(err)
		}
		if c.want == "" {
			continue
		}
		_, b, err := conn.Read(ctx)
		if err != nil || !strings.Contains(string(b), c.want) {
			t.Errorf("%s: answered %s, %v; want %s", c.msg, b, err, c.want)
		}
	}
	want := acted{id: "g1", player: "p1", secret: "s", action: "e3-e2", ply: 0}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		g.mu.Lock()
		got := append([]acted(nil), g.acted...)
		g.mu.Unlock()
		if len(got) == 1 && got[0] == want {
			break
		}
		if len(got) > 1 || len(got) == 1 && got[0] != want || time.Now().After(deadline) {
			t.Fatalf("played %+v, want [%+v]", got, want)
		}
	}
	// The socket still brings views.
	g.send(t, 1, `{"ply":1}`)
	if _, b, err := conn.Read(ctx); err != nil || string(b) != `{"ply":1}` {
		t.Fatalf("view after the actions %q, %v", b, err)
	}
	if err := conn.Write(ctx, websocket.MessageBinary, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := conn.Read(ctx); websocket.CloseStatus(err) != websocket.StatusUnsupportedData {
		t.Fatalf("after a binary message: %v, want the connection closed as unsupported data", err)
	}
	// A socket that sends more than MaxMalformed messages that are not
	// actions is closed; refused actions do not count.
	conn = dial(t, ctx, srv, "")
	g.send(t, 2, `{"ply":1}`)
	conn.Read(ctx)
	for i := 0; i < 2*MaxMalformed; i++ {
		msg := `{"act":{"secret":"wrong","action":"e3-e2","ply":1}}`
		if i%2 == 1 {
			msg = `not json`
		}
		if err := conn.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := conn.Read(ctx); err != nil {
			t.Fatalf("message %d (%d not an action): %v", i+1, (i+1)/2, err)
		}
	}
	conn.Write(ctx, websocket.MessageText, []byte(`[]`))
	if _, b, err := conn.Read(ctx); err != nil || !strings.Contains(string(b), `"code":400`) {
		t.Fatalf("the last message that is not an action answered %s, %v", b, err)
	}
	if _, _, err := conn.Read(ctx); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Fatalf("after %d messages that are not actions: %v, want the connection closed", MaxMalformed+1, err)
	}
}

// FuzzSocketMessage: whatever a page sends on a game's socket is either
// an action played or answered with an error object, never a crash.
func FuzzSocketMessage(f *testing.F) {
	for _, s := range []string{`{"act":{"secret":"s","action":"e3-e2","ply":0}}`, `{"act":null}`, `{"act":{"ply":-1}}`, `[]`, `{"act":{"secret":"wrong","ply":1}}`, `{"act":{}} x`} {
		f.Add([]byte(s))
	}
	g := &games{}
	api := &httpx.API{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 16}
	ws := New(api, g, nil, ids{}, nil, Config{})
	r := httptest.NewRequest("GET", "/ws/games/g1", nil)
	f.Fuzz(func(t *testing.T, msg []byte) {
		g.mu.Lock()
		before := len(g.acted)
		g.mu.Unlock()
		var answers [][]byte
		action := ws.read(r, "g1", msg, func(b []byte) error { answers = append(answers, b); return nil })
		g.mu.Lock()
		played := len(g.acted) - before
		g.mu.Unlock()
		switch {
		case played == 1 && len(answers) == 0:
			if !action {
				t.Fatalf("%q played, but not read as an action", msg)
			}
		case played == 0 && len(answers) == 1:
			var e struct {
				Error string `json:"error"`
				Code  int    `json:"code"`
				What  string `json:"what"`
			}
			if err := json.Unmarshal(answers[0], &e); err != nil || e.Error == "" || e.Code < 400 || e.Code > 499 || e.What != "act" {
				t.Fatalf("%q answered %s (%v)", msg, answers[0], err)
			}
		default:
			t.Fatalf("%q: %d played, answers %q", msg, played, answers)
		}
	})
}

// FuzzPlainAct: a message plainAct reads is read alike by encoding/json
// (as read did before it), and the messages a page sends are read by it.
func FuzzPlainAct(f *testing.F) {
	page := []string{
		`{"act":{"secret":"0123456789abcdef0123456789abcdef","action":"e3-a3","ply":12}}`,
		`{"act":{"secret":"","action":"x","ply":0}}`,
		` { "act" : { "ply" : -3 , "action" : "a1 b2" , "secret" : "s" } } `,
		`{"act":{"action":"e3-e2"}}`,
	}
	for _, s := range page {
		if _, ok := plainAct([]byte(s)); !ok {
			f.Fatalf("%s not read", s)
		}
		f.Add([]byte(s))
	}
	for _, s := range []string{`{"act":{"ply":012}}`, `{"act":{"ply":1.5}}`, `{"act":{"ply":1e3}}`, `{"act":{"ply":-}}`, `{"act":{"ply":1234567890}}`,
		`{"act":{"secret":"a\"b"}}`, `{"act":{"secret":"é"}}`, `{"act":{"Secret":"s"}}`, `{"act":{"ply":1,"ply":2}}`, `{"act":{"ply":null}}`,
		`{"act":{}}`, `{"act":{"ply":1}} x`, `{"act":{"ply":1},"x":1}`, `{"act":{"ply":1,"x":2}}`, `{"act":{"ply":1}`, `{"act":{"ply":1},}`, `{"act":{,"ply":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		a, ok := plainAct(msg)
		if !ok {
			return
		}
		var m socketMessage
		d := json.NewDecoder(bytes.NewReader(msg))
		d.DisallowUnknownFields()
		if err := d.Decode(&m); err != nil || d.More() {
			t.Fatalf("%q read as %+v, but encoding/json: %v (more: %v)", msg, a, err, d.More())
		}
		if m.Act == nil || m.Act.Secret != a.Secret || m.Act.Action != a.Action || (m.Act.Ply == nil) != (a.Ply == nil) || a.Ply != nil && *a.Ply != *m.Act.Ply {
			t.Fatalf("%q read as %+v, by encoding/json as %+v", msg, a, m.Act)
		}
	})
}
