package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// journaled opens a store on a new SQLite file with its move journal,
// and a game made in it.
func journaled(t *testing.T) (*Store, string, *Game) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "muster.db")
	s := open(t, path)
	if err := s.Journal(nil); err != nil {
		t.Fatal(err)
	}
	g := &Game{ID: "g1", Spec: "tablut", Seats: []Seat{{Kind: "human", SecretHash: "a"}, {Kind: "human", SecretHash: "b"}}, DrawOffer: -1, TakebackOffer: -1}
	if err := s.Create(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	return s, path, g
}

// play appends actions to g and writes each.
func play(t *testing.T, s *Store, g *Game, actions ...string) {
	t.Helper()
	for _, a := range actions {
		ply := len(g.Actions)
		g.Actions = append(g.Actions, a)
		if err := s.Update(context.Background(), g, ply); err != nil {
			t.Fatal(err)
		}
	}
}

// stored reads a game's actions and version from the file itself, past
// the store and its journal.
func stored(t *testing.T, path, id string) (actions string, version int64, status string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT actions, version, status FROM games WHERE id = ?`, id).Scan(&actions, &version, &status); err != nil {
		t.Fatal(err)
	}
	return actions, version, status
}

// external writes the file as another program does (muster admin).
func external(t *testing.T, path, query string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query, args...); err != nil {
		t.Fatal(err)
	}
}

func TestJournalWritesRowsTogether(t *testing.T) {
	s, path, g := journaled(t)
	play(t, s, g, "a1-a2", "b1-b2", "c1-c2")
	// Answered, in the journal, not yet in the database.
	if actions, v, _ := stored(t, path, g.ID); actions != "[]" || v != 0 {
		t.Fatalf("before the journal's rows are written: %s at version %d", actions, v)
	}
	// A read through the store writes them first.
	got, err := s.Get(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Actions, g.Actions) || got.Version != 3 {
		t.Fatalf("read %v at version %d, want %v at 3", got.Actions, got.Version, g.Actions)
	}
	if actions, v, _ := stored(t, path, g.ID); actions != `["a1-a2","b1-b2","c1-c2"]` || v != 3 {
		t.Fatalf("in the database: %s at version %d", actions, v)
	}
	if writes, rows := s.JournalWrites(); writes != 1 || rows != 3 {
		t.Fatalf("%d transactions wrote %d rows, want 1 and 3", writes, rows)
	}
	if held, _ := heldRecords(t, path); len(held) != 0 {
		t.Fatalf("the journal once its rows are written holds %d records", len(held))
	}
}

// heldRecords reads the records a journal's file holds, and where they
// end.
func heldRecords(t *testing.T, path string) (recs []*journalRecord, end int) {
	t.Helper()
	b, err := os.ReadFile(JournalPath(path))
	if err != nil {
		t.Fatal(err)
	}
	all := len(b)
	for len(b) > 0 && !journalEnd(b) {
		r, rest, err := readJournalRecord(b)
		if err != nil {
			t.Fatalf("the journal's record at byte %d: %v", all-len(b), err)
		}
		recs, b = append(recs, r), rest
	}
	return recs, all - len(b)
}

// A copy of the game read before a write is refused, as without a
// journal (TestStore).
func TestJournalRefusesStaleCopy(t *testing.T) {
	s, _, g := journaled(t)
	play(t, s, g, "a1-a2")
	stale := *g
	stale.Actions = []string{"d1-d2"}
	if err := s.Update(context.Background(), &stale, 0); !errors.Is(err, ErrConflict) {
		t.Fatalf("a write at ply 0 of a game at ply 1: %v", err)
	}
	play(t, s, g, "b1-b2")
	old := *g
	old.Version--
	old.Actions = append(old.Actions[:1:1], "e1-e2")
	if err := s.Update(context.Background(), &old, 1); !errors.Is(err, ErrConflict) {
		t.Fatalf("a write at an old version: %v", err)
	}
	got, err := s.Get(context.Background(), g.ID)
	if err != nil || !reflect.DeepEqual(got.Actions, []string{"a1-a2", "b1-b2"}) {
		t.Fatalf("%v %v", got, err)
	}
}

// A server killed with moves in its journal writes them when it next
// opens it; a record cut short at the end (never answered) is dropped.
func TestJournalAfterKill(t *testing.T) {
	s, path, g := journaled(t)
	play(t, s, g, "a1-a2", "b1-b2")
	s.abandonJournal()
	s.Close()
	held, end := heldRecords(t, path)
	if len(held) != 2 {
		t.Fatalf("the journal of a server killed holds %d records, want 2", len(held))
	}
	f, err := os.OpenFile(JournalPath(path), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := appendJournalRecord(nil, &journalRecord{seq: 9, id: g.ID, version: 9, from: 8})
	if _, err := f.WriteAt(r[:len(r)-3], int64(end)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if actions, v, _ := stored(t, path, g.ID); actions != "[]" || v != 0 {
		t.Fatalf("killed: %s at version %d", actions, v)
	}
	s2 := open(t, path)
	if err := s2.Journal(nil); err != nil {
		t.Fatal(err)
	}
	if actions, v, _ := stored(t, path, g.ID); actions != `["a1-a2","b1-b2"]` || v != 2 {
		t.Fatalf("opened again: %s at version %d", actions, v)
	}
	// The game goes on from there.
	g2, err := s2.Get(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	play(t, s2, g2, "c1-c2")
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	if actions, v, _ := stored(t, path, g.ID); actions != `["a1-a2","b1-b2","c1-c2"]` || v != 3 {
		t.Fatalf("closed: %s at version %d", actions, v)
	}
	if _, err := os.Stat(JournalPath(path)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the journal of a store closed: %v", err)
	}
}

// A record damaged in the middle of the file of a server killed (a byte
// of its moves, or its length) is skipped as the journal is opened
// again, and the intact records after it are written: every game has its
// moves back, the damaged record's game with its next record, which holds
// them all. Before, the server did not start (a payload's checksum) or
// dropped every record after it (a length past the file's end).
func TestJournalKeepsRecordsPastADamagedOne(t *testing.T) {
	for _, c := range []struct {
		name string
		at   int // the byte damaged, from the third record's start
	}{{"a move's byte", 12}, {"the length", 2}} {
		t.Run(c.name, func(t *testing.T) {
			s, path, g1 := journaled(t)
			g2 := &Game{ID: "g2", Spec: "tablut", Seats: g1.Seats, DrawOffer: -1, TakebackOffer: -1}
			if err := s.Create(context.Background(), g2); err != nil {
				t.Fatal(err)
			}
			play(t, s, g1, "a1-a2")
			play(t, s, g2, "a1-a2")
			play(t, s, g1, "b1-b2")
			play(t, s, g2, "b1-b2")
			play(t, s, g1, "c1-c2")
			s.abandonJournal()
			s.Close()
			held, _ := heldRecords(t, path)
			if len(held) != 5 {
				t.Fatalf("the journal holds %d records, want 5", len(held))
			}
			b, err := os.ReadFile(JournalPath(path))
			if err != nil {
				t.Fatal(err)
			}
			third := 0
			for _, r := range held[:2] {
				third += len(appendJournalRecord(nil, r))
			}
			b[third+c.at] ^= 0xff
			if err := os.WriteFile(JournalPath(path), b, 0o600); err != nil {
				t.Fatal(err)
			}
			s2 := open(t, path)
			if err := s2.Journal(nil); err != nil {
				t.Fatalf("opened again: %v", err)
			}
			defer s2.Close()
			if actions, _, _ := stored(t, path, "g1"); actions != `["a1-a2","b1-b2","c1-c2"]` {
				t.Errorf("the damaged record's game: %s", actions)
			}
			if actions, _, _ := stored(t, path, "g2"); actions != `["a1-a2","b1-b2"]` {
				t.Errorf("the other game: %s", actions)
			}
		})
	}
}

// Records already written to the database and still in the file (the
// server stopped between the two) are not written again over what came
// after them.
func TestJournalWritesARecordOnce(t *testing.T) {
	s, path, g := journaled(t)
	play(t, s, g, "a1-a2", "b1-b2")
	held, err := os.ReadFile(JournalPath(path))
	if err != nil || len(held) == 0 {
		t.Fatalf("%d bytes, %v", len(held), err)
	}
	if err := s.settle(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.abandonJournal()
	s.Close()
	external(t, path, `UPDATE games SET status = 'over', result = 'aborted', version = version + 1 WHERE id = ?`, g.ID)
	if err := os.WriteFile(JournalPath(path), held, 0o600); err != nil {
		t.Fatal(err)
	}
	s2 := open(t, path)
	if err := s2.Journal(nil); err != nil {
		t.Fatal(err)
	}
	if actions, v, status := stored(t, path, g.ID); actions != `["a1-a2","b1-b2"]` || v != 3 || status != "over" {
		t.Fatalf("opened again: %s at version %d, %s", actions, v, status)
	}
}

// A row that another program changed while its game's writes waited in
// the journal keeps that change, and the journal's columns are written
// over the others; the game's next write is refused, so that its room
// reads it again.
func TestJournalKeepsAnotherProgramsChange(t *testing.T) {
	s, path, g := journaled(t)
	play(t, s, g, "a1-a2", "b1-b2")
	external(t, path, `UPDATE games SET status = 'over', result = 'aborted', reason = 'muster admin', version = version + 1 WHERE id = ?`, g.ID)
	got, err := s.Get(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Actions, []string{"a1-a2", "b1-b2"}) || got.Status != "over" || got.Reason != "muster admin" {
		t.Fatalf("read %v, %s (%s)", got.Actions, got.Status, got.Reason)
	}
	ply := len(g.Actions)
	g.Actions = append(g.Actions, "c1-c2")
	if err := s.Update(context.Background(), g, ply); !errors.Is(err, ErrConflict) {
		t.Fatalf("the next write: %v", err)
	}
	// Read again, the game is written as before: its first write at once
	// (checked), the next into the journal.
	play(t, s, got, "c1-c2")
	if actions, _, status := stored(t, path, g.ID); actions != `["a1-a2","b1-b2","c1-c2"]` || status != "over" {
		t.Fatalf("%s, %s", actions, status)
	}
	play(t, s, got, "d1-d2")
	if actions, _, _ := stored(t, path, g.ID); actions != `["a1-a2","b1-b2","c1-c2"]` {
		t.Fatalf("%s", actions)
	}
	if err := s.settle(context.Background()); err != nil {
		t.Fatal(err)
	}
	if actions, _, _ := stored(t, path, g.ID); actions != `["a1-a2","b1-b2","c1-c2","d1-d2"]` {
		t.Fatalf("%s", actions)
	}
}

// An operator's abort through the store (AbortGame) is ordered after the
// moves answered before it, and the game's next write is refused.
func TestJournalAbortAfterMoves(t *testing.T) {
	s, path, g := journaled(t)
	play(t, s, g, "a1-a2")
	if err := s.AbortGame(context.Background(), g.ID, "test"); err != nil {
		t.Fatal(err)
	}
	if actions, _, status := stored(t, path, g.ID); actions != `["a1-a2"]` || status != "over" {
		t.Fatalf("%s, %s", actions, status)
	}
	ply := len(g.Actions)
	g.Actions = append(g.Actions, "b1-b2")
	if err := s.Update(context.Background(), g, ply); !errors.Is(err, ErrConflict) {
		t.Fatalf("a move after the abort: %v", err)
	}
}

// A write that names no game's row but a new one's (a visitor's player
// and session, another game made) leaves the journal's rows waiting; one
// that names the games table writes them first (TestJournalAbortAfterMoves).
func TestJournalWaitsForWritesOfGames(t *testing.T) {
	s, path, g := journaled(t)
	play(t, s, g, "a1-a2")
	ctx := context.Background()
	p := &Player{ID: "p1", Address: "192.0.2.1"}
	if err := s.CreatePlayer(ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, "hash", p.ID); err != nil {
		t.Fatal(err)
	}
	g2 := &Game{ID: "g2", Spec: "tablut", Seats: []Seat{{Kind: "human", SecretHash: "a"}, {Kind: "human", SecretHash: "b"}}, DrawOffer: -1, TakebackOffer: -1}
	if err := s.Create(ctx, g2); err != nil {
		t.Fatal(err)
	}
	if writes, _ := s.JournalWrites(); writes != 0 {
		t.Fatalf("%d transactions wrote the journal's rows", writes)
	}
	if actions, _, _ := stored(t, path, g.ID); actions != "[]" {
		t.Fatalf("in the database: %s", actions)
	}
	if _, err := s.exec(ctx, `UPDATE games SET reason = 'x' WHERE id = ?`, g2.ID); err != nil {
		t.Fatal(err)
	}
	if actions, _, _ := stored(t, path, g.ID); actions != `["a1-a2"]` {
		t.Fatalf("after a write of the games table: %s", actions)
	}
}

func TestTouchesMoves(t *testing.T) {
	for q, want := range map[string]bool{
		`INSERT INTO players (id, created, address) VALUES (?, ?, ?)`:                       false,
		`UPDATE challenges SET status = ?, game = ?, closed = ? WHERE id = ?`:               false,
		`INSERT INTO games (id, spec) VALUES (?, ?)`:                                        false,
		`UPDATE games SET status = 'over' WHERE id = ?`:                                     true,
		`DELETE FROM leases WHERE game IN (SELECT id FROM games WHERE status <> 'playing')`: true,
	} {
		if got := touchesMoves(q); got != want {
			t.Errorf("touchesMoves(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestJournalRecordRoundTrip(t *testing.T) {
	r := &journalRecord{seq: 7, mask: 1<<colActions | 1<<colPly | 1<<14, playing: true, id: "g1", updated: 1700000000000, version: 4, ply: 3, from: 3,
		set: []any{`["a"]`, int64(4), "p2"}}
	b := appendJournalRecord(nil, r)
	got, rest, err := readJournalRecord(append(b, 1, 2))
	if err != nil || !bytes.Equal(rest, []byte{1, 2}) || !reflect.DeepEqual(got, r) {
		t.Fatalf("read %+v, %v, %v", got, rest, err)
	}
	b[len(b)-1] ^= 1
	if _, _, err := readJournalRecord(b); err == nil {
		t.Fatal("a garbled record read")
	}
	if _, _, err := readJournalRecord(b[:len(b)-1]); !errors.Is(err, errJournalEnd) {
		t.Fatalf("a record cut short: %v", err)
	}
}

func FuzzJournalRecord(f *testing.F) {
	f.Add(appendJournalRecord(nil, &journalRecord{seq: 1, mask: 1<<colActions | 1<<colPly, id: "g", version: 1, set: []any{"[]", int64(0)}}))
	f.Add([]byte{})
	f.Add([]byte{255, 255, 255, 255, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, _, err := readJournalRecord(b)
		if err != nil {
			return
		}
		again, rest, err := readJournalRecord(appendJournalRecord(nil, r))
		if err != nil || len(rest) != 0 || !reflect.DeepEqual(again, r) {
			t.Fatalf("%+v read back as %+v (%v)", r, again, err)
		}
	})
}

// One server at a time writes a database's journal: a second is refused
// while the first has it, and takes it once the first is closed.
func TestJournalOneServerAtATime(t *testing.T) {
	s, path, _ := journaled(t)
	other := open(t, path)
	if err := other.Journal(nil); err == nil {
		t.Fatal("a second server's journal on the same database")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := other.Journal(nil); err != nil {
		t.Fatalf("once the first is closed: %v", err)
	}
}

// Each kind of journal file holds what was appended, past the room it
// began with, and nothing once emptied; appended again, it holds the new
// records alone.
func TestJournalFiles(t *testing.T) {
	kinds := map[string]func(string, []byte) (journalFile, error){
		"this system's": createJournalFile,
		"written":       func(p string, b []byte) (journalFile, error) { return createWrittenFile(p, b) },
	}
	for name, create := range kinds {
		path := filepath.Join(t.TempDir(), "m.db")
		first := appendJournalRecord(nil, &journalRecord{seq: 1, id: "g0", version: 1})
		f, err := create(JournalPath(path), first)
		if err != nil {
			t.Fatal(err)
		}
		long := string(bytes.Repeat([]byte{'x'}, 100<<10))
		var seq int64 = 1
		for range 50 { // 5 MB, past a mapped file's first room
			seq++
			if err := f.append(appendJournalRecord(nil, &journalRecord{seq: seq, mask: 1 << colActions, id: "g1", set: []any{long}})); err != nil {
				t.Fatal(err)
			}
		}
		if held, end := heldRecords(t, path); len(held) != 51 || held[50].seq != 51 || int64(end) != f.size() {
			t.Fatalf("%s file: %d records to byte %d (size %d), want 51", name, len(held), end, f.size())
		}
		if err := f.empty(); err != nil {
			t.Fatal(err)
		}
		if held, _ := heldRecords(t, path); len(held) != 0 || f.size() != 0 {
			t.Fatalf("%s file emptied: %d records, size %d", name, len(held), f.size())
		}
		if err := f.append(appendJournalRecord(nil, &journalRecord{seq: 52, id: "g2"})); err != nil {
			t.Fatal(err)
		}
		if held, _ := heldRecords(t, path); len(held) != 1 || held[0].seq != 52 {
			t.Fatalf("%s file emptied and appended: %d records", name, len(held))
		}
		if err := f.close(); err != nil {
			t.Fatal(err)
		}
	}
}
