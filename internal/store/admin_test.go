package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestAdminChanges(t *testing.T) { backends(t, testAdminChanges) }

// testAdminChanges: an operator aborts a game in play (its version moves
// on, so a server holding it reads it again); renames an account,
// everywhere its name is shown; deletes one, its games kept with its name
// blanked, nothing left to sign in or act with, its game in play due and
// its name held; and lists the busiest addresses.
func testAdminChanges(t *testing.T, dsn string) {
	ctx := context.Background()
	s := open(t, dsn)
	someGames(t, s, 2)
	if err := s.Register(ctx, "p1", "Alice", "alice", "hash"); err != nil {
		t.Fatal(err)
	}
	g, _ := s.Get(ctx, "gamea")
	g.Seats[0].Name, g.Seats[0].SecretHash = "Alice", "secret"
	if err := s.Update(ctx, g, 2); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, "sess", "p1"); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateChallenge(ctx, &Challenge{ID: "c1", Creator: "p1", CreatorName: "Alice", Spec: "tablut", Side: "random", Address: "203.0.113.1"}); err != nil {
		t.Fatal(err)
	}
	m := &Message{Game: "gamea", Room: ChatPlayers, Player: "p1", Name: "Alice", Text: "hello"}
	if err := s.AddMessage(ctx, m); err != nil {
		t.Fatal(err)
	}
	// Abort.
	before, _ := s.Get(ctx, "gameb")
	if err := s.AbortGame(ctx, "gameb", "aborted by the operator"); err != nil {
		t.Fatal(err)
	}
	after, _ := s.Get(ctx, "gameb")
	if after.Status != StatusOver || after.Result != "aborted" || after.Version != before.Version+1 {
		t.Fatalf("aborted: %+v", after)
	}
	if err := s.AbortGame(ctx, "gameb", "again"); !errors.Is(err, ErrConflict) {
		t.Errorf("an abort of a game over: %v", err)
	}
	if err := s.AbortGame(ctx, "nosuch", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an abort of no game: %v", err)
	}
	// Rename.
	if err := s.RenameAccount(ctx, "alice", "Alicia", "alicia"); err != nil {
		t.Fatal(err)
	}
	g, _ = s.Get(ctx, "gamea")
	c, _ := s.Challenge(ctx, "c1")
	ms, _ := s.Messages(ctx, "gamea", []string{ChatPlayers}, 10)
	if p, err := s.PlayerNamed(ctx, "alicia"); err != nil || p.Username != "Alicia" || g.Seats[0].Name != "Alicia" || c.CreatorName != "Alicia" || ms[0].Name != "Alicia" {
		t.Fatalf("renamed: %+v %v, seat %q, challenge %q, chat %q", p, err, g.Seats[0].Name, c.CreatorName, ms[0].Name)
	}
	if err := s.RenameAccount(ctx, "nobody", "X", "x"); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("renaming no account: %v", err)
	}
	// Delete.
	playing, err := s.DeleteAccount(ctx, "alicia")
	if err != nil || len(playing) != 1 || playing[0] != "gamea" {
		t.Fatalf("deleted, the games in play: %v %v", playing, err)
	}
	if _, err := s.PlayerNamed(ctx, "alicia"); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("the deleted name: %v", err)
	}
	g, err = s.Get(ctx, "gamea")
	c, _ = s.Challenge(ctx, "c1")
	ms, _ = s.Messages(ctx, "gamea", []string{ChatPlayers}, 10)
	if err != nil || len(g.Actions) != 2 || g.Seats[0].Name != "" || g.Seats[0].Player != "p1" || c.Status != ChallengeCancelled || ms[0].Name != "Anonymous" {
		t.Fatalf("after the deletion: game %+v %v, challenge %s, chat %q", g, err, c.Status, ms[0].Name)
	}
	if p, err := s.SessionPlayer(ctx, "sess"); err == nil {
		t.Errorf("a session of the deleted account signs in %+v", p)
	}
	// Its seat left, without its secret; its game in play is due now and
	// listed as one a seat of which left; its name is held.
	if !g.Seats[0].Left || g.Seats[0].SecretHash != "" || g.Seats[1].Left {
		t.Errorf("the deleted account's seat: %+v", g.Seats)
	}
	if due, err := s.Overdue(ctx, time.Now().Add(time.Second).UnixMilli(), 10); err != nil || len(due) != 1 || due[0] != "gamea" {
		t.Errorf("due after the deletion: %v %v", due, err)
	}
	if left, err := s.LeftInPlay(ctx, 10); err != nil || len(left) != 1 || left[0] != "gamea" {
		t.Errorf("left in play: %v %v", left, err)
	}
	if err := s.CreatePlayer(ctx, &Player{ID: "p2"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Register(ctx, "p2", "ALICIA", "alicia", "hash"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("the deleted account's name registered again: %v", err)
	}
	if err := s.Register(ctx, "p2", "Bob", "bob", "hash"); err != nil {
		t.Fatal(err)
	}
	if err := s.RenameAccount(ctx, "bob", "Alicia", "alicia"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("renamed to the deleted account's name: %v", err)
	}
	// The busiest addresses.
	busy, err := s.BusiestAddresses(ctx, time.Now().Add(-time.Hour), 10)
	if err != nil || len(busy) != 1 || busy[0].Address != "203.0.113.1" || busy[0].Challenges != 1 {
		t.Fatalf("busiest: %+v %v", busy, err)
	}
}
