package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/coder/websocket"
)

// lobbyConns counts the lobby's watchers among the games' (no game id has
// its length).
const lobbyConns = "lobby"

var errTooMany = errors.New("too many connections: close some of this game's tabs, or wait")

// watch sends a game's views over a WebSocket as it changes, and its chat
// lines ({"chat": line}) that the watcher may read. Clients send nothing
// but pings; a larger message closes the connection.
func (s *Server) watch(w http.ResponseWriter, r *http.Request) {
	rm, err := s.roomOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.socket(w, r, rm.id(), func(ctx context.Context, send func([]byte) error) {
		ch := rm.subscribe()
		defer rm.unsubscribe(ch)
		player := false
		if me := s.me(r); me != nil {
			player = len(rm.seatsOf(me.ID)) > 0
		}
		chat := rm.subscribeChat(player)
		defer rm.unsubscribeChat(chat)
		for {
			var msg []byte
			select {
			case <-ctx.Done():
				return
			case msg = <-ch:
			case m := <-chat.ch:
				var err error
				if msg, err = chatJSON(m); err != nil {
					continue
				}
			}
			if send(msg) != nil {
				return
			}
		}
	})
}

// socket accepts a WebSocket counted against the limits of key (a game,
// or the lobby) and of the client, and runs serve with a context that ends
// when the client leaves or the server stops, and a send that gives each
// message 10 seconds. websocket.Accept checks that the Origin is this
// host; a client's message larger than 1 KiB closes the connection.
func (s *Server) socket(w http.ResponseWriter, r *http.Request, key string, serve func(ctx context.Context, send func([]byte) error)) {
	who := client(r)
	if !s.takeConn(key, who) {
		s.writeError(w, r, withCode(http.StatusTooManyRequests, errTooMany))
		return
	}
	defer s.dropConn(key, who)
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1024)
	ctx, cancel := context.WithCancel(conn.CloseRead(r.Context()))
	defer cancel()
	stop := context.AfterFunc(s.ctx, func() {
		conn.Close(websocket.StatusGoingAway, "server stopping")
		cancel()
	})
	defer stop()
	serve(ctx, func(msg []byte) error {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return conn.Write(wctx, websocket.MessageText, msg)
	})
}

// takeConn counts a new connection of a client to a game, unless either
// is at its limit.
func (s *Server) takeConn(id, who string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	perGame := s.cfg.ConnsPerGame
	if id == lobbyConns {
		perGame *= 100 // everyone on the home page watches the lobby
	}
	if s.conns[who] >= s.cfg.ConnsPerClient || s.gameConns[id] >= perGame {
		return false
	}
	s.conns[who]++
	s.gameConns[id]++
	return true
}

func (s *Server) dropConn(id, who string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conns[who]--
	s.gameConns[id]--
	if s.conns[who] == 0 {
		delete(s.conns, who)
	}
	if s.gameConns[id] == 0 {
		delete(s.gameConns, id)
	}
}
