package tournaments

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/events"
	"github.com/muster-games/muster/internal/outcome"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
	"github.com/muster-games/muster/tournament"
)

// state is a tournament as its stored games leave it.
type state struct {
	// players by seed, each at the index of his seed (before the start:
	// every entrant, by joining). The games name players by seed, never
	// by place in a list.
	players []store.TournamentPlayer
	games   []store.TournamentGame
	// results are the finished games and the byes, for the pairings and
	// standings; result each game's by id.
	results []tournament.Game
	result  map[string]tournament.Result
	// pending counts the current round's games still playing.
	pending int
	// recs are the stored games by id (those made so far).
	recs map[string]*store.Game
}

// resultOf reads a stored game's result for a tournament: the winner by
// seat, a draw, or Pending while it goes on. An aborted game (nobody
// moved, or called off in its first moves) counts as a draw, as does one
// ended on equal scores.
func resultOf(rec *store.Game) (tournament.Result, error) {
	if rec.Status != store.StatusOver {
		return tournament.Pending, nil
	}
	g, err := game.Load(rec.Spec)
	if err != nil {
		return tournament.Pending, err
	}
	o, err := outcome.Read(g, rec.Result, rec.Reason)
	if err != nil {
		return tournament.Pending, err
	}
	switch {
	case o.Kind == outcome.Win && o.Winner == 0:
		return tournament.WhiteWin, nil
	case o.Kind == outcome.Win && o.Winner == 1:
		return tournament.BlackWin, nil
	}
	return tournament.Draw, nil
}

func (s *Service) state(ctx context.Context, t *store.Tournament) (*state, error) {
	ps, err := s.store.TournamentPlayers(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	if t.Status != store.TournamentOpen {
		if ps, err = bySeed(t.ID, ps); err != nil {
			return nil, err
		}
	}
	gs, err := s.store.TournamentGames(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	st := &state{players: ps, games: gs, result: map[string]tournament.Result{}, recs: map[string]*store.Game{}}
	// The games, read at once: one query, not one a game.
	var ids []string
	for _, tg := range gs {
		if tg.Black >= 0 {
			if tg.White >= len(ps) || tg.Black >= len(ps) {
				return nil, fmt.Errorf("tournaments: %s: game %s pairs seeds %d and %d of %d players", t.ID, tg.Game, tg.White, tg.Black, len(ps))
			}
			ids = append(ids, tg.Game)
		}
	}
	recs, err := s.store.GetMany(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		st.recs[rec.ID] = rec
	}
	for _, tg := range gs {
		if tg.Black < 0 {
			st.results = append(st.results, tournament.Game{Round: tg.Round, White: tg.White, Black: tournament.Bye})
			continue
		}
		res := tournament.Pending
		// A game not made yet (a server stopped between pairing and
		// starting) is pending: the director makes it.
		if rec := st.recs[tg.Game]; rec != nil {
			if res, err = resultOf(rec); err != nil {
				return nil, err
			}
		}
		st.result[tg.Game] = res
		if res == tournament.Pending {
			if tg.Round == t.Round {
				st.pending++
			}
			continue
		}
		st.results = append(st.results, tournament.Game{Round: tg.Round, White: tg.White, Black: tg.Black, Result: res})
	}
	return st, nil
}

// bySeed puts each seeded player at the index of his seed: the seeds of
// a tournament that has begun run from 0 without a gap.
func bySeed(id string, ps []store.TournamentPlayer) ([]store.TournamentPlayer, error) {
	out := make([]store.TournamentPlayer, 0, len(ps))
	for _, p := range ps {
		if p.Seed < 0 {
			continue // entered after the start: not in it
		}
		if p.Seed != len(out) {
			return nil, fmt.Errorf("tournaments: %s: seed %d of %s, want %d", id, p.Seed, p.Name, len(out))
		}
		out = append(out, p)
	}
	return out, nil
}

// GameFinished advances the tournament of a game that has just ended, if
// it belongs to one: the next round, or an arena's next pairings, start
// as its last game ends, without waiting for a sweep (events.Hub calls
// it).
func (s *Service) GameFinished(ctx context.Context, e events.GameFinished) {
	id, err := s.store.TournamentOfGame(ctx, e.Game)
	switch {
	case errors.Is(err, store.ErrNoTournament):
		return
	case err == nil:
		err = s.Advance(ctx, id)
	}
	if err != nil && ctx.Err() == nil && !errors.Is(err, store.ErrChanged) {
		s.log.Warn("tournaments: after a game", "game", e.Game, "err", err)
	}
}

// Advance does what is due in one running tournament: makes its games
// not yet made, pairs its next round once the last is over, or ends it.
func (s *Service) Advance(ctx context.Context, id string) error {
	defer s.advancing.Lock(id)()
	t, err := s.store.Tournament(ctx, id)
	if err != nil || t.Status != store.TournamentRunning {
		return err
	}
	return s.advance(ctx, t)
}

// Due does what the time makes due, reading no game but where it must:
// starts the tournaments whose time has come (pairing their first round)
// or calls them off, and ends the arenas whose time is up. The rest
// follows from the games' ends (GameFinished) and the joins. The server
// runs it every few seconds.
func (s *Service) Due(ctx context.Context) error {
	open, err := s.store.Tournaments(ctx, store.TournamentOpen, 1000)
	if err != nil {
		return err
	}
	var first error
	keep := func(err error) {
		if err != nil && first == nil && !errors.Is(err, store.ErrChanged) {
			first = err
		}
	}
	for _, t := range open {
		if s.now().Before(t.Starts) {
			continue
		}
		if err := s.start(ctx, t); err != nil {
			keep(err)
			continue
		}
		keep(s.Advance(ctx, t.ID))
	}
	running, err := s.store.Tournaments(ctx, store.TournamentRunning, 1000)
	if err != nil {
		return err
	}
	for _, t := range running {
		if t.Kind == Arena && !s.now().Before(t.Starts.Add(time.Duration(t.Rounds)*time.Minute)) {
			keep(s.Advance(ctx, t.ID))
		}
	}
	if first != nil {
		s.log.Warn("tournaments", "err", first)
	}
	return first
}

// Sweep advances the running tournaments the database finds waiting
// (store.TournamentsDue): a round whose games are all over, a game paired
// and not made, an arena with players free. It reads no game of the
// others. The server runs it every few minutes, to make up for an event
// lost with a server that stopped; the games' ends advance the
// tournaments at once.
func (s *Service) Sweep(ctx context.Context) error {
	ids, err := s.store.TournamentsDue(ctx, 1000)
	if err != nil {
		return err
	}
	var first error
	for _, id := range ids {
		if err := s.Advance(ctx, id); err != nil && first == nil && !errors.Is(err, store.ErrChanged) {
			first = err
		}
	}
	if first != nil {
		s.log.Warn("tournaments", "err", first)
	}
	return first
}

// Tick does what is due in every tournament: starts those whose time has
// come (or calls them off, with fewer than two players), makes any game
// of a round paired but not yet made, and pairs the next round where the
// last one is over, or ends the tournament. It returns the first error.
func (s *Service) Tick(ctx context.Context) error {
	var first error
	keep := func(err error) {
		if err != nil && first == nil && !errors.Is(err, store.ErrChanged) {
			first = err
		}
	}
	open, err := s.store.Tournaments(ctx, store.TournamentOpen, 1000)
	if err != nil {
		return err
	}
	for _, t := range open {
		if s.now().Before(t.Starts) {
			continue
		}
		keep(s.start(ctx, t))
	}
	running, err := s.store.Tournaments(ctx, store.TournamentRunning, 1000)
	if err != nil {
		return err
	}
	for _, t := range running {
		keep(s.Advance(ctx, t.ID))
	}
	if first != nil {
		s.log.Warn("tournaments", "err", first)
	}
	return first
}

// start seeds the players (by rating in the game, then by joining) and
// fixes a round robin's rounds, or calls the tournament off. The players
// seeded are those the store has as it starts the tournament, in the same
// transaction (a join or withdrawal at that moment lands before or
// after, never between).
func (s *Service) start(ctx context.Context, t *store.Tournament) error {
	ps, err := s.store.TournamentPlayers(ctx, t.ID)
	if err != nil {
		return err
	}
	g, err := game.Load(t.Spec)
	if err != nil {
		return err
	}
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = p.Player
	}
	ratings, err := s.store.RatingsOf(ctx, ids)
	if err != nil {
		return err
	}
	rating := func(id string) float64 {
		if r, ok := ratings[id][g.Name()]; ok {
			return r.R
		}
		return 1500
	}
	err = s.store.StartTournament(ctx, t.ID, func(ps []store.TournamentPlayer) int {
		slices.SortStableFunc(ps, func(a, b store.TournamentPlayer) int {
			ra, rb := rating(a.Player), rating(b.Player)
			switch {
			case ra > rb:
				return -1
			case ra < rb:
				return 1
			}
			return a.Joined.Compare(b.Joined)
		})
		if t.Kind == RoundRobin {
			return len(ps) - 1 + len(ps)%2
		}
		return t.Rounds
	})
	if errors.Is(err, store.ErrTooFew) {
		return nil // called off
	}
	return err
}

// advance makes missing games, and pairs the next round when the last
// one is over, or ends the tournament after its last round.
func (s *Service) advance(ctx context.Context, t *store.Tournament) error {
	st, err := s.state(ctx, t)
	if err != nil {
		return err
	}
	if t.Kind == Arena {
		return s.advanceArena(ctx, t, st)
	}
	for _, tg := range st.games {
		if tg.Black >= 0 && tg.Round == t.Round {
			if err := s.ensureGame(ctx, t, st, tg); err != nil {
				return err
			}
		}
	}
	if st.pending > 0 {
		return nil
	}
	if t.Round >= t.Rounds {
		return s.store.FinishTournament(ctx, t.ID)
	}
	pairs, err := s.pair(t, st)
	if err != nil {
		return err
	}
	next := t.Round + 1
	var games []store.TournamentGame
	for _, p := range pairs {
		tg := store.TournamentGame{Round: next, White: p.White, Black: p.Black}
		if p.Black != tournament.Bye {
			tg.Game = token.ID()
		} else {
			tg.Black = -1
		}
		games = append(games, tg)
	}
	if err := s.store.BeginRound(ctx, t.ID, t.Round, games); err != nil {
		return err
	}
	t.Round = next
	st.games = append(st.games, games...)
	for _, tg := range games {
		if tg.Black >= 0 {
			if err := s.ensureGame(ctx, t, st, tg); err != nil {
				return err
			}
		}
	}
	return nil
}

// pair is the next round's pairings: a round robin's from Berger's
// tables (a withdrawn player's opponent has the bye), a Swiss's from the
// results.
func (s *Service) pair(t *store.Tournament, st *state) ([]tournament.Pairing, error) {
	n := len(st.players)
	var withdrawn []int
	for i, p := range st.players {
		if p.Withdrawn {
			withdrawn = append(withdrawn, i)
		}
	}
	if t.Kind == Swiss {
		games, err := tournament.Swiss(n, st.results, withdrawn)
		if err != nil {
			return nil, err
		}
		out := make([]tournament.Pairing, len(games))
		for i, g := range games {
			out[i] = tournament.Pairing{White: g.White, Black: g.Black}
		}
		return out, nil
	}
	rounds, err := tournament.RoundRobin(n)
	if err != nil {
		return nil, err
	}
	if t.Round >= len(rounds) {
		return nil, fmt.Errorf("tournaments: %s: round %d of %d", t.ID, t.Round+1, len(rounds))
	}
	var out []tournament.Pairing
	for _, p := range rounds[t.Round] {
		w, b := slices.Contains(withdrawn, p.White), p.Black != tournament.Bye && slices.Contains(withdrawn, p.Black)
		switch {
		case w && (b || p.Black == tournament.Bye):
		case w:
			out = append(out, tournament.Pairing{White: p.Black, Black: tournament.Bye})
		case b:
			out = append(out, tournament.Pairing{White: p.White, Black: tournament.Bye})
		default:
			out = append(out, p)
		}
	}
	return out, nil
}

// ensureGame makes and starts a paired game that the store lacks.
func (s *Service) ensureGame(ctx context.Context, t *store.Tournament, st *state, tg store.TournamentGame) error {
	if st.recs[tg.Game] != nil {
		return nil
	}
	g, err := game.Load(t.Spec)
	if err != nil {
		return err
	}
	w, b := st.players[tg.White], st.players[tg.Black]
	rec := &store.Game{ID: tg.Game, Spec: g.Spec(), DrawOffer: -1, TakebackOffer: -1, Rated: t.Rated, Seats: []store.Seat{
		{Kind: store.SeatHuman, Player: w.Player, Name: w.Name, SecretHash: token.Hash(token.New(16)), Bot: w.Bot},
		{Kind: store.SeatHuman, Player: b.Player, Name: b.Name, SecretHash: token.Hash(token.New(16)), Bot: b.Bot},
	}}
	if rec.Clock, err = play.ClockFor(t.Minutes, t.Increment, t.Days); err != nil {
		return err
	}
	if rec.Rated {
		if err := s.games.SnapshotRatings(ctx, rec); err != nil {
			return err
		}
	}
	rec.ToAct = play.ToActOf(rec, g.NewState())
	if err := s.games.Start(ctx, rec); err != nil {
		// Another server (or sweep) made it meanwhile: nothing to do.
		if _, gerr := s.store.Get(ctx, tg.Game); gerr == nil {
			return nil
		}
		return err
	}
	return nil
}
