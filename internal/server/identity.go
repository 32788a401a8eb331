package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/store"
)

// A browser is known by a session cookie: an anonymous identity made the
// first time it plays, or an account it signed in to. The cookie holds a
// random token; the database keeps only its hash.
const (
	sessionCookie = "muster_session"
	sessionAge    = 400 * 24 * time.Hour // the longest a browser keeps a cookie
)

var (
	errSignedIn   = errors.New("you already have an account: sign out first to make another")
	errBadLogin   = errors.New("unknown username or wrong password")
	errNoSuchUser = errors.New("no such player")
)

// me returns the player the request's session signs in, or nil.
func (s *Server) me(r *http.Request) *store.Player {
	c, err := r.Cookie(sessionCookie)
	if err != nil || len(c.Value) != 32 {
		return nil
	}
	p, err := s.store.SessionPlayer(r.Context(), hashSecret(c.Value))
	if err != nil {
		return nil
	}
	return p
}

// identify returns the request's player, making an anonymous identity
// (and its cookie) for a browser that has none.
func (s *Server) identify(w http.ResponseWriter, r *http.Request) (*store.Player, error) {
	if p := s.me(r); p != nil {
		return p, nil
	}
	p := &store.Player{ID: newID(), Address: client(r)}
	if err := s.store.CreatePlayer(r.Context(), p); err != nil {
		return nil, err
	}
	if err := s.startSession(w, r, p.ID); err != nil {
		return nil, err
	}
	return p, nil
}

// startSession signs the browser in as the player with a new token.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, player string) error {
	token := randomToken(16)
	if err := s.store.CreateSession(r.Context(), hashSecret(token), player); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: token, Path: "/", MaxAge: int(sessionAge / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
	return nil
}

// endSession signs the browser out.
func (s *Server) endSession(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil {
		s.store.DeleteSession(r.Context(), hashSecret(c.Value))
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
}

type credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// meView is what a browser learns of itself.
type meView struct {
	ID        string `json:"id"`
	Username  string `json:"username,omitempty"`
	Anonymous bool   `json:"anonymous"`
	// YourTurn counts the games waiting for this player's move.
	YourTurn int `json:"your_turn"`
}

// whoami tells the browser who it is (an empty id: nobody yet).
func (s *Server) whoami(w http.ResponseWriter, r *http.Request) {
	p := s.me(r)
	if p == nil {
		s.writeJSON(w, http.StatusOK, meView{Anonymous: true})
		return
	}
	s.writeJSON(w, http.StatusOK, s.meOf(r.Context(), p))
}

func (s *Server) meOf(ctx context.Context, p *store.Player) meView {
	v := meView{ID: p.ID, Username: p.Username, Anonymous: p.Anonymous()}
	v.YourTurn = s.yourTurn(ctx, p.ID)
	return v
}

// register makes the browser's player an account: its anonymous games
// stay its own.
func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if err := s.decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := auth.CheckUsername(req.Username); err != nil {
		s.writeError(w, r, withCode(http.StatusBadRequest, err))
		return
	}
	if err := auth.CheckNewPassword(req.Password); err != nil {
		s.writeError(w, r, withCode(http.StatusBadRequest, err))
		return
	}
	addr := client(r)
	if n, err := s.store.RegisteredSince(r.Context(), addr, time.Now().Add(-time.Hour)); err != nil {
		s.writeError(w, r, err)
		return
	} else if n >= s.cfg.AccountsPerHour {
		s.writeError(w, r, withCode(http.StatusTooManyRequests, fmt.Errorf("at most %d new accounts an hour from one address", s.cfg.AccountsPerHour)))
		return
	}
	p, err := s.identify(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !p.Anonymous() {
		s.writeError(w, r, withCode(http.StatusConflict, errSignedIn))
		return
	}
	hash, err := auth.HashPassword(req.Password)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	switch err := s.store.Register(r.Context(), p.ID, req.Username, auth.UsernameKey(req.Username), hash); {
	case errors.Is(err, store.ErrNameTaken):
		s.writeError(w, r, withCode(http.StatusConflict, fmt.Errorf("the username %q is taken", req.Username)))
		return
	case err != nil:
		s.writeError(w, r, err)
		return
	}
	p.Username = req.Username
	s.writeJSON(w, http.StatusCreated, s.meOf(r.Context(), p))
}

// login signs the browser in to an account, with attempts limited per
// address and per account.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if err := s.decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	now := time.Now()
	key := auth.UsernameKey(req.Username)
	if ok, retry := s.loginByAddress.Allow(client(r), now); !ok {
		s.writeError(w, r, withCode(http.StatusTooManyRequests, fmt.Errorf("too many sign-in attempts from this address: try again in %s", retry.Round(time.Second))))
		return
	}
	if ok, retry := s.loginByAccount.Allow(key, now); !ok {
		s.writeError(w, r, withCode(http.StatusTooManyRequests, fmt.Errorf("too many sign-in attempts for this account: try again in %s", retry.Round(time.Second))))
		return
	}
	p, err := s.store.PlayerNamed(r.Context(), key)
	if errors.Is(err, store.ErrNoPlayer) {
		// Spend the time a check would, so that timing does not tell
		// which names exist.
		auth.CheckPassword(dummyHash(), req.Password)
		s.writeError(w, r, withCode(http.StatusUnauthorized, errBadLogin))
		return
	} else if err != nil {
		s.writeError(w, r, err)
		return
	}
	ok, err := auth.CheckPassword(p.PasswordHash, req.Password)
	if err != nil || !ok {
		s.writeError(w, r, withCode(http.StatusUnauthorized, errBadLogin))
		return
	}
	s.loginByAccount.Reset(key)
	s.endSession(w, r)
	if err := s.startSession(w, r, p.ID); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, http.StatusOK, s.meOf(r.Context(), p))
}

// dummyHash is checked against when a username is unknown (made once,
// when first needed: hashing costs 19 MiB and tens of milliseconds).
var dummyHash = sync.OnceValue(func() string {
	h, _ := auth.HashPassword("not a password anyone has")
	return h
})

// logout signs the browser out; it plays on as a new anonymous identity.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	s.endSession(w, r)
	s.writeJSON(w, http.StatusOK, meView{Anonymous: true})
}
