// Package watch serves a game's watchers: GET /ws/games/{id} (a
// WebSocket, for the page) and GET /api/games/{id}/stream (newline-
// delimited JSON, for programs) send the game's view at once and after
// every change (from the games in play), with the chat lines the watcher
// may read (from the chat) as {"chat": line}. It puts the two together so
// that neither knows the other, and counts the watchers: a game's players
// (by their session or their bot's token) apart from its spectators, who
// are bounded per game and per address of a game.
package watch

import (
	"context"
	"net/http"
	"time"

	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
)

// Games gives a game's views (internal/play).
type Games interface {
	// Seated tells whether player holds a seat of game id (an error for
	// no such game).
	Seated(ctx context.Context, id, player string) (bool, error)
	// Subscribe gives the game's views, as JSON, until stop (views
	// closes when the game leaves the server's memory).
	Subscribe(ctx context.Context, id string) (views <-chan []byte, stop func(), err error)
}

// Chat gives the chat lines a watcher may read (internal/chat): a
// player's watcher never the spectators' room while the game goes on.
type Chat interface {
	Watch(game string, player bool) (lines <-chan []byte, stop func())
}

// Identity tells who a request comes from (internal/identity).
type Identity interface {
	Me(r *http.Request) (*store.Player, error)
	// Fresh reads the request's player again (a bot token revoked since
	// is nobody).
	Fresh(r *http.Request) (*store.Player, error)
}

// Config holds the watchers' limits.
type Config struct {
	// Spectators bounds a game's spectators at once, PerClient one
	// address's of a game; a seat's own connections count apart
	// (httpx.SeatConns).
	Spectators, PerClient int
}

// Watchers serves the games' watchers.
type Watchers struct {
	api     *httpx.API
	games   Games
	chat    Chat
	ids     Identity
	sockets *httpx.Sockets
	cfg     Config
}

// New returns the watchers' part; chat may be nil (no chat lines).
func New(api *httpx.API, games Games, chat Chat, ids Identity, sockets *httpx.Sockets, cfg Config) *Watchers {
	return &Watchers{api: api, games: games, chat: chat, ids: ids, sockets: sockets, cfg: cfg}
}

// Routes adds the watchers' routes to mux.
func (ws *Watchers) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /ws/games/{id}", ws.api.Func(ws.socket))
	mux.HandleFunc("GET /api/games/{id}/stream", ws.api.Func(ws.stream))
}

// socket sends a game's views and chat lines over a WebSocket. Clients
// send nothing but pings; a larger message closes the connection.
func (ws *Watchers) socket(w http.ResponseWriter, r *http.Request) error {
	watch, feed, err := ws.feed(r)
	if err != nil {
		return err
	}
	return ws.sockets.Serve(w, r, watch, feed)
}

// stream sends what socket sends, as newline-delimited JSON over plain
// HTTP (a view a line, a chat line as {"chat": line}, an empty line now
// and then to say it is alive): for programs, bots above all. It counts
// against the same limits.
func (ws *Watchers) stream(w http.ResponseWriter, r *http.Request) error {
	watch, feed, err := ws.feed(r)
	if err != nil {
		return err
	}
	return ws.sockets.ServeStream(w, r, watch, feed)
}

// TokenRecheck is how often a watcher signed in by a bot token checks
// that the token still holds.
var TokenRecheck = 5 * time.Second

// feed returns what a request watches and what it is sent: the view at
// once and after every change, and the chat lines it may read, until the
// game leaves the server's memory (the client connects again).
func (ws *Watchers) feed(r *http.Request) (httpx.Watch, func(ctx context.Context, r *http.Request, send func([]byte) error), error) {
	me, err := ws.ids.Me(r)
	if err != nil {
		return httpx.Watch{}, nil, err
	}
	player := ""
	if me != nil {
		player = me.ID
	}
	id := r.PathValue("id")
	seated, err := ws.games.Seated(r.Context(), id, player)
	if err != nil {
		return httpx.Watch{}, nil, err
	}
	watch := httpx.Watch{Key: id, Max: ws.cfg.Spectators, PerClient: ws.cfg.PerClient}
	if seated {
		watch.Seat = player
	}
	byToken := r.Header.Get("Authorization") != "" && me != nil
	return watch, func(ctx context.Context, r *http.Request, send func([]byte) error) {
		views, stop, err := ws.games.Subscribe(ctx, id)
		if err != nil {
			return // the game left memory meanwhile: the client connects again
		}
		defer stop()
		var recheck <-chan time.Time
		if byToken {
			t := time.NewTicker(TokenRecheck)
			defer t.Stop()
			recheck = t.C
		}
		// The chat is watched before the first view is sent: the page
		// reads the chat again at each opening's first view (game.js), and
		// a line said after that read comes here.
		var lines <-chan []byte
		if ws.chat != nil {
			var stop func()
			lines, stop = ws.chat.Watch(id, seated)
			defer stop()
		}
		for {
			var msg []byte
			var ok bool
			select {
			case <-ctx.Done():
				return
			case msg, ok = <-views:
				if !ok {
					return // the game left memory
				}
			case msg = <-lines:
			case <-recheck:
				if p, err := ws.ids.Fresh(r); httpx.Status(err) == http.StatusUnauthorized || err == nil && (p == nil || p.ID != player) {
					return
				}
				continue
			}
			if send(msg) != nil {
				return
			}
		}
	}, nil
}
