package loadtest

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/muster-games/muster/internal/server"
	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/lanrick/ai"
	_ "github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

// serve starts an in-process server on a fresh database and returns its
// address.
func serve(t *testing.T) string {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "load.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.DefaultConfig
	cfg.GamesPerHour, cfg.OpenChallenges = 1000, 1000
	srv := server.New(st, cfg)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
		st.Close()
	})
	return hs.URL
}

// TestLoad plays 8 games of each game at once against an in-process
// server: no error, no action lost.
func TestLoad(t *testing.T) {
	url := serve(t)
	for _, g := range []string{"tablut", "lanrick"} {
		rep := Run(context.Background(), Config{URL: url, Game: g, Games: 8, Actions: 15, Seed: 1})
		if len(rep.Errors) > 0 || rep.Lost > 0 || rep.Games != 8 || rep.Actions == 0 {
			t.Fatalf("%s:\n%s", g, rep)
		}
		t.Logf("%s:\n%s", g, rep)
	}
}

// TestLoadLobby: games made by challenges accepted by other browsers,
// played by the players' sessions, while browsers watch the lobby.
func TestLoadLobby(t *testing.T) {
	url := serve(t)
	rep := Run(context.Background(), Config{URL: url, Game: "tablut", Games: 8, Actions: 10, Seed: 2, Lobby: true, LobbyWatchers: 3})
	if len(rep.Errors) > 0 || rep.Lost > 0 || rep.Games != 8 || rep.Actions != 80 || rep.LobbyUpdates < 3 {
		t.Fatalf("%s", rep)
	}
	t.Logf("%s", rep)
}

// TestLoadComputer: games against the computer, the person's actions and
// the computer's replies timed, then finished games browsed.
func TestLoadComputer(t *testing.T) {
	url := serve(t)
	rep := Run(context.Background(), Config{URL: url, Game: "tablut", Games: 6, Actions: 5, Seed: 3, Computer: "easy", Browse: 10, PID: os.Getpid()})
	if len(rep.Errors) > 0 || rep.Lost > 0 || rep.Games != 6 || rep.Actions != 30 || len(rep.Replies) < 24 || rep.Browsed != 10 || rep.RSS == 0 || rep.BrowseRSS == 0 {
		t.Fatalf("%s", rep)
	}
	t.Logf("%s", rep)
}
