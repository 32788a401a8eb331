package lobby

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/muster-games/muster/internal/bus"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/identity"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/tablut"
)

// people is a fake identity: the header X-Player names the player, made
// in the store when first seen (as a browser's identity is).
type people struct{ st *store.Store }

func (p people) Me(r *http.Request) (*store.Player, error) {
	id := r.Header.Get("X-Player")
	if id == "" {
		return nil, nil
	}
	pl, err := p.st.Player(r.Context(), id)
	if errors.Is(err, store.ErrNoPlayer) {
		return nil, nil
	}
	return pl, err
}

func (p people) Fresh(r *http.Request) (*store.Player, error) { return p.Me(r) }

func (p people) Identify(w http.ResponseWriter, r *http.Request) (*store.Player, error) {
	if pl, err := p.Me(r); pl != nil || err != nil {
		return pl, err
	}
	pl := &store.Player{ID: r.Header.Get("X-Player")}
	return pl, p.st.CreatePlayer(r.Context(), pl)
}

func (p people) ViewOf(_ context.Context, pl *store.Player) (identity.View, error) {
	if pl == nil {
		return identity.Nobody, nil
	}
	return identity.View{ID: pl.ID, Username: pl.Username, Anonymous: pl.Anonymous()}, nil
}

// games is a fake of the games in play: a game started is stored and
// remembered.
type games struct {
	st      *store.Store
	mu      sync.Mutex
	started []*store.Game
}

func (g *games) Start(ctx context.Context, rec *store.Game) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.started = append(g.started, rec)
	return g.st.Create(ctx, rec)
}

func (g *games) SnapshotRatings(context.Context, *store.Game) error { return nil }

func (g *games) Board(rec *store.Game) (play.Board, error) { return play.Board{}, nil }

// serveLobby serves a lobby on a fresh database (its games a fake), kept
// live by its loop where run; all ends with the test.
func serveLobby(t *testing.T, run bool) (*Lobby, *games, *httptest.Server) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "muster.db"))
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	api := &httpx.API{Log: log, MaxBody: 1 << 16}
	ctx, stop := context.WithCancel(context.Background())
	g := &games{st: st}
	l := New(ctx, st, api, people{st}, g, bus.New(st, log), httpx.NewSockets(ctx, 8), Config{ChallengesPerHour: 30, Watchers: 8, OpenPerPlayer: 2})
	if run {
		go l.Run(ctx)
	}
	mux := http.NewServeMux()
	l.Routes(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		stop()
		st.Close()
	})
	return l, g, srv
}

// call asks srv as player who; out gets the JSON answer.
func call(t *testing.T, srv *httptest.Server, who, method, path string, body, out any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Player", who)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

// TestChallengeAccepted: a challenge is listed in the lobby for others,
// marked as his own for its creator; its acceptance starts a game with the
// two seats (the creator's side as asked) and takes it off the list; a
// player cannot accept his own; at most OpenPerPlayer are open at once.
func TestChallengeAccepted(t *testing.T) {
	l, g, srv := serveLobby(t, false)
	call := func(who, method, path string, body, out any) int { return call(t, srv, who, method, path, body, out) }
	var c challengeView
	if code := call("ann", "POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "attackers", Days: 1}, &c); code != http.StatusCreated || !c.Mine {
		t.Fatalf("ann's challenge: %d %+v", code, c)
	}
	var v view
	if call("ben", "GET", "/api/lobby", nil, &v); len(v.Challenges) != 1 || v.Challenges[0].ID != c.ID || v.Challenges[0].Mine {
		t.Fatalf("ben's lobby: %+v", v.Challenges)
	}
	if code := call("ann", "POST", "/api/challenges/"+c.ID+"/accept", struct{}{}, nil); code < 400 {
		t.Fatalf("ann accepted her own challenge: %d", code)
	}
	var acc struct {
		ID   string
		Seat int
	}
	if code := call("ben", "POST", "/api/challenges/"+c.ID+"/accept", struct{}{}, &acc); code != http.StatusCreated || acc.Seat != 1 {
		t.Fatalf("ben accepts: %d %+v", code, acc)
	}
	if len(g.started) != 1 || g.started[0].Seats[0].Player != "ann" || g.started[0].Seats[1].Player != "ben" || g.started[0].ID != acc.ID {
		t.Fatalf("the game started: %+v", g.started)
	}
	l.Signal()
	if call("cat", "GET", "/api/lobby", nil, &v); len(v.Challenges) != 0 {
		t.Fatalf("the accepted challenge still listed: %+v", v.Challenges)
	}
	for i := range 3 {
		code := call("ann", "POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "random", Days: 1}, nil)
		if want := map[bool]int{true: http.StatusCreated, false: http.StatusTooManyRequests}[i < 2]; code != want {
			t.Fatalf("ann's challenge %d: %d, want %d", i+1, code, want)
		}
	}
}

// TestWatcherSeesAChallengeMadeAsHeComes: a challenge made while a new
// watcher of the lobby is being let in reaches him (his first lobby was
// read before it, and the lobby built after it went to the others alone).
func TestWatcherSeesAChallengeMadeAsHeComes(t *testing.T) {
	l, _, srv := serveLobby(t, true)
	// The hook holds the new watcher uncounted while the test makes a
	// challenge and the lobby is built again for those watching.
	coming, made := make(chan struct{}), make(chan struct{})
	testHookWatching = func() {
		close(coming)
		<-made
	}
	defer func() { testHookWatching = func() {} }()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws/lobby", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	<-coming
	var c challengeView
	if code := call(t, srv, "ann", "POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "attackers", Days: 1}, &c); code != http.StatusCreated {
		t.Fatalf("ann's challenge: %d", code)
	}
	// The lobby built again for those watching (none of them him, were he
	// not counted yet).
	for deadline := time.Now().Add(2 * time.Second); l.shared.Load() == nil && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	close(made)
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("the challenge made as he came never reached the watcher: %v", err)
		}
		var v view
		json.Unmarshal(data, &v)
		if len(v.Challenges) == 1 && v.Challenges[0].ID == c.ID {
			return
		}
	}
}
