// Package identity knows who a request comes from. A browser is known by
// a session cookie: an anonymous identity made the first time it plays,
// or an account it signed in to. The cookie holds a random token; the
// database keeps only its hash. The player is looked up once per request
// (Middleware keeps it in the request's context), and a database that
// fails is never taken for "nobody": the request answers 503 and the
// cookie stays.
//
// It also serves the accounts: register, sign in, sign out, and "who am
// I".
package identity

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

const (
	// Cookie is the session cookie's name.
	Cookie     = "muster_session"
	sessionAge = 400 * 24 * time.Hour // the longest a browser keeps a cookie
)

// Config holds the limits of accounts.
type Config struct {
	// AccountsPerHour bounds the accounts made from one address an hour;
	// LoginsPerAddress, LoginsPerAccount (one account's from one
	// address) and LoginsPerName (one account's from every address
	// together, but its owner's: see Service.login) the sign-in
	// attempts in LoginWindow.
	AccountsPerHour                                   int
	LoginsPerAddress, LoginsPerAccount, LoginsPerName int
	LoginWindow                                       time.Duration
}

// Service resolves identities and serves the accounts.
type Service struct {
	cfg   Config
	store *store.Store
	api   *httpx.API
	log   *slog.Logger
	// loginByAddress, loginByAccount and loginByName limit sign-in
	// attempts; owners holds the pairs of an account and an address that
	// signed in to it, which loginByName does not count.
	loginByAddress, loginByAccount, loginByName *auth.Limiter
	owners                                      *auth.Limiter
	// signOutTries and signOutWait set how a failed sign-out is retried.
	signOutTries int
	signOutWait  time.Duration
	// perAddress orders the registrations of an address (counted, then
	// made); hashes bounds the password hashes running at once.
	perAddress auth.Locks
	hashes     *auth.Gate
	// renamed are told of a player whose name changed (an anonymous
	// visitor who registered), to show it where they hold his games.
	renamed []func(ctx context.Context, player string)
	// byToken are the connections signed in by a bot's tokens, by player:
	// each told at once when one of his tokens is revoked (WatchTokens).
	tokensMu sync.Mutex
	byToken  map[string]map[*func()]struct{}
	// revoked are told of a player a token of whom was revoked here (the
	// other servers, through the bus).
	revoked []func(player string)
}

// WatchTokens has recheck called, at once and on the revoker's
// goroutine, whenever a bot token of player is revoked, here or (told
// through TokensRevoked) on another server, until stop: a connection
// signed in by a token checks it then (Fresh), and ends before the
// revocation is answered. recheck must not block.
func (s *Service) WatchTokens(player string, recheck func()) (stop func()) {
	f := &recheck
	s.tokensMu.Lock()
	if s.byToken == nil {
		s.byToken = map[string]map[*func()]struct{}{}
	}
	if s.byToken[player] == nil {
		s.byToken[player] = map[*func()]struct{}{}
	}
	s.byToken[player][f] = struct{}{}
	s.tokensMu.Unlock()
	return func() {
		s.tokensMu.Lock()
		defer s.tokensMu.Unlock()
		delete(s.byToken[player], f)
		if len(s.byToken[player]) == 0 {
			delete(s.byToken, player)
		}
	}
}

// TokensRevoked tells the connections signed in by player's tokens that
// one was revoked (by another server, or muster admin).
func (s *Service) TokensRevoked(player string) {
	s.tokensMu.Lock()
	fs := make([]func(), 0, len(s.byToken[player]))
	for f := range s.byToken[player] {
		fs = append(fs, *f)
	}
	s.tokensMu.Unlock()
	for _, f := range fs {
		f()
	}
}

// OnRevoke has f told of each player a token of whom is revoked on this
// server (to tell the other servers).
func (s *Service) OnRevoke(f func(player string)) { s.revoked = append(s.revoked, f) }

// OnRename has f told of each player whose name changes: an anonymous
// visitor who registers is shown by his new name in his games.
func (s *Service) OnRename(f func(ctx context.Context, player string)) {
	s.renamed = append(s.renamed, f)
}

// New returns the identity service on a store.
func New(st *store.Store, api *httpx.API, cfg Config) *Service {
	return &Service{cfg: cfg, store: st, api: api, log: api.Log,
		loginByAddress: auth.NewLimiter(cfg.LoginsPerAddress, cfg.LoginWindow, 100000),
		loginByAccount: auth.NewLimiter(cfg.LoginsPerAccount, cfg.LoginWindow, 100000),
		loginByName:    auth.NewLimiter(max(cfg.LoginsPerName, 1), cfg.LoginWindow, 100000),
		owners:         auth.NewLimiter(1, ownerKept, 100000),
		signOutTries:   3, signOutWait: 100 * time.Millisecond, hashes: auth.NewGate(runtime.NumCPU(), hashesWaitingPerAddress)}
}

// ownerKept is how long an address that signed in to an account is
// known as its owner's, its attempts not counted among the account's from
// every address.
const ownerKept = 30 * 24 * time.Hour

// errHashBusy answers a password check or hash that found no place for
// seconds: the server is busy with others.
var errHashBusy = httpx.NewError(http.StatusServiceUnavailable, "the server is busy checking passwords: try again in a moment")

// PasswordChecks counts the password hashes and checks run so far.
func (s *Service) PasswordChecks() int { return s.hashes.Runs() }

// PasswordChecksRunning counts those running now.
func (s *Service) PasswordChecksRunning() int { return s.hashes.Running() }

// hashesWaitingPerAddress bounds one address's password checks waiting
// for a place.
const hashesWaitingPerAddress = 4

// hash runs a password hash or check with a place among the few that
// may run at once (each costs 19 MiB and tens of milliseconds), waiting
// at most 5 seconds for one. The accounts waiting (account, the key of
// the one signed in to, or "" for a new one) take the places in turn, and
// within each the addresses: no number of addresses guessing at one
// account keeps the owners of the others out.
func (s *Service) hash(r *http.Request, account string, f func()) error {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	if s.hashes.Do(ctx, account, httpx.Client(r), f) != nil {
		return errHashBusy
	}
	return nil
}

// resolved is a request's player, looked up once.
type resolved struct {
	done   bool
	player *store.Player
	err    error
}

type ctxKey struct{}

// Middleware gives every request a place for its player, looked up at
// most once, when a handler first asks.
func (s *Service) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, &resolved{})))
	})
}

// Me returns the player the request's session signs in, or nil for
// nobody (no cookie, or a session unknown or ended). An error is the
// database's: the caller answers it (503) and must not take the browser
// for a new player.
func (s *Service) Me(r *http.Request) (*store.Player, error) {
	res, _ := r.Context().Value(ctxKey{}).(*resolved)
	if res == nil {
		return s.lookup(r)
	}
	if !res.done {
		res.player, res.err = s.lookup(r)
		res.done = res.err == nil // a failure is tried again on the next ask
	}
	return res.player, res.err
}

// Keep returns r as a long-lived connection keeps it for the requests it
// makes later (a game's WebSocket, for each message): where it came from
// and the headers that say who sends it (the session's cookie, a bot's
// token), its URL and context. Its other headers are let go (0.46 KB a
// live game with the load client's few headers; a browser sends more).
func (s *Service) Keep(r *http.Request) *http.Request {
	m := &http.Request{Method: r.Method, URL: r.URL, Proto: r.Proto, ProtoMajor: r.ProtoMajor, ProtoMinor: r.ProtoMinor,
		Host: r.Host, RemoteAddr: r.RemoteAddr, RequestURI: r.RequestURI, Header: http.Header{}}
	for _, k := range []string{"Cookie", "Authorization"} {
		if v, ok := r.Header[k]; ok {
			m.Header[k] = v
		}
	}
	return m.WithContext(r.Context())
}

// Detach returns r with ctx (the connection's), and with a record of its
// own of who it comes from, looked up afresh when first asked: for each
// message of a long-lived connection (a game's WebSocket), which must
// neither share its connection's record with another goroutine nor trust
// a session that may have ended since the connection opened.
func (s *Service) Detach(ctx context.Context, r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(ctx, ctxKey{}, &resolved{}))
}

// Fresh looks the request's player up again (a long-lived connection
// whose browser may have signed in or out meanwhile).
func (s *Service) Fresh(r *http.Request) (*store.Player, error) {
	p, err := s.lookup(r)
	if res, _ := r.Context().Value(ctxKey{}).(*resolved); res != nil && err == nil {
		res.player, res.done = p, true
	}
	return p, err
}

func (s *Service) lookup(r *http.Request) (*store.Player, error) {
	if t, ok := BearerToken(r); ok {
		return s.botLookup(r, t)
	}
	c, err := r.Cookie(Cookie)
	if err != nil || len(c.Value) != 32 {
		return nil, nil
	}
	p, err := s.store.SessionPlayer(r.Context(), token.Hash(c.Value))
	switch {
	case errors.Is(err, store.ErrNoSession):
		return nil, nil
	case err != nil:
		return nil, httpx.Unavailable(err)
	}
	if time.Since(p.SessionSeen) > 24*time.Hour {
		// Used today: it lasts another SessionIdle (one write a day, made
		// apart, so that a busy database delays no request).
		go func(hash string) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := s.store.TouchSession(ctx, hash, time.Now()); err != nil {
				s.log.Warn("marking a session used", "err", err)
			}
		}(token.Hash(c.Value))
	}
	return p, nil
}

// set records the request's player after a sign-in or sign-out.
func set(r *http.Request, p *store.Player) {
	if res, _ := r.Context().Value(ctxKey{}).(*resolved); res != nil {
		res.player, res.err, res.done = p, nil, true
	}
}

// Identify returns the request's player, making an anonymous identity
// (and its cookie) for a browser that has none. A database error is
// returned as it is: the browser keeps its cookie.
func (s *Service) Identify(w http.ResponseWriter, r *http.Request) (*store.Player, error) {
	p, err := s.Me(r)
	if err != nil || p != nil {
		return p, err
	}
	if _, bot := BearerToken(r); bot {
		return nil, errBadToken // a program is never made an anonymous player
	}
	p = &store.Player{ID: token.ID(), Address: httpx.Client(r)}
	if err := s.store.CreatePlayer(r.Context(), p); err != nil {
		return nil, httpx.Unavailable(err)
	}
	if err := s.startSession(w, r, p.ID); err != nil {
		return nil, err
	}
	set(r, p)
	return p, nil
}

// PlayerID is the id of the request's player, or "" for nobody.
func (s *Service) PlayerID(r *http.Request) (string, error) {
	p, err := s.Me(r)
	if p == nil {
		return "", err
	}
	return p.ID, nil
}

// startSession signs the browser in as the player with a new token.
func (s *Service) startSession(w http.ResponseWriter, r *http.Request, player string) error {
	t := token.New(16)
	if err := s.store.CreateSession(r.Context(), token.Hash(t), player); err != nil {
		return httpx.Unavailable(err)
	}
	http.SetCookie(w, &http.Cookie{Name: Cookie, Value: t, Path: "/", MaxAge: int(sessionAge / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: httpx.IsSecure(r)})
	return nil
}

// ErrSignOut answers a sign-out the database did not take: the session
// still holds, and the browser keeps its cookie to try again.
var ErrSignOut = httpx.NewError(http.StatusServiceUnavailable, "signing out failed: the server is busy; try again")

// endSession ends the browser's session in the store, trying a few times,
// and only then drops its cookie; it returns ErrSignOut if the store
// would not.
func (s *Service) endSession(w http.ResponseWriter, r *http.Request) error {
	if c, err := r.Cookie(Cookie); err == nil {
		var derr error
		for try := range s.signOutTries {
			if try > 0 {
				select {
				case <-r.Context().Done():
					return ErrSignOut
				case <-time.After(s.signOutWait << (try - 1)):
				}
			}
			if derr = s.store.DeleteSession(r.Context(), token.Hash(c.Value)); derr == nil {
				break
			}
		}
		if derr != nil {
			s.log.Error("signing out", "err", derr)
			return ErrSignOut
		}
	}
	http.SetCookie(w, &http.Cookie{Name: Cookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: httpx.IsSecure(r)})
	set(r, nil)
	return nil
}

// anonymousLife is how long an anonymous identity with nothing of its own
// (no game, challenge, chat line or rating) is kept.
const anonymousLife = 24 * time.Hour

// Forget ends the sessions no request has used for store.SessionIdle,
// and deletes the anonymous identities made more than a day ago that
// have nothing of their own, with their sessions (a browser that looked
// and left, or a client without cookies refused at a limit); it returns
// how many identities it deleted. It deletes them in batches of
// forgetBatch, one transaction each, until none is left (or
// forgetPerSweep are gone), so that it keeps up with any number made in
// an hour.
func (s *Service) Forget(ctx context.Context) int {
	if _, err := s.store.ForgetIdleSessions(ctx, time.Now().Add(-store.SessionIdle)); err != nil && ctx.Err() == nil {
		s.log.Error("ending idle sessions", "err", err)
	}
	total := 0
	for total < forgetPerSweep {
		n, err := s.store.ForgetIdleAnonymous(ctx, time.Now().Add(-anonymousLife), forgetBatch)
		if err != nil && ctx.Err() == nil {
			s.log.Error("forgetting idle anonymous players", "err", err)
		}
		total += n
		if err != nil || n < forgetBatch {
			break
		}
	}
	return total
}

// forgetBatch is how many identities Forget deletes in one transaction,
// forgetPerSweep how many in one sweep at most.
const forgetBatch, forgetPerSweep = 1000, 1000000
