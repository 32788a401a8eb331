package server

import (
	"errors"
	"net/http"
)

type joinRequest struct {
	Token string `json:"token"`
}

// join gives the seat left for a friend to the holder of its invitation,
// once.
func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	var req joinRequest
	rm, ok := s.decodeFor(w, r, &req)
	if !ok {
		return
	}
	me, err := s.identify(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	seat, secret, err := rm.join(r.Context(), req.Token, me)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"seat": seat, "secret": secret})
}

type actRequest struct {
	Secret string `json:"secret"`
	Action string `json:"action"`
	// Ply is the number of actions the player saw: an action made on an
	// older view is refused.
	Ply *int `json:"ply"`
}

// act plays an action for a seat.
func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	var req actRequest
	if err := s.decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	switch {
	case len(req.Action) > 64:
		s.writeError(w, r, withCode(http.StatusBadRequest, errors.New("an action is at most 64 characters")))
		return
	case req.Ply == nil:
		s.writeError(w, r, withCode(http.StatusBadRequest, errors.New("an action needs the ply it was made at")))
		return
	}
	rm, err := s.roomOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := rm.play(r.Context(), s.holder(r, req.Secret), req.Action, *req.Ply)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, http.StatusOK, v)
}

type secretRequest struct {
	Secret string `json:"secret"`
	// What is, for draws and takebacks, offer, accept or decline.
	What string `json:"what,omitempty"`
}

// resign ends the game, lost for the seat.
func (s *Server) resign(w http.ResponseWriter, r *http.Request) {
	s.seatRequest(w, r, func(rm *room, req secretRequest) (view, error) {
		return rm.resign(r.Context(), s.holder(r, req.Secret))
	})
}

// abort calls off a game that has not begun.
func (s *Server) abort(w http.ResponseWriter, r *http.Request) {
	s.seatRequest(w, r, func(rm *room, req secretRequest) (view, error) {
		return rm.abort(r.Context(), s.holder(r, req.Secret))
	})
}

// takeback asks for, accepts or declines taking back the asking seat's
// last turn; against the computer it is done at once.
func (s *Server) takeback(w http.ResponseWriter, r *http.Request) {
	s.seatRequest(w, r, func(rm *room, req secretRequest) (view, error) {
		return rm.takeback(r.Context(), s.holder(r, req.Secret), req.What)
	})
}

// rematch gives the seat holder his seat in the game that follows,
// sides swapped.
func (s *Server) rematch(w http.ResponseWriter, r *http.Request) {
	var req secretRequest
	rm, ok := s.decodeFor(w, r, &req)
	if !ok {
		return
	}
	resp, err := rm.rematch(r.Context(), s.holder(r, req.Secret))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, http.StatusOK, resp)
}

// draw offers, accepts or declines a draw.
func (s *Server) draw(w http.ResponseWriter, r *http.Request) {
	s.seatRequest(w, r, func(rm *room, req secretRequest) (view, error) {
		return rm.draw(r.Context(), s.holder(r, req.Secret), req.What)
	})
}

// seatRequest reads a request with a seat's secret, does it on the
// game's room and answers with the new view.
func (s *Server) seatRequest(w http.ResponseWriter, r *http.Request, do func(*room, secretRequest) (view, error)) {
	var req secretRequest
	rm, ok := s.decodeFor(w, r, &req)
	if !ok {
		return
	}
	v, err := do(rm, req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, http.StatusOK, v)
}

// decodeFor reads a request's body into req and finds the game's room; it
// has answered with the error when it reports false.
func (s *Server) decodeFor(w http.ResponseWriter, r *http.Request, req any) (*room, bool) {
	if err := s.decode(w, r, req); err != nil {
		s.writeError(w, r, err)
		return nil, false
	}
	rm, err := s.roomOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return nil, false
	}
	return rm, true
}

// holder is who a request comes from: the seat's secret it gives and the
// player its session signs in.
func (s *Server) holder(r *http.Request, secret string) holder {
	h := holder{secret: secret}
	if p := s.me(r); p != nil {
		h.player = p.ID
	}
	return h
}
