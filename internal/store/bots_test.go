package store

import (
	"context"
	"errors"
	"testing"
)

func TestBots(t *testing.T) { backends(t, testBots) }

// testBots: only an account without games becomes a bot; a token signs
// in its bot until revoked, by its owner only.
func testBots(t *testing.T, dsn string) {
	ctx := context.Background()
	s := open(t, dsn)
	for _, id := range []string{"anon", "bot", "busy"} {
		if err := s.CreatePlayer(ctx, &Player{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.MakeBot(ctx, "anon"); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("anonymous: %v", err)
	}
	for _, id := range []string{"bot", "busy"} {
		if err := s.Register(ctx, id, id, id, "hash"); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateBotToken(ctx, "bot", "t1", "h1"); !errors.Is(err, ErrNotBot) {
		t.Errorf("a token before it is a bot: %v", err)
	}
	if err := s.Create(ctx, &Game{ID: "g", Spec: "tablut", Seats: []Seat{{Kind: "human", Player: "busy"}, {Kind: "ai", Agent: "easy"}}, DrawOffer: -1}); err != nil {
		t.Fatal(err)
	}
	if err := s.MakeBot(ctx, "busy"); !errors.Is(err, ErrHasGames) {
		t.Errorf("an account with a game: %v", err)
	}
	if err := s.MakeBot(ctx, "bot"); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateBotToken(ctx, "bot", "t1", "h1"); err != nil {
		t.Fatal(err)
	}
	p, err := s.TokenPlayer(ctx, "h1")
	if err != nil || p.ID != "bot" || !p.Bot {
		t.Fatalf("token player: %+v %v", p, err)
	}
	ts, err := s.BotTokens(ctx, "bot")
	if err != nil || len(ts) != 1 || ts[0].ID != "t1" || ts[0].Used.IsZero() {
		t.Errorf("tokens: %+v %v", ts, err)
	}
	if err := s.DeleteBotToken(ctx, "busy", "t1"); !errors.Is(err, ErrNoToken) {
		t.Errorf("another's revoke: %v", err)
	}
	if err := s.DeleteBotToken(ctx, "bot", "t1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TokenPlayer(ctx, "h1"); !errors.Is(err, ErrNoToken) {
		t.Errorf("a revoked token: %v", err)
	}
}
