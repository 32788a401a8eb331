package e2e

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/internal/server"
	"github.com/muster-games/muster/internal/store"
)

// App is a running web app on a fixed address, which can be restarted on
// the same database.
type App struct {
	// DB is the database's file, Addr the address the app listens on.
	DB, Addr string
	Store    *store.Store
	Server   *server.Server
	hs       *http.Server
	// Posted counts the actions posted (POST /api/games/{id}/act) rather
	// than sent on a game's WebSocket.
	Posted atomic.Int64
}

// StartApp starts the web app on the database db (a new one where it is
// "") and the address addr (any free port where it is ""); the test's
// cleanup stops it.
func StartApp(t *testing.T, db, addr string) *App {
	t.Helper()
	if db == "" {
		db = filepath.Join(t.TempDir(), "muster.db")
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.DefaultConfig
	cfg.AgentTimeout = 20 * time.Second
	// The tests' own computer beside the levels: random.
	cfg.Levels = append(slices.Clone(agent.Levels), "random")
	// The robot solves a puzzle at once; its tries are rated still.
	cfg.PuzzleMinTry = time.Nanosecond
	srv := server.New(st, cfg)
	if err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	var ln net.Listener
	for i := 0; i < 50; i++ {
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	a := &App{DB: db, Addr: ln.Addr().String(), Store: st, Server: srv}
	a.hs = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/act") {
			a.Posted.Add(1)
		}
		srv.ServeHTTP(w, r)
	})}
	go a.hs.Serve(ln)
	t.Cleanup(a.Stop)
	return a
}

// URL is the address of path on the app.
func (a *App) URL(path string) string { return "http://" + a.Addr + path }

// Stop stops the app (a restart is a new StartApp on its DB and Addr).
func (a *App) Stop() {
	if a.hs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	a.hs.Shutdown(ctx)
	a.hs.Close()
	a.Server.Close()
	a.Store.Close()
	a.hs = nil
}
