package tournaments

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
	"github.com/muster-games/muster/tournament"
)

// state is a tournament as its stored games leave it.
type state struct {
	// players by seed (before the start: by joining).
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
// moved, or called off in its first moves) counts as a draw.
func resultOf(rec *store.Game) (tournament.Result, error) {
	if rec.Status != store.StatusOver {
		return tournament.Pending, nil
	}
	g, err := game.Load(rec.Spec)
	if err != nil {
		return tournament.Pending, err
	}
	switch rec.Result {
	case g.PlayerName(0):
		return tournament.WhiteWin, nil
	case g.PlayerName(1):
		return tournament.BlackWin, nil
	}
	return tournament.Draw, nil
}

func (s *Service) state(ctx context.Context, t *store.Tournament) (*state, error) {
	ps, err := s.store.TournamentPlayers(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	gs, err := s.store.TournamentGames(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	st := &state{players: ps, games: gs, result: map[string]tournament.Result{}, recs: map[string]*store.Game{}}
	for _, tg := range gs {
		if tg.Black < 0 {
			st.results = append(st.results, tournament.Game{Round: tg.Round, White: tg.White, Black: tournament.Bye})
			continue
		}
		res := tournament.Pending
		rec, err := s.store.Get(ctx, tg.Game)
		switch {
		case errors.Is(err, store.ErrNotFound):
			// Not made yet (a server stopped between pairing and
			// starting): the director makes it.
		case err != nil:
			return nil, err
		default:
			st.recs[tg.Game] = rec
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
		keep(s.advance(ctx, t))
	}
	if first != nil {
		s.log.Warn("tournaments", "err", first)
	}
	return first
}

// start seeds the players (by rating in the game, then by joining) and
// fixes a round robin's rounds, or calls the tournament off.
func (s *Service) start(ctx context.Context, t *store.Tournament) error {
	ps, err := s.store.TournamentPlayers(ctx, t.ID)
	if err != nil {
		return err
	}
	if len(ps) < 2 {
		return s.store.CancelTournament(ctx, t.ID)
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
	seeds := map[string]int{}
	for i, p := range ps {
		seeds[p.Player] = i
	}
	rounds := t.Rounds
	if t.Kind == RoundRobin {
		rounds = len(ps) - 1 + len(ps)%2
	}
	return s.store.StartTournament(ctx, t.ID, seeds, rounds)
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
	if _, err := s.store.Get(ctx, tg.Game); err == nil {
		return nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
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
