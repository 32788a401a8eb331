// Package server is Muster's web app, put together: it builds the parts
// (internal/identity, play, chat, lobby, analysis, players), gives each
// what it needs of the others, routes the requests to them behind the
// security headers, and runs the lifecycle: the sweeps that evict idle
// games and end overdue ones, the lobby's loop, and on a database shared
// by several servers the bus and the leases. It never parses notation or
// names a game.
//
// The files: server.go the configuration, the routes and the lifecycle;
// catalogue.go the games on offer; pages.go the page and the documents;
// markdown.go the documents' renderer.
package server

import (
	"context"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/analysis"
	"github.com/muster-games/muster/internal/assist"
	"github.com/muster-games/muster/internal/bots"
	"github.com/muster-games/muster/internal/bus"
	"github.com/muster-games/muster/internal/chat"
	"github.com/muster-games/muster/internal/engine"
	"github.com/muster-games/muster/internal/events"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/identity"
	"github.com/muster-games/muster/internal/lobby"
	"github.com/muster-games/muster/internal/moderation"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/players"
	"github.com/muster-games/muster/internal/puzzles"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/tournaments"
	"github.com/muster-games/muster/internal/version"
	"github.com/muster-games/muster/internal/watch"
	"github.com/muster-games/muster/internal/web"
)

// Config holds the limits and settings of a server. A zero field takes
// DefaultConfig's value.
type Config struct {
	// MaxBody bounds a request body.
	MaxBody int64
	// GamesPerHour bounds the games one client (address) creates an hour;
	// ChangesPerMinute the changes (moves, offers, resignations, joins,
	// rematches) it asks of games a minute.
	GamesPerHour, ChangesPerMinute int
	// ConnsPerClient bounds one client's WebSocket connections and
	// streams at once as a spectator; ConnsPerGame a game's spectators,
	// SpectatorsPerClient one client's of a game. A game's players are
	// counted apart (httpx.SeatConns each).
	ConnsPerClient, ConnsPerGame, SpectatorsPerClient int
	// AgentTimeout bounds an agent's thinking for one action.
	AgentTimeout time.Duration
	// AnalysisTime bounds the engine's thinking on one position of the
	// analysis board.
	AnalysisTime time.Duration
	// Engines is the engine pool: the cores every search the server runs
	// shares (the computer's moves, its thinking on a person's time, the
	// analysis board); EngineQueue bounds the computer's moves waiting
	// for one.
	Engines, EngineQueue int
	// AnalysisSlots bounds the engine slots the analysis board holds at
	// once (0: half the pool, at least one), AnalysisQueue its
	// evaluations waiting; the computer's moves go first and take slots
	// back from it.
	AnalysisSlots, AnalysisQueue int
	// AnalysisInFlight bounds the evaluations one address, and one
	// player, has under way at once; AnalysisEngineTime the engine's
	// thinking each asks for in a minute.
	AnalysisInFlight   int
	AnalysisEngineTime time.Duration
	// PuzzleMinTry is the least time a try that solves a puzzle takes to
	// be rated (zero: three seconds); a try quicker is not thought out at
	// a board (the browser tests' robot solves at once).
	PuzzleMinTry time.Duration
	// Log receives the server's messages (nil: discard): an access line
	// per request and what went wrong, as text or, with LogJSON, one JSON
	// object a line, from LogLevel up.
	Log      io.Writer
	LogJSON  bool
	LogLevel slog.Level
	// Reports is a folder of reports (muster report --html) served under
	// /reports/, or "" for none.
	Reports string
	// AccountsPerHour bounds the accounts made from one address an hour;
	// LoginsPerAddress, LoginsPerAccount (from one address) and
	// LoginsPerName (from every address but the account's owner's) the
	// sign-in attempts in LoginWindow (identity.Config).
	AccountsPerHour                                   int
	LoginsPerAddress, LoginsPerAccount, LoginsPerName int
	LoginWindow                                       time.Duration
	// LeaseTTL is how long a server's hold on a game lasts unrenewed,
	// on a database shared by several servers: how soon another takes a
	// dead server's games over.
	LeaseTTL time.Duration
	// ChallengesPerHour bounds the challenges a player or an address makes
	// an hour; OpenChallenges those open at once.
	ChallengesPerHour, OpenChallenges int
	// IdleGame is how long a game nobody uses stays in memory.
	IdleGame time.Duration
	// Levels are the computer players a request may name (nil: the named
	// levels, easy to max); an operator may add search specs.
	Levels []string
	// ReadTimeout bounds the reading of a request, its body included;
	// WriteTimeout the writing of an answer; IdleTimeout how long a
	// kept-alive connection waits for its next request (HTTPServer): 15 s,
	// where a page's requests come in bursts and its game's traffic goes
	// over the game's WebSocket. An idle connection holds its goroutine and
	// net/http's two buffers of 4 KiB, about a fifth of what a live game
	// costs the server when each of its players' browsers keeps one.
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// IdleConns bounds the kept-alive connections waiting for a next
	// request at once: beyond it the one that has waited longest closes
	// (idle.go).
	IdleConns int
	// ConnsPerAddress bounds the connections one address holds at once,
	// at the listener (Listen).
	ConnsPerAddress int
	// NeedAgent, if set, is told of each game a computer player is made
	// for (muster serve builds what the players need then, once).
	NeedAgent func(g game.Game)
	// MetricsOnSite serves GET /metrics on the site's own routes, at most
	// MetricsPerMinute requests a minute from one address (a scraper asks
	// a few times a minute; an answer costs as much as a page). Without it the
	// metrics are off the site: what they tell (the engine pool's use, the
	// password checks) is the operator's, who serves Metrics() on an
	// address of its own.
	MetricsOnSite    bool
	MetricsPerMinute int
	// MaxSpectators, if positive, bounds the spectators' WebSockets and
	// streams (of games, of the lobby, of bots' events that are no
	// player's) of every client together: beyond it they are refused
	// (503), the players' own connections never.
	MaxSpectators int
	// Hosts, if set, are the names the site answers to (muster serve
	// --host, or its ACME domains): a request naming another Host is
	// answered 421, so that a name of another's that resolves to the
	// server (DNS rebinding) reaches nothing of it. The operator's probes
	// (/healthz, /readyz) answer any Host.
	Hosts []string
	// Proxies are the proxies in front of the server whose
	// X-Forwarded-For and X-Forwarded-Proto are believed (none: the
	// server faces its clients).
	Proxies httpx.Proxies
}

// DefaultConfig are the limits of a public server.
var DefaultConfig = Config{MaxBody: 64 << 10, GamesPerHour: 60, ChangesPerMinute: play.DefaultChangesPerMinute, ConnsPerClient: 32, ConnsPerGame: 64, SpectatorsPerClient: 4, AgentTimeout: 60 * time.Second,
	AnalysisTime: 3 * time.Second, Engines: runtime.NumCPU(), EngineQueue: 256,
	AnalysisQueue: 16, AnalysisInFlight: analysis.DefaultConfig.InFlight, AnalysisEngineTime: analysis.DefaultConfig.EngineTime, AccountsPerHour: 5, LoginsPerAddress: 20, LoginsPerAccount: 5, LoginsPerName: 20,
	LoginWindow: 15 * time.Minute, LeaseTTL: 6 * time.Second, ChallengesPerHour: 30, OpenChallenges: 5, IdleGame: 10 * time.Minute,
	ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 15 * time.Second, IdleConns: 256, ConnsPerAddress: 128, MetricsPerMinute: 30}

// withDefaults fills every zero field from DefaultConfig.
func (c Config) withDefaults() Config {
	d := DefaultConfig
	or := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	orDur := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	if c.MaxBody <= 0 {
		c.MaxBody = d.MaxBody
	}
	or(&c.GamesPerHour, d.GamesPerHour)
	or(&c.ChangesPerMinute, d.ChangesPerMinute)
	or(&c.ConnsPerClient, d.ConnsPerClient)
	or(&c.MetricsPerMinute, d.MetricsPerMinute)
	or(&c.ConnsPerGame, d.ConnsPerGame)
	or(&c.SpectatorsPerClient, d.SpectatorsPerClient)
	or(&c.Engines, d.Engines)
	or(&c.EngineQueue, d.EngineQueue)
	or(&c.AnalysisQueue, d.AnalysisQueue)
	or(&c.AnalysisInFlight, d.AnalysisInFlight)
	orDur(&c.AnalysisEngineTime, d.AnalysisEngineTime)
	or(&c.AccountsPerHour, d.AccountsPerHour)
	or(&c.LoginsPerAddress, d.LoginsPerAddress)
	or(&c.LoginsPerAccount, d.LoginsPerAccount)
	or(&c.LoginsPerName, d.LoginsPerName)
	or(&c.ChallengesPerHour, d.ChallengesPerHour)
	or(&c.OpenChallenges, d.OpenChallenges)
	orDur(&c.AgentTimeout, d.AgentTimeout)
	orDur(&c.AnalysisTime, d.AnalysisTime)
	orDur(&c.LoginWindow, d.LoginWindow)
	orDur(&c.LeaseTTL, d.LeaseTTL)
	orDur(&c.IdleGame, d.IdleGame)
	orDur(&c.ReadTimeout, d.ReadTimeout)
	orDur(&c.WriteTimeout, d.WriteTimeout)
	orDur(&c.IdleTimeout, d.IdleTimeout)
	or(&c.IdleConns, d.IdleConns)
	or(&c.ConnsPerAddress, d.ConnsPerAddress)
	if c.Log == nil {
		c.Log = io.Discard
	}
	return c
}

// Server is the web app.
type Server struct {
	cfg  Config
	log  *slog.Logger
	api  *httpx.API
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup
	// root takes every request: the trusted proxies' addresses, the
	// access log, then guard and h, the identity and the routes (mux).
	root, h http.Handler
	mux     *http.ServeMux
	metrics *metrics
	sockets *httpx.Sockets
	idle    *idleConns

	bus      *bus.Bus
	events   *events.Hub
	pool     *engine.Pool
	ids      *identity.Service
	games    *play.Games
	chat     *chat.Chat
	watchers *watch.Watchers
	lobby    *lobby.Lobby
	analysis *analysis.Board
	puzzles  *puzzles.Board
	players  *players.Pages
	bots     *bots.Events
	mod      *moderation.Moderation
	tours    *tournaments.Service

	// st is the store, for the readiness check; draining is set once the
	// server is asked to stop (it answers not ready); sockets end the
	// WebSockets and streams, going away, when stopSockets is called.
	st          *store.Store
	draining    atomic.Bool
	stopSockets context.CancelFunc
}

// NewLog is a server's log on w, from level up: text (key=value), or with
// json one JSON object a line (Config's Log, LogJSON and LogLevel).
func NewLog(w io.Writer, json bool, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	var handler slog.Handler = slog.NewTextHandler(w, opts)
	if json {
		handler = slog.NewJSONHandler(w, opts)
	}
	return slog.New(httpx.LogHandler{Handler: handler})
}

// New makes a server on a store; Close stops it.
func New(st *store.Store, cfg Config) *Server {
	cfg = cfg.withDefaults()
	ctx, stop := context.WithCancel(context.Background())
	log := NewLog(cfg.Log, cfg.LogJSON, cfg.LogLevel)
	api := &httpx.API{Log: log, MaxBody: cfg.MaxBody}
	s := &Server{cfg: cfg, log: log, api: api, ctx: ctx, stop: stop, st: st}
	s.bus = bus.New(st, log)
	s.events = events.New(ctx)
	s.pool = engine.New(engine.Config{Slots: cfg.Engines, Queue: cfg.EngineQueue, AnalysisSlots: cfg.AnalysisSlots, AnalysisQueue: cfg.AnalysisQueue})
	// The WebSockets and streams end, going away, when the server drains
	// (or stops).
	socketsCtx, stopSockets := context.WithCancel(ctx)
	s.stopSockets = stopSockets
	sockets := httpx.NewSockets(socketsCtx, cfg.ConnsPerClient)
	sockets.MaxSpectators = cfg.MaxSpectators
	s.sockets = sockets
	s.idle = newIdleConns(cfg.IdleConns)
	s.ids = identity.New(st, api, identity.Config{AccountsPerHour: cfg.AccountsPerHour, LoginsPerAddress: cfg.LoginsPerAddress,
		LoginsPerAccount: cfg.LoginsPerAccount, LoginsPerName: cfg.LoginsPerName, LoginWindow: cfg.LoginWindow})
	s.games = play.New(ctx, st, api, s.ids, s.pool, s.bus, play.Config{GamesPerHour: cfg.GamesPerHour, ChangesPerMinute: cfg.ChangesPerMinute,
		AgentTimeout: cfg.AgentTimeout, LeaseTTL: cfg.LeaseTTL, Levels: cfg.Levels, Events: s.events, NeedAgent: cfg.NeedAgent})
	s.ids.OnRename(s.games.Renamed)
	// A token revoked ends its streams on every server at once.
	s.ids.OnRevoke(func(player string) { s.bus.Publish(bus.Tokens, player) })
	s.bus.Handle(bus.Tokens, s.ids.TokensRevoked)
	s.chat = chat.New(st, api, s.games, s.ids, s.bus)
	// A game's watchers get its views and its chat, counted apart from its
	// players.
	s.watchers = watch.New(api, s.games, s.chat, s.ids, sockets, watch.Config{Spectators: cfg.ConnsPerGame, PerClient: cfg.SpectatorsPerClient,
		Observe: func(what string, status int, took time.Duration) {
			s.metrics.observeSocket(what, status, took)
		}})
	// Everyone on the home page watches the lobby; it hears of every
	// change of a game between people.
	s.lobby = lobby.New(ctx, st, api, s.ids, s.games, s.bus, sockets, lobby.Config{ChallengesPerHour: cfg.ChallengesPerHour, Watchers: 100 * cfg.ConnsPerGame,
		OpenPerPlayer: cfg.OpenChallenges})
	s.events.OnGameChanged(func(events.GameChanged) { s.lobby.Signal() })
	// Who had the engine's help lately: a puzzle tried meanwhile is not
	// rated.
	help := assist.New(time.Hour, 100000)
	s.analysis = analysis.New(api, s.pool, s.ids, analysis.Config{Think: cfg.AnalysisTime, InFlight: cfg.AnalysisInFlight, EngineTime: cfg.AnalysisEngineTime, Assist: help})
	s.puzzles = puzzles.New(api, st, s.ids, help, cfg.PuzzleMinTry)
	s.players = players.New(st, api, s.ids)
	s.bots = bots.New(st, api, s.ids, sockets, bots.Config{})
	s.mod = moderation.New(st, api, s.ids)
	s.tours = tournaments.New(st, api, s.ids, s.games)
	// A tournament's next round starts as its last game ends.
	s.events.OnGameFinished(s.tours.GameFinished)
	s.metrics = s.newMetrics(st)
	s.mux = s.routes()
	s.h = s.ids.Middleware(s.mux)
	s.root = cfg.Proxies.Middleware(httpx.AccessLog(log, s.observe, http.HandlerFunc(s.guard)))

	// Idle games leave memory (loaded again when needed); overdue games
	// end.
	s.wg.Go(func() { s.every(time.Minute, func() { s.games.Evict(cfg.IdleGame) }) })
	s.wg.Go(func() { s.every(2*time.Second, func() { s.games.FlagOverdue() }) })
	// Tournaments start at their time, and arenas end at theirs; their
	// rounds follow their games' ends (the events above). A slow sweep
	// of the tournaments the database finds waiting makes up for an event
	// lost with a server that stopped; no game is read to find them.
	s.wg.Go(func() { s.every(2*time.Second, func() { s.tours.Due(ctx) }) })
	s.wg.Go(func() { s.every(5*time.Minute, func() { s.tours.Sweep(ctx) }) })
	// Games nobody began are aborted after a day; a game whose player's
	// account was deleted ends (most within seconds: FlagOverdue).
	s.wg.Go(func() { s.every(10*time.Minute, func() { s.games.AbortUnbegun() }) })
	s.wg.Go(func() { s.every(time.Minute, func() { s.games.EndLeft() }) })
	// Anonymous identities that never played leave.
	s.wg.Go(func() { s.every(time.Hour, func() { s.ids.Forget(ctx) }) })
	s.wg.Go(func() { s.lobby.Run(ctx) })
	if s.bus.Shared() {
		s.wg.Go(func() { s.bus.Run(ctx) })
		s.wg.Go(func() { s.every(cfg.LeaseTTL/3, s.games.RenewAndAdopt) })
		s.wg.Go(func() { s.every(time.Hour, s.games.ForgetServers) })
	}
	return s
}

// routes is the route table: each part adds its own.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", web.Static()))
	for _, p := range []string{"GET /{$}", "GET /g/{id}", "GET /rules/{game}", "GET /learn/{game}", "GET /learn/{game}/{step}", "GET /analysis", "GET /analysis/{id}", "GET /puzzles",
		"GET /account", "GET /@/{name}", "GET /leaderboard", "GET /reports", "GET /tournaments", "GET /t/{id}"} {
		mux.HandleFunc(p, s.page)
	}
	mux.HandleFunc("GET /docs/{name}", s.api.Func(s.doc))
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.HandleFunc("GET /api/version", s.api.Func(s.version))
	if s.cfg.MetricsOnSite {
		mux.Handle("GET /metrics", s.limitedMetrics())
	}
	mux.HandleFunc("GET /api/games", s.api.Func(s.catalogue))
	mux.HandleFunc("GET /api/rules/{game}/figures", s.api.Func(s.figures))
	s.games.Routes(mux)
	s.watchers.Routes(mux)
	s.chat.Routes(mux)
	s.lobby.Routes(mux)
	s.ids.Routes(mux)
	s.players.Routes(mux)
	s.analysis.Routes(mux)
	s.puzzles.Routes(mux)
	s.bots.Routes(mux)
	s.mod.Routes(mux)
	s.tours.Routes(mux)
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

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.root.ServeHTTP(w, r) }

// guard sets the security headers of every answer and refuses a change
// from another site or not sent as JSON.
func (s *Server) guard(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", contentPolicy)
	if len(s.cfg.Hosts) > 0 && !hostIn(r.Host, s.cfg.Hosts) && r.URL.Path != "/healthz" && r.URL.Path != "/readyz" {
		s.api.Error(w, r, errOtherHost)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if !sameOrigin(r) {
			s.api.Error(w, r, errForeign)
			return
		}
		// Every POST is a JSON request, those without a body too (sign
		// out, accept, cancel): a form or text/plain post from another
		// site is not one. Other methods (DELETE) a page of another site
		// cannot send without the browser asking first, which Muster
		// never allows; a method no route takes is answered 405 by the
		// routes.
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); r.Method == http.MethodPost && (err != nil || mt != "application/json") {
			s.api.Error(w, r, errNotJSON)
			return
		}
	}
	s.h.ServeHTTP(w, r)
}

// hostIn reports whether a request's Host names one of hosts, whatever
// its port, case and final dot.
func hostIn(host string, hosts []string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	for _, h := range hosts {
		if strings.EqualFold(host, strings.TrimSuffix(strings.Trim(h, "[]"), ".")) {
			return true
		}
	}
	return false
}

var (
	errOtherHost = httpx.NewError(http.StatusMisdirectedRequest, "this server does not serve that host")
	errForeign   = httpx.NewError(http.StatusForbidden, "requests that change something must come from this site's own pages")
	errNotJSON   = httpx.NewError(http.StatusUnsupportedMediaType, "requests that change something must be sent as application/json")
)

// socketRoute is the route of the messages a page sends on its game's
// WebSocket, as the metrics name them ("GET /ws/games/{id} act", method
// "WS").
const socketRoute = "GET /ws/games/{id}"

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

// every runs f every period until the server stops.
func (s *Server) every(period time.Duration, f func()) {
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

// observe counts an answered request in the metrics, by the route that
// took it.
func (s *Server) observe(r *http.Request, status int, took time.Duration, long bool) {
	_, route := s.mux.Handler(r)
	s.metrics.observe(route, r.Method, status, took, long)
}

// healthz answers that the process is alive and serving.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte("ok\n"))
}

// readyz answers whether the server should be sent requests: its
// database answers (its schema brought up to date as it opened) and it is
// not draining. A balancer stops sending it requests on 503.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	switch err := s.st.Ping(ctx); {
	case s.draining.Load():
		s.api.JSON(w, http.StatusServiceUnavailable, map[string]string{"status": "draining"})
	case err != nil:
		s.log.Warn("not ready: the database does not answer", "err", err)
		s.api.JSON(w, http.StatusServiceUnavailable, map[string]string{"status": "the database does not answer"})
	default:
		s.api.JSON(w, http.StatusOK, map[string]string{"status": "ready"})
	}
}

// version answers the build the server runs.
func (s *Server) version(w http.ResponseWriter, r *http.Request) error {
	return s.api.JSON(w, http.StatusOK, version.Read())
}

// Drain makes the server not ready, waits for wait (so that a balancer
// sees it and sends new requests elsewhere), then ends its WebSockets and
// streams with "going away", so that browsers and bots connect again, to
// another server where there are several. The caller then shuts the
// HTTP server down and closes the server.
func (s *Server) Drain(ctx context.Context, wait time.Duration) {
	s.draining.Store(true)
	s.log.Info("draining", "wait", wait)
	select {
	case <-ctx.Done():
	case <-time.After(wait):
	}
	s.stopSockets()
}

// Resume starts the agents and clocks of the games in play (after a
// restart).
func (s *Server) Resume(ctx context.Context) error { return s.games.Resume(ctx) }

// Close stops the sweeps, the agents and the clocks, and waits for them.
func (s *Server) Close() {
	s.stop()
	s.games.Close()
	s.wg.Wait()
	s.events.Wait()
}

// Leave tells the other servers on the database that this one has
// stopped, so that they take its games over at once; after Close.
func (s *Server) Leave() { s.games.Leave() }

// Stats is what a server holds, for the load tool and the tests.
type Stats struct {
	Games   play.Stats
	Engines engine.Stats
}

// Stats returns what the server holds now.
func (s *Server) Stats() Stats { return Stats{Games: s.games.Stats(), Engines: s.pool.Stats()} }
