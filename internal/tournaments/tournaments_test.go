package tournaments

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/events"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/tablut"
)

// accounts is a fake identity: the header X-Player names an account of
// the store.
type accounts struct{ st *store.Store }

func (a accounts) Me(r *http.Request) (*store.Player, error) {
	name := r.Header.Get("X-Player")
	if name == "" {
		return nil, nil
	}
	p, err := a.st.PlayerNamed(r.Context(), name)
	if err != nil {
		return nil, nil
	}
	return p, nil
}

// games is a fake of the games in play: a game started is stored, as
// play stores it, and remembered.
type games struct {
	st      *store.Store
	mu      sync.Mutex
	started []*store.Game
}

func (g *games) Start(ctx context.Context, rec *store.Game) error {
	if err := g.st.Create(ctx, rec); err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.started = append(g.started, rec)
	return nil
}

func (g *games) SnapshotRatings(context.Context, *store.Game) error { return nil }

type harness struct {
	t     *testing.T
	st    *store.Store
	svc   *Service
	games *games
	url   string
}

func newHarness(t *testing.T, names ...string) *harness {
	st, err := store.Open(filepath.Join(t.TempDir(), "muster.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, n := range names {
		if err := st.CreatePlayer(ctx, &store.Player{ID: "id-" + n}); err != nil {
			t.Fatal(err)
		}
		if err := st.Register(ctx, "id-"+n, n, n, "hash"); err != nil {
			t.Fatal(err)
		}
	}
	g := &games{st: st}
	api := &httpx.API{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 16}
	svc := New(st, api, accounts{st}, g)
	mux := http.NewServeMux()
	svc.Routes(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { srv.Close(); st.Close() })
	return &harness{t: t, st: st, svc: svc, games: g, url: srv.URL}
}

func (h *harness) call(who, method, path string, body any, out any) int {
	h.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, h.url+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if who != "" {
		req.Header.Set("X-Player", who)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

// TestSwissRunsOnItsGamesEnds: accounts create and join a Swiss; at its
// time the director seeds and pairs it and starts the round's games;
// each round's last game ending (the event) pairs the next, never the
// same two twice; after its last round it is over, with standings.
// Nobody without an account creates or joins one.
func TestSwissRunsOnItsGamesEnds(t *testing.T) {
	h := newHarness(t, "ann", "ben", "cat", "dan")
	if code := h.call("", "POST", "/api/tournaments", map[string]any{"name": "x", "kind": "swiss", "rounds": 2, "game": "tablut", "days": 1}, nil); code != http.StatusForbidden {
		t.Fatalf("nobody creates: %d", code)
	}
	var v View
	if code := h.call("ann", "POST", "/api/tournaments", map[string]any{"name": "Club", "kind": "swiss", "rounds": 2, "game": "tablut", "days": 1, "starts_in": 0}, &v); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	for _, n := range []string{"ben", "cat", "dan"} {
		if code := h.call(n, "POST", "/api/tournaments/"+v.ID+"/join", struct{}{}, nil); code != http.StatusOK {
			t.Fatalf("%s joins: %d", n, code)
		}
	}
	ctx := context.Background()
	if err := h.svc.Due(ctx); err != nil {
		t.Fatal(err)
	}
	met := map[[2]string]bool{}
	for round := 1; round <= 2; round++ {
		h.games.mu.Lock()
		started := append([]*store.Game(nil), h.games.started...)
		h.games.mu.Unlock()
		if len(started) != 2*round {
			t.Fatalf("round %d: %d games started in all, want %d", round, len(started), 2*round)
		}
		for _, rec := range started[2*(round-1):] {
			pair := [2]string{rec.Seats[0].Name, rec.Seats[1].Name}
			if pair[0] > pair[1] {
				pair[0], pair[1] = pair[1], pair[0]
			}
			if met[pair] {
				t.Fatalf("round %d pairs %v again", round, pair)
			}
			met[pair] = true
			// The game ends (White, the first seat, resigns) and play
			// says so.
			rec.Status, rec.Result, rec.Reason = store.StatusOver, "defenders", "attackers resigned"
			if err := h.st.Update(ctx, rec, 0); err != nil {
				t.Fatal(err)
			}
			h.svc.GameFinished(ctx, events.GameFinished{Game: rec.ID})
		}
	}
	if h.call("ann", "GET", "/api/tournaments/"+v.ID, nil, &v); v.Status != store.TournamentOver || len(v.Standings) != 4 {
		t.Fatalf("after two rounds: %s, standings %+v", v.Status, v.Standings)
	}
	if v.Standings[0].Points != 2 {
		t.Errorf("the leader has %v points after two wins", v.Standings[0].Points)
	}
}

// TestJoinsAndWithdrawalsBeforeTheStart: a tournament takes at most its
// players, a withdrawal frees a place, and nobody joins once it runs.
func TestJoinsAndWithdrawalsBeforeTheStart(t *testing.T) {
	h := newHarness(t, "ann", "ben", "cat")
	var v View
	h.call("ann", "POST", "/api/tournaments", map[string]any{"name": "Two", "kind": "swiss", "rounds": 1, "game": "tablut", "days": 1, "starts_in": 60, "max_players": 2}, &v)
	if code := h.call("ben", "POST", "/api/tournaments/"+v.ID+"/join", struct{}{}, nil); code != http.StatusOK {
		t.Fatalf("ben joins: %d", code)
	}
	if code := h.call("cat", "POST", "/api/tournaments/"+v.ID+"/join", struct{}{}, nil); code != http.StatusConflict {
		t.Fatalf("a third in a tournament of two: %d", code)
	}
	h.call("ben", "POST", "/api/tournaments/"+v.ID+"/withdraw", struct{}{}, nil)
	if code := h.call("cat", "POST", "/api/tournaments/"+v.ID+"/join", struct{}{}, nil); code != http.StatusOK {
		t.Fatalf("cat joins the place ben left: %d", code)
	}
	h.svc.Now = func() time.Time { return time.Now().Add(2 * time.Hour) }
	if err := h.svc.Due(context.Background()); err != nil {
		t.Fatal(err)
	}
	if code := h.call("ben", "POST", "/api/tournaments/"+v.ID+"/join", struct{}{}, nil); code != http.StatusConflict {
		t.Fatalf("a join after the start: %d", code)
	}
	if h.call("ann", "GET", "/api/tournaments/"+v.ID, nil, &v); v.Status != store.TournamentRunning || v.Players != 2 {
		t.Fatalf("at the start: %s with %d players", v.Status, v.Players)
	}
}
