package play

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/bus"
	"github.com/muster-games/muster/internal/engine"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/identity"
	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/lanrick/ai"
	_ "github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

// harness is the games of a server, with identities, behind a test
// server; its client keeps cookies like a browser.
type harness struct {
	t      testing.TB
	db     string
	st     *store.Store
	gs     *Games
	pool   *engine.Pool
	url    string
	client *http.Client
}

var testConfig = Config{GamesPerHour: 1000, AgentTimeout: 10 * time.Second, LeaseTTL: 6 * time.Second}

// newHarness starts the games on a new database with an engine pool of
// slots and queue.
func newHarness(t testing.TB, slots, queue int) *harness {
	t.Helper()
	return newHarnessConfig(t, slots, queue, testConfig)
}

// newHarnessConfig is newHarness with the games' configuration cfg.
func newHarnessConfig(t testing.TB, slots, queue int, cfg Config) *harness {
	t.Helper()
	return newHarnessOn(t, filepath.Join(t.TempDir(), "muster.db"), slots, queue, cfg)
}

// newHarnessOn is newHarnessConfig on database db (a file, or PostgreSQL's
// DSN: servers made on the same one share it, and hear each other's
// changes once listening).
func newHarnessOn(t testing.TB, db string, slots, queue int, cfg Config) *harness {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	// With the move journal, as muster serve opens it (SQLite).
	if err := st.Journal(nil); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	api := &httpx.API{Log: log, MaxBody: 64 << 10}
	ctx, cancel := context.WithCancel(context.Background())
	ids := identity.New(st, api, identity.Config{AccountsPerHour: 5, LoginsPerAddress: 20, LoginsPerAccount: 5, LoginWindow: time.Minute})
	pool := engine.New(engine.Config{Slots: slots, Queue: queue})
	b := bus.New(st, log)
	go b.Run(ctx)
	gs := New(ctx, st, api, ids, pool, b, cfg)
	mux := http.NewServeMux()
	gs.Routes(mux)
	ids.Routes(mux)
	srv := httptest.NewServer(ids.Middleware(mux))
	jar, _ := cookiejar.New(nil)
	h := &harness{t: t, db: db, st: st, gs: gs, pool: pool, url: srv.URL, client: &http.Client{Jar: jar}}
	t.Cleanup(func() {
		srv.Close()
		cancel()
		gs.Close()
		st.Close()
	})
	return h
}

// call sends body as JSON and decodes the answer into out.
func (h *harness) call(method, path string, body, out any) int {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, h.url+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := h.client.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

// create makes a game and returns the answer.
func (h *harness) create(req createRequest) createResponse {
	h.t.Helper()
	var c createResponse
	if code := h.call("POST", "/api/games", req, &c); code != http.StatusCreated {
		h.t.Fatalf("create %+v: %d", req, code)
	}
	return c
}

// view gets a game's view.
func (h *harness) view(id string) View {
	h.t.Helper()
	var v View
	if code := h.call("GET", "/api/games/"+id, nil, &v); code != http.StatusOK {
		h.t.Fatalf("get %s: %d", id, code)
	}
	return v
}

// waitFor polls until ok holds (20 s at most: the tests' agents think
// for milliseconds).
func (h *harness) waitFor(what string, ok func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			h.t.Fatalf("%s: not so after 20 s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func at(ply int) *int { return &ply }

// isPondering reports whether the room's computer thinks on the person's
// time.
func (r *room) isPondering() bool {
	if r.lock(r.gs.ctx) != nil {
		return false
	}
	defer r.unlock()
	if r.pondering.done == nil {
		return false
	}
	select {
	case <-r.pondering.done:
		return false // stopped
	default:
		return true
	}
}
