package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/rating"
)

// ratingView is a player's rating in one game as pages show it.
type ratingView struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Provisional bool    `json:"provisional"`
	Games       int     `json:"games"`
}

// gameSummary is a line of a list of games: a player's, or the lobby's.
type gameSummary struct {
	ID      string       `json:"id"`
	Spec    string       `json:"spec"`
	Game    string       `json:"game"`
	Status  store.Status `json:"status"`
	Result  string       `json:"result,omitempty"`
	Reason  string       `json:"reason,omitempty"`
	Rated   bool         `json:"rated"`
	Ply     int          `json:"ply"`
	Updated int64        `json:"updated"`
	// Players names each seat: a username, "Anonymous", or the agent.
	Players []string `json:"players"`
	// Sides are the seats' player names in the game ("attackers").
	Sides []string `json:"sides"`
	// Seat is the seat of the player whose list this is, or -1.
	Seat int `json:"seat"`
	// YourTurn says the game waits for that player.
	YourTurn bool `json:"your_turn,omitempty"`
	// Change is that player's rating change, once a rated game is over.
	Change float64 `json:"change,omitempty"`
	// Correspondence games show the deadline of the move awaited (Unix ms).
	Deadline int64 `json:"deadline,omitempty"`
}

// seatName is how a seat is named in lists.
func seatName(seat store.Seat) string {
	switch {
	case seat.Kind == store.SeatAI:
		return "Computer (" + seat.Agent + ")"
	case seat.Name != "":
		return seat.Name
	case seat.Player == "" && seat.SecretHash == "":
		return "(open seat)"
	}
	return "Anonymous"
}

// summarize makes a game's summary as player (or "") sees it.
func summarize(rec *store.Game, player string) gameSummary {
	gs := gameSummary{ID: rec.ID, Spec: rec.Spec, Status: rec.Status, Result: rec.Result, Reason: rec.Reason, Rated: rec.Rated,
		Ply: len(rec.Actions), Updated: rec.Updated.UnixMilli(), Seat: -1}
	if g, err := game.Load(rec.Spec); err == nil {
		gs.Game = g.Name()
		for p := 0; p < g.NumPlayers(); p++ {
			gs.Sides = append(gs.Sides, g.PlayerName(game.Player(p)))
		}
	}
	for i, seat := range rec.Seats {
		gs.Players = append(gs.Players, seatName(seat))
		if player != "" && seat.Player == player && gs.Seat < 0 {
			gs.Seat = i
		}
	}
	gs.YourTurn = player != "" && rec.ToAct == player && rec.Status == store.StatusPlaying
	for _, c := range rec.Ratings {
		if c.Player == player {
			gs.Change = c.After - c.Before
		}
	}
	if c := rec.Clock; c != nil && c.Correspondence() && rec.Status == store.StatusPlaying && rec.ToAct != "" {
		for i, seat := range rec.Seats {
			if seat.Player == rec.ToAct && i < 2 {
				gs.Deadline = c.Deadline(i)
				break
			}
		}
	}
	return gs
}

// playerView is a player's page.
type playerView struct {
	Username string                `json:"username"`
	Joined   int64                 `json:"joined"`
	Ratings  map[string]ratingView `json:"ratings"`
	Playing  []gameSummary         `json:"playing"`
	Finished []gameSummary         `json:"finished"`
	// Me says the page is the viewer's own.
	Me bool `json:"me"`
}

// playerPage sends an account's page: ratings, games in play and ended.
func (s *Server) playerPage(w http.ResponseWriter, r *http.Request) {
	p, err := s.store.PlayerNamed(r.Context(), auth.UsernameKey(r.PathValue("name")))
	if errors.Is(err, store.ErrNoPlayer) {
		s.writeError(w, r, withCode(http.StatusNotFound, errNoSuchUser))
		return
	} else if err != nil {
		s.writeError(w, r, err)
		return
	}
	v := playerView{Username: p.Username, Joined: p.Registered.UnixMilli(), Ratings: map[string]ratingView{}, Playing: []gameSummary{}, Finished: []gameSummary{}}
	if me := s.me(r); me != nil && me.ID == p.ID {
		v.Me = true
	}
	rs, err := s.store.Ratings(r.Context(), p.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	now := time.Now()
	for name := range rs {
		cur, n := currentRating(rs, name, now)
		v.Ratings[name] = ratingView{Rating: cur.R, RD: cur.RD, Provisional: cur.Provisional(), Games: n}
	}
	games, err := s.store.PlayerGames(r.Context(), p.ID, 100)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	for _, g := range games {
		gs := summarize(g, p.ID)
		if !v.Me {
			gs.YourTurn = false
		}
		if g.Status == store.StatusPlaying {
			v.Playing = append(v.Playing, gs)
		} else {
			v.Finished = append(v.Finished, gs)
		}
	}
	s.writeJSON(w, http.StatusOK, v)
}

// leaderRow is a line of a leaderboard.
type leaderRow struct {
	Username string  `json:"username"`
	Rating   float64 `json:"rating"`
	RD       float64 `json:"rd"`
	Games    int     `json:"games"`
}

// leaderboard lists a game's best established ratings.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) {
	info, err := game.Lookup(r.PathValue("game"))
	if err != nil {
		s.writeError(w, r, withCode(http.StatusNotFound, err))
		return
	}
	rows, err := s.store.Leaderboard(r.Context(), info.Name, rating.ProvisionalRD, 100)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := []leaderRow{}
	for _, k := range rows {
		out = append(out, leaderRow{Username: k.Username, Rating: k.R, RD: k.RD, Games: k.Games})
	}
	s.writeJSON(w, http.StatusOK, out)
}

// yourTurn counts the games waiting for the player.
func (s *Server) yourTurn(ctx context.Context, player string) int {
	n, err := s.store.WaitingFor(ctx, player)
	if err != nil {
		return 0
	}
	return n
}
