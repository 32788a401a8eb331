// Package chat is the games' chat. Each game has two rooms, its players'
// and its spectators'. A player never sees the spectators' room while the
// game goes on (they may talk about his position); after it, everyone
// sees both. Lines are plain text, at most maxChat characters, limited
// per player and per address. The chat keeps its own watchers, by game,
// apart from the game's room: a game's WebSocket reads them through
// Watch.
package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/bus"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/moderation"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
)

const (
	maxChat    = 300
	chatBurst  = 5
	chatWindow = 10 * time.Second
	// chatPerAddress bounds the lines from one address in chatWindow.
	chatPerAddress = 20
	chatShown      = 200
)

var errChatEmpty = httpx.NewError(http.StatusBadRequest, "a chat message needs some text")

// Games tells what a request's holder is in a game (internal/play).
type Games interface {
	Seat(ctx context.Context, id, secret, player string) (play.SeatInfo, error)
}

// Identity tells who a request comes from (internal/identity).
type Identity interface {
	Me(r *http.Request) (*store.Player, error)
	Identify(w http.ResponseWriter, r *http.Request) (*store.Player, error)
}

// Chat serves the chat and feeds its watchers.
type Chat struct {
	store *store.Store
	api   *httpx.API
	log   *slog.Logger
	games Games
	ids   Identity
	bus   *bus.Bus
	// byPlayer limits each player's lines, byAddress each address's.
	byPlayer, byAddress *auth.Limiter

	mu   sync.Mutex
	subs map[string]map[*sub]struct{} // by game
}

// New returns the chat of a server.
func New(st *store.Store, api *httpx.API, games Games, ids Identity, b *bus.Bus) *Chat {
	c := &Chat{store: st, api: api, log: api.Log, games: games, ids: ids, bus: b,
		byPlayer:  auth.NewLimiter(chatBurst, chatWindow, 100000),
		byAddress: auth.NewLimiter(chatPerAddress, chatWindow, 100000),
		subs:      map[string]map[*sub]struct{}{}}
	b.Handle(bus.Chat, func(arg string) {
		var m busLine
		if json.Unmarshal([]byte(arg), &m) == nil {
			m.Message.Game = m.Game
			c.send(m.Message, m.Over)
		}
	})
	return c
}

// Routes adds the chat's routes to mux.
func (c *Chat) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/games/{id}/chat", c.api.Func(c.read))
	mux.HandleFunc("POST /api/games/{id}/chat", c.api.Func(c.post))
}

type chatRequest struct {
	Text   string `json:"text"`
	Secret string `json:"secret,omitempty"`
}

// text checks a chat line: trimmed, not empty, at most maxChat
// characters, no control characters (a line is one line).
func text(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", errChatEmpty
	case !utf8.ValidString(s):
		return "", errors.New("a chat message must be UTF-8 text")
	case utf8.RuneCountInString(s) > maxChat:
		return "", fmt.Errorf("a chat message is at most %d characters", maxChat)
	}
	for _, c := range s {
		if unicode.IsControl(c) {
			return "", errors.New("a chat message is one line of text, without control characters")
		}
	}
	if err := moderation.Visible(s); err != nil {
		return "", err
	}
	return s, nil
}

// rooms are the rooms a viewer may read: a player in a game going on
// reads his players' room only.
func rooms(player, over bool) []string {
	if player && !over {
		return []string{store.ChatPlayers}
	}
	return []string{store.ChatPlayers, store.ChatSpectators}
}

// post sends a line to the game's chat: the players' room for a seat's
// holder, the spectators' for anyone else.
func (c *Chat) post(w http.ResponseWriter, r *http.Request) error {
	var req chatRequest
	if err := c.api.Decode(w, r, &req); err != nil {
		return err
	}
	id := r.PathValue("id")
	line, err := text(req.Text)
	if err != nil {
		return httpx.WithCode(http.StatusBadRequest, err)
	}
	// Per address first, before any work (the game is not even read) and
	// before a player is made for a browser without one (a client without
	// cookies is a new player every time); then per player.
	if ok, retry := c.byAddress.Allow(httpx.Client(r), time.Now()); !ok {
		return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("too many chat messages from this address: wait %s", retry.Round(time.Second)))
	}
	if _, err := c.games.Seat(r.Context(), id, "", ""); err != nil {
		return err
	}
	me, err := c.ids.Identify(w, r)
	if err != nil {
		return err
	}
	if err := moderation.Check(me, true); err != nil {
		return err
	}
	if ok, retry := c.byPlayer.Allow(me.ID, time.Now()); !ok {
		return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("at most %d chat messages in %s: wait %s", chatBurst, chatWindow, retry.Round(time.Second)))
	}
	seat, err := c.games.Seat(r.Context(), id, req.Secret, me.ID)
	if err != nil {
		return err
	}
	// A mute or a ban holds the seat, whoever holds its secret.
	if seat.Seat >= 0 && seat.Player != me.ID {
		if err := moderation.CheckPlayer(r.Context(), c.store, seat.Player, true); err != nil {
			return err
		}
	}
	m := store.Message{Game: id, Room: store.ChatSpectators, Player: me.ID, Name: me.Username, Text: line}
	if seat.Seat >= 0 {
		m.Room = store.ChatPlayers
		if m.Name == "" {
			m.Name = seat.Title
		}
	}
	if m.Name == "" {
		m.Name = "Anonymous"
	}
	if err := c.store.AddMessage(r.Context(), &m); err != nil {
		return httpx.Unavailable(err)
	}
	c.send(m, seat.Over)
	if b, err := json.Marshal(busLine{Game: m.Game, Over: seat.Over, Message: m}); err == nil {
		c.bus.Publish(bus.Chat, string(b))
	}
	return c.api.JSON(w, http.StatusCreated, m)
}

// read sends the chat lines the asking browser may read.
func (c *Chat) read(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	me, err := c.ids.Me(r)
	if err != nil {
		return err
	}
	player := ""
	if me != nil {
		player = me.ID
	}
	seat, err := c.games.Seat(r.Context(), id, "", player)
	if err != nil {
		return err
	}
	ms, err := c.store.Messages(r.Context(), id, rooms(seat.ByPlayer, seat.Over), chatShown)
	if err != nil {
		return httpx.Unavailable(err)
	}
	return c.api.JSON(w, http.StatusOK, ms)
}

// sub is a watcher of a game's chat: players' watchers do not get the
// spectators' room while the game goes on.
type sub struct {
	deliver func([]byte)
	player  bool
}

// Watch hands a game's watcher the chat lines he may read, as the game's
// WebSocket sends them ({"chat": line}), to deliver, until stop. deliver
// is called under the chat's lock and must not wait: it posts to the
// watcher's outbox, which drops a line for a watcher too slow to take
// what it holds (the page reads the chat again when it reconnects).
func (c *Chat) Watch(game string, player bool, deliver func([]byte)) (stop func()) {
	s := &sub{deliver: deliver, player: player}
	c.mu.Lock()
	if c.subs[game] == nil {
		c.subs[game] = map[*sub]struct{}{}
	}
	c.subs[game][s] = struct{}{}
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.subs[game], s)
		if len(c.subs[game]) == 0 {
			delete(c.subs, game)
		}
	}
}

// send gives a line to the game's watchers that may read it.
func (c *Chat) send(m store.Message, over bool) {
	b, err := httpx.Marshal(map[string]any{"chat": m})
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for s := range c.subs[m.Game] {
		if m.Room == store.ChatSpectators && s.player && !over {
			continue
		}
		s.deliver(b)
	}
}

// busLine is a chat line as servers tell each other of it.
type busLine struct {
	Game string `json:"game"`
	Over bool   `json:"over,omitempty"`
	store.Message
}
