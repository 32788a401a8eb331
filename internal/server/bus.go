package server

// Topics of the changes servers tell each other (and themselves) about.
const (
	// topicLobby: a challenge or a game between people changed.
	topicLobby = "lobby"
)

// publish tells this server (and, on a shared database, every server) of
// a change.
func (s *Server) publish(topic, arg string) {
	s.deliver(topic, arg)
}

// deliver acts on a change told.
func (s *Server) deliver(topic, arg string) {
	switch topic {
	case topicLobby:
		s.signalLobby()
	}
}
