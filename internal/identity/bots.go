package identity

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

// A bot is an account played by a program. Its owner, signed in to it in
// a browser, makes it a bot (once, before it has played) and makes and
// revokes its tokens there; the program sends a token with every request
// (Authorization: Bearer TOKEN) and is then that account, on every route,
// as a signed-in browser is. Only the token's hash is stored. A request
// with a token never manages tokens: a leaked token cannot make more.

const (
	// tokenPrefix marks Muster's bot tokens (as a secret scanner would
	// look for them); the rest is 24 random bytes in hex.
	tokenPrefix = "muster_bot_"
	tokenBytes  = 24
	// MaxTokens bounds a bot's tokens at once.
	MaxTokens = 5
)

var (
	errBadToken    = httpx.NewError(http.StatusUnauthorized, "unknown or revoked bot token")
	errNotAccount  = httpx.NewError(http.StatusForbidden, "sign in to an account first: only an account can become a bot")
	errNotBot      = httpx.NewError(http.StatusForbidden, "this account is not a bot: make it one first")
	errByToken     = httpx.NewError(http.StatusForbidden, "tokens are managed from the bot's page in a browser, not with a token")
	errHasGames    = httpx.NewError(http.StatusConflict, "this account has played games, or has a challenge or a tournament open: a bot must be a new account, so that no person's games or rating become a program's and nobody meets a program he did not ask for (cancel its challenges, leave its tournaments)")
	errTooMany     = httpx.NewError(http.StatusConflict, "a bot has at most 5 tokens: revoke one first")
	errNoSuchToken = httpx.NewError(http.StatusNotFound, "no such token of yours")
)

// BearerToken returns the bot token a request carries, if it carries one
// (Authorization: Bearer ...); ok is true for any Bearer header, a
// malformed token included, so that it is refused rather than taken for
// a browser.
func BearerToken(r *http.Request) (t string, ok bool) {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if len(h) < 6 || !strings.EqualFold(h[:6], "Bearer") || len(h) > 6 && h[6] != ' ' {
		return "", false
	}
	return strings.TrimSpace(h[6:]), true
}

// botLookup returns the bot a token signs in; an unknown, revoked or
// malformed token is refused (401), never taken for nobody.
func (s *Service) botLookup(r *http.Request, t string) (*store.Player, error) {
	if !strings.HasPrefix(t, tokenPrefix) || len(t) != len(tokenPrefix)+2*tokenBytes {
		return nil, errBadToken
	}
	p, err := s.store.TokenPlayer(r.Context(), token.Hash(t))
	switch {
	case errors.Is(err, store.ErrNoToken), errors.Is(err, store.ErrNoPlayer):
		return nil, errBadToken
	case err != nil:
		return nil, httpx.Unavailable(err)
	}
	return p, nil
}

// tokenView is a token as its owner sees it; Token only when just made.
type tokenView struct {
	ID      string `json:"id"`
	Created int64  `json:"created"`
	Used    int64  `json:"used,omitempty"`
	Token   string `json:"token,omitempty"`
}

// browserAccount returns the signed-in account of a browser request
// (not one with a token).
func (s *Service) browserAccount(r *http.Request) (*store.Player, error) {
	if _, bot := BearerToken(r); bot {
		return nil, errByToken
	}
	p, err := s.Me(r)
	switch {
	case err != nil:
		return nil, err
	case p == nil || p.Anonymous():
		return nil, errNotAccount
	}
	return p, nil
}

// becomeBot makes the signed-in account a bot, for good.
func (s *Service) becomeBot(w http.ResponseWriter, r *http.Request) error {
	p, err := s.browserAccount(r)
	if err != nil {
		return err
	}
	switch err := s.store.MakeBot(r.Context(), p.ID); {
	case errors.Is(err, store.ErrHasGames):
		return errHasGames
	case err != nil:
		return httpx.Unavailable(err)
	}
	p.Bot = true
	v, err := s.ViewOf(r.Context(), p)
	if err != nil {
		return err
	}
	return s.api.JSON(w, http.StatusOK, v)
}

// tokens lists the bot's tokens.
func (s *Service) tokens(w http.ResponseWriter, r *http.Request) error {
	p, err := s.browserAccount(r)
	if err != nil {
		return err
	}
	ts, err := s.store.BotTokens(r.Context(), p.ID)
	if err != nil {
		return httpx.Unavailable(err)
	}
	out := make([]tokenView, 0, len(ts))
	for _, t := range ts {
		v := tokenView{ID: t.ID, Created: t.Created.UnixMilli()}
		if !t.Used.IsZero() {
			v.Used = t.Used.UnixMilli()
		}
		out = append(out, v)
	}
	return s.api.JSON(w, http.StatusOK, out)
}

// newToken makes a token for the bot and shows it, this once.
func (s *Service) newToken(w http.ResponseWriter, r *http.Request) error {
	p, err := s.browserAccount(r)
	if err != nil {
		return err
	}
	if !p.Bot {
		return errNotBot
	}
	// Counted and made under the player's lock: requests at once pass
	// the limit one by one.
	defer s.perAddress.Lock("bot " + p.ID)()
	ts, err := s.store.BotTokens(r.Context(), p.ID)
	if err != nil {
		return httpx.Unavailable(err)
	}
	if len(ts) >= MaxTokens {
		return errTooMany
	}
	t := tokenPrefix + token.New(tokenBytes)
	id := token.ID()
	if err := s.store.CreateBotToken(r.Context(), p.ID, id, token.Hash(t)); err != nil {
		return httpx.Unavailable(err)
	}
	return s.api.JSON(w, http.StatusCreated, tokenView{ID: id, Token: t, Created: time.Now().UnixMilli()})
}

// revokeToken revokes one of the bot's tokens at once.
func (s *Service) revokeToken(w http.ResponseWriter, r *http.Request) error {
	p, err := s.browserAccount(r)
	if err != nil {
		return err
	}
	switch err := s.store.DeleteBotToken(r.Context(), p.ID, r.PathValue("id")); {
	case errors.Is(err, store.ErrNoToken):
		return errNoSuchToken
	case err != nil:
		return httpx.Unavailable(err)
	}
	// Its streams end before the revocation is answered.
	s.TokensRevoked(p.ID)
	for _, f := range s.revoked {
		f(p.ID)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
