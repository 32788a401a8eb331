package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/bus"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/moderation"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
)

// TestLinesShowWhatTheySay (hostile finding, low: direction controls and
// zero-width characters passed in chat lines): a line with a character
// that is not shown, or changes how the rest is shown, is refused; an
// emoji sequence's joiner is not one of them.
func TestLinesShowWhatTheySay(t *testing.T) {
	for _, bad := range []string{"gg\u202eevil", "a\u200bb", "\u2066isolate\u2069", "bom\ufeff", "soft\u00adhyphen"} {
		if _, err := text(bad); !errors.Is(err, moderation.ErrInvisible) {
			t.Errorf("%q: %v, want ErrInvisible", bad, err)
		}
	}
	for _, good := range []string{"good game", "👨\u200d👩\u200d👧 family", "вечер", "שלום"} {
		if got, err := text(good); err != nil || got != good {
			t.Errorf("%q: %q %v", good, got, err)
		}
	}
}

// players is a fake identity: the header X-Player names a player, made in
// the store when first seen (as a browser's identity is).
type players struct{ st *store.Store }

func (p players) Me(r *http.Request) (*store.Player, error) {
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

func (p players) Identify(w http.ResponseWriter, r *http.Request) (*store.Player, error) {
	if pl, err := p.Me(r); pl != nil || err != nil {
		return pl, err
	}
	pl := &store.Player{ID: r.Header.Get("X-Player")}
	if pl.ID == "" {
		pl.ID = fmt.Sprintf("anon%d", time.Now().UnixNano())
	}
	return pl, p.st.CreatePlayer(r.Context(), pl)
}

// seats is a fake of the games: game g1, its first seat the player p1's,
// over when over is set.
type seats struct{ over bool }

func (s *seats) Seat(_ context.Context, id, secret, player string) (play.SeatInfo, error) {
	if id != "g1" {
		return play.SeatInfo{}, httpx.NewError(http.StatusNotFound, "no such game")
	}
	info := play.SeatInfo{Seat: -1, Over: s.over, ByPlayer: player == "p1"}
	if player == "p1" || secret == "s1" {
		info.Seat, info.Title, info.Player = 0, "Black", "p1"
	}
	return info, nil
}

// TestRooms: a seat's lines go to the players' room, the others' to the
// spectators'; during the game a player reads his room alone, a spectator
// both; afterwards everyone reads both. A mute holds the seat, whoever
// holds its secret.
func TestRooms(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "muster.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	api := &httpx.API{Log: log, MaxBody: 1 << 16}
	g := &seats{}
	c := New(st, api, g, players{st}, bus.New(st, log))
	mux := http.NewServeMux()
	c.Routes(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	call := func(player, method string, body any, out any) int {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, srv.URL+"/api/games/g1/chat", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Player", player)
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
	var m store.Message
	if code := call("p1", "POST", chatRequest{Text: "good luck"}, &m); code != http.StatusCreated || m.Room != store.ChatPlayers || m.Name != "Black" {
		t.Fatalf("the seat's line: %d %+v", code, m)
	}
	if code := call("watcher", "POST", chatRequest{Text: "nice opening"}, &m); code != http.StatusCreated || m.Room != store.ChatSpectators {
		t.Fatalf("a spectator's line: %d %+v", code, m)
	}
	read := func(player string) int {
		var ms []store.Message
		call(player, "GET", nil, &ms)
		return len(ms)
	}
	if n, m := read("p1"), read("watcher"); n != 1 || m != 2 {
		t.Fatalf("during the game the player reads %d, a spectator %d; want 1 and 2", n, m)
	}
	g.over = true
	if n := read("p1"); n != 2 {
		t.Fatalf("after the game the player reads %d, want 2", n)
	}
	g.over = false
	if err := st.SetMuted(context.Background(), "p1", true); err != nil {
		t.Fatal(err)
	}
	if code := call("someone-else", "POST", chatRequest{Text: "by the secret", Secret: "s1"}, nil); code != http.StatusForbidden {
		t.Fatalf("a muted seat's line by its secret: %d", code)
	}
}
