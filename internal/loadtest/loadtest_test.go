package loadtest

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/muster-games/muster/internal/server"
	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/lanrick/ai"
	_ "github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

// TestLoad plays 8 games of each game at once against an in-process
// server: no error, no action lost.
func TestLoad(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "load.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := server.New(st, server.DefaultConfig)
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	for _, g := range []string{"tablut", "lanrick"} {
		rep := Run(context.Background(), Config{URL: hs.URL, Game: g, Games: 8, Actions: 15, Seed: 1})
		if len(rep.Errors) > 0 || rep.Lost > 0 || rep.Games != 8 || rep.Actions == 0 {
			t.Fatalf("%s:\n%s", g, rep)
		}
		t.Logf("%s:\n%s", g, rep)
	}
}

// TestLoadLobby: games made by challenges accepted by other browsers,
// played by the players' sessions, while browsers watch the lobby.
func TestLoadLobby(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "load.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := server.New(st, server.DefaultConfig)
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	rep := Run(context.Background(), Config{URL: hs.URL, Game: "tablut", Games: 8, Actions: 10, Seed: 2, Lobby: true, LobbyWatchers: 3})
	if len(rep.Errors) > 0 || rep.Lost > 0 || rep.Games != 8 || rep.Actions != 80 || rep.LobbyUpdates < 3 {
		t.Fatalf("%s", rep)
	}
	t.Logf("%s", rep)
}
