package bots

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/tablut"
)

// tokens is a fake identity: the header X-Player names the player; none
// is nobody (401 at the stream).
type tokens struct{ st *store.Store }

func (k tokens) Me(r *http.Request) (*store.Player, error) {
	if id := r.Header.Get("X-Player"); id != "" {
		return k.st.Player(r.Context(), id)
	}
	return nil, nil
}

func (k tokens) Fresh(r *http.Request) (*store.Player, error) { return k.Me(r) }

func (tokens) WatchTokens(string, func()) func() { return func() {} }

// TestEventStream: a player's stream tells, from the store, the challenges
// to him as they come and go, and his games as they start and end;
// nobody gets 401.
func TestEventStream(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "muster.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for _, id := range []string{"bot", "ann"} {
		st.CreatePlayer(ctx, &store.Player{ID: id})
	}
	api := &httpx.API{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 16}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	mux := http.NewServeMux()
	New(st, api, tokens{st}, httpx.NewSockets(sctx, 8), Config{Every: 20 * time.Millisecond}).Routes(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	if res, err := http.Get(srv.URL + "/api/stream/event"); err != nil || res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("nobody's stream: %v %v", res.StatusCode, err)
	}
	req, _ := http.NewRequestWithContext(sctx, "GET", srv.URL+"/api/stream/event", nil)
	req.Header.Set("X-Player", "bot")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	events := make(chan Event, 16)
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			var ev Event
			if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type != "" {
				events <- ev
			}
		}
	}()
	next := func() Event {
		t.Helper()
		select {
		case ev := <-events:
			return ev
		case <-time.After(10 * time.Second):
			t.Fatal("nothing on the stream")
			return Event{}
		}
	}
	c := &store.Challenge{ID: "c1", Creator: "ann", CreatorName: "ann", Target: "bot", TargetName: "bot", Spec: "tablut", Side: "random", Days: 1}
	if err := st.CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	if ev := next(); ev.Type != EventChallenge || ev.Challenge.ID != "c1" || ev.Challenge.From != "ann" {
		t.Fatalf("the challenge: %+v %+v", ev, ev.Challenge)
	}
	if err := st.CloseChallenge(ctx, "c1", store.ChallengeCancelled, ""); err != nil {
		t.Fatal(err)
	}
	if ev := next(); ev.Type != EventChallengeCanceled || ev.Challenge.ID != "c1" {
		t.Fatalf("the challenge withdrawn: %+v", ev)
	}
	g := &store.Game{ID: "g1", Spec: "tablut", DrawOffer: -1, TakebackOffer: -1,
		Seats: []store.Seat{{Kind: store.SeatHuman, Player: "ann"}, {Kind: store.SeatHuman, Player: "bot", Bot: true}}}
	if err := st.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if ev := next(); ev.Type != EventGameStart || ev.Game.ID != "g1" || ev.Game.Seat != 1 {
		t.Fatalf("the game's start: %+v %+v", ev, ev.Game)
	}
	g.Status, g.Result = store.StatusOver, "attackers"
	if err := st.Update(ctx, g, 0); err != nil {
		t.Fatal(err)
	}
	if ev := next(); ev.Type != EventGameFinish || ev.Game.ID != "g1" || ev.Game.Result != "attackers" ||
		ev.Game.Ending != "win" || ev.Game.Winner == nil || *ev.Game.Winner != 0 {
		t.Fatalf("the game's end: %+v %+v", ev, ev.Game)
	}
}
