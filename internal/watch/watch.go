// Package watch serves a game's watchers: GET /ws/games/{id} (a
// WebSocket, for the page) and GET /api/games/{id}/stream (newline-
// delimited JSON, for programs) send the game's view at once and after
// every change (from the games in play), with the chat lines the watcher
// may read (from the chat) as {"chat": line}. A page plays its actions on
// its WebSocket too, as lichess's pages do: one message each way rather
// than a request, its answer and the view. It puts the two together so
// that neither knows the other, and counts the watchers: a game's players
// (by their session or their bot's token) apart from its spectators, who
// are bounded per game and per address of a game.
package watch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
)

// Games gives a game's views (internal/play).
type Games interface {
	// Seated tells whether player holds a seat of game id (an error for
	// no such game).
	Seated(ctx context.Context, id, player string) (bool, error)
	// Subscribe hands the game's views, as JSON, to deliver (the view
	// now at once, then one after each change) until stop; gone is
	// called if the game leaves the server's memory meanwhile. Neither
	// may wait: they post to a connection's outbox.
	Subscribe(ctx context.Context, id string, deliver func(*httpx.Lent), gone func()) (stop func(), err error)
	// Act plays an action for a seat, as POST /api/games/{id}/act does
	// for request r (its client, its player), under the same limits: its
	// view goes to the game's watchers.
	Act(r *http.Request, id, secret, action string, ply *int) error
}

// Action is an action a page sends on its game's WebSocket, as
// {"act": {"secret": …, "action": …, "ply": …}}: the fields of POST
// /api/games/{id}/act's body.
type Action struct {
	Secret string `json:"secret"`
	Action string `json:"action"`
	// Ply is the number of actions the player saw.
	Ply *int `json:"ply"`
}

// Chat gives the chat lines a watcher may read (internal/chat), to
// deliver (which may not wait), until stop: a player's watcher never the
// spectators' room while the game goes on.
type Chat interface {
	Watch(game string, player bool, deliver func([]byte)) (stop func())
}

// Identity tells who a request comes from (internal/identity).
type Identity interface {
	Me(r *http.Request) (*store.Player, error)
	// Fresh reads the request's player again (a bot token revoked since
	// is nobody).
	Fresh(r *http.Request) (*store.Player, error)
	// WatchTokens has recheck called as soon as one of player's bot
	// tokens is revoked, until stop.
	WatchTokens(player string, recheck func()) (stop func())
	// Keep returns r as a socket keeps it for its messages, for as long
	// as it lives: what says who sends them, its address, URL and
	// context, without the rest of its headers.
	Keep(r *http.Request) *http.Request
	// Detach gives r the context ctx and a record of its own of who it
	// comes from, read afresh: each message a socket sends is its
	// sender's as he is when he sends it.
	Detach(ctx context.Context, r *http.Request) *http.Request
}

// Config holds the watchers' limits.
type Config struct {
	// Spectators bounds a game's spectators at once, PerClient one
	// address's of a game; a seat's own connections count apart
	// (httpx.SeatConns).
	Spectators, PerClient int
	// Observe, if set, is told of each message a page sent on a game's
	// socket, as a request is counted: what it asked (such as "act"), the
	// status it was answered with (200 for an action played) and how
	// long it took.
	Observe func(what string, status int, took time.Duration)
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

// socket sends a game's views and chat lines over a WebSocket, and
// takes the actions its page sends on it (read). A message larger than
// 1 KiB closes the connection.
func (ws *Watchers) socket(w http.ResponseWriter, r *http.Request) error {
	watch, open, err := ws.feed(r)
	if err != nil {
		return err
	}
	id := r.PathValue("id")
	malformed := 0
	mr := ws.ids.Keep(r)
	watch.Read = func(ctx context.Context, msg []byte, send func([]byte) error) error {
		if !ws.read(ws.ids.Detach(ctx, mr), id, msg, send) {
			// A page never sends what is not an action; actions, even
			// refused ones, count against the limit of changes.
			if malformed++; malformed > MaxMalformed {
				return errMalformed
			}
		}
		return nil
	}
	return ws.sockets.ServeOutbox(w, r, watch, open)
}

// socketMessage is what a page sends on a game's WebSocket.
type socketMessage struct {
	Act *Action `json:"act"`
}

// decodeMessage reads a page's message: as a page writes an action
// (plainAct), else by encoding/json, which refuses a field unknown and
// anything after the object.
func decodeMessage(msg []byte) (socketMessage, error) {
	if a, ok := plainAct(msg); ok {
		return socketMessage{Act: &a}, nil
	}
	var m socketMessage
	d := json.NewDecoder(bytes.NewReader(msg))
	d.DisallowUnknownFields()
	if err := d.Decode(&m); err != nil {
		return m, err
	}
	if d.More() {
		return m, errors.New("one JSON object a message")
	}
	return m, nil
}

// plainAct reads an action as a page writes it, {"act": {"secret": S,
// "action": S, "ply": N}}, its keys in any order and each once, its
// strings printable ASCII without escapes, N an integer; ok is false
// for anything else, which encoding/json then reads (most of a socket's
// messages are actions, and encoding/json took 3% of the server's
// processor time at 1,000 live games to read them). What it reads
// encoding/json reads alike (FuzzPlainAct).
func plainAct(msg []byte) (a Action, ok bool) {
	p := plain{b: msg}
	if !p.byte('{') || p.key() != "act" || !p.byte(':') || !p.byte('{') {
		return a, false
	}
	var seen [3]bool
	for i := 0; ; i++ {
		if i > 0 {
			if p.byte('}') {
				break
			}
			if !p.byte(',') {
				return a, false
			}
		}
		key := p.key()
		if !p.byte(':') {
			return a, false
		}
		var k int
		switch key {
		case "secret":
			a.Secret, ok = p.str()
		case "action":
			k = 1
			a.Action, ok = p.str()
		case "ply":
			k = 2
			var n int
			n, ok = p.int()
			a.Ply = &n
		default:
			return a, false
		}
		if !ok || seen[k] {
			return a, false
		}
		seen[k] = true
	}
	if !p.byte('}') {
		return a, false
	}
	p.space()
	return a, p.i == len(p.b)
}

// plain reads the plain JSON plainAct takes.
type plain struct {
	b []byte
	i int
}

func (p *plain) space() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

// byte reads c, after any space.
func (p *plain) byte(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// key reads a string, or "" (no key plainAct knows), without making a
// string of it: the keys plainAct knows are its own.
func (p *plain) key() string {
	b, _ := p.raw()
	switch string(b) {
	case "act":
		return "act"
	case "secret":
		return "secret"
	case "action":
		return "action"
	case "ply":
		return "ply"
	}
	return ""
}

// str reads a string of printable ASCII without escapes.
func (p *plain) str() (string, bool) {
	b, ok := p.raw()
	return string(b), ok
}

// raw reads a string of printable ASCII without escapes, as the message
// holds it.
func (p *plain) raw() ([]byte, bool) {
	if !p.byte('"') {
		return nil, false
	}
	for j := p.i; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '"':
			s := p.b[p.i:j]
			p.i = j + 1
			return s, true
		case c < 0x20 || c > 0x7e || c == '\\':
			return nil, false
		}
	}
	return nil, false
}

// int reads an integer as JSON writes one: an optional minus, no leading
// zero, at most 9 digits.
func (p *plain) int() (int, bool) {
	p.space()
	neg := p.i < len(p.b) && p.b[p.i] == '-'
	if neg {
		p.i++
	}
	n, digits := 0, 0
	for ; p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9'; p.i++ {
		if digits > 0 && n == 0 || digits == 9 {
			return 0, false // a leading zero, or too long
		}
		n = n*10 + int(p.b[p.i]-'0')
		digits++
	}
	if digits == 0 || p.i < len(p.b) && (p.b[p.i] == '.' || p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// MaxMalformed is how many messages that are not actions a game's socket
// answers before it closes.
const MaxMalformed = 8

var errMalformed = errors.New("too many messages that are not actions")

// read does what a page sent on game id's WebSocket: an action, played as
// POST /api/games/{id}/act plays it. Its view comes to every watcher, this
// one too; an action refused, or a message that is not one, is answered
// on the socket with {"error": text, "code": status, "what": "act"} (the
// status POST would answer with), the connection kept. It reports whether
// the message was an action.
func (ws *Watchers) read(r *http.Request, id string, msg []byte, send func([]byte) error) (action bool) {
	start := time.Now()
	m, err := decodeMessage(msg)
	switch {
	case err != nil:
		err = httpx.WithCode(http.StatusBadRequest, fmt.Errorf("a message on a game's socket is {\"act\": {\"secret\", \"action\", \"ply\"}}: %v", err))
	case m.Act == nil:
		err = httpx.NewError(http.StatusBadRequest, `a message on a game's socket is {"act": {"secret", "action", "ply"}}`)
	default:
		action = true
		err = ws.games.Act(r, id, m.Act.Secret, m.Act.Action, m.Act.Ply)
	}
	status := http.StatusOK
	if err != nil {
		status = httpx.Status(err)
		send(ws.api.SocketError(r.Context(), "act", r.URL.Path, err))
	}
	if ws.cfg.Observe != nil {
		ws.cfg.Observe("act", status, time.Since(start))
	}
	return action
}

// stream sends what socket sends, as newline-delimited JSON over plain
// HTTP (a view a line, a chat line as {"chat": line}, an empty line now
// and then to say it is alive): for programs, bots above all. It counts
// against the same limits.
func (ws *Watchers) stream(w http.ResponseWriter, r *http.Request) error {
	watch, open, err := ws.feed(r)
	if err != nil {
		return err
	}
	return ws.sockets.ServeStreamOutbox(w, r, watch, open)
}

// TokenRecheck is how often a watcher signed in by a bot token checks
// that the token still holds.
var TokenRecheck = 5 * time.Second

// feed returns what a request watches and how its connection is fed:
// the view at once and after every change, and the chat lines it may
// read, posted to its outbox, until the game leaves the server's memory
// (the client connects again) or, for a watcher signed in by a bot's
// token, the token no longer holds.
func (ws *Watchers) feed(r *http.Request) (httpx.Watch, func(ctx context.Context, r *http.Request, out *httpx.Outbox) (func(), error), error) {
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
	return watch, func(ctx context.Context, r *http.Request, out *httpx.Outbox) (func(), error) {
		// The chat is watched before the first view is sent: the page
		// reads the chat again at each opening's first view (game.js), and
		// a line said after that read comes here.
		stopChat := func() {}
		if ws.chat != nil {
			stopChat = ws.chat.Watch(id, seated, out.Post)
		}
		stopViews, err := ws.games.Subscribe(ctx, id, out.PostLent, out.End)
		if err != nil {
			stopChat()
			return nil, err // the game left memory meanwhile: the client connects again
		}
		stopRecheck, stopRevoked := func() {}, func() {}
		if byToken {
			// Ended, its outbox dropped, as soon as one of the player's
			// tokens is revoked, if it was this one; checked every
			// TokenRecheck too (an account deleted from the command line
			// on SQLite, where no server is told).
			check := func() bool {
				if p, err := ws.ids.Fresh(r); httpx.Status(err) == http.StatusUnauthorized || err == nil && (p == nil || p.ID != player) {
					out.End()
					return false
				}
				return true
			}
			stopRevoked = ws.ids.WatchTokens(player, func() { check() })
			stopRecheck = every(TokenRecheck, check)
		}
		return func() {
			stopRevoked()
			stopRecheck()
			stopViews()
			stopChat()
		}, nil
	}, nil
}

// every calls f every d, on a goroutine of the timer's, until f returns
// false or stop is called.
func every(d time.Duration, f func() bool) (stop func()) {
	var mu sync.Mutex
	stopped := false
	var t *time.Timer
	mu.Lock()
	defer mu.Unlock()
	t = time.AfterFunc(d, func() {
		if !f() {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			t.Reset(d)
		}
	})
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		t.Stop()
	}
}
