package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/crypto/acme/autocert"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/server"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/version"
)

const serveHelp = `Runs the web app on localhost: play Lanrick and Tablut in the browser against
the computer, a friend, or anyone through the lobby (challenges, accounts,
Glicko-2 ratings, correspondence games, chat), with the games stored in an
SQLite database (--db, default muster.db, WAL mode) so that a restart loses no
game. It prints the address to open. Stop it with Ctrl-C (or SIGTERM: it
turns not ready, drains for --drain, tells its WebSockets it is going away,
finishes the requests under way and stops; no move acknowledged is lost).

--db postgres://user@host/name runs on PostgreSQL instead; several servers may
share that database behind a load balancer: a move made through one reaches
the watchers of the others, and each game's clock and computer player run on
one server at a time, taken over by another when it stops. Keep the password
out of the command line: in PGPASSWORD or a ~/.pgpass file, which the driver
reads, or in MUSTER_DB.

Every flag may also come from the environment, as MUSTER_ and its name in
capitals with underscores: MUSTER_ADDR for --addr, MUSTER_CONNS_PER_ADDRESS for
--conns-per-address; the command line wins. A repeatable flag takes several
values: MUSTER_TRUSTED_PROXY separated by commas, MUSTER_LEVEL by semicolons.

The operator's endpoints: GET /healthz (the process answers), GET /readyz (the
database answers and the server is not draining), GET /api/version, and GET
/metrics in Prometheus' text format, on --metrics-addr (the site serves it
only with --metrics-on-site).
docs/operating.md says what each metric means.

TLS: --tls-cert and --tls-key serve HTTPS from those files; --acme-domain
gets certificates from Let's Encrypt for the domain (answering its challenges
on --acme-http-addr, :80, which also sends plain HTTP to HTTPS), kept under
--data. Either way the session cookie is Secure. Behind a TLS proxy, name it
with --trusted-proxy instead.

Lanrick's computer players play at full strength with its endgame tables (24
files, about 29 MB, about 10 minutes of one core to build). muster solve tables
builds them ahead; otherwise the server builds them once, in the background,
when a first game against Lanrick's computer needs them, and says so in the
log (--prepare builds them at the start instead). --prepare-five builds the
five-man tables (three men against two) after them, one core, one table at a
time (6 files of 168 MB, hours each, and up to 9 GB of memory while one is
built); the computer players use each as soon as it is there.`

// nonEmpty refuses an empty value of the flag name.
func nonEmpty(name string) func(string) error {
	return func(s string) error {
		if s == "" {
			return fmt.Errorf("an empty %s", name)
		}
		return nil
	}
}

func runServe(env *Env, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (with TLS, typically :443)")
	db := fs.String("db", "muster.db", "SQLite database file, or a PostgreSQL address (postgres://…; the password in PGPASSWORD or ~/.pgpass, not here)")
	perHour := fs.Int("games-per-hour", server.DefaultConfig.GamesPerHour, "new games one address may create an hour")
	changes := fs.Int("changes-per-minute", server.DefaultConfig.ChangesPerMinute, "changes (moves, offers, resignations, joins, rematches) one address may ask of games a minute (429 beyond)")
	challenges := fs.Int("challenges-per-hour", server.DefaultConfig.ChallengesPerHour, "challenges one player or address may make an hour")
	openChallenges := fs.Int("open-challenges", server.DefaultConfig.OpenChallenges, "challenges one player or address may have open at once")
	conns := fs.Int("conns-per-client", server.DefaultConfig.ConnsPerClient, "WebSocket connections and streams one address may hold as a spectator (a game's players are counted apart)")
	connsPerGame := fs.Int("spectators-per-game", server.DefaultConfig.ConnsPerGame, "spectators (WebSockets and streams) a game may have at once; its players' own connections are never counted among them")
	spectatorsPerClient := fs.Int("spectators-per-address", server.DefaultConfig.SpectatorsPerClient, "spectators of one game one address may have at once")
	idle := fs.Duration("idle-timeout", server.DefaultConfig.IdleTimeout, "how long a kept-alive connection waits for its next request before it closes (a page's requests come in bursts; a game's own traffic goes over its WebSocket, which this does not close)")
	gcPercent := fs.Int("gc-percent", 50, "how far the heap grows past what is live before Go's collector runs again, in percent (Go's GOGC, whose default is 100; GOGC or GOMEMLIMIT in the environment override this): the server's live heap is small, 15–25 KB a live game, so collecting at half again keeps its memory about a fifth lower, for a few per cent more CPU an action (measured at 1,000 and 5,000 live games: docs/load-history.md)")
	idleConns := fs.Int("idle-conns", server.DefaultConfig.IdleConns, "kept-alive connections that may wait for a next request at once; beyond it the one that has waited longest closes (each holds a goroutine and 8 KiB of buffers; its client opens another when it asks again)")
	perAddress := fs.Int("conns-per-address", server.DefaultConfig.ConnsPerAddress, "TCP connections one address (an IPv6 one by its /64) may hold at once (WebSockets and kept-alive requests); the ones beyond are closed as they come; a --trusted-proxy's are not counted")
	maxConns := fs.Int("max-conns", 0, "connections the server holds at once, every address's together (0: its limit on open files less a reserve for the database and its files, an eighth of it and at least 64); half of them at most are spectators' and lobby watchers' WebSockets and streams, refused (503) beyond, so that players and requests still get through")
	reports := fs.String("reports", "", "a folder of reports (muster report --html) to show under /reports/")
	data := fs.String("data", "", "folder for what the server keeps besides its database: Lanrick's endgame tables, the ACME certificates (default: muster in the user's cache folder)")
	prepare := fs.Bool("prepare", false, "build what the computer players need (Lanrick's endgame tables) in the background at the start, rather than when a first game needs it")
	prepareFive := fs.Bool("prepare-five", false, "build Lanrick's five-man tables too, after the endgame tables (6 files of 168 MB; hours of CPU on one core)")
	think := fs.Duration("analysis-time", server.DefaultConfig.AnalysisTime, "how long the analysis board's engine thinks on a position")
	engines := fs.Int("engines", server.DefaultConfig.Engines, "the engine pool: cores shared by every search the server runs (the computer's moves, its thinking on a person's time, the analysis board); a search takes one per thread; the default is this machine's cores")
	queue := fs.Int("engine-queue", server.DefaultConfig.EngineQueue, "computer moves that may wait for the engine pool; beyond it new games against the computer are refused (503) until it drains")
	analysisSlots := fs.Int("analysis-slots", 0, "engine slots the analysis board may hold at once (0: half of --engines, at least one); the computer's moves in games go first and take slots back from it")
	analysisQueue := fs.Int("analysis-queue", server.DefaultConfig.AnalysisQueue, "evaluations of the analysis board that may wait for its slots; beyond it they are refused (503)")
	analysisInFlight := fs.Int("analysis-per-client", server.DefaultConfig.AnalysisInFlight, "evaluations one address, and one player, may have under way at once (429 beyond)")
	analysisTime := fs.Duration("analysis-budget", server.DefaultConfig.AnalysisEngineTime, "engine time the analysis board gives one address, and one player, in any minute (429 beyond, with Retry-After)")
	logFormat := fs.String("log-format", "text", "the log's form on standard error: text (key=value) or json (one object a line)")
	logLevel := fs.String("log-level", "info", "the least important messages logged: debug (also the probes' and static files' requests), info (a line per request), warn or error")
	drain := fs.Duration("drain", 5*time.Second, "on SIGTERM, how long the server answers not ready (GET /readyz 503) before it ends its WebSockets and stops, so that a balancer sends new requests elsewhere")
	shutdown := fs.Duration("shutdown-timeout", 15*time.Second, "on SIGTERM, after draining, how long the requests under way may take to finish")
	metricsAddr := fs.String("metrics-addr", "", "serve GET /metrics on this address alone (such as 127.0.0.1:9464), for Prometheus to scrape")
	metricsOnSite := fs.Bool("metrics-on-site", false, "serve GET /metrics on the site too, at most 30 requests a minute from one address (by default they are off it: what they tell is the operator's)")
	debugAddr := fs.String("debug-addr", "", "serve Go's profiles (/debug/pprof/) on this address alone, for finding where the server's time and memory go (keep it on loopback: profiles show the server's insides)")
	tlsCert := fs.String("tls-cert", "", "a certificate file (PEM, the chain): serve HTTPS with it and --tls-key")
	tlsKey := fs.String("tls-key", "", "the certificate's private key file (PEM)")
	acmeDomain := fs.String("acme-domain", "", "serve HTTPS with certificates from Let's Encrypt for this domain (comma-separated for several); its challenges are answered on --acme-http-addr")
	acmeEmail := fs.String("acme-email", "", "the address Let's Encrypt writes to about the certificates (optional)")
	acmeHTTP := fs.String("acme-http-addr", ":80", "with --acme-domain, where to answer Let's Encrypt's HTTP challenges and send plain HTTP to HTTPS")
	var levels, hosts, proxies []string
	fs.Var(list{&levels, nonEmpty("level")}, "level", "a computer player a request may name beside easy, medium, hard and max: an agent spec such as alphabeta(time=10s) (repeat for more); requests name no other search")
	fs.Var(list{&hosts, nonEmpty("host")}, "host", "a name the site answers to, such as muster.example.org (repeat for more; with --acme-domain, its domains): a request naming another Host is answered 421 Misdirected Request, against DNS rebinding; /healthz and /readyz answer any (default: any Host, as on localhost)")
	fs.Var(list{values: &proxies}, "trusted-proxy", "the address (or CIDR prefix) of a proxy in front of the server, such as a TLS proxy on 127.0.0.1, whose X-Forwarded-For gives the client's address and X-Forwarded-Proto https makes the session cookie Secure (repeat for more); others' headers are ignored")
	config := fs.String("config", "", "a file of settings, one \"name = value\" a line (a flag's name without its dashes, as muster serve --print-config writes them; # begins a comment; a repeatable flag on several lines): the command line and the environment win over it")
	printConfig := fs.Bool("print-config", false, "print the settings the server would run with, each with where it came from (the command line, the environment, --config or the default), passwords masked, in --config's form, and exit")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, pos)
	}
	from := map[string]string{}
	given(fs, "the command line", from)
	if err := fromEnv(env, fs, map[string]string{"level": ";", "trusted-proxy": ",", "host": ","}); err != nil {
		return err
	}
	fs.Visit(func(f *flag.Flag) {
		if _, ok := from[f.Name]; !ok {
			from[f.Name] = envName(f.Name)
		}
	})
	if *config != "" {
		if err := fromFile(fs, *config, from, "config", "print-config"); err != nil {
			return err
		}
	}
	trusted, err := httpx.ParseProxies(proxies)
	if err != nil {
		return fmt.Errorf("%w: --trusted-proxy: %v", errUsage, err)
	}
	if *gcPercent <= 0 {
		return fmt.Errorf("%w: --gc-percent must be positive", errUsage)
	}
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(*gcPercent)
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fmt.Errorf("%w: --log-level %q: debug, info, warn or error", errUsage, *logLevel)
	}
	if *logFormat != "text" && *logFormat != "json" {
		return fmt.Errorf("%w: --log-format %q: text or json", errUsage, *logFormat)
	}
	switch {
	case (*tlsCert == "") != (*tlsKey == ""):
		return fmt.Errorf("%w: --tls-cert and --tls-key go together", errUsage)
	case *tlsCert != "" && *acmeDomain != "":
		return fmt.Errorf("%w: --tls-cert or --acme-domain, not both", errUsage)
	}
	if *printConfig {
		printSettings(env.Stdout, fs, from, "config", "print-config")
		return nil
	}
	if levels != nil {
		levels = append(slices.Clone(agent.Levels), levels...)
	}
	if len(hosts) == 0 && *acmeDomain != "" {
		hosts = strings.Split(*acmeDomain, ",")
	}
	parent := context.Background()
	if env.Context != nil {
		parent = env.Context
	}
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	defer stop()
	logf := func(f string, args ...any) { fmt.Fprintf(env.Stderr, "muster: "+f+"\n", args...) }
	held, err := connLimit(*maxConns)
	if err != nil {
		return err
	}
	st, err := store.Open(*db)
	if err != nil {
		return err
	}
	defer st.Close()
	// The move journal (SQLite): the games' writes of a server that
	// stopped without writing them are written now.
	if err := st.Journal(server.NewLog(env.Stderr, *logFormat == "json", level)); err != nil {
		return err
	}
	srv := server.New(st, server.Config{
		MaxBody: server.DefaultConfig.MaxBody, GamesPerHour: *perHour, ChangesPerMinute: *changes,
		ConnsPerClient: *conns, ConnsPerGame: *connsPerGame, SpectatorsPerClient: *spectatorsPerClient,
		AgentTimeout: server.DefaultConfig.AgentTimeout, AnalysisTime: *think, IdleTimeout: *idle, IdleConns: *idleConns, Engines: *engines, EngineQueue: *queue,
		AnalysisSlots: *analysisSlots, AnalysisQueue: *analysisQueue, AnalysisInFlight: *analysisInFlight, AnalysisEngineTime: *analysisTime,
		Log: env.Stderr, LogJSON: *logFormat == "json", LogLevel: level,
		Reports: *reports, ChallengesPerHour: *challenges, OpenChallenges: *openChallenges, Levels: levels, Proxies: trusted, ConnsPerAddress: *perAddress,
		MetricsOnSite: *metricsOnSite, Hosts: hosts, MaxSpectators: held / 2, NeedAgent: prepareOnce(ctx, *data, *prepareFive, logf),
	})
	defer func() {
		srv.Close()
		srv.Leave() // other servers take its games over at once
	}()
	if err := srv.Resume(ctx); err != nil {
		return err
	}
	if *prepare {
		go func() {
			if err := agent.Prepare(ctx, *data, *prepareFive, logf); err != nil && ctx.Err() == nil {
				logf("preparing the computer players: %v", err)
			}
		}()
	}
	ln, err := server.Listen(*addr, *perAddress, held, trusted)
	if err != nil {
		return err
	}
	hs := srv.HTTPServer()
	scheme := "http"
	errc := make(chan error, 3)
	switch {
	case *tlsCert != "":
		scheme = "https"
		if _, err := tls.LoadX509KeyPair(*tlsCert, *tlsKey); err != nil {
			return fmt.Errorf("--tls-cert, --tls-key: %w", err)
		}
		go func() { errc <- hs.ServeTLS(ln, *tlsCert, *tlsKey) }()
	case *acmeDomain != "":
		scheme = "https"
		m := &autocert.Manager{Prompt: autocert.AcceptTOS, Email: *acmeEmail, Cache: autocert.DirCache(filepath.Join(dataDir(*data), "acme")),
			HostPolicy: autocert.HostWhitelist(strings.Split(*acmeDomain, ",")...)}
		hs.TLSConfig = m.TLSConfig()
		cln, err := net.Listen("tcp", *acmeHTTP)
		if err != nil {
			return fmt.Errorf("--acme-http-addr: %w", err)
		}
		challenge := &http.Server{Handler: m.HTTPHandler(nil), ReadHeaderTimeout: 10 * time.Second}
		go func() { errc <- challenge.Serve(cln) }()
		defer challenge.Close()
		logf("Let's Encrypt's challenges answered, and plain HTTP sent to HTTPS, at http://%s/", cln.Addr())
		go func() { errc <- hs.ServeTLS(ln, "", "") }()
	default:
		go func() { errc <- hs.Serve(ln) }()
	}
	if *metricsAddr != "" {
		mln, err := net.Listen("tcp", *metricsAddr)
		if err != nil {
			return fmt.Errorf("--metrics-addr: %w", err)
		}
		ms := &http.Server{Handler: srv.Metrics(), ReadHeaderTimeout: 10 * time.Second}
		go func() { errc <- ms.Serve(mln) }()
		defer ms.Close()
	}
	if *debugAddr != "" {
		dln, err := net.Listen("tcp", *debugAddr)
		if err != nil {
			return fmt.Errorf("--debug-addr: %w", err)
		}
		ds := &http.Server{Handler: profiles(), ReadHeaderTimeout: 10 * time.Second}
		go func() { errc <- ds.Serve(dln) }()
		defer ds.Close()
		logf("Go's profiles at http://%s/debug/pprof/", dln.Addr())
	}
	where := *db
	if store.IsPostgres(where) {
		where = "PostgreSQL"
	}
	logf("%s", version.Read())
	fmt.Fprintf(env.Stdout, "Muster is running at %s://%s/ (database %s)\n", scheme, ln.Addr(), where)
	select {
	case <-ctx.Done():
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	stop() // a second signal stops at once
	logf("stopping: not ready for %s, then the WebSockets go away and the requests under way finish", *drain)
	srv.Drain(context.Background(), *drain)
	sctx, cancel := context.WithTimeout(context.Background(), *shutdown)
	defer cancel()
	return hs.Shutdown(sctx)
}

// connLimit is the connections the server may hold at once: given where
// it is not 0, else the limit on open files less a reserve (an eighth,
// at least 64) for the listeners, the database and its files, the
// tables and the logs; 0 where there is no limit to read.
func connLimit(given int) (int, error) {
	if given < 0 {
		return 0, fmt.Errorf("%w: --max-conns must not be negative", errUsage)
	}
	if given > 0 {
		return given, nil
	}
	n, ok := openFileLimit()
	if !ok {
		return 0, nil
	}
	reserve := max(n/8, 64)
	if n-reserve < 16 {
		return 0, fmt.Errorf("the limit on open files, %d, leaves no room for connections: raise it (ulimit -n, LimitNOFILE=)", n)
	}
	return n - reserve, nil
}

// dataDir is the folder of what the server keeps besides its database.
func dataDir(data string) string {
	if data != "" {
		return data
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "muster")
	}
	return "muster-data"
}

// prepareOnce returns what the server calls as it makes a computer
// player for a game: the first time for each game, it builds in the
// background what that game's players need (Lanrick's endgame tables),
// saying so in the log.
func prepareOnce(ctx context.Context, data string, five bool, logf func(string, ...any)) func(game.Game) {
	var mu sync.Mutex
	started := map[string]bool{}
	return func(g game.Game) {
		mu.Lock()
		defer mu.Unlock()
		if started[g.Name()] {
			return
		}
		started[g.Name()] = true
		go func() {
			had, err := agent.PrepareFor(ctx, g, data, five, func(f string, args ...any) {
				logf("a first game against %s's computer: "+f, append([]any{g.Name()}, args...)...)
			})
			if err != nil && ctx.Err() == nil {
				logf("preparing %s's computer players: %v", g.Name(), err)
			} else if had && err == nil {
				logf("%s's computer players have what they need", g.Name())
			}
		}()
	}
}

// profiles serves Go's profiles (net/http/pprof) under /debug/pprof/.
func profiles() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
