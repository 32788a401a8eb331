package server

import (
	"context"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/pgtest"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/watch"
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

// twoServers starts two servers with cfg on one fresh PostgreSQL
// database and waits until each hears the other.
func twoServers(t *testing.T, cfg Config) (a, b *harness) {
	t.Helper()
	dsn := pgtest.DSN(t)
	a, b = newHarness(t, dsn, cfg), newHarness(t, dsn, cfg)
	waitListening(t, a)
	waitListening(t, b)
	return a, b
}

// TestTwoInstances: two servers on one PostgreSQL database. A move made
// through A reaches a WebSocket of B; the game's agent runs on A; A dies
// while its agent thinks, and B takes the game over and plays the
// agent's move, which B's watcher sees.
func TestTwoInstances(t *testing.T) {
	cfg := testConfig()
	cfg.LeaseTTL = 1500 * time.Millisecond
	a, b := twoServers(t, cfg)
	pa := a.person()
	var c createResponse
	// The agent thinks 3 s a move: long enough to kill A in the middle.
	if code := pa.call("POST", "/api/games", createRequest{Game: "tablut", Ruleset: "linnaeus", Opponent: "ai", Level: "alphabeta(time=3s)", Side: "attackers"}, &c); code != http.StatusCreated {
		t.Fatalf("create %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// B's watcher reads views until one reaches ply (or the test's time
	// runs out).
	until := dialGame(t, ctx, b, c.ID, nil).until
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

// TestLeaveHandsGamesOver: a server that stops and leaves (as muster
// serve does on SIGTERM) frees its games' leases at once: the other server
// takes a game over at its next renewal, where a server stopped without a
// word holds its games until its heartbeat runs out (a minute here).
func TestLeaveHandsGamesOver(t *testing.T) {
	cfg := testConfig()
	cfg.LeaseTTL = time.Minute
	a, b := twoServers(t, cfg)
	var c createResponse
	if code := a.person().call("POST", "/api/games", createRequest{Game: "tablut", Ruleset: "linnaeus", Opponent: "ai", Level: "random", Side: "defenders"}, &c); code != http.StatusCreated {
		t.Fatalf("create %d", code)
	}
	if leased, _, _ := a.srv.games.Running(c.ID); !leased {
		t.Fatal("A, which made the game, does not hold its lease")
	}
	a.srv.Close()
	b.srv.games.RenewAndAdopt()
	if leased, _, _ := b.srv.games.Running(c.ID); leased {
		t.Fatal("B took the game of A, stopped without leaving, before A's heartbeat ran out")
	}
	a.srv.Leave()
	b.srv.games.RenewAndAdopt()
	if leased, _, _ := b.srv.games.Running(c.ID); !leased {
		t.Fatal("B did not take over the game of A, which left")
	}
}

// TestMovesOnSocketsOfTwoInstances: two servers on one PostgreSQL
// database, a game at one screen made through A. A move sent on a
// WebSocket of B is played and reaches a watcher of A; the next, sent on
// A's socket, reaches B's: each server plays what its sockets send, as
// it plays what is posted to it.
func TestMovesOnSocketsOfTwoInstances(t *testing.T) {
	a, b := twoServers(t, testConfig())
	var c createResponse
	if code := a.call("POST", "/api/games", createRequest{Game: "tablut", Ruleset: "linnaeus", Opponent: "local", Side: "attackers"}, &c); code != http.StatusCreated {
		t.Fatalf("create %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	onA, onB := dialGame(t, ctx, a, c.ID, nil), dialGame(t, ctx, b, c.ID, nil)
	onB.act(c.Secrets[0], "a4-a3", 0)
	if v := onA.until(1); v.Ply != 1 || v.History[0] != "a4-a3" {
		t.Fatalf("A's watcher after a move on B's socket: %+v", v.History)
	}
	onA.act(c.Secrets[1], "e3-d3", 1)
	if v := onB.until(2); v.Ply != 2 || v.History[1] != "e3-d3" {
		t.Fatalf("B's watcher after a move on A's socket: %+v", v.History)
	}
}

// TestRevokedTokenOnAnotherServer: a bot's token revoked through server A
// ends the event stream it holds open on server B at once (told through
// the database), not at B's next check of the token.
func TestRevokedTokenOnAnotherServer(t *testing.T) {
	a, b := twoServers(t, testConfig())
	bot, owner := a.newBot("robot")
	events := bot.at(b).lines("/api/stream/event")
	var ts []struct{ ID string }
	owner.call("GET", "/api/account/tokens", nil, &ts)
	if code := owner.call("DELETE", "/api/account/tokens/"+ts[0].ID, struct{}{}, nil); code != http.StatusNoContent {
		t.Fatalf("revoke: %d", code)
	}
	revoked := time.Now()
	select {
	case line, open := <-events:
		if open {
			t.Errorf("the stream on B delivered %s after the revocation", line)
		} else if took := time.Since(revoked); took > watch.TokenRecheck/2 {
			t.Errorf("the stream on B ended %s after the revocation", took)
		}
	case <-time.After(10 * time.Second):
		t.Error("the stream on B goes on")
	}
}
