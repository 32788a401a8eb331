package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// backends runs a test on a fresh SQLite file and on a fresh PostgreSQL
// database.
func backends(t *testing.T, f func(t *testing.T, dsn string)) {
	t.Run("sqlite", func(t *testing.T) { f(t, filepath.Join(t.TempDir(), "muster.db")) })
	t.Run("postgres", func(t *testing.T) { f(t, pgtest.DSN(t)) })
}

func open(t *testing.T, dsn string) *Store {
	t.Helper()
	s, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestStore(t *testing.T) { backends(t, testStore) }

func testStore(t *testing.T, path string) {
	ctx := context.Background()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	g := &Game{ID: "abc", Spec: "lanrick(1893)", Seats: []Seat{{Kind: "human", SecretHash: "h"}, {Kind: "ai", Agent: "easy"}}, Owner: "1.2.3.4", DrawOffer: -1}
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, g); err == nil {
		t.Fatal("the same id twice")
	}
	g.Actions = []string{"mark d5", "no-interchange"}
	if err := s.Update(ctx, g, 0); err != nil {
		t.Fatal(err)
	}
	// A writer that read the game at ply 0 is refused.
	g2 := *g
	g2.Actions = []string{"mark c6"}
	if err := s.Update(ctx, &g2, 0); !errors.Is(err, ErrConflict) {
		t.Fatalf("stale update: %v", err)
	}
	// Reopen: the game is there as written (a restart loses nothing).
	s.Close()
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Get(ctx, "abc")
	if err != nil {
		t.Fatal(err)
	}
	if got.Spec != g.Spec || len(got.Actions) != 2 || got.Actions[0] != "mark d5" || got.Seats[1].Agent != "easy" || got.Status != "playing" || got.DrawOffer != -1 {
		t.Fatalf("read back %+v", got)
	}
	if _, err := s.Get(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
	if n, err := s.CountSince(ctx, "1.2.3.4", time.Now().Add(-time.Hour), 60); err != nil || n != 1 {
		t.Fatalf("count %d %v", n, err)
	}
	// Counted up to the most asked for; another owner's and older games
	// not at all.
	for _, id := range []string{"abd", "abe"} {
		if err := s.Create(ctx, &Game{ID: id, Spec: "tablut", Seats: []Seat{{Kind: "human"}, {Kind: "human"}}, Owner: "1.2.3.4", DrawOffer: -1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Create(ctx, &Game{ID: "abf", Spec: "tablut", Seats: []Seat{{Kind: "human"}, {Kind: "human"}}, Owner: "5.6.7.8", DrawOffer: -1}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ most, want int }{{60, 3}, {3, 3}, {2, 2}} {
		if n, err := s.CountSince(ctx, "1.2.3.4", time.Now().Add(-time.Hour), c.most); err != nil || n != c.want {
			t.Fatalf("count up to %d: %d %v, want %d", c.most, n, err, c.want)
		}
	}
	if n, err := s.CountSince(ctx, "1.2.3.4", time.Now().Add(time.Minute), 60); err != nil || n != 0 {
		t.Fatalf("count since a minute ahead: %d %v", n, err)
	}
	ids, err := s.Playing(ctx)
	if err != nil || len(ids) != 4 {
		t.Fatalf("playing %v %v", ids, err)
	}
	if s.pg {
		return
	}
	var mode string
	if err := s.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal mode %q %v", mode, err)
	}
}

// TestUpdatedGrows: every update moves Updated on by at least a
// millisecond, however quick, so that clients can order views by it.
func TestUpdatedGrows(t *testing.T) { backends(t, testUpdatedGrows) }

func testUpdatedGrows(t *testing.T, dsn string) {
	s := open(t, dsn)
	g := &Game{ID: "g1", Spec: "tablut", Seats: []Seat{{Kind: SeatHuman}, {Kind: SeatHuman}}, DrawOffer: -1}
	if err := s.Create(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	last := g.Updated.UnixMilli()
	for i := range 20 {
		g.Actions = append(g.Actions, "a4-a3")
		if err := s.Update(context.Background(), g, i); err != nil {
			t.Fatal(err)
		}
		if now := g.Updated.UnixMilli(); now <= last {
			t.Fatalf("update %d: updated %d after %d", i, now, last)
		} else {
			last = now
		}
	}
	back, err := s.Get(context.Background(), "g1")
	if err != nil || back.Updated.UnixMilli() != last {
		t.Fatalf("stored updated %v, want %d (%v)", back.Updated, last, err)
	}
}

// TestOpenErrorNamesTheDatabase: a database that cannot be opened is
// named in the error (its path; a PostgreSQL address without its
// password).
func TestOpenErrorNamesTheDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "folder", "muster.db")
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("opening %s: %v", path, err)
	}
	if got := where("postgres://muster:secret@db.example:5432/muster"); strings.Contains(got, "secret") || !strings.Contains(got, "db.example") {
		t.Fatalf("the address in messages: %s", got)
	}
}

// TestUpdateWritesWhatChanged: an update writes the columns its game
// changed since the version it read (a move: a few), and what is read
// back is the game as written, whatever changed; a copy read before
// another writer's change is refused, as ever.
func TestUpdateWritesWhatChanged(t *testing.T) { backends(t, testUpdateWritesWhatChanged) }

func testUpdateWritesWhatChanged(t *testing.T, dsn string) {
	ctx := context.Background()
	s := open(t, dsn)
	same := func(what string, g *Game) {
		t.Helper()
		got, err := s.Get(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		a, b := *got, *g
		a.stored, b.stored = nil, nil
		a.Created, b.Created = time.UnixMilli(a.Created.UnixMilli()), time.UnixMilli(b.Created.UnixMilli())
		a.Updated, b.Updated = time.UnixMilli(a.Updated.UnixMilli()), time.UnixMilli(b.Updated.UnixMilli())
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: read back\n%+v\nwritten\n%+v", what, a, b)
		}
	}
	g := &Game{ID: "w1", Spec: "tablut", Seats: []Seat{{Kind: SeatHuman, Player: "p1"}, {Kind: SeatAI, Agent: "easy"}}, DrawOffer: -1, TakebackOffer: -1, ToAct: "p1"}
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	// Moves: the actions, the ply and the player to act change.
	for i, a := range []string{"a4-a3", "e4-f4", "a3-a4"} {
		g.Actions = append(g.Actions, a)
		g.ToAct = []string{"", "p1"}[i%2]
		if err := s.Update(ctx, g, i); err != nil {
			t.Fatal(err)
		}
		same("after a move", g)
	}
	// Everything else at once.
	g.Seats[0].SecretHash, g.Seats[0].Name = "hash", "Ann"
	g.Status, g.Result, g.Reason = StatusOver, "attackers", "king captured"
	g.DrawOffer, g.TakebackOffer, g.Rematch, g.Rated = 1, 0, "w2", true
	g.Clock = &Clock{BaseMS: 60000, IncMS: 1000, LeftMS: [2]int64{5000, 6000}}
	g.Ratings = []RatingChange{{Seat: 0, Player: "p1", Before: 1500, After: 1510, RD: 80}}
	g.ToAct, g.Deadline = "", 0
	if err := s.Update(ctx, g, 3); err != nil {
		t.Fatal(err)
	}
	same("after the end", g)
	// A copy read before another writer's change is refused; read again,
	// it writes.
	stale, err := s.Get(ctx, "w1")
	if err != nil {
		t.Fatal(err)
	}
	g.Reason = "resigned"
	if err := s.Update(ctx, g, 3); err != nil {
		t.Fatal(err)
	}
	stale.Result = "defenders"
	if err := s.Update(ctx, stale, 3); !errors.Is(err, ErrConflict) {
		t.Fatalf("a stale copy's update: %v", err)
	}
	fresh, err := s.Get(ctx, "w1")
	if err != nil {
		t.Fatal(err)
	}
	fresh.Result = "defenders"
	if err := s.Update(ctx, fresh, 3); err != nil {
		t.Fatal(err)
	}
	same("after a fresh copy's update", fresh)
	if fresh.Reason != "resigned" {
		t.Fatalf("the other writer's reason was lost: %q", fresh.Reason)
	}
	// What a move writes is the actions and the ply alone, for a copy
	// read from the database as for one written: a column changed behind
	// the store's back (which no writer does) is left as it is.
	for i := range 2 {
		g := fresh
		if i == 1 {
			g = mustGet(t, s, "w1")
		}
		behind := fmt.Sprintf("behind %d", i)
		if _, err := s.db.Exec(s.q(`UPDATE games SET reason = ? WHERE id = ?`), behind, g.ID); err != nil {
			t.Fatal(err)
		}
		g.Actions = append(g.Actions, "e4-e3")
		if err := s.Update(ctx, g, len(g.Actions)-1); err != nil {
			t.Fatal(err)
		}
		if back := mustGet(t, s, "w1"); back.Reason != behind || len(back.Actions) != len(g.Actions) {
			t.Fatalf("a move wrote more than it changed: reason %q, %d actions", back.Reason, len(back.Actions))
		}
	}
}

func mustGet(t *testing.T, s *Store, id string) *Game {
	t.Helper()
	g, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestCreatedGameCopyIsAsRead: after Create, a game's Copy is the game as
// Get reads it back (a new game's room is made from the copy), and shares
// nothing with the original.
func TestCreatedGameCopyIsAsRead(t *testing.T) { backends(t, testCreatedGameCopyIsAsRead) }

func testCreatedGameCopyIsAsRead(t *testing.T, path string) {
	ctx := context.Background()
	s := open(t, path)
	for _, g := range []*Game{
		{ID: "g1", Spec: "tablut(ashton)", Seats: []Seat{{Kind: "human", SecretHash: "h", Player: "p", Name: "Ann", Rating: 1500, RD: 350}, {Kind: "ai", Agent: "easy"}},
			Owner: "1.2.3.4", DrawOffer: -1, TakebackOffer: -1, Clock: &Clock{BaseMS: 60000, IncMS: 1000, LeftMS: [2]int64{60000, 60000}, SinceMS: 5}, Rated: true, ToAct: "p", Deadline: 60005},
		{ID: "g2", Spec: "lanrick(1893)", Seats: []Seat{{Kind: "human", JoinHash: "j"}, {Kind: "human", SecretHash: "s"}}, Actions: []string{"mark d5"}, Start: "x", Lesson: true, DrawOffer: -1, TakebackOffer: 1},
	} {
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		c := g.Copy()
		got, err := s.Get(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		c.stored, got.stored = nil, nil
		if !reflect.DeepEqual(c, got) {
			t.Fatalf("copy  %+v\nread  %+v", c, got)
		}
		c = g.Copy()
		c.Seats[0].Name, c.Actions = "changed", append(c.Actions, "more")
		if c.Clock != nil {
			c.Clock.LeftMS[0] = 1
		}
		if g.Seats[0].Name == "changed" || len(g.Actions) > 1 || g.Clock != nil && g.Clock.LeftMS[0] == 1 {
			t.Fatalf("the copy shares with the original: %+v", g)
		}
	}
}

// TestUpdateNotify: on PostgreSQL a write sends its note to the listening
// servers when it is made, and only then: a write refused as stale sends
// none. On SQLite the write is Update's.
func TestUpdateNotify(t *testing.T) {
	backends(t, func(t *testing.T, dsn string) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s := open(t, dsn)
		heard := make(chan string, 8)
		ready := make(chan struct{})
		var once bool
		go s.Listen(ctx, func(p string) { heard <- p }, func() {
			if !once {
				once = true
				close(ready)
			}
		})
		if s.Postgres() {
			select {
			case <-ready:
			case <-time.After(10 * time.Second):
				t.Fatal("never listening")
			}
		}
		g := &Game{ID: "noted", Spec: "tablut(linnaeus)", Status: StatusPlaying, Seats: []Seat{{Kind: SeatHuman}, {Kind: SeatHuman}}}
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		old := *g
		g.Actions = []string{"a4-a3"}
		if err := s.UpdateNotify(ctx, g, 0, "me game noted"); err != nil {
			t.Fatal(err)
		}
		old.Actions = []string{"d1-d3"}
		if err := s.UpdateNotify(ctx, &old, 0, "me game stale"); !errors.Is(err, ErrConflict) {
			t.Fatalf("a stale write: %v", err)
		}
		if err := s.Notify(ctx, "me end"); err != nil {
			t.Fatal(err)
		}
		stored, err := s.Get(ctx, g.ID)
		if err != nil || !reflect.DeepEqual(stored.Actions, g.Actions) || stored.Version != g.Version {
			t.Fatalf("stored %+v, %v", stored, err)
		}
		if !s.Postgres() {
			return
		}
		var got []string
		for len(got) == 0 || got[len(got)-1] != "me end" {
			select {
			case p := <-heard:
				got = append(got, p)
			case <-time.After(10 * time.Second):
				t.Fatalf("heard %q, then nothing", got)
			}
		}
		if want := []string{"me game noted", "me end"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("heard %q, want %q", got, want)
		}
	})
}

// TestRenewLeasesGivesUpGamesOver: a server's renewal gives up the leases
// of its games that are over (ended, say, through another server, which
// gives up only its own), and renews the others.
func TestRenewLeasesGivesUpGamesOver(t *testing.T) {
	backends(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		for _, id := range []string{"goeson", "ended"} {
			g := &Game{ID: id, Spec: "tablut(linnaeus)", Status: StatusPlaying, Seats: []Seat{{Kind: SeatHuman}, {Kind: SeatHuman}}}
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
			if ok, err := s.TakeLease(ctx, id, "a", time.Minute); err != nil || !ok {
				t.Fatalf("lease of %s: %v, %v", id, ok, err)
			}
			if id == "ended" {
				g.Status, g.Result = StatusOver, "resigned"
				if err := s.Update(ctx, g, 0); err != nil {
					t.Fatal(err)
				}
			}
		}
		held, err := s.RenewLeases(ctx, "a", time.Minute)
		if err != nil || !reflect.DeepEqual(held, []string{"goeson"}) {
			t.Fatalf("held %v, %v", held, err)
		}
		// Given up, it may be taken by another server at once.
		if ok, err := s.TakeLease(ctx, "ended", "b", time.Minute); err != nil || !ok {
			t.Fatalf("the ended game's lease, for b: %v, %v", ok, err)
		}
	})
}

// TestLeasesHeldByHeartbeat: a lease holds while its server's heartbeat
// runs, past its own expiry; without a heartbeat, until that expiry; a
// server that leaves frees its leases at once; and a dead server's row is
// forgotten by the sweep after a day.
func TestLeasesHeldByHeartbeat(t *testing.T) {
	backends(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		for _, id := range []string{"beating", "silent"} {
			g := &Game{ID: id, Spec: "tablut(linnaeus)", Status: StatusPlaying, Seats: []Seat{{Kind: SeatHuman}, {Kind: SeatAI, Agent: "easy"}}}
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		// a beats; c never does. Each lease's own expiry is 50 ms.
		if err := s.Heartbeat(ctx, "a", time.Minute); err != nil {
			t.Fatal(err)
		}
		for id, owner := range map[string]string{"beating": "a", "silent": "c"} {
			if ok, err := s.TakeLease(ctx, id, owner, 50*time.Millisecond); err != nil || !ok {
				t.Fatalf("lease of %s for %s: %v, %v", id, owner, ok, err)
			}
		}
		if ok, err := s.TakeLease(ctx, "beating", "b", time.Minute); err != nil || ok {
			t.Fatalf("b took a's lease while it ran: %v, %v", ok, err)
		}
		time.Sleep(100 * time.Millisecond)
		orphans, err := s.Orphans(ctx, 10)
		if err != nil || !reflect.DeepEqual(orphans, []string{"silent"}) {
			t.Fatalf("orphans %v, %v; want silent alone", orphans, err)
		}
		if ok, err := s.TakeLease(ctx, "beating", "b", time.Minute); err != nil || ok {
			t.Fatalf("b took a's lease past its expiry, a beating: %v, %v", ok, err)
		}
		if ok, err := s.TakeLease(ctx, "silent", "b", time.Minute); err != nil || !ok {
			t.Fatalf("b could not take the lease of c, silent: %v, %v", ok, err)
		}
		held, err := s.RenewLeases(ctx, "a", time.Minute)
		if err != nil || !reflect.DeepEqual(held, []string{"beating"}) {
			t.Fatalf("a holds %v, %v", held, err)
		}
		// a leaves: its game is an orphan at once, and b takes it.
		if err := s.Stopped(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if orphans, err := s.Orphans(ctx, 10); err != nil || !reflect.DeepEqual(orphans, []string{"beating"}) {
			t.Fatalf("orphans after a left: %v, %v", orphans, err)
		}
		if ok, err := s.TakeLease(ctx, "beating", "b", time.Minute); err != nil || !ok {
			t.Fatalf("b could not take a's lease once a left: %v, %v", ok, err)
		}
		if held, err := s.RenewLeases(ctx, "a", time.Minute); err != nil || len(held) != 0 {
			t.Fatalf("a still holds %v, %v", held, err)
		}
		// A server dead for over a day is forgotten by the sweep; the
		// living (a, b) are kept.
		if err := s.Heartbeat(ctx, "d", -ServersKept-time.Hour); err != nil {
			t.Fatal(err)
		}
		if err := s.Heartbeat(ctx, "b", time.Minute); err != nil {
			t.Fatal(err)
		}
		if n, err := s.ForgetServers(ctx); err != nil || n != 1 {
			t.Fatalf("forgot %d servers, %v; want d alone", n, err)
		}
		names, err := s.ids(ctx, `SELECT instance FROM servers ORDER BY instance`)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(names, []string{"a", "b"}) {
			t.Fatalf("servers %v, want a and b", names)
		}
	})
}
