package loadtest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/server"
	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/lanrick/ai"
	_ "github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

// serve starts an in-process server on a fresh database and returns its
// address.
func serve(t testing.TB) string { return serveThrough(t, nil) }

// serveThrough is serve with the server's requests going through wrap
// (nil: straight to it).
func serveThrough(t testing.TB, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "load.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.DefaultConfig
	cfg.GamesPerHour, cfg.OpenChallenges = 1000, 1000
	srv := server.New(st, cfg)
	var h http.Handler = srv
	if wrap != nil {
		h = wrap(srv)
	}
	hs := httptest.NewServer(h)
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
		// The server runs in this process: its CPU and memory are ours.
		rep := Run(context.Background(), Config{URL: url, Game: g, Games: 8, Actions: 15, Seed: 1, PID: os.Getpid()})
		if len(rep.Errors) > 0 || rep.Lost > 0 || rep.Games != 8 || rep.Actions == 0 {
			t.Fatalf("%s:\n%s", g, rep)
		}
		if rep.MaxLive < 1 || rep.MaxLive > 8 || !strings.Contains(rep.String(), fmt.Sprintf("games_live_max: %d\n", rep.MaxLive)) {
			t.Fatalf("%s: %d games under way at once, of 8:\n%s", g, rep.MaxLive, rep)
		}
		if rep.StartRSS <= 0 || rep.LiveRSS <= 0 || rep.RSS <= 0 {
			t.Fatalf("%s: memory not read: before %d, live %d, after %d kB", g, rep.StartRSS, rep.LiveRSS, rep.RSS)
		}
		// Each action's view came off its socket before its player saw
		// it: as many arrivals as latencies, and none later.
		if len(rep.Arrivals) != len(rep.Latencies) || rep.Percentile(99) < percentile(rep.Arrivals, 99) || rep.Percentile(50) < percentile(rep.Arrivals, 50) {
			t.Fatalf("%s: %d arrivals for %d latencies, p99 %v against %v:\n%s", g, len(rep.Arrivals), len(rep.Latencies), percentile(rep.Arrivals, 99), rep.Percentile(99), rep)
		}
		for _, want := range []string{"server_rss_per_live_game_kb: ", "server_rss_mb: ", "arrival_p99_ms: "} {
			if !strings.Contains(rep.String(), want) {
				t.Fatalf("%s: the report lacks %q:\n%s", g, want, rep)
			}
		}
		t.Logf("%s:\n%s", g, rep)
	}
}

// TestCPUInPlay: with the games made together and each thinking 100 ms
// or more before each of its 4 actions, a moment comes when all 8 are in
// play, and the server's CPU is read for it with the actions played
// meanwhile: some, and fewer than all of them.
func TestCPUInPlay(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	url := serve(t)
	rep := Run(context.Background(), Config{URL: url, Game: "tablut", Games: 8, Actions: 4, Pace: 200 * time.Millisecond, Seed: 5, PID: os.Getpid()})
	if len(rep.Errors) > 0 || rep.Actions != 32 {
		t.Fatalf("%s", rep)
	}
	if rep.PlayCPU <= 0 || rep.PlayActions <= 0 || rep.PlayActions >= rep.Actions || rep.PlayCPU > rep.CPU {
		t.Fatalf("in play: %v of the server's CPU, %d actions of %d:\n%s", rep.PlayCPU, rep.PlayActions, rep.Actions, rep)
	}
	if !strings.Contains(rep.String(), fmt.Sprintf("actions_in_play: %d\n", rep.PlayActions)) {
		t.Fatalf("the report lacks the actions in play:\n%s", rep)
	}
	// Without a server's process to read, nothing is measured.
	if rep := Run(context.Background(), Config{URL: url, Game: "tablut", Games: 2, Actions: 2, Seed: 6}); rep.PlayCPU != 0 || strings.Contains(rep.String(), "in_play") {
		t.Fatalf("no PID:\n%s", rep)
	}
}

// TestActionsOnTheSocketOrPosted: the players send their actions on
// their games' WebSockets, as the game page does, or with Post post them:
// against a server that refuses every posted action, the first plays
// without an error and the second fails; against the whole server both
// play, games made in the lobby too (a challenger's seat held by his
// session alone, his actions sent on his own socket).
func TestActionsOnTheSocketOrPosted(t *testing.T) {
	var posted atomic.Int64
	noPosts := serveThrough(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/act") {
				posted.Add(1)
				http.Error(w, `{"error":"no posted actions here"}`, http.StatusServiceUnavailable)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	if rep := Run(context.Background(), Config{URL: noPosts, Game: "tablut", Games: 4, Actions: 10, Seed: 3}); len(rep.Errors) > 0 || rep.Lost > 0 || rep.Actions != 40 || posted.Load() != 0 {
		t.Fatalf("actions on the socket, %d posted:\n%s", posted.Load(), rep)
	}
	if rep := Run(context.Background(), Config{URL: noPosts, Game: "tablut", Games: 2, Actions: 10, Seed: 3, Post: true}); len(rep.Errors) != 2 || posted.Load() != 2 {
		t.Fatalf("posted actions refused, %d posted:\n%s", posted.Load(), rep)
	}
	url := serve(t)
	for _, cfg := range []Config{{Post: true}, {Post: true, Lobby: true}, {Lobby: true}} {
		cfg.URL, cfg.Game, cfg.Games, cfg.Actions, cfg.Seed = url, "tablut", 4, 10, 4
		if rep := Run(context.Background(), cfg); len(rep.Errors) > 0 || rep.Lost > 0 || rep.Actions != 40 {
			t.Fatalf("post %v, lobby %v:\n%s", cfg.Post, cfg.Lobby, rep)
		}
	}
}

// TestCPUTime: a process's processor time, read from /proc, grows as it
// works.
func TestCPUTime(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	before := cpuTime(os.Getpid())
	// Work until the reading grows by 50 ms: on a busy machine the wall
	// clock says nothing of how much processor time this process got.
	x := 0
	deadline := time.Now().Add(30 * time.Second)
	for cpuTime(os.Getpid())-before < 50*time.Millisecond {
		if time.Now().After(deadline) {
			t.Fatalf("30 s of work read as %v", cpuTime(os.Getpid())-before)
		}
		for i := 0; i < 100000; i++ {
			x += i * i
		}
	}
	if x == 0 {
		t.Fatal("no work done")
	}
	if cpuTime(-1) != 0 {
		t.Fatal("no such process: not 0")
	}
	r := &Report{Actions: 1000, CPU: 500 * time.Millisecond, ClientCPU: 250 * time.Millisecond}
	if !strings.Contains(r.String(), "server_cpu_ms_per_action: 0.500") || !strings.Contains(r.String(), "client_cpu_ms_per_action: 0.250") {
		t.Fatalf("%s", r)
	}
}

// TestLoadLobby: games made by challenges accepted by other browsers,
// played by the players' sessions, while browsers watch the lobby.
func TestLoadLobby(t *testing.T) {
	url := serve(t)
	rep := Run(context.Background(), Config{URL: url, Game: "tablut", Games: 8, Actions: 10, Seed: 2, Lobby: true, LobbyWatchers: 3, Ramp: 100 * time.Millisecond})
	if len(rep.Errors) > 0 || rep.Lost > 0 || rep.Games != 8 || rep.Actions != 80 || rep.LobbyUpdates < 3 {
		t.Fatalf("%s", rep)
	}
	if _, err := os.Stat("/proc/self/stat"); err == nil && rep.ClientCPU <= 0 {
		t.Fatalf("no client CPU read:\n%s", rep)
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
