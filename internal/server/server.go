// Package server is Muster's web app: HTTP handlers for the pages and the
// JSON API, WebSocket connections that carry every change of a game live,
// the agents playing their seats, and the limits that keep it safe. Games
// are stored as they are played (internal/store), so a restarted server
// continues every game where it was.
//
// The files: server.go the routes and the lifecycle; response.go the JSON
// answers and errors; game_handlers.go and seat_handlers.go the API by
// resource; websocket.go the live views; pages.go the pages and
// documents; room.go the one owner of a game in play; view.go what every
// client receives. The server knows games only through the game package's
// contract: it never parses notation or names a game.
package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/web"
)

// Config holds the limits and settings of a server.
type Config struct {
	// MaxBody bounds a request body.
	MaxBody int64
	// GamesPerHour bounds the games one client (address) creates an hour.
	GamesPerHour int
	// ConnsPerClient bounds one client's WebSocket connections at once;
	// ConnsPerGame a game's.
	ConnsPerClient, ConnsPerGame int
	// AgentTimeout bounds an agent's thinking for one action.
	AgentTimeout time.Duration
	// AnalysisTime bounds the engine's thinking on one position of the
	// analysis board; Engines bounds the evaluations running at once,
	// with the computers thinking on their opponent's time (the max level
	// ponders while a free token remains).
	AnalysisTime time.Duration
	Engines      int
	// Log receives the server's messages (nil: discard).
	Log io.Writer
	// Reports is a folder of reports (muster report --html) served under
	// /reports/, or "" for none.
	Reports string
	// AccountsPerHour bounds the accounts made from one address an hour;
	// LoginsPerAddress and LoginsPerAccount the sign-in attempts in
	// LoginWindow.
	AccountsPerHour                    int
	LoginsPerAddress, LoginsPerAccount int
	LoginWindow                        time.Duration
	// LeaseTTL is how long a server's hold on a game lasts unrenewed,
	// on a database shared by several servers: how soon another takes a
	// dead server's games over.
	LeaseTTL time.Duration
	// ChallengesPerHour bounds the challenges a player or an address makes
	// an hour.
	ChallengesPerHour int
}

// DefaultConfig are the limits of a public server.
var DefaultConfig = Config{MaxBody: 64 << 10, GamesPerHour: 60, ConnsPerClient: 32, ConnsPerGame: 64, AgentTimeout: 60 * time.Second,
	AnalysisTime: 3 * time.Second, Engines: 2, AccountsPerHour: 5, LoginsPerAddress: 20, LoginsPerAccount: 5, LoginWindow: 15 * time.Minute,
	LeaseTTL: 6 * time.Second, ChallengesPerHour: 30}

// Server is the web app.
type Server struct {
	cfg   Config
	store *store.Store
	log   *slog.Logger
	ctx   context.Context
	stop  context.CancelFunc
	wg    sync.WaitGroup
	mux   *http.ServeMux
	// engines holds a token for each evaluation or pondering running.
	engines chan struct{}
	// ponders counts the times a computer began to think on a person's
	// time.
	ponders atomic.Int64
	// loginByAddress and loginByAccount limit sign-in attempts.
	loginByAddress, loginByAccount *auth.Limiter
	// chatLimit limits each player's chat lines, chatByAddress each
	// address's.
	chatLimit, chatByAddress *auth.Limiter
	// shared is set on PostgreSQL, where other servers may share the
	// database; instance names this server to them; outbox holds the
	// notifications to send; listening is set once they are heard.
	shared    bool
	instance  string
	outbox    chan string
	listening atomic.Bool

	lobbyHub lobbyHub

	mu        sync.Mutex
	rooms     map[string]*room
	conns     map[string]int // per client
	gameConns map[string]int // per game
}

// New makes a server on a store; Close stops its agents.
func New(st *store.Store, cfg Config) *Server {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, store: st, log: slog.New(slog.NewTextHandler(cfg.Log, nil)), ctx: ctx, stop: stop,
		rooms: map[string]*room{}, conns: map[string]int{}, gameConns: map[string]int{},
		engines: make(chan struct{}, max(1, cfg.Engines))}
	if s.cfg.AnalysisTime <= 0 {
		s.cfg.AnalysisTime = DefaultConfig.AnalysisTime
	}
	if s.cfg.AccountsPerHour <= 0 {
		s.cfg.AccountsPerHour = DefaultConfig.AccountsPerHour
	}
	if s.cfg.LoginsPerAddress <= 0 || s.cfg.LoginsPerAccount <= 0 || s.cfg.LoginWindow <= 0 {
		s.cfg.LoginsPerAddress, s.cfg.LoginsPerAccount, s.cfg.LoginWindow = DefaultConfig.LoginsPerAddress, DefaultConfig.LoginsPerAccount, DefaultConfig.LoginWindow
	}
	s.loginByAddress = auth.NewLimiter(s.cfg.LoginsPerAddress, s.cfg.LoginWindow, 100000)
	s.loginByAccount = auth.NewLimiter(s.cfg.LoginsPerAccount, s.cfg.LoginWindow, 100000)
	s.chatLimit = auth.NewLimiter(chatBurst, chatWindow, 100000)
	s.chatByAddress = auth.NewLimiter(chatPerAddress, chatWindow, 100000)
	s.mux = s.routes()
	if s.cfg.ChallengesPerHour <= 0 {
		s.cfg.ChallengesPerHour = DefaultConfig.ChallengesPerHour
	}
	if s.cfg.LeaseTTL <= 0 {
		s.cfg.LeaseTTL = DefaultConfig.LeaseTTL
	}
	s.lobbyHub = lobbyHub{kick: make(chan struct{}, 1), subs: map[chan struct{}]struct{}{}}
	s.shared, s.instance, s.outbox = st.Postgres(), randomToken(8), make(chan string, 4096)
	s.wg.Add(3)
	// Idle rooms leave memory (loaded again when needed); overdue games end.
	go s.every(time.Minute, func() { s.evict(10 * time.Minute) })
	go s.every(2*time.Second, func() { s.flagOverdue() })
	go s.lobbyLoop(lobbyEvery)
	if s.shared {
		s.wg.Add(3)
		go s.sender()
		go s.listener()
		go s.every(s.cfg.LeaseTTL/3, s.renewAndAdopt)
	}
	return s
}

// routes is the route table.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", web.Static()))
	for _, p := range []string{"GET /{$}", "GET /g/{id}", "GET /rules/{game}", "GET /learn/{game}", "GET /learn/{game}/{step}", "GET /analysis", "GET /analysis/{id}",
		"GET /account", "GET /@/{name}", "GET /leaderboard"} {
		mux.HandleFunc(p, s.page)
	}
	mux.HandleFunc("GET /docs/{name}", s.doc)
	mux.HandleFunc("GET /api/games", s.catalogue)
	mux.HandleFunc("GET /api/rules/{game}/figures", s.figures)
	mux.HandleFunc("POST /api/games", s.create)
	mux.HandleFunc("POST /api/import", s.importRecord)
	mux.HandleFunc("GET /api/games/{id}", s.get)
	mux.HandleFunc("GET /api/games/{id}/record", s.record)
	mux.HandleFunc("POST /api/games/{id}/join", s.join)
	mux.HandleFunc("POST /api/games/{id}/act", s.act)
	mux.HandleFunc("POST /api/games/{id}/resign", s.resign)
	mux.HandleFunc("POST /api/games/{id}/draw", s.draw)
	mux.HandleFunc("POST /api/games/{id}/abort", s.abort)
	mux.HandleFunc("POST /api/games/{id}/rematch", s.rematch)
	mux.HandleFunc("POST /api/games/{id}/takeback", s.takeback)
	mux.HandleFunc("GET /ws/games/{id}", s.watch)
	mux.HandleFunc("GET /api/games/{id}/chat", s.chat)
	mux.HandleFunc("POST /api/games/{id}/chat", s.postChat)
	mux.HandleFunc("POST /api/analysis", s.analyse)
	mux.HandleFunc("POST /api/analysis/eval", s.evaluate)
	mux.HandleFunc("GET /api/me", s.whoami)
	mux.HandleFunc("GET /api/lobby", s.lobby)
	mux.HandleFunc("GET /ws/lobby", s.watchLobby)
	mux.HandleFunc("POST /api/challenges", s.createChallenge)
	mux.HandleFunc("POST /api/challenges/{id}/accept", s.acceptChallenge)
	mux.HandleFunc("POST /api/challenges/{id}/cancel", s.cancelChallenge)
	mux.HandleFunc("POST /api/account/register", s.register)
	mux.HandleFunc("POST /api/account/login", s.login)
	mux.HandleFunc("POST /api/account/logout", s.logout)
	mux.HandleFunc("GET /api/players/{name}", s.playerPage)
	mux.HandleFunc("GET /api/leaderboard/{game}", s.leaderboard)
	if s.cfg.Reports != "" {
		// http.Dir keeps requests inside the folder.
		mux.Handle("GET /reports/", http.StripPrefix("/reports/", http.FileServer(http.Dir(s.cfg.Reports))))
	}
	return mux
}

// contentPolicy is every response's Content-Security-Policy: Muster's own
// scripts, styles and connections only, and never inside another site's
// frame.
const contentPolicy = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", contentPolicy)
	if r.Method != http.MethodGet && r.Method != http.MethodHead && !sameOrigin(r) {
		s.writeError(w, r, withCode(http.StatusForbidden, errForeign))
		return
	}
	s.mux.ServeHTTP(w, r)
}

var errForeign = errors.New("requests that change something must come from this site's own pages")

// sameOrigin reports whether a request comes from this site's pages (or
// from a program that sends no Origin, which a browser always sends on a
// cross-origin POST).
func sameOrigin(r *http.Request) bool {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && u.Host == r.Host
}

// every runs f every period until the server stops (one of s.wg).
func (s *Server) every(period time.Duration, f func()) {
	defer s.wg.Done()
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}

// evict drops the rooms idle for longer than idle and returns how many.
func (s *Server) evict(idle time.Duration) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for id, r := range s.rooms {
		if r.idle(idle) {
			delete(s.rooms, id)
			r.mu.Lock()
			r.stopPondering() // its engine token is wanted elsewhere
			if r.timer != nil {
				r.timer.Stop() // the deadline sweep watches it now
			}
			r.mu.Unlock()
			n++
		}
	}
	return n
}

// flagOverdue ends the games whose player to act has run out of time
// while no timer of this server watched them: rooms dropped from memory (a
// correspondence game waits days), or games another server ran. It
// returns how many it looked at.
func (s *Server) flagOverdue() int {
	ids, err := s.store.Overdue(s.ctx, time.Now().UnixMilli(), 100)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Error("overdue games", "err", err)
		}
		return 0
	}
	for _, id := range ids {
		r, err := s.room(s.ctx, id)
		if err != nil {
			s.log.Error("an overdue game", "game", id, "err", err)
			continue
		}
		r.flagNow()
	}
	return len(ids)
}

// Resume starts the agents and clocks of the games in play (after a
// restart).
func (s *Server) Resume(ctx context.Context) error {
	ids, err := s.store.Playing(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		r, err := s.room(ctx, id)
		if err != nil {
			s.log.Error("resuming a game", "game", id, "err", err)
			continue
		}
		r.start()
	}
	return nil
}

// Close stops the agents and clocks and waits for them.
func (s *Server) Close() {
	s.stop()
	s.mu.Lock()
	for _, r := range s.rooms {
		r.stopTimer()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// room returns the game's room, loading it from the store.
func (s *Server) room(ctx context.Context, id string) (*room, error) {
	if !validID(id) {
		return nil, errNoGame
	}
	s.mu.Lock()
	r := s.rooms[id]
	s.mu.Unlock()
	if r != nil {
		return r, nil
	}
	rec, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	r, err = newRoom(s, rec)
	if err != nil {
		return nil, err
	}
	// One server runs a game's clock and agents: here, unless another
	// holds its lease.
	r.leased = true
	if s.shared && rec.Status == store.StatusPlaying {
		ok, err := s.store.TakeLease(ctx, id, s.instance, s.cfg.LeaseTTL)
		if err != nil {
			return nil, err
		}
		r.leased = ok
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.rooms[id]; old != nil {
		return old, nil
	}
	s.rooms[id] = r
	return r, nil
}
