package server

import (
	"encoding/json"
	"strings"
)

// Several servers may share one PostgreSQL database. They tell each other
// of changes through it (LISTEN/NOTIFY): a game that moved (a server
// showing it reads it again and sends the new view to its watchers), a
// chat line, a change of the lobby. Each game's clock and agents run on
// the one server holding its lease (store.TakeLease); a server renews its
// leases every LeaseTTL/3 and takes over the games whose lease ran out,
// so a game outlives the server that ran it by a few seconds.

// Topics of the changes servers tell each other (and themselves) about.
const (
	// topicLobby: a challenge or a game between people changed.
	topicLobby = "lobby"
	// topicGame: the game (its id follows) changed in the store.
	topicGame = "game"
	// topicChat: a chat line (as JSON) was said.
	topicChat = "chat"
)

// publish tells this server and the others of a change. This server's
// rooms have already acted on their own changes; only the lobby is told
// here too.
func (s *Server) publish(topic, arg string) {
	if topic == topicLobby {
		s.signalLobby()
	}
	if !s.shared {
		return
	}
	select {
	case s.outbox <- s.instance + " " + topic + " " + arg:
	default:
		s.log.Warn("dropping a notification: the database is slow", "topic", topic)
	}
}

// sender sends the notifications in order.
func (s *Server) sender() {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		case p := <-s.outbox:
			if err := s.store.Notify(s.ctx, p); err != nil && s.ctx.Err() == nil {
				s.log.Error("notify", "err", err)
			}
		}
	}
}

// listener acts on the other servers' notifications.
func (s *Server) listener() {
	defer s.wg.Done()
	s.store.Listen(s.ctx, func(p string) {
		from, rest, _ := strings.Cut(p, " ")
		if from == s.instance {
			return
		}
		topic, arg, _ := strings.Cut(rest, " ")
		s.deliver(topic, arg)
	}, func() {
		s.listening.Store(true)
	})
}

// deliver acts on another server's change.
func (s *Server) deliver(topic, arg string) {
	switch topic {
	case topicLobby:
		s.signalLobby()
	case topicGame:
		if r := s.loaded(arg); r != nil {
			r.refresh()
		}
	case topicChat:
		var m busChat
		if json.Unmarshal([]byte(arg), &m) == nil {
			if r := s.loaded(m.Game); r != nil {
				m.Message.Game = m.Game
				r.sendChat(m.Message)
			}
		}
	}
}

// loaded returns the game's room if this server has it in memory.
func (s *Server) loaded(id string) *room {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rooms[id]
}

// renewAndAdopt renews this server's leases, lets go of the games whose
// lease it lost, and adopts orphaned games (every LeaseTTL/3).
func (s *Server) renewAndAdopt() {
	held, err := s.store.RenewLeases(s.ctx, s.instance, s.cfg.LeaseTTL)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Error("renewing leases", "err", err)
		}
		return
	}
	mine := map[string]bool{}
	for _, id := range held {
		mine[id] = true
	}
	s.mu.Lock()
	rooms := make([]*room, 0, len(s.rooms))
	for _, r := range s.rooms {
		rooms = append(rooms, r)
	}
	s.mu.Unlock()
	for _, r := range rooms {
		r.mu.Lock()
		if r.leased && !mine[r.rec.ID] {
			r.leased = false
			if r.timer != nil {
				r.timer.Stop()
			}
		}
		r.mu.Unlock()
	}
	orphans, err := s.store.Orphans(s.ctx, 50)
	if err != nil {
		return
	}
	for _, id := range orphans {
		ok, err := s.store.TakeLease(s.ctx, id, s.instance, s.cfg.LeaseTTL)
		if err != nil || !ok {
			continue
		}
		r, err := s.room(s.ctx, id)
		if err != nil {
			s.log.Error("adopting a game", "game", id, "err", err)
			continue
		}
		r.mu.Lock()
		r.leased = true
		r.mu.Unlock()
		r.refresh()
		r.start()
	}
}
