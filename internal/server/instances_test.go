package server

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/muster-games/muster/internal/pgtest"
	"github.com/muster-games/muster/internal/play"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// waitListening waits until the server hears the others.
func waitListening(t *testing.T, h *harness) {
	t.Helper()
	end := time.Now().Add(10 * time.Second)
	for !h.srv.bus.Listening() {
		if time.Now().After(end) {
			t.Fatal("the server never listened for notifications")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestTwoInstances: two servers on one PostgreSQL database. A move made
// through A reaches a WebSocket of B; the game's agent runs on A; A dies
// while its agent thinks, and B takes the game over and plays the
// agent's move, which B's watcher sees.
func TestTwoInstances(t *testing.T) {
	dsn := pgtest.DSN(t)
	cfg := testConfig()
	cfg.LeaseTTL = 1500 * time.Millisecond
	a := newHarness(t, dsn, cfg)
	b := newHarness(t, dsn, cfg)
	waitListening(t, a)
	waitListening(t, b)
	pa := a.person()
	var c createResponse
	// The agent thinks 3 s a move: long enough to kill A in the middle.
	if code := pa.call("POST", "/api/games", createRequest{Game: "tablut", Ruleset: "linnaeus", Opponent: "ai", Level: "alphabeta(time=3s)", Side: "attackers"}, &c); code != http.StatusCreated {
		t.Fatalf("create %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(b.http.URL, "http")+"/ws/games/"+c.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	// B reads views until one reaches ply (or the test's time runs out).
	until := func(ply int) play.View {
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				t.Fatalf("waiting on B for ply %d: %v", ply, err)
			}
			var v play.View
			json.Unmarshal(data, &v)
			if v.Ply >= ply {
				return v
			}
		}
	}
	if v := until(0); v.Ply != 0 {
		t.Fatalf("first play.View %d", v.Ply)
	}
	if code := pa.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secret, Action: "a4-a3", Ply: at(0)}, nil); code != http.StatusOK {
		t.Fatalf("move through A: %d", code)
	}
	if v := until(1); v.History[0] != "a4-a3" {
		t.Fatalf("B's watcher got %v", v.History)
	}
	// The agent thinks on A, which holds the lease; A dies meanwhile.
	time.Sleep(500 * time.Millisecond)
	leased, thinking, loaded := a.srv.games.Running(c.ID)
	if !loaded {
		t.Fatal("A has not the game")
	}
	if !leased || !thinking {
		t.Fatalf("A does not run the agent: leased %v, thinking %v", leased, thinking)
	}
	killed := time.Now()
	a.close()
	v := until(2)
	if v.History[1] == "" || v.Ply != 2 {
		t.Fatalf("B's watcher after the takeover: %+v", v.History)
	}
	took := time.Since(killed)
	t.Logf("B played the agent's move %.1f s after A died", took.Seconds())
	if leased, _, _ := b.srv.games.Running(c.ID); !leased {
		t.Fatal("B does not hold the game's lease")
	}
	// The person plays on through B.
	var out play.View
	if code := b.person().call("GET", "/api/games/"+c.ID, nil, &out); code != http.StatusOK || out.Ply != 2 {
		t.Fatalf("the game through B: %d ply %d", code, out.Ply)
	}
}

// TestMovesOnSocketsOfTwoInstances: two servers on one PostgreSQL
// database, a game at one screen made through A. A move sent on a
// WebSocket of B is played and reaches a watcher of A; the next, sent on
// A's socket, reaches B's: each server plays what its sockets send, as
// it plays what is posted to it.
func TestMovesOnSocketsOfTwoInstances(t *testing.T) {
	dsn := pgtest.DSN(t)
	a := newHarness(t, dsn, testConfig())
	b := newHarness(t, dsn, testConfig())
	waitListening(t, a)
	waitListening(t, b)
	var c createResponse
	if code := a.call("POST", "/api/games", createRequest{Game: "tablut", Ruleset: "linnaeus", Opponent: "local", Side: "attackers"}, &c); code != http.StatusCreated {
		t.Fatalf("create %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	dial := func(h *harness) *websocket.Conn {
		conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(h.http.URL, "http")+"/ws/games/"+c.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.CloseNow() })
		return conn
	}
	onA, onB := dial(a), dial(b)
	until := func(conn *websocket.Conn, ply int) play.View {
		t.Helper()
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				t.Fatalf("waiting for ply %d: %v", ply, err)
			}
			var v play.View
			json.Unmarshal(data, &v)
			if v.Ply >= ply {
				return v
			}
		}
	}
	send := func(conn *websocket.Conn, secret, action string, ply int) {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"act": map[string]any{"secret": secret, "action": action, "ply": ply}})
		if err := conn.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
	}
	send(onB, c.Secrets[0], "a4-a3", 0)
	if v := until(onA, 1); v.Ply != 1 || v.History[0] != "a4-a3" {
		t.Fatalf("A's watcher after a move on B's socket: %+v", v.History)
	}
	send(onA, c.Secrets[1], "e3-d3", 1)
	if v := until(onB, 2); v.Ply != 2 || v.History[1] != "e3-d3" {
		t.Fatalf("B's watcher after a move on A's socket: %+v", v.History)
	}
}
