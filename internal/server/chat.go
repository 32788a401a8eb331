package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/muster-games/muster/internal/store"
)

// Chat: each game has two rooms, its players' and its spectators'. A
// player never sees the spectators' room while the game goes on (they may
// talk about his position); after it, everyone sees both. Lines are plain
// text, at most maxChat characters, and a player sends at most
// chatBurst of them in chatWindow.
const (
	maxChat    = 300
	chatBurst  = 5
	chatWindow = 10 * time.Second
	// chatPerAddress bounds the lines from one address in chatWindow.
	chatPerAddress = 20
	chatShown      = 200
)

var errChatEmpty = errors.New("a chat message needs some text")

type chatRequest struct {
	Text   string `json:"text"`
	Secret string `json:"secret,omitempty"`
}

// chatText checks a chat line: trimmed, not empty, at most maxChat
// characters, no control characters (a line is one line).
func chatText(s string) (string, error) {
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
	return s, nil
}

// seatFor returns the seat a holder holds in the room, or -1.
func (r *room) seatFor(h holder) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seatOf(h)
}

// over reports whether the game has ended.
func (r *room) over() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rec.Status == store.StatusOver
}

// chatRooms are the rooms a viewer may read: a player in a game going on
// reads his players' room only.
func chatRooms(player, over bool) []string {
	if player && !over {
		return []string{store.ChatPlayers}
	}
	return []string{store.ChatPlayers, store.ChatSpectators}
}

// postChat sends a line to the game's chat: the players' room for a seat's
// holder, the spectators' for anyone else.
func (s *Server) postChat(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	rm, ok := s.decodeFor(w, r, &req)
	if !ok {
		return
	}
	text, err := chatText(req.Text)
	if err != nil {
		s.writeError(w, r, withCode(http.StatusBadRequest, err))
		return
	}
	me, err := s.identify(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// Per player, and per address (a client without cookies is a new
	// player every time).
	if ok, retry := s.chatByAddress.Allow(client(r), time.Now()); !ok {
		s.writeError(w, r, withCode(http.StatusTooManyRequests, fmt.Errorf("too many chat messages from this address: wait %s", retry.Round(time.Second))))
		return
	}
	if ok, retry := s.chatLimit.Allow(me.ID, time.Now()); !ok {
		s.writeError(w, r, withCode(http.StatusTooManyRequests, fmt.Errorf("at most %d chat messages in %s: wait %s", chatBurst, chatWindow, retry.Round(time.Second))))
		return
	}
	m := store.Message{Game: rm.id(), Room: store.ChatSpectators, Player: me.ID, Name: me.Username, Text: text}
	if seat := rm.seatFor(holder{secret: req.Secret, player: me.ID}); seat >= 0 {
		m.Room = store.ChatPlayers
		if m.Name == "" {
			m.Name = rm.sideTitle(seat)
		}
	}
	if m.Name == "" {
		m.Name = "Anonymous"
	}
	if err := s.store.AddMessage(r.Context(), &m); err != nil {
		s.writeError(w, r, err)
		return
	}
	rm.sendChat(m)
	if b, err := json.Marshal(busChat{Game: m.Game, Message: m}); err == nil {
		s.publish(topicChat, string(b))
	}
	s.writeJSON(w, http.StatusCreated, m)
}

// chat sends the chat lines the asking browser may read.
func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	rm, err := s.roomOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	player := false
	if me := s.me(r); me != nil {
		player = rm.seatFor(holder{player: me.ID}) >= 0 || len(rm.seatsOf(me.ID)) > 0
	}
	ms, err := s.store.Messages(r.Context(), rm.id(), chatRooms(player, rm.over()), chatShown)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, http.StatusOK, ms)
}

// sideTitle is a seat's side as people read it ("Attackers (Muscovites)").
func (r *room) sideTitle(seat int) string {
	return r.g.Traits().Players[seat].Title
}

// chatSub is a watcher of a game's chat: players' watchers do not get the
// spectators' room while the game goes on.
type chatSub struct {
	ch     chan store.Message
	player bool
}

// sendChat gives a chat line to the room's watchers that may read it; a
// watcher too slow to take it misses it (the page reads the chat again
// when it reconnects).
func (r *room) sendChat(m store.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	over := r.rec.Status == store.StatusOver
	for sub := range r.chatSubs {
		if m.Room == store.ChatSpectators && sub.player && !over {
			continue
		}
		select {
		case sub.ch <- m:
		default:
		}
	}
}

func (r *room) subscribeChat(player bool) *chatSub {
	r.mu.Lock()
	defer r.mu.Unlock()
	sub := &chatSub{ch: make(chan store.Message, 16), player: player}
	r.chatSubs[sub] = struct{}{}
	return sub
}

func (r *room) unsubscribeChat(sub *chatSub) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.chatSubs, sub)
}

// busChat is a chat line as servers tell each other of it.
type busChat struct {
	Game string `json:"game"`
	store.Message
}

// chatJSON is a chat line as the game's WebSocket sends it.
func chatJSON(m store.Message) ([]byte, error) {
	return marshal(map[string]any{"chat": m})
}
