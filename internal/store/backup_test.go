package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/muster-games/muster/internal/pgtest"
)

// someGames stores n games of a few moves, and a player.
func someGames(t *testing.T, s *Store, n int) {
	t.Helper()
	ctx := context.Background()
	if err := s.CreatePlayer(ctx, &Player{ID: "p1", Address: "203.0.113.1"}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		g := &Game{ID: "game" + string(rune('a'+i)), Spec: "tablut", Seats: []Seat{{Kind: SeatHuman, Player: "p1"}, {Kind: SeatAI, Agent: "easy"}}, DrawOffer: -1, TakebackOffer: -1}
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		g.Actions = []string{"a4-a3", "e3-d3"}
		if err := s.Update(ctx, g, 0); err != nil {
			t.Fatal(err)
		}
	}
}

// checkGames checks that a restored database holds the games someGames
// stored.
func checkGames(t *testing.T, s *Store, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		g, err := s.Get(ctx, "game"+string(rune('a'+i)))
		if err != nil || len(g.Actions) != 2 || g.Version != 1 || g.Seats[0].Player != "p1" {
			t.Fatalf("restored game %d: %+v %v", i, g, err)
		}
	}
	if p, err := s.Player(ctx, "p1"); err != nil || p.Address != "203.0.113.1" {
		t.Fatalf("restored player: %+v %v", p, err)
	}
}

// TestBackupAndRestoreSQLite: Backup's copy opens as the database it
// copied, with its games and players.
func TestBackupAndRestoreSQLite(t *testing.T) {
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, "muster.db"))
	someGames(t, s, 3)
	n, err := Backup(context.Background(), filepath.Join(dir, "muster.db"), filepath.Join(dir, "copy.db"))
	if err != nil || n != 3 {
		t.Fatalf("backup: %d %v", n, err)
	}
	checkGames(t, open(t, filepath.Join(dir, "copy.db")), 3)
	if _, err := Backup(context.Background(), "postgres://x@y/z", filepath.Join(dir, "pg.db")); err != ErrBackupPostgres {
		t.Errorf("a PostgreSQL backup: %v", err)
	}
}

// TestBackupAndRestorePostgres: the guide's commands, run against the
// test cluster: pg_dump --format=custom of a live database, pg_restore into
// a new one, and Muster opens the copy with every game.
func TestBackupAndRestorePostgres(t *testing.T) {
	dsn := pgtest.DSN(t)
	s := open(t, dsn)
	someGames(t, s, 3)
	dump, restore := pgtest.Tool("pg_dump"), pgtest.Tool("pg_restore")
	if dump == "" || restore == "" {
		t.Fatal("pg_dump or pg_restore not beside the test cluster's initdb")
	}
	file := filepath.Join(t.TempDir(), "muster.dump")
	if out, err := exec.Command(dump, "--format=custom", "--file="+file, "--dbname="+dsn).CombinedOutput(); err != nil {
		t.Fatalf("pg_dump: %v: %s", err, out)
	}
	if fi, err := os.Stat(file); err != nil || fi.Size() == 0 {
		t.Fatalf("the dump: %v", err)
	}
	target := pgtest.DSN(t)
	if out, err := exec.Command(restore, "--no-owner", "--dbname="+target, file).CombinedOutput(); err != nil {
		t.Fatalf("pg_restore: %v: %s", err, out)
	}
	checkGames(t, open(t, target), 3)
}
