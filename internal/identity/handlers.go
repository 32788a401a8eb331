package identity

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
)

var (
	errSignedIn = httpx.NewError(http.StatusConflict, "you already have an account: sign out first to make another")
	errBadLogin = httpx.NewError(http.StatusUnauthorized, "unknown username or wrong password")
)

// Routes adds the account routes to mux.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/me", s.api.Func(s.whoami))
	mux.HandleFunc("POST /api/account/register", s.api.Func(s.register))
	mux.HandleFunc("POST /api/account/login", s.api.Func(s.login))
	mux.HandleFunc("POST /api/account/logout", s.api.Func(s.logout))
	mux.HandleFunc("POST /api/account/logout-everywhere", s.api.Func(s.logoutEverywhere))
	mux.HandleFunc("POST /api/account/bot", s.api.Func(s.becomeBot))
	mux.HandleFunc("GET /api/account/tokens", s.api.Func(s.tokens))
	mux.HandleFunc("POST /api/account/tokens", s.api.Func(s.newToken))
	mux.HandleFunc("DELETE /api/account/tokens/{id}", s.api.Func(s.revokeToken))
}

type credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// View is what a browser learns of itself.
type View struct {
	ID        string `json:"id"`
	Username  string `json:"username,omitempty"`
	Anonymous bool   `json:"anonymous"`
	// Bot: the account is played by a program.
	Bot bool `json:"bot,omitempty"`
	// Admin: the account moderates; Muted and Banned: what moderation
	// has done to it.
	Admin  bool `json:"admin,omitempty"`
	Muted  bool `json:"muted,omitempty"`
	Banned bool `json:"banned,omitempty"`
	// YourTurn counts the games waiting for this player's move.
	YourTurn int `json:"your_turn"`
}

// Nobody is the view of a browser with no identity yet.
var Nobody = View{Anonymous: true}

// ViewOf is what player p (nil: nobody) learns of himself.
func (s *Service) ViewOf(ctx context.Context, p *store.Player) (View, error) {
	if p == nil {
		return Nobody, nil
	}
	v := View{ID: p.ID, Username: p.Username, Anonymous: p.Anonymous(), Bot: p.Bot, Admin: p.Admin, Muted: p.Muted, Banned: p.Banned}
	n, err := s.store.WaitingFor(ctx, p.ID)
	if err != nil {
		return v, httpx.Unavailable(err)
	}
	v.YourTurn = n
	return v, nil
}

// whoami tells the browser who it is (an empty id: nobody yet).
func (s *Service) whoami(w http.ResponseWriter, r *http.Request) error {
	p, err := s.Me(r)
	if err != nil {
		return err
	}
	v, err := s.ViewOf(r.Context(), p)
	if err != nil {
		return err
	}
	return s.api.JSON(w, http.StatusOK, v)
}

// register makes the browser's player an account: its anonymous games
// stay its own.
func (s *Service) register(w http.ResponseWriter, r *http.Request) error {
	var req credentials
	if err := s.api.Decode(w, r, &req); err != nil {
		return err
	}
	if err := auth.CheckUsername(req.Username); err != nil {
		return httpx.WithCode(http.StatusBadRequest, err)
	}
	if err := auth.CheckNewPassword(req.Password); err != nil {
		return httpx.WithCode(http.StatusBadRequest, err)
	}
	addr := httpx.Client(r)
	// Counted and made under the address's lock: registrations arriving
	// at once pass the limit one by one.
	defer s.perAddress.Lock(addr)()
	if n, err := s.store.RegisteredSince(r.Context(), addr, time.Now().Add(-time.Hour)); err != nil {
		return httpx.Unavailable(err)
	} else if n >= s.cfg.AccountsPerHour {
		return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("at most %d new accounts an hour from one address", s.cfg.AccountsPerHour))
	}
	taken := httpx.WithCode(http.StatusConflict, fmt.Errorf("the username %q is taken", req.Username))
	// A name taken costs no hash.
	switch _, err := s.store.PlayerNamed(r.Context(), auth.UsernameKey(req.Username)); {
	case err == nil:
		return taken
	case !errors.Is(err, store.ErrNoPlayer):
		return httpx.Unavailable(err)
	}
	p, err := s.Identify(w, r)
	if err != nil {
		return err
	}
	if !p.Anonymous() {
		return errSignedIn
	}
	var hash string
	if err := s.hash(r, "", func() { hash, err = auth.HashPassword(req.Password) }); err != nil {
		return err
	}
	if err != nil {
		return err
	}
	switch err := s.store.Register(r.Context(), p.ID, req.Username, auth.UsernameKey(req.Username), hash); {
	case errors.Is(err, store.ErrNameTaken):
		return taken
	case err != nil:
		return err
	}
	p.Username = req.Username
	for _, f := range s.renamed {
		f(r.Context(), p.ID)
	}
	// A new token for the account, as a sign-in gives: one planted in the
	// browser before (session fixation) signs nobody in to it.
	return s.signIn(w, r, p, http.StatusCreated)
}

// signIn ends the browser's session, starts a new one for p and answers
// with code and what p learns of himself.
func (s *Service) signIn(w http.ResponseWriter, r *http.Request, p *store.Player, code int) error {
	if err := s.endSession(w, r); err != nil {
		return err
	}
	if err := s.startSession(w, r, p.ID); err != nil {
		return err
	}
	if p.Username != "" {
		// The address is the owner's from now on (login's limits).
		pair := auth.UsernameKey(p.Username) + " " + httpx.Client(r)
		s.owners.Reset(pair)
		s.owners.Allow(pair, time.Now())
	}
	set(r, p)
	v, err := s.ViewOf(r.Context(), p)
	if err != nil {
		return err
	}
	return s.api.JSON(w, code, v)
}

// login signs the browser in to an account, with attempts limited per
// address and per account.
func (s *Service) login(w http.ResponseWriter, r *http.Request) error {
	var req credentials
	if err := s.api.Decode(w, r, &req); err != nil {
		return err
	}
	now := time.Now()
	key := auth.UsernameKey(req.Username)
	if ok, retry := s.loginByAddress.Allow(httpx.Client(r), now); !ok {
		return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("too many sign-in attempts from this address: try again in %s", retry.Round(time.Second)))
	}
	// The attempts on an account are counted per address: another
	// address's wrong guesses do not lock its owner out.
	pair := key + " " + httpx.Client(r)
	if ok, retry := s.loginByAccount.Allow(pair, now); !ok {
		return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("too many sign-in attempts for this account: try again in %s", retry.Round(time.Second)))
	}
	// And from every address together, so that guesses spread over many
	// addresses cost a refusal, not a password's hash: but the owner's,
	// an address that signed in to the account before or a browser
	// signed in to it now, is never shut out by others' guesses.
	if !s.owner(r, key, pair, now) {
		if ok, retry := s.loginByName.Allow(key, now); !ok {
			return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("too many sign-in attempts for this account from elsewhere: try again in %s, or from where you signed in before", retry.Round(time.Second)))
		}
	}
	p, err := s.store.PlayerNamed(r.Context(), key)
	if errors.Is(err, store.ErrNoPlayer) {
		// An unknown name is answered at once, taking no place among the
		// password checks: a flood of made-up names costs nothing. The
		// names of accounts are public anyway (players' pages, the
		// leaderboard), so the time of the answer tells nobody anything.
		return errBadLogin
	} else if err != nil {
		return httpx.Unavailable(err)
	}
	var ok bool
	if err := s.hash(r, key, func() { ok, err = auth.CheckPassword(p.PasswordHash, req.Password) }); err != nil {
		return err
	}
	if err != nil || !ok {
		return errBadLogin
	}
	s.loginByAccount.Reset(pair)
	return s.signIn(w, r, p, http.StatusOK)
}

// owner reports whether a sign-in to the account key comes from its
// owner: an address that signed in to it within ownerKept (pair, the
// account and the address), or a browser signed in to it now.
func (s *Service) owner(r *http.Request, key, pair string, now time.Time) bool {
	if s.owners.Seen(pair, now) {
		return true
	}
	p, err := s.Me(r)
	return err == nil && p != nil && p.Username != "" && auth.UsernameKey(p.Username) == key
}

// logout signs the browser out; it plays on as a new anonymous identity.
// A sign-out the database did not take answers 503 and keeps the cookie.
func (s *Service) logout(w http.ResponseWriter, r *http.Request) error {
	if err := s.endSession(w, r); err != nil {
		return err
	}
	return s.api.JSON(w, http.StatusOK, Nobody)
}

// logoutEverywhere ends every session of the browser's player, on every
// browser, this one included.
func (s *Service) logoutEverywhere(w http.ResponseWriter, r *http.Request) error {
	if _, bot := BearerToken(r); bot {
		// A program holding a bot's token does not sign its owner's
		// browsers out.
		return errByToken
	}
	p, err := s.Me(r)
	if err != nil {
		return err
	}
	if p != nil {
		if err := s.store.DeleteSessions(r.Context(), p.ID); err != nil {
			s.log.Error("signing out everywhere", "err", err)
			return ErrSignOut
		}
	}
	if err := s.endSession(w, r); err != nil {
		return err
	}
	return s.api.JSON(w, http.StatusOK, Nobody)
}
