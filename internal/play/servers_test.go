package play

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestChangedElsewhereReadWhenNeeded: of a game changed through another
// server, a room that nothing here follows (no watcher here, no clock,
// computer or dice this server runs) is not read again at each change:
// it is read when next used. A watcher who comes then is sent the game
// as it is, though the change was told before he came; a watched room is
// read again at once.
func TestChangedElsewhereReadWhenNeeded(t *testing.T) {
	a, b := twoServers(t)
	g := a.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	h := a.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	ctx := context.Background()
	rg, err := a.gs.room(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	// A watcher of h on A: the change told for h, after g's, says
	// that A has heard of g's (a server hears the changes in order).
	hViews := make(chan View, 16)
	stopH, err := a.gs.Subscribe(ctx, h.ID, viewsTo(t, hViews), func() {})
	if err != nil {
		t.Fatal(err)
	}
	defer stopH()
	v0 := rg.snap.Load().rec.Version
	for _, c := range []createResponse{g, h} {
		if code := b.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, nil); code != http.StatusOK {
			t.Fatalf("the move through B: %d", code)
		}
	}
	waitView(t, hViews, 1) // h, watched on A, is read again at once
	if v := rg.snap.Load().rec.Version; v != v0 {
		t.Fatalf("g, which nobody follows on A, was read again at once: version %d → %d", v0, v)
	}
	if !rg.behind.Load() {
		t.Fatal("g's room does not know it is behind")
	}
	// A watcher of g comes to A: he is sent g as it is now.
	gViews := make(chan View, 16)
	stopG, err := a.gs.Subscribe(ctx, g.ID, viewsTo(t, gViews), func() {})
	if err != nil {
		t.Fatal(err)
	}
	defer stopG()
	waitView(t, gViews, 1)
	// And A answers with it.
	if v := a.view(g.ID); v.Ply != 1 {
		t.Fatalf("A shows g at ply %d", v.Ply)
	}
}

// twoServers starts the games of two servers on one fresh PostgreSQL
// database and waits until each hears the other.
func twoServers(t *testing.T) (a, b *harness) {
	t.Helper()
	dsn := pgtest.DSN(t)
	a, b = newHarnessOn(t, dsn, 1, 4, testConfig), newHarnessOn(t, dsn, 1, 4, testConfig)
	a.waitFor("A listening", a.gs.bus.Listening)
	b.waitFor("B listening", b.gs.bus.Listening)
	return a, b
}

// viewsTo decodes each view delivered to a watcher into views.
func viewsTo(t *testing.T, views chan<- View) func(*httpx.Lent) {
	return func(l *httpx.Lent) {
		var v View
		if err := json.Unmarshal(l.Bytes(), &v); err != nil {
			t.Error(err)
			return
		}
		select {
		case views <- v:
		default:
		}
	}
}

// waitView waits up to 10 s for a view at ply.
func waitView(t *testing.T, views <-chan View, ply int) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case v := <-views:
			if v.Ply == ply {
				return
			}
		case <-deadline:
			t.Fatalf("no view at ply %d came", ply)
		}
	}
}

// TestRefusedOnAnOldCopyTriedAgain: a server reads no version as it takes
// up a change; a change it would refuse on a copy that another server has
// left behind is made on the game read anew. Here A's copy of a game
// nobody follows on A is a move behind (changedElsewhere left it so), and
// the next move, sent to A, stands.
func TestRefusedOnAnOldCopyTriedAgain(t *testing.T) {
	a, b := twoServers(t)
	g := a.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	r, err := a.gs.room(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if code := b.call("POST", "/api/games/"+g.ID+"/act", actRequest{Secret: g.Secrets[0], Action: "a4-a3", Ply: at(0)}, nil); code != http.StatusOK {
		t.Fatalf("the first move, through B: %d", code)
	}
	a.waitFor("A told of the move", r.behind.Load)
	if v := r.snap.Load(); len(v.rec.Actions) != 0 {
		t.Fatalf("A's copy has %d actions: not behind", len(v.rec.Actions))
	}
	var v View
	if code := a.call("POST", "/api/games/"+g.ID+"/act", actRequest{Secret: g.Secrets[1], Action: "e3-f3", Ply: at(1)}, &v); code != http.StatusOK || v.Ply != 2 {
		t.Fatalf("the second move, through A: %d, ply %d", code, v.Ply)
	}
}
