package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestTournaments(t *testing.T) { backends(t, testTournaments) }

// testTournaments: a tournament's players, seeds, rounds and latecomers,
// each step one that only one caller wins.
func testTournaments(t *testing.T, dsn string) {
	ctx := context.Background()
	s := open(t, dsn)
	tr := &Tournament{ID: "t1", Name: "T", Kind: "arena", Spec: "tablut", Minutes: 3, Rounds: 30, MaxPlayers: 8, Creator: "a", CreatorName: "a", Starts: time.Now(), Bots: true}
	if err := s.CreateTournament(ctx, tr); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a", "b"} {
		if err := s.JoinTournament(ctx, "t1", p, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.JoinTournament(ctx, "t1", "a", "a"); err != nil {
		t.Errorf("joining twice: %v", err)
	}
	if err := s.StartTournament(ctx, "t1", map[string]int{"a": 1, "b": 0}, 30); err != nil {
		t.Fatal(err)
	}
	if err := s.StartTournament(ctx, "t1", map[string]int{"a": 0, "b": 1}, 30); !errors.Is(err, ErrChanged) {
		t.Errorf("started twice: %v", err)
	}
	for _, p := range []string{"c", "d"} {
		if err := s.JoinRunning(ctx, "t1", p, p); err != nil {
			t.Fatal(err)
		}
	}
	ps, err := s.TournamentPlayers(ctx, "t1")
	if err != nil || len(ps) != 4 || ps[0].Player != "b" || ps[2].Player != "c" || ps[3].Seed != 3 {
		t.Fatalf("players: %+v %v", ps, err)
	}
	games := []TournamentGame{{Round: 1, White: 0, Black: 1, Game: "g1"}, {Round: 1, White: 2, Black: -1}}
	if err := s.BeginRound(ctx, "t1", 0, games); err != nil {
		t.Fatal(err)
	}
	if err := s.BeginRound(ctx, "t1", 0, games); !errors.Is(err, ErrChanged) {
		t.Errorf("a round begun twice: %v", err)
	}
	got, err := s.TournamentGames(ctx, "t1")
	tt, _ := s.Tournament(ctx, "t1")
	if err != nil || len(got) != 2 || tt.Round != 1 || tt.Status != TournamentRunning || !tt.Bots {
		t.Errorf("after round 1: %+v %+v %v", got, tt, err)
	}
	if err := s.WithdrawTournament(ctx, "t1", "c", true); err != nil {
		t.Fatal(err)
	}
	if err := s.JoinRunning(ctx, "t1", "c", "c"); err != nil {
		t.Fatal(err)
	}
	ps, _ = s.TournamentPlayers(ctx, "t1")
	if len(ps) != 4 || ps[2].Withdrawn {
		t.Errorf("back from a pause: %+v", ps)
	}
	if err := s.FinishTournament(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.Tournaments(ctx, TournamentOver, 10); len(list) != 1 {
		t.Errorf("finished: %+v", list)
	}
}
