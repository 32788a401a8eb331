// Package tournaments runs the site's events — round robins and Swiss
// events of a fixed number of rounds, with live clocks or days a move —
// on package tournament's pairings and tie-breaks. An account creates one
// (with limits), players join and leave until it starts, and then the
// server alone pairs each round as the last one ends and starts its
// games. Everything is read from and written to the store, each step a
// conditional change that one server wins, so a restart or another
// server sharing PostgreSQL takes up where it stood.
package tournaments

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/moderation"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
	"github.com/muster-games/muster/tournament"
)

// Identity tells who a request comes from (internal/identity).
type Identity interface {
	Me(r *http.Request) (*store.Player, error)
}

// Games starts the tournaments' games (internal/play).
type Games interface {
	Start(ctx context.Context, rec *store.Game) error
	SnapshotRatings(ctx context.Context, rec *store.Game) error
}

// Kinds of tournament.
const (
	RoundRobin = "roundrobin"
	Swiss      = "swiss"
)

// Limits.
const (
	PerDay        = 3  // tournaments an account creates a day
	MaxPlayers    = 32 // in a Swiss
	MaxRoundRobin = 12 // in a round robin
	MaxRounds     = 11 // of a Swiss
	MaxArena      = 64 // in an arena
	MaxStartsIn   = 7 * 24 * 60
	maxName       = 60
	listShown     = 30
)

// Service serves the tournaments and runs them.
type Service struct {
	// Now is the clock (tests move it).
	Now   func() time.Time
	store *store.Store
	api   *httpx.API
	log   *slog.Logger
	ids   Identity
	games Games
	// advancing orders this server's advances of one tournament.
	advancing auth.Locks
}

// New returns the tournaments' service.
func New(st *store.Store, api *httpx.API, ids Identity, games Games) *Service {
	return &Service{Now: time.Now, store: st, api: api, log: api.Log, ids: ids, games: games}
}

func (s *Service) now() time.Time { return s.Now() }

// Routes adds the tournaments' routes to mux.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/tournaments", s.api.Func(s.create))
	mux.HandleFunc("GET /api/tournaments", s.api.Func(s.list))
	mux.HandleFunc("GET /api/tournaments/{id}", s.api.Func(s.get))
	mux.HandleFunc("POST /api/tournaments/{id}/join", s.api.Func(s.join))
	mux.HandleFunc("POST /api/tournaments/{id}/withdraw", s.api.Func(s.withdraw))
	mux.HandleFunc("POST /api/tournaments/{id}/start", s.api.Func(s.startNow))
}

// startNow lets the creator start his open tournament early, once two
// players are in.
func (s *Service) startNow(w http.ResponseWriter, r *http.Request) error {
	me, err := s.player(r, false)
	if err != nil {
		return err
	}
	ctx := r.Context()
	t, err := s.store.Tournament(ctx, r.PathValue("id"))
	if err != nil {
		return errGone
	}
	switch {
	case t.Creator != me.ID:
		return httpx.NewError(http.StatusForbidden, "only its creator may start a tournament early")
	case t.Status != store.TournamentOpen:
		return errStarted
	}
	ps, err := s.store.TournamentPlayers(ctx, t.ID)
	if err != nil {
		return httpx.Unavailable(err)
	}
	if len(ps) < 2 {
		return httpx.NewError(http.StatusConflict, "a tournament needs two players to start")
	}
	if err := s.store.StartNow(ctx, t.ID); err != nil {
		return errStarted
	}
	return s.answer(w, r, t.ID, http.StatusOK)
}

var (
	errAccount = httpx.NewError(http.StatusForbidden, "tournaments are for accounts: register or sign in first")
	errBot     = httpx.NewError(http.StatusForbidden, "a bot plays only those who ask for it: it joins only tournaments open to bots, and creates none")
	errGone    = httpx.NewError(http.StatusNotFound, "no such tournament")
	errStarted = httpx.NewError(http.StatusConflict, "the tournament has started: no one joins now")
	errFull    = httpx.NewError(http.StatusConflict, "the tournament is full")
)

type createRequest struct {
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	Game      string  `json:"game"`
	Ruleset   string  `json:"ruleset"`
	Minutes   float64 `json:"minutes,omitempty"`
	Increment float64 `json:"increment,omitempty"`
	Days      int     `json:"days,omitempty"`
	Rated     bool    `json:"rated,omitempty"`
	Rounds    int     `json:"rounds,omitempty"`
	// MaxPlayers bounds the entrants (default: the kind's most).
	MaxPlayers int `json:"max_players,omitempty"`
	// Bots lets bot accounts join.
	Bots bool `json:"bots,omitempty"`
	// Duration is an arena's minutes (10 to 720).
	Duration int `json:"duration,omitempty"`
	// StartsIn is the minutes until it starts (0, at once, to a week).
	StartsIn int `json:"starts_in"`
}

// player returns the request's account, refusing anonymous players,
// bots and banned accounts.
func (s *Service) player(r *http.Request, botsAllowed bool) (*store.Player, error) {
	me, err := s.ids.Me(r)
	switch {
	case err != nil:
		return nil, err
	case me == nil || me.Anonymous():
		return nil, errAccount
	case me.Bot && !botsAllowed:
		return nil, errBot
	}
	if err := moderation.Check(me, false); err != nil {
		return nil, err
	}
	return me, nil
}

func (s *Service) create(w http.ResponseWriter, r *http.Request) error {
	var req createRequest
	if err := s.api.Decode(w, r, &req); err != nil {
		return err
	}
	bad := func(f string, a ...any) error { return httpx.WithCode(http.StatusBadRequest, fmt.Errorf(f, a...)) }
	g, err := game.Load(play.SpecOf(req.Game, req.Ruleset))
	if err != nil {
		return httpx.WithCode(http.StatusBadRequest, err)
	}
	if c, err := play.ClockFor(req.Minutes, req.Increment, req.Days); err != nil {
		return httpx.WithCode(http.StatusBadRequest, err)
	} else if c == nil {
		// A game without a clock never ends if one side stops moving:
		// the whole tournament would wait for it.
		return bad("a tournament is played on a clock: minutes (and an increment) or days a move")
	}
	name := strings.TrimSpace(req.Name)
	most := MaxPlayers
	switch req.Kind {
	case RoundRobin:
		most, req.Rounds = MaxRoundRobin, 0
	case Swiss:
		if req.Rounds < 1 || req.Rounds > MaxRounds {
			return bad("a Swiss has 1 to %d rounds", MaxRounds)
		}
	case Arena:
		most = MaxArena
		if req.Duration < 10 || req.Duration > 720 {
			return bad("an arena lasts 10 to 720 minutes")
		}
		if req.Minutes <= 0 || req.Days > 0 {
			return bad("an arena is played on a live clock")
		}
		req.Rounds = req.Duration
	default:
		return bad("kind %q: %s, %s or %s", req.Kind, RoundRobin, Swiss, Arena)
	}
	switch {
	case name == "" || utf8.RuneCountInString(name) > maxName || strings.ContainsFunc(name, func(c rune) bool { return c < ' ' }):
		return bad("a tournament's name is 1 to %d characters on one line", maxName)
	case moderation.Visible(name) != nil:
		return bad("a tournament's name: %v", moderation.Visible(name))
	case req.MaxPlayers == 0:
		req.MaxPlayers = most
	case req.MaxPlayers < 2 || req.MaxPlayers > most:
		return bad("a %s has 2 to %d players", req.Kind, most)
	}
	if req.StartsIn < 0 || req.StartsIn > MaxStartsIn {
		return bad("it starts in 0 minutes to a week (%d minutes)", MaxStartsIn)
	}
	me, err := s.player(r, false)
	if err != nil {
		return err
	}
	if n, err := s.store.TournamentsCreatedSince(r.Context(), me.ID, time.Now().Add(-24*time.Hour)); err != nil {
		return httpx.Unavailable(err)
	} else if n >= PerDay {
		return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("at most %d tournaments a day from one account", PerDay))
	}
	t := &store.Tournament{ID: token.ID(), Name: name, Kind: req.Kind, Spec: g.Spec(), Minutes: req.Minutes, Increment: req.Increment, Days: req.Days,
		Rated: req.Rated, Bots: req.Bots, Rounds: req.Rounds, MaxPlayers: req.MaxPlayers, Creator: me.ID, CreatorName: me.Username,
		Starts: s.now().Add(time.Duration(req.StartsIn) * time.Minute)}
	if err := s.store.CreateTournament(r.Context(), t); err != nil {
		return httpx.Unavailable(err)
	}
	if err := s.store.JoinTournament(r.Context(), t.ID, me.ID, me.Username); err != nil {
		return httpx.Unavailable(err)
	}
	return s.answer(w, r, t.ID, http.StatusCreated)
}

func (s *Service) join(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := s.store.Tournament(ctx, r.PathValue("id"))
	if err != nil {
		return errGone
	}
	me, err := s.player(r, t.Bots)
	if err != nil {
		return err
	}
	// The checks (open, or an arena running; a place left) and the entry
	// are one transaction: of many joining at once, no more enter than
	// there are places, and none after the start.
	switch err := s.store.JoinTournament(ctx, t.ID, me.ID, me.Username); {
	case errors.Is(err, store.ErrChanged):
		return errStarted
	case errors.Is(err, store.ErrTournamentFull):
		return errFull
	case err != nil:
		return httpx.Unavailable(err)
	}
	if t.Kind == Arena && t.Status == store.TournamentRunning {
		// A latecomer to an arena is paired at once.
		if err := s.Advance(ctx, t.ID); err != nil {
			s.log.Warn("pairing an arena's latecomer", "tournament", t.ID, "err", err)
		}
	}
	return s.answer(w, r, t.ID, http.StatusOK)
}

func (s *Service) withdraw(w http.ResponseWriter, r *http.Request) error {
	me, err := s.ids.Me(r)
	if err != nil {
		return err
	}
	if me == nil {
		return errAccount
	}
	t, err := s.store.Tournament(r.Context(), r.PathValue("id"))
	if err != nil {
		return errGone
	}
	if t.Status == store.TournamentOver {
		return httpx.NewError(http.StatusConflict, "the tournament is over")
	}
	if err := s.store.WithdrawTournament(r.Context(), t.ID, me.ID); err != nil {
		return httpx.Unavailable(err)
	}
	return s.answer(w, r, t.ID, http.StatusOK)
}

// Summary is a tournament in a list.
type Summary struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Spec    string `json:"spec"`
	Clock   string `json:"clock"`
	Rated   bool   `json:"rated"`
	Starts  int64  `json:"starts"`
	Status  string `json:"status"`
	Round   int    `json:"round"`
	Rounds  int    `json:"rounds"`
	Players int    `json:"players"`
	Creator string `json:"creator"`
	Bots    bool   `json:"bots,omitempty"`
}

func clockText(t *store.Tournament) string {
	switch {
	case t.Days > 0:
		return fmt.Sprintf("%d days a move", t.Days)
	case t.Minutes > 0:
		return fmt.Sprintf("%g+%g", t.Minutes, t.Increment)
	}
	return "no clock"
}

func (s *Service) summary(ctx context.Context, t *store.Tournament) (Summary, error) {
	ps, err := s.store.TournamentPlayers(ctx, t.ID)
	if err != nil {
		return Summary{}, err
	}
	return Summary{ID: t.ID, Name: t.Name, Kind: t.Kind, Spec: t.Spec, Clock: clockText(t), Rated: t.Rated, Starts: t.Starts.UnixMilli(),
		Status: t.Status, Round: t.Round, Rounds: t.Rounds, Players: len(ps), Creator: t.CreatorName, Bots: t.Bots}, nil
}

// list answers the open tournaments (soonest first), those running, and
// the latest finished.
func (s *Service) list(w http.ResponseWriter, r *http.Request) error {
	out := map[string][]Summary{}
	for _, st := range []string{store.TournamentOpen, store.TournamentRunning, store.TournamentOver} {
		ts, err := s.store.Tournaments(r.Context(), st, listShown)
		if err != nil {
			return httpx.Unavailable(err)
		}
		out[st] = []Summary{}
		for _, t := range ts {
			sm, err := s.summary(r.Context(), t)
			if err != nil {
				return httpx.Unavailable(err)
			}
			out[st] = append(out[st], sm)
		}
	}
	slices.SortFunc(out[store.TournamentOpen], func(a, b Summary) int { return int(a.Starts - b.Starts) })
	return s.api.JSON(w, http.StatusOK, out)
}

// View is a tournament's page: its standings, rounds and games.
type View struct {
	Summary
	MaxPlayers int       `json:"max_players"`
	Tiebreaks  []string  `json:"tiebreaks"`
	Standings  []Line    `json:"standings"`
	Games      [][]Board `json:"round_games"`
	// In says the asking player has joined (and not withdrawn); Mine
	// that he created it.
	In   bool `json:"in"`
	Mine bool `json:"mine"`
	// Ends is when an arena ends (Unix ms).
	Ends int64 `json:"ends,omitempty"`
}

// Line is a player's line of the standings.
type Line struct {
	Rank      int       `json:"rank"`
	Name      string    `json:"name"`
	Points    float64   `json:"points"`
	Tiebreaks []float64 `json:"tiebreaks"`
	Played    int       `json:"played"`
	Withdrawn bool      `json:"withdrawn,omitempty"`
	// Scores are an arena player's points game by game; Fire says he is
	// on a streak (his next win scores double).
	Scores []int `json:"scores,omitempty"`
	Fire   bool  `json:"fire,omitempty"`
	// player is the line's player (his seed).
	player int
}

// Board is a game of a round.
type Board struct {
	White  string `json:"white"`
	Black  string `json:"black"` // "" for a bye
	Game   string `json:"game,omitempty"`
	Result string `json:"result"` // 1-0, ½-½, 0-1, * (playing), bye
}

func (s *Service) get(w http.ResponseWriter, r *http.Request) error {
	return s.answer(w, r, r.PathValue("id"), http.StatusOK)
}

func (s *Service) answer(w http.ResponseWriter, r *http.Request, id string, code int) error {
	v, err := s.view(r, id)
	if err != nil {
		return err
	}
	return s.api.JSON(w, code, v)
}

func (s *Service) view(r *http.Request, id string) (View, error) {
	ctx := r.Context()
	t, err := s.store.Tournament(ctx, id)
	if errors.Is(err, store.ErrNoTournament) {
		return View{}, errGone
	} else if err != nil {
		return View{}, httpx.Unavailable(err)
	}
	sm, err := s.summary(ctx, t)
	if err != nil {
		return View{}, httpx.Unavailable(err)
	}
	st, err := s.state(ctx, t)
	if err != nil {
		return View{}, httpx.Unavailable(err)
	}
	v := View{Summary: sm, MaxPlayers: t.MaxPlayers, Standings: []Line{}, Games: [][]Board{}}
	for _, tb := range tiebreaks(t.Kind) {
		v.Tiebreaks = append(v.Tiebreaks, string(tb))
	}
	me, _ := s.ids.Me(r)
	v.Mine = me != nil && me.ID == t.Creator
	for _, p := range st.players {
		if me != nil && p.Player == me.ID && !p.Withdrawn {
			v.In = true
		}
	}
	if t.Status == store.TournamentOpen {
		for _, p := range st.players {
			v.Standings = append(v.Standings, Line{Rank: 1, Name: p.Name})
		}
		return v, nil
	}
	if t.Kind == Arena {
		v.Standings = arenaLines(st, arena(t, st))
		v.Ends = t.Starts.Add(time.Duration(t.Rounds) * time.Minute).UnixMilli()
	} else if v.Standings, err = rankedLines(t.Kind, st); err != nil {
		return View{}, err
	}
	for _, tg := range st.games {
		for len(v.Games) < tg.Round {
			v.Games = append(v.Games, []Board{})
		}
		b := Board{White: st.players[tg.White].Name, Game: tg.Game, Result: "bye"}
		if tg.Black >= 0 {
			b.Black = st.players[tg.Black].Name
			b.Result = st.result[tg.Game].String()
		}
		v.Games[tg.Round-1] = append(v.Games[tg.Round-1], b)
	}
	return v, nil
}

// rankedLines are a round robin's or a Swiss's standings, the
// tie-breaks in points (Sonneborn-Berger is kept in quarters, the others
// but wins in halves).
func rankedLines(kind string, st *state) ([]Line, error) {
	tbs := tiebreaks(kind)
	lines, err := tournament.Standings(len(st.players), st.results, tbs)
	if err != nil {
		return nil, err
	}
	out := []Line{}
	for _, l := range lines {
		p := st.players[l.Player]
		line := Line{Rank: l.Rank, Name: p.Name, Points: l.Points(), Played: l.Played, Withdrawn: p.Withdrawn, player: l.Player}
		for k, x := range l.Tiebreaks {
			scale := 2.0
			switch tbs[k] {
			case tournament.SonnebornBerger:
				scale = 4
			case tournament.Wins:
				scale = 1
			}
			line.Tiebreaks = append(line.Tiebreaks, float64(x)/scale)
		}
		out = append(out, line)
	}
	return out, nil
}

// tiebreaks are a kind's tie-breaks, in order (an arena: none, games
// played fewer first).
func tiebreaks(kind string) []tournament.Tiebreak {
	if kind == Arena {
		return nil
	}
	if kind == RoundRobin {
		return []tournament.Tiebreak{tournament.SonnebornBerger, tournament.Wins, tournament.DirectEncounter}
	}
	return []tournament.Tiebreak{tournament.BuchholzCut1, tournament.Buchholz, tournament.SonnebornBerger}
}
