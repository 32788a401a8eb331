package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestPlayersAndSessions: an anonymous player signs in by a session,
// takes an account (his games stay his: the id does not change, and they
// show his name), and a second account cannot take the same name in
// another case.
func TestPlayersAndSessions(t *testing.T) { backends(t, testPlayersAndSessions) }

func testPlayersAndSessions(t *testing.T, dsn string) {
	ctx := context.Background()
	s := open(t, dsn)
	a := &Player{ID: "p1", Address: "10.0.0.1"}
	if err := s.CreatePlayer(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, "tok1", "p1"); err != nil {
		t.Fatal(err)
	}
	got, err := s.SessionPlayer(ctx, "tok1")
	if err != nil || got.ID != "p1" || !got.Anonymous() {
		t.Fatalf("session player %+v %v", got, err)
	}
	if _, err := s.SessionPlayer(ctx, "nope"); !errors.Is(err, ErrNoSession) {
		t.Fatalf("unknown session: %v", err)
	}
	g := &Game{ID: "g1", Spec: "tablut", Seats: []Seat{{Kind: SeatHuman, Player: "p1"}, {Kind: SeatAI, Agent: "easy"}}, DrawOffer: -1, TakebackOffer: -1}
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.Register(ctx, "p1", "Carroll", "carroll", "hash"); err != nil {
		t.Fatal(err)
	}
	if err := s.Register(ctx, "p1", "Other", "other", "hash"); !errors.Is(err, ErrRegistered) {
		t.Fatalf("registering twice: %v", err)
	}
	b := &Player{ID: "p2", Address: "10.0.0.1"}
	if err := s.CreatePlayer(ctx, b); err != nil {
		t.Fatal(err)
	}
	if err := s.Register(ctx, "p2", "CARROLL", "carroll", "hash"); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("a taken name: %v", err)
	}
	if err := s.Register(ctx, "nobody", "X", "x", "hash"); !errors.Is(err, ErrNoPlayer) {
		t.Fatalf("an unknown player: %v", err)
	}
	acct, err := s.PlayerNamed(ctx, "carroll")
	if err != nil || acct.ID != "p1" || acct.Username != "Carroll" || acct.PasswordHash != "hash" || acct.Registered.IsZero() {
		t.Fatalf("account %+v %v", acct, err)
	}
	games, err := s.PlayerGames(ctx, "p1", 10)
	if err != nil || len(games) != 1 || games[0].ID != "g1" || games[0].Seats[0].Player != "p1" {
		t.Fatalf("the anonymous game kept: %v %v", games, err)
	}
	// The game shows him by his new name, its version moved on so that a
	// server holding it reads it again; the failed registrations changed
	// nothing.
	if games[0].Seats[0].Name != "Carroll" || games[0].Version != g.Version+1 {
		t.Fatalf("after registering the seat is named %q, version %d (was %d)", games[0].Seats[0].Name, games[0].Version, g.Version)
	}
	if ids, err := s.PlayerGameIDs(ctx, "p1", 10); err != nil || len(ids) != 1 || ids[0] != "g1" {
		t.Fatalf("the player's game ids: %v %v", ids, err)
	}
	if n, err := s.RegisteredSince(ctx, "10.0.0.1", time.Now().Add(-time.Hour)); err != nil || n != 1 {
		t.Fatalf("accounts from the address: %d %v", n, err)
	}
	if err := s.DeleteSession(ctx, "tok1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SessionPlayer(ctx, "tok1"); !errors.Is(err, ErrNoSession) {
		t.Fatalf("after sign-out: %v", err)
	}
}

// TestFinishRated: a rated game's end and both ratings are written
// together; a stale writer changes neither.
func TestFinishRated(t *testing.T) { backends(t, testFinishRated) }

func testFinishRated(t *testing.T, dsn string) {
	ctx := context.Background()
	s := open(t, dsn)
	for _, id := range []string{"a", "b"} {
		if err := s.CreatePlayer(ctx, &Player{ID: id}); err != nil {
			t.Fatal(err)
		}
		if err := s.Register(ctx, id, "user"+id, "user"+id, "h"); err != nil {
			t.Fatal(err)
		}
	}
	g := &Game{ID: "r1", Spec: "tablut", Rated: true, Seats: []Seat{{Kind: SeatHuman, Player: "a"}, {Kind: SeatHuman, Player: "b"}}, DrawOffer: -1, TakebackOffer: -1}
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	rs := []Rating{{Player: "a", Game: "tablut", R: 1662, RD: 290, Vol: 0.06, Games: 1, Updated: now}, {Player: "b", Game: "tablut", R: 1338, RD: 290, Vol: 0.06, Games: 1, Updated: now}}
	g.Status, g.Result = StatusOver, "attackers"
	g.Ratings = []RatingChange{{Seat: 0, Player: "a", Before: 1500, After: 1662, RD: 290}, {Seat: 1, Player: "b", Before: 1500, After: 1338, RD: 290}}
	stale := *g
	if err := s.FinishRated(ctx, g, 0, rs); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishRated(ctx, &stale, 0, []Rating{{Player: "a", Game: "tablut", R: 9999, RD: 50, Vol: 0.06, Updated: now}}); !errors.Is(err, ErrConflict) {
		t.Fatalf("a stale finish: %v", err)
	}
	ra, err := s.Ratings(ctx, "a")
	if err != nil || ra["tablut"].R != 1662 || ra["tablut"].Games != 1 {
		t.Fatalf("ratings of a: %+v %v", ra, err)
	}
	back, err := s.Get(ctx, "r1")
	if err != nil || !back.Rated || len(back.Ratings) != 2 || back.Ratings[1].After != 1338 {
		t.Fatalf("the game's rating changes: %+v %v", back, err)
	}
	board, err := s.Leaderboard(ctx, "tablut", 350, 10)
	if err != nil || len(board) != 2 || board[0].Username != "usera" || board[1].R != 1338 {
		t.Fatalf("leaderboard %+v %v", board, err)
	}
	if board, _ := s.Leaderboard(ctx, "tablut", 110, 10); len(board) != 0 {
		t.Fatalf("provisional ratings on the leaderboard: %+v", board)
	}
}

// TestForgetIdleAnonymous: an anonymous player made long ago with nothing
// of his own is forgotten with his session; one with a game, an account,
// and a new one are kept.
func TestForgetIdleAnonymous(t *testing.T) { backends(t, testForgetIdleAnonymous) }

func testForgetIdleAnonymous(t *testing.T, dsn string) {
	s := open(t, dsn)
	ctx := context.Background()
	old := time.Now().Add(-48 * time.Hour)
	for _, p := range []*Player{{ID: "idle"}, {ID: "player"}, {ID: "acct"}, {ID: "fresh"}} {
		if err := s.CreatePlayer(ctx, p); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateSession(ctx, "tok-"+p.ID, p.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.db.ExecContext(ctx, s.q(`UPDATE players SET created = ? WHERE id <> 'fresh'`), old.UnixMilli()); err != nil {
		t.Fatal(err)
	}
	if err := s.Register(ctx, "acct", "Alice", "alice", "hash"); err != nil {
		t.Fatal(err)
	}
	g := &Game{ID: "g1", Spec: "tablut", Seats: []Seat{{Kind: SeatHuman, Player: "player"}, {Kind: SeatAI, Agent: "easy"}}, DrawOffer: -1, TakebackOffer: -1}
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	n, err := s.ForgetIdleAnonymous(ctx, time.Now().Add(-24*time.Hour), 100)
	if err != nil || n != 1 {
		t.Fatalf("forgot %d: %v, want 1", n, err)
	}
	if _, err := s.SessionPlayer(ctx, "tok-idle"); !errors.Is(err, ErrNoSession) {
		t.Fatalf("the idle player's session: %v", err)
	}
	for _, id := range []string{"player", "acct", "fresh"} {
		if p, err := s.SessionPlayer(ctx, "tok-"+id); err != nil || p.ID != id {
			t.Fatalf("%s kept: %v %v", id, p, err)
		}
	}
}
