package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

// TestZeroConfigServesAGame: a server made with Config{} takes the
// defaults for every limit and serves a game (it once answered 413 to
// every body).
func TestZeroConfigServesAGame(t *testing.T) {
	h := newHarness(t, "", Config{})
	var c createResponse
	if code := h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Side: "attackers"}, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	var v play.View
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, &v); code != http.StatusOK || v.Ply != 1 {
		t.Fatalf("move: %d, ply %d", code, v.Ply)
	}
	got := h.srv.cfg
	if got.MaxBody != DefaultConfig.MaxBody || got.Engines != DefaultConfig.Engines || got.LeaseTTL != DefaultConfig.LeaseTTL || got.IdleGame != DefaultConfig.IdleGame {
		t.Fatalf("defaults not taken: %+v", got)
	}
}

// TestSlowWriteBlocksNoReader: while the database is locked (another
// connection holds its write lock), the lobby and "who am I" answer; a
// move is answered from the move journal; a game's end, written at once,
// waits for the database, and meanwhile the game's view and a new
// watcher's first view answer. Both land once the lock is let go.
func TestSlowWriteBlocksNoReader(t *testing.T) {
	h := newHarness(t, "", testConfig())
	a := h.person()
	var c createResponse
	if code := a.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Side: "attackers"}, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	raw, err := sql.Open("sqlite", "file:"+h.db+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	ctx := context.Background()
	lock, err := raw.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if _, err := lock.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	// The lobby reads the database (the player's games waiting for him,
	// which first writes any moves the journal holds: none yet).
	var lv lobbyView
	if code := a.call("GET", "/api/lobby", nil, &lv); code != http.StatusOK || lv.Me.ID == "" {
		t.Fatalf("the lobby during the write: %d %+v", code, lv.Me)
	}
	moved := make(chan int, 1)
	go func() {
		moved <- a.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, nil)
	}()
	select {
	case code := <-moved:
		if code != http.StatusOK {
			t.Fatalf("the move while the database is locked: %d", code)
		}
	case <-time.After(4 * time.Second):
		t.Fatal("the move waited for the database")
	}
	ended := make(chan int, 1)
	go func() {
		ended <- a.call("POST", "/api/games/"+c.ID+"/resign", secretRequest{Secret: c.Secrets[1]}, nil)
	}()
	// The resignation has reached the store's lock (its room's turn is
	// held).
	time.Sleep(200 * time.Millisecond)
	select {
	case code := <-ended:
		t.Fatalf("the game's end did not wait for the database: %d", code)
	default:
	}
	var v play.View
	if code := a.call("GET", "/api/games/"+c.ID, nil, &v); code != http.StatusOK || v.Ply != 1 || v.Status != "playing" || len(v.MySeats) != 2 {
		t.Fatalf("the view during the write: %d ply %d %s seats %v", code, v.Ply, v.Status, v.MySeats)
	}
	wctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(wctx, strings.Replace(h.http.URL, "http", "ws", 1)+"/ws/games/"+c.ID, nil)
	if err != nil {
		t.Fatalf("watching during the write: %v", err)
	}
	defer conn.CloseNow()
	if _, msg, err := conn.Read(wctx); err != nil || !json.Valid(msg) {
		t.Fatalf("the watcher's first view during the write: %v", err)
	}
	select {
	case code := <-ended:
		t.Fatalf("the game ended while the database was locked: %d", code)
	default:
	}
	if _, err := lock.ExecContext(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	if code := <-ended; code != http.StatusOK {
		t.Fatalf("the game's end after the lock: %d", code)
	}
	if _, msg, err := conn.Read(wctx); err != nil || !strings.Contains(string(msg), `"status":"over"`) {
		t.Fatalf("the watcher after the write: %v %.80s", err, msg)
	}
	var actions, status string
	if err := raw.QueryRow(`SELECT actions, status FROM games WHERE id = ?`, c.ID).Scan(&actions, &status); err != nil || actions != `["a4-a3"]` || status != "over" {
		t.Fatalf("stored: %s %s %v", actions, status, err)
	}
}

// TestLobbyBuiltOncePerChange: ten browsers watch the lobby; a challenge
// made reaches each of them, from one build of what they all see alike;
// and the live games' boards are drawn without loading their rooms.
func TestLobbyBuiltOncePerChange(t *testing.T) {
	h := newHarness(t, "", testConfig())
	a, b := h.person(), h.person()
	// A live game between people, its room then out of memory.
	var cv challengeView
	if code := a.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "attackers"}, &cv); code != http.StatusCreated {
		t.Fatalf("challenge: %d", code)
	}
	var cr createResponse
	if code := b.call("POST", "/api/challenges/"+cv.ID+"/accept", struct{}{}, &cr); code != http.StatusCreated {
		t.Fatalf("accept: %d", code)
	}
	h.srv.games.Evict(0)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var conns []*websocket.Conn
	for range 10 {
		conn, _, err := websocket.Dial(ctx, strings.Replace(h.http.URL, "http", "ws", 1)+"/ws/lobby", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.CloseNow()
		conn.SetReadLimit(1 << 20)
		var lv lobbyView
		if _, msg, err := conn.Read(ctx); err != nil || json.Unmarshal(msg, &lv) != nil || len(lv.Live) != 1 || len(lv.Live[0].Board.Board.Pieces) == 0 {
			t.Fatalf("a watcher's first lobby: %v, %d live", err, len(lv.Live))
		}
		conns = append(conns, conn)
	}
	if s := h.srv.Stats(); s.Games.Rooms != 0 {
		t.Fatalf("drawing the lobby loaded %d rooms", s.Games.Rooms)
	}
	before := h.srv.lobby.Builds.Load()
	if code := a.call("POST", "/api/challenges", challengeRequest{Game: "lanrick", Side: "random"}, &cv); code != http.StatusCreated {
		t.Fatalf("second challenge: %d", code)
	}
	for i, conn := range conns {
		for {
			var lv lobbyView
			_, msg, err := conn.Read(ctx)
			if err != nil {
				t.Fatalf("watcher %d: %v", i, err)
			}
			if json.Unmarshal(msg, &lv) == nil && slices.ContainsFunc(lv.Challenges, func(c challengeView) bool { return c.ID == cv.ID }) {
				break
			}
		}
	}
	if n := h.srv.lobby.Builds.Load() - before; n != 1 {
		t.Fatalf("the change was built %d times for 10 watchers, want once", n)
	}
}

// serveTCP serves h's server on loopback through Listen and HTTPServer,
// as muster serve does, and returns the address.
func serveTCP(t *testing.T, srv *Server, perAddress int) string {
	t.Helper()
	ln, err := Listen("127.0.0.1:0", perAddress, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer()
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// TestHalfSentRequestsLetGo: a client that sends a request's headers and
// a few bytes of its body and then waits is cut off once the read timeout
// has passed (hostile finding 6: 300 such connections stayed open for
// ever); a WebSocket lives on past it; an address's connections beyond
// its limit are closed as they come.
func TestHalfSentRequestsLetGo(t *testing.T) {
	cfg := testConfig()
	cfg.ReadTimeout, cfg.WriteTimeout = 300*time.Millisecond, 300*time.Millisecond
	h := newHarness(t, "", cfg)
	addr := serveTCP(t, h.srv, 4)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/games HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{\"game\":", addr)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadAll(c); err != nil {
		t.Fatalf("the half-sent request was not let go: %v", err)
	}
	// A WebSocket outlives the timeouts.
	var cr createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Side: "attackers"}, &cr)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws/games/"+cr.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.Read(ctx) // the first view
	time.Sleep(time.Second)
	if code := h.call("POST", "/api/games/"+cr.ID+"/act", actRequest{Secret: cr.Secrets[0], Action: "a4-a3", Ply: at(0)}, nil); code != http.StatusOK {
		t.Fatalf("move: %d", code)
	}
	if _, msg, err := ws.Read(ctx); err != nil || !strings.Contains(string(msg), `"ply":1`) {
		t.Fatalf("the WebSocket after the timeouts: %v", err)
	}
	// Four connections from this address are open or opening; a fifth
	// beyond them is closed at once.
	for range 3 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	extra, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	extra.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := extra.Read(make([]byte, 1)); err != io.EOF || n != 0 {
		t.Fatalf("the connection past the address's limit: %d %v, want closed", n, err)
	}
}

// TestLobbyFloodKeepsOwnChallenges: sixty challenges from other addresses
// push no viewer's own challenge, nor one addressed to him, out of his
// lobby; one address may have only so many open at once, whatever
// players it makes (hostile finding 9).
func TestLobbyFloodKeepsOwnChallenges(t *testing.T) {
	h := newHarness(t, "", testConfig())
	a, b := h.person(), h.person()
	b.register("bob")
	var own, toBob challengeView
	if code := a.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "attackers"}, &own); code != http.StatusCreated {
		t.Fatalf("a's challenge: %d", code)
	}
	if code := a.call("POST", "/api/challenges", challengeRequest{Game: "lanrick", Side: "random", Opponent: "bob"}, &toBob); code != http.StatusCreated {
		t.Fatalf("a's challenge to bob: %d", code)
	}
	ctx := context.Background()
	for i := range 60 {
		c := &store.Challenge{ID: token.ID(), Creator: token.ID(), Spec: "tablut", Side: "random", Address: fmt.Sprintf("10.0.%d.%d", i/200, i%200)}
		if err := h.st.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	h.srv.lobby.Signal()
	has := func(p *person, id string) bool {
		var lv lobbyView
		p.call("GET", "/api/lobby", nil, &lv)
		return slices.ContainsFunc(lv.Challenges, func(c challengeView) bool { return c.ID == id })
	}
	if !has(a, own.ID) || !has(a, toBob.ID) || !has(b, toBob.ID) {
		t.Fatalf("after the flood: a sees his own %v and his to bob %v; bob sees his %v", has(a, own.ID), has(a, toBob.ID), has(b, toBob.ID))
	}
	// From this one address: three more open, then refused, even from a
	// new anonymous player each time.
	for i := range 4 {
		code := h.person().call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "random"}, nil)
		if want := http.StatusCreated; i == 3 {
			if code != http.StatusTooManyRequests {
				t.Fatalf("the sixth open challenge from one address: %d", code)
			}
		} else if code != want {
			t.Fatalf("challenge %d: %d", i+3, code)
		}
	}
}

// TestLessonBoardsLeaveNoTrace: a learner's lesson boards are on no list:
// not his lobby's games, not his page's games in play.
func TestLessonBoardsLeaveNoTrace(t *testing.T) {
	h := newHarness(t, "", testConfig())
	p := h.person()
	p.register("learner")
	for range 3 {
		if code := p.call("POST", "/api/games", map[string]any{"game": "lanrick", "opponent": "local", "side": "random", "lesson": true}, nil); code != http.StatusCreated {
			t.Fatalf("a lesson's board: %d", code)
		}
	}
	var lv lobbyView
	p.call("GET", "/api/lobby", nil, &lv)
	var pv playerView
	p.call("GET", "/api/players/learner", nil, &pv)
	if len(lv.Mine) != 0 || lv.Me.YourTurn != 0 || len(pv.Playing) != 0 || len(pv.Finished) != 0 {
		t.Fatalf("lesson boards listed: lobby %d (your turn %d), page %d playing, %d finished", len(lv.Mine), lv.Me.YourTurn, len(pv.Playing), len(pv.Finished))
	}
}
