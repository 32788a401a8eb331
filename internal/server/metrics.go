package server

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/engine"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/version"
)

// metrics are the server's metrics in Prometheus' form, on a registry of
// the server's own (docs/operating.md says what each means). What the
// parts count themselves (the games, the engine pool, the connections,
// the database) is read from them as it is scraped; the requests are
// counted as they are answered.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	refused  *prometheus.CounterVec
	// answered holds, by route, method and status, the counters a request
	// answered so adds to, looked up in the vectors once: their own
	// lookup (hashing and checking the labels) was 3% of a server's CPU
	// at 1,000 live games, looked up for each move. Its keys are bounded:
	// the routes are the server's, the methods those of knownMethods.
	answered sync.Map // answeredKey → *answeredCounts
}

// answeredKey says what a request was: route is its route, or for a
// message on a game's WebSocket (method "WS") what it asked.
type answeredKey struct {
	route, method string
	status        int
}

// answeredCounts are the counters of an answeredKey.
type answeredCounts struct {
	requests prometheus.Counter
	latency  prometheus.Observer
	refused  prometheus.Counter // nil but for 429
}

// knownMethods are the methods counted by name; any other counts as
// "other", so that no client can add series at will.
var knownMethods = map[string]bool{"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true, "OPTIONS": true, "WS": true}

// newMetrics registers the server's metrics.
func (s *Server) newMetrics(st *store.Store) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "muster_http_requests_total",
		Help: "HTTP requests answered, by route (the pattern that took it), method and status; the moves sent on a game's WebSocket as route \"GET /ws/games/{id} act\", method WS."}, []string{"route", "method", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "muster_http_request_duration_seconds",
		Help:    "Time to answer a request, by route (WebSockets and streams not counted, the moves sent on them counted).",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}}, []string{"route"})
	m.refused = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "muster_limits_refused_total",
		Help: "Requests refused for a limit (answered 429), by route."}, []string{"route"})
	gauge := func(name, help string, f func() float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f)
	}
	counter := func(name, help string, f func() float64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, f)
	}
	pool := func() engine.Stats { return s.pool.Stats() }
	m.reg.MustRegister(m.requests, m.latency, m.refused,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "muster_build_info", Help: "The build the server runs (1), by version and commit.",
			ConstLabels: prometheus.Labels{"version": version.Read().Version, "commit": version.Read().Commit}}, func() float64 { return 1 }),
		gauge("muster_games_in_memory", "Games this server holds in memory (played or watched lately).", func() float64 { return float64(s.games.Stats().Rooms) }),
		gauge("muster_games_live", "Games going on that this server holds in memory.", func() float64 { return float64(s.games.Stats().Playing) }),
		gauge("muster_game_watchers", "WebSockets and streams watching the games in memory.", func() float64 { return float64(s.games.Stats().Watchers) }),
		gauge("muster_agents", "Computer players held by the games in memory.", func() float64 { return float64(s.games.Stats().Agents) }),
		counter("muster_actions_total", "Actions (moves) played in games on this server.", func() float64 { return float64(s.games.Actions.Load()) }),
		counter("muster_games_finished_total", "Games that ended on this server.", func() float64 { return float64(s.games.Finished.Load()) }),
		gauge("muster_http_idle_connections", "Kept-alive connections waiting for a next request (at most --idle-conns).", func() float64 { return float64(s.idle.waiting()) }),
		counter("muster_http_idle_connections_closed_total", "Kept-alive connections closed while they waited because --idle-conns others waited less long.", func() float64 { return float64(s.idle.closed.Load()) }),
		gauge("muster_sockets_open", "WebSockets and streams open, spectators' and players' together.", func() float64 { a, b := s.sockets.Open(); return float64(a + b) }),
		gauge("muster_engine_slots", "Slots of the engine pool (--engines).", func() float64 { return float64(pool().Slots) }),
		gauge("muster_engine_busy_slots", "Slots of the engine pool taken.", func() float64 { return float64(pool().Busy) }),
		gauge("muster_engine_waiting", "Searches waiting for engine slots (computer moves and evaluations).", func() float64 { return float64(pool().Waiting) }),
		counter("muster_engine_searches_total", "Searches the engine pool let run.", func() float64 { return float64(pool().Searches) }),
		counter("muster_engine_refused_total", "Searches the engine pool refused (its queues full).", func() float64 {
			st := pool()
			return float64(st.Refused[engine.Move] + st.Refused[engine.Analysis])
		}),
		counter("muster_engine_preempted_total", "Evaluations and ponderings told to stop for a computer's move.", func() float64 { return float64(pool().Preempted) }),
		counter("muster_engine_waits_total", "Searches that waited for engine slots.", func() float64 { st := pool(); return float64(st.Waits[0] + st.Waits[1]) }),
		counter("muster_engine_wait_seconds_total", "Time searches waited for engine slots, in all.", func() float64 {
			st := pool()
			return (st.Waited[0] + st.Waited[1]).Seconds()
		}),
		counter("muster_db_writes_total", "Writes asked of the database layer: a move counts whether the move journal takes it or the database.", func() float64 { n, _ := st.Timing(store.Writes); return float64(n) }),
		counter("muster_db_write_seconds_total", "Time of the database's writes, in all.", func() float64 { _, d := st.Timing(store.Writes); return d.Seconds() }),
		counter("muster_db_write_groups_total", "Transactions that wrote moves that had waited for SQLite's one writer, together.", func() float64 { g, _ := st.Grouped(); return float64(g) }),
		counter("muster_db_grouped_writes_total", "Moves' writes that waited for SQLite's one writer and were written together.", func() float64 { _, w := st.Grouped(); return float64(w) }),
		counter("muster_journal_taken_total", "Games' writes (moves) the move journal took: answered once in <db>-moves, written to the database together later (SQLite).", func() float64 { return float64(st.JournalStats().Taken) }),
		counter("muster_journal_at_once_total", "Games' writes the move journal wrote to the database at once: a game's first since the server started or since another write of its row, one that changes more than a move's columns.", func() float64 { return float64(st.JournalStats().AtOnce) }),
		counter("muster_journal_flushes_total", "Transactions that wrote the move journal's rows to the database.", func() float64 { return float64(st.JournalStats().Writes) }),
		counter("muster_journal_forced_total", "Flushes of the move journal asked for by a statement that reads or writes the games, not by its ticker.", func() float64 { return float64(st.JournalStats().Forced) }),
		counter("muster_journal_rows_total", "Rows the move journal wrote to the database.", func() float64 { return float64(st.JournalStats().Rows) }),
		gauge("muster_journal_pending", "Records in the move journal's file not yet in the database.", func() float64 { return float64(st.JournalStats().Pending) }),
		counter("muster_db_reads_total", "Database statements that read.", func() float64 { n, _ := st.Timing(store.Reads); return float64(n) }),
		counter("muster_db_read_seconds_total", "Time of the database's reads until their rows came, in all.", func() float64 { _, d := st.Timing(store.Reads); return d.Seconds() }),
		counter("muster_password_checks_total", "Password hashes and checks run (argon2id, 19 MiB each).", func() float64 { return float64(s.ids.PasswordChecks()) }),
		gauge("muster_password_checks_running", "Password hashes and checks running now.", func() float64 { return float64(s.ids.PasswordChecksRunning()) }),
		gauge("muster_ready", "1 while the server takes requests, 0 while it drains.", func() float64 {
			if s.draining.Load() {
				return 0
			}
			return 1
		}),
	)
	return m
}

// Metrics is the handler of the metrics in Prometheus' text format, for
// an address of the operator's own (muster serve --metrics-addr).
func (s *Server) Metrics() http.Handler {
	return promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{ErrorLog: nil})
}

// limitedMetrics is Metrics for the site's own routes
// (Config.MetricsOnSite): an address past Config.MetricsPerMinute is
// answered 429, as past any limit.
func (s *Server) limitedMetrics() http.Handler {
	h := s.Metrics()
	limit := auth.NewLimiter(s.cfg.MetricsPerMinute, time.Minute, 100000)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ok, retry := limit.Allow(httpx.Client(r), time.Now()); !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(retry.Seconds())+1))
			http.Error(w, "too many requests for the metrics: wait a minute", http.StatusTooManyRequests)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// observe counts a request as answered: its route, status and time.
func (m *metrics) observe(route, method string, status int, took time.Duration, stream bool) {
	if !knownMethods[method] {
		method = "other"
	}
	c := m.counts(answeredKey{route, method, status}, route)
	c.count(took, stream)
}

// observeSocket counts a message a page sent on a game's WebSocket as a
// request answered: what it asked, the status it was answered with and
// how long it took.
func (m *metrics) observeSocket(what string, status int, took time.Duration) {
	k := answeredKey{what, "WS", status}
	if c, ok := m.answered.Load(k); ok {
		c.(*answeredCounts).count(took, false)
		return
	}
	m.counts(k, socketRoute+" "+what).count(took, false)
}

// counts are the counters of k, whose route is labelled route.
func (m *metrics) counts(k answeredKey, route string) *answeredCounts {
	if c, ok := m.answered.Load(k); ok {
		return c.(*answeredCounts)
	}
	if route == "" {
		route = "none"
	}
	c := &answeredCounts{requests: m.requests.WithLabelValues(route, k.method, strconv.Itoa(k.status)), latency: m.latency.WithLabelValues(route)}
	if k.status == http.StatusTooManyRequests {
		c.refused = m.refused.WithLabelValues(route)
	}
	got, _ := m.answered.LoadOrStore(k, c)
	return got.(*answeredCounts)
}

// count adds a request answered in took (a stream's time not counted).
func (c *answeredCounts) count(took time.Duration, stream bool) {
	c.requests.Inc()
	if !stream {
		c.latency.Observe(took.Seconds())
	}
	if c.refused != nil {
		c.refused.Inc()
	}
}
