// Package players serves the pages of the accounts: a player's ratings
// and games, and each game's leaderboard.
package players

import (
	"errors"
	"net/http"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/rating"
)

var errNoSuchUser = httpx.NewError(http.StatusNotFound, "no such player")

// Identity tells who a request comes from (internal/identity).
type Identity interface {
	Me(r *http.Request) (*store.Player, error)
}

// Pages serves the players' pages.
type Pages struct {
	store *store.Store
	api   *httpx.API
	ids   Identity
}

// New returns the players' pages.
func New(st *store.Store, api *httpx.API, ids Identity) *Pages {
	return &Pages{store: st, api: api, ids: ids}
}

// Routes adds the players' routes to mux.
func (p *Pages) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/players/{name}", p.api.Func(p.player))
	mux.HandleFunc("GET /api/leaderboard/{game}", p.api.Func(p.leaderboard))
}

// ratingView is a player's rating in one game as pages show it.
type ratingView struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Provisional bool    `json:"provisional"`
	Games       int     `json:"games"`
}

// playerView is a player's page.
type playerView struct {
	Username string                `json:"username"`
	Bot      bool                  `json:"bot,omitempty"`
	Joined   int64                 `json:"joined"`
	Ratings  map[string]ratingView `json:"ratings"`
	Playing  []play.Summary        `json:"playing"`
	Finished []play.Summary        `json:"finished"`
	// Me says the page is the viewer's own.
	Me bool `json:"me"`
}

// player sends an account's page: ratings, games in play and ended.
func (p *Pages) player(w http.ResponseWriter, r *http.Request) error {
	acct, err := p.store.PlayerNamed(r.Context(), auth.UsernameKey(r.PathValue("name")))
	if errors.Is(err, store.ErrNoPlayer) {
		return errNoSuchUser
	} else if err != nil {
		return httpx.Unavailable(err)
	}
	v := playerView{Username: acct.Username, Bot: acct.Bot, Joined: acct.Registered.UnixMilli(), Ratings: map[string]ratingView{}, Playing: []play.Summary{}, Finished: []play.Summary{}}
	me, err := p.ids.Me(r)
	if err != nil {
		return err
	}
	v.Me = me != nil && me.ID == acct.ID
	rs, err := p.store.Ratings(r.Context(), acct.ID)
	if err != nil {
		return httpx.Unavailable(err)
	}
	now := time.Now()
	for name := range rs {
		cur, n := play.CurrentRating(rs, name, now)
		v.Ratings[name] = ratingView{Rating: cur.R, RD: cur.RD, Provisional: cur.Provisional(), Games: n}
	}
	games, err := p.store.PlayerGames(r.Context(), acct.ID, 100)
	if err != nil {
		return httpx.Unavailable(err)
	}
	for _, g := range games {
		gs := play.Summarize(g, acct.ID)
		if !v.Me {
			gs.YourTurn = false
		}
		if g.Status == store.StatusPlaying {
			v.Playing = append(v.Playing, gs)
		} else {
			v.Finished = append(v.Finished, gs)
		}
	}
	return p.api.JSON(w, http.StatusOK, v)
}

// leaderRow is a line of a leaderboard.
type leaderRow struct {
	Username string  `json:"username"`
	Rating   float64 `json:"rating"`
	RD       float64 `json:"rd"`
	Games    int     `json:"games"`
}

// leaderboard lists a game's best established ratings.
func (p *Pages) leaderboard(w http.ResponseWriter, r *http.Request) error {
	info, err := game.Lookup(r.PathValue("game"))
	if err != nil {
		return httpx.WithCode(http.StatusNotFound, err)
	}
	rows, err := p.store.Leaderboard(r.Context(), info.Name, rating.ProvisionalRD, 100)
	if err != nil {
		return httpx.Unavailable(err)
	}
	out := []leaderRow{}
	for _, k := range rows {
		out = append(out, leaderRow{Username: k.Username, Rating: k.R, RD: k.RD, Games: k.Games})
	}
	return p.api.JSON(w, http.StatusOK, out)
}
