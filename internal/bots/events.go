// Package bots serves what a program playing on the site needs beyond the
// routes a browser uses: a stream of the events that concern its
// account — challenges to it, its games starting and ending — as
// newline-delimited JSON, as lichess's bot API streams them. A bot signs
// in with a token (package identity) and otherwise plays as a browser
// does: it accepts or declines challenges (package lobby), reads its
// games' views from their streams and moves, resigns and chats through
// the games' routes (package play, package chat).
//
// The events are read from the store, not from this server's memory, so
// a bot connected to any server of a shared PostgreSQL database hears of
// a challenge made on another, and a reconnecting bot is told again of
// its games still in play.
package bots

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/outcome"
	"github.com/muster-games/muster/internal/store"
)

// Identity tells who a request comes from (internal/identity).
type Identity interface {
	Me(r *http.Request) (*store.Player, error)
	// Fresh reads the request's player again (a token revoked since is
	// nobody).
	Fresh(r *http.Request) (*store.Player, error)
	// WatchTokens has recheck called as soon as one of player's bot
	// tokens is revoked, until stop.
	WatchTokens(player string, recheck func()) (stop func())
}

// recheck is how often an open stream checks that its token still holds.
const recheck = 5 * time.Second

// Config holds the event streams' settings.
type Config struct {
	// Every is how often a stream looks for news (default a second).
	Every time.Duration
	// StreamsPerPlayer bounds a player's event streams at once (default 2).
	StreamsPerPlayer int
}

// Events serves the event streams.
type Events struct {
	cfg     Config
	store   *store.Store
	api     *httpx.API
	log     *slog.Logger
	ids     Identity
	sockets *httpx.Sockets
}

// New returns the event streams' service.
func New(st *store.Store, api *httpx.API, ids Identity, sockets *httpx.Sockets, cfg Config) *Events {
	if cfg.Every <= 0 {
		cfg.Every = time.Second
	}
	if cfg.StreamsPerPlayer <= 0 {
		cfg.StreamsPerPlayer = 2
	}
	return &Events{cfg: cfg, store: st, api: api, log: api.Log, ids: ids, sockets: sockets}
}

// Routes adds the event stream to mux.
func (e *Events) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/stream/event", e.api.Func(e.stream))
}

var errSignIn = httpx.NewError(http.StatusUnauthorized, "sign in, or send a bot token (Authorization: Bearer TOKEN)")

// Event is one line of the stream.
type Event struct {
	Type      string     `json:"type"` // challenge, challengeCanceled, gameStart, gameFinish
	Challenge *Challenge `json:"challenge,omitempty"`
	Game      *Game      `json:"game,omitempty"`
}

// Event types.
const (
	EventChallenge         = "challenge"
	EventChallengeCanceled = "challengeCanceled"
	EventGameStart         = "gameStart"
	EventGameFinish        = "gameFinish"
)

// Challenge is a challenge to the player, as the stream tells it.
type Challenge struct {
	ID string `json:"id"`
	// From is the challenger's username, FromBot whether he is a bot.
	From    string `json:"from"`
	FromBot bool   `json:"from_bot,omitempty"`
	Spec    string `json:"spec"`
	// Minutes and Increment: a live clock; Days: correspondence; none:
	// no clock.
	Minutes   float64 `json:"minutes,omitempty"`
	Increment float64 `json:"increment,omitempty"`
	Days      int     `json:"days,omitempty"`
	Rated     bool    `json:"rated"`
	// Side is the challenger's side, or "random".
	Side string `json:"side"`
}

// Game is one of the player's games, as the stream tells it.
type Game struct {
	ID   string `json:"id"`
	Spec string `json:"spec"`
	// Seat is the player's seat (0 or 1).
	Seat   int    `json:"seat"`
	Result string `json:"result,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Ending and Winner say how a finished game ended, as data: "win",
	// "draw", "aborted" or "scored", and the seat that won (or -1), as in
	// a game's view.
	Ending string `json:"ending,omitempty"`
	Winner *int   `json:"winner,omitempty"`
}

// finished is a finished game's event data, its outcome read for its
// game (the words alone where the game is unknown).
func finished(g *store.Game, seat int) *Game {
	out := &Game{ID: g.ID, Spec: g.Spec, Seat: seat, Result: g.Result, Reason: g.Reason}
	if gm, err := game.Load(g.Spec); err == nil {
		if o, err := outcome.Read(gm, g.Result, g.Reason); err == nil && o.Kind != outcome.None {
			w := o.Winner
			out.Ending, out.Winner = o.Kind.String(), &w
		}
	}
	return out
}

// stream sends the player's events until he goes: at once the open
// challenges to him and his games in play, then what changes.
func (e *Events) stream(w http.ResponseWriter, r *http.Request) error {
	me, err := e.ids.Me(r)
	if err != nil {
		return err
	}
	if me == nil {
		return errSignIn
	}
	return e.sockets.ServeStream(w, r, httpx.Watch{Key: "events " + me.ID, Max: e.cfg.StreamsPerPlayer}, func(ctx context.Context, _ *http.Request, send func([]byte) error) {
		w := watcher{e: e, player: me.ID, challenges: map[string]bool{}, games: map[string]bool{}}
		t := time.NewTicker(e.cfg.Every)
		defer t.Stop()
		// A token revoked (or an account no longer a bot, signed out)
		// ends the stream: at once where the revocation is made on a
		// server (WatchTokens, checked before each event), and at the
		// next look after recheck otherwise.
		var gone atomic.Bool
		ended := make(chan struct{}, 1)
		holds := func() bool {
			if p, err := e.ids.Fresh(r); httpx.Status(err) == http.StatusUnauthorized || err == nil && (p == nil || p.ID != me.ID) {
				if !gone.Swap(true) {
					ended <- struct{}{}
				}
			}
			return !gone.Load()
		}
		if r.Header.Get("Authorization") != "" {
			defer e.ids.WatchTokens(me.ID, func() { holds() })()
		}
		checked := time.Now()
		for {
			if time.Since(checked) >= recheck {
				if !holds() {
					return
				}
				checked = time.Now()
			}
			evs, err := w.news(ctx)
			if err != nil && ctx.Err() == nil {
				e.log.Warn("bot events", "player", me.ID, "err", err)
			}
			for _, ev := range evs {
				if gone.Load() {
					return
				}
				b, _ := json.Marshal(ev)
				if send(b) != nil {
					return
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-ended:
				return
			case <-t.C:
			}
		}
	})
}

// watcher remembers what a stream has told.
type watcher struct {
	e          *Events
	player     string
	challenges map[string]bool
	games      map[string]bool
}

// Bounds on what one look reads.
const (
	lookChallenges = 50
	lookGames      = 100
	challengeLife  = 7 * 24 * time.Hour
)

// news reads the open challenges to the player and his games, and returns
// the events since the last look.
func (w *watcher) news(ctx context.Context) ([]Event, error) {
	var out []Event
	cs, err := w.e.store.ChallengesOf(ctx, w.player, time.Now().Add(-challengeLife), lookChallenges)
	if err != nil {
		return nil, err
	}
	open := map[string]bool{}
	for _, c := range cs {
		if c.Target != w.player {
			continue // his own
		}
		open[c.ID] = true
		if w.challenges[c.ID] {
			continue
		}
		w.challenges[c.ID] = true
		ch := &Challenge{ID: c.ID, From: c.CreatorName, Spec: c.Spec, Minutes: c.Minutes, Increment: c.Increment, Days: c.Days, Rated: c.Rated, Side: c.Side}
		if p, err := w.e.store.Player(ctx, c.Creator); err == nil {
			ch.FromBot = p.Bot
		}
		out = append(out, Event{Type: EventChallenge, Challenge: ch})
	}
	for id := range w.challenges {
		if open[id] {
			continue
		}
		delete(w.challenges, id)
		// Accepted: its game's start says so.
		if c, err := w.e.store.Challenge(ctx, id); err == nil && c.Status == store.ChallengeAccepted {
			continue
		}
		out = append(out, Event{Type: EventChallengeCanceled, Challenge: &Challenge{ID: id}})
	}
	gs, err := w.e.store.PlayerGames(ctx, w.player, lookGames)
	if err != nil {
		return out, err
	}
	for _, g := range gs {
		seat := -1
		for i, s := range g.Seats {
			if s.Player == w.player {
				seat = i
				break
			}
		}
		if seat < 0 {
			continue
		}
		switch playing := g.Status == store.StatusPlaying; {
		case playing && !w.games[g.ID]:
			w.games[g.ID] = true
			out = append(out, Event{Type: EventGameStart, Game: &Game{ID: g.ID, Spec: g.Spec, Seat: seat}})
		case !playing && w.games[g.ID]:
			delete(w.games, g.ID)
			out = append(out, Event{Type: EventGameFinish, Game: finished(g, seat)})
		}
	}
	return out, nil
}
