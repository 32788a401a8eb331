package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/server"
	"github.com/muster-games/muster/internal/store"
)

const serveHelp = `Runs the web app on localhost: play Lanrick and Tablut in the browser against
the computer, a friend, or anyone through the lobby (challenges, accounts,
Glicko-2 ratings, correspondence games, chat), with the games stored in an
SQLite database (--db, default muster.db, WAL mode) so that a restart loses no
game. It prints the address to open. Stop it with Ctrl-C.

--db postgres://user@host/name runs on PostgreSQL instead; several servers may
share that database behind a load balancer: a move made through one reaches
the watchers of the others, and each game's clock and computer player run on
one server at a time, taken over by another when it stops (docs/web.md).

In the background it prepares what the computer players need to play at
full strength, while games go on: Lanrick's endgame tables (24 files, about 29 MB,
about 10 minutes on one core, once), kept under --data; their progress goes
to the log. --prepare=false skips it. --prepare-five builds Lanrick's five-man
tables (three men against two) after them, one core, one table at a time (6
files of 168 MB, hours each, and up to 9 GB of memory while one is built; a
stopped build starts its table again); the computer players use each as soon
as it is there.`

func runServe(env *Env, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	db := fs.String("db", "muster.db", "SQLite database file, or a PostgreSQL address (postgres://…)")
	perHour := fs.Int("games-per-hour", server.DefaultConfig.GamesPerHour, "new games one address may create an hour")
	changes := fs.Int("changes-per-minute", server.DefaultConfig.ChangesPerMinute, "changes (moves, offers, resignations, joins, rematches) one address may ask of games a minute (429 beyond)")
	challenges := fs.Int("challenges-per-hour", server.DefaultConfig.ChallengesPerHour, "challenges one player or address may make an hour")
	openChallenges := fs.Int("open-challenges", server.DefaultConfig.OpenChallenges, "challenges one player or address may have open at once")
	conns := fs.Int("conns-per-client", server.DefaultConfig.ConnsPerClient, "WebSocket connections and streams one address may hold as a spectator (a game's players are counted apart)")
	connsPerGame := fs.Int("spectators-per-game", server.DefaultConfig.ConnsPerGame, "spectators (WebSockets and streams) a game may have at once; its players' own connections are never counted among them")
	spectatorsPerClient := fs.Int("spectators-per-address", server.DefaultConfig.SpectatorsPerClient, "spectators of one game one address may have at once")
	perAddress := fs.Int("conns-per-address", server.DefaultConfig.ConnsPerAddress, "TCP connections one address (an IPv6 one by its /64) may hold at once (WebSockets and kept-alive requests); the ones beyond are closed as they come; a --trusted-proxy's are not counted")
	reports := fs.String("reports", "", "a folder of reports (muster report --html) to show under /reports/")
	data := fs.String("data", "", "folder for what the computer players build once, such as Lanrick's endgame tables (default: muster in the user's cache folder)")
	prepare := fs.Bool("prepare", true, "build what the computer players need (Lanrick's endgame tables) in the background")
	prepareFive := fs.Bool("prepare-five", false, "with --prepare, build Lanrick's five-man tables too (6 files of 168 MB; hours of CPU on one core)")
	think := fs.Duration("analysis-time", server.DefaultConfig.AnalysisTime, "how long the analysis board's engine thinks on a position")
	engines := fs.Int("engines", server.DefaultConfig.Engines, "the engine pool: cores shared by every search the server runs (the computer's moves, its thinking on a person's time, the analysis board); a search takes one per thread; the default is this machine's cores")
	queue := fs.Int("engine-queue", server.DefaultConfig.EngineQueue, "computer moves that may wait for the engine pool; beyond it new games against the computer are refused (503) until it drains")
	analysisSlots := fs.Int("analysis-slots", 0, "engine slots the analysis board may hold at once (0: half of --engines, at least one); the computer's moves in games go first and take slots back from it")
	analysisQueue := fs.Int("analysis-queue", server.DefaultConfig.AnalysisQueue, "evaluations of the analysis board that may wait for its slots; beyond it they are refused (503)")
	analysisInFlight := fs.Int("analysis-per-client", server.DefaultConfig.AnalysisInFlight, "evaluations one address, and one player, may have under way at once (429 beyond)")
	analysisTime := fs.Duration("analysis-budget", server.DefaultConfig.AnalysisEngineTime, "engine time the analysis board gives one address, and one player, in any minute (429 beyond, with Retry-After)")
	var levels []string
	fs.Func("level", "a computer player a request may name beside easy, medium, hard and max: an agent spec such as alphabeta(time=10s) (repeat for more); requests name no other search", func(spec string) error {
		if spec == "" {
			return errors.New("an empty level")
		}
		levels = append(levels, spec)
		return nil
	})
	var proxies []string
	fs.Func("trusted-proxy", "the address (or CIDR prefix) of a proxy in front of the server, such as a TLS proxy on 127.0.0.1, whose X-Forwarded-For gives the client's address and X-Forwarded-Proto https makes the session cookie Secure (repeat for more); others' headers are ignored", func(s string) error {
		proxies = append(proxies, s)
		return nil
	})
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, pos)
	}
	trusted, err := httpx.ParseProxies(proxies)
	if err != nil {
		return fmt.Errorf("%w: --trusted-proxy: %v", errUsage, err)
	}
	if levels != nil {
		levels = append(slices.Clone(agent.Levels), levels...)
	}
	st, err := store.Open(*db)
	if err != nil {
		return err
	}
	defer st.Close()
	srv := server.New(st, server.Config{
		MaxBody: server.DefaultConfig.MaxBody, GamesPerHour: *perHour, ChangesPerMinute: *changes,
		ConnsPerClient: *conns, ConnsPerGame: *connsPerGame, SpectatorsPerClient: *spectatorsPerClient,
		AgentTimeout: server.DefaultConfig.AgentTimeout, AnalysisTime: *think, Engines: *engines, EngineQueue: *queue,
		AnalysisSlots: *analysisSlots, AnalysisQueue: *analysisQueue, AnalysisInFlight: *analysisInFlight, AnalysisEngineTime: *analysisTime,
		Log: env.Stderr, Reports: *reports, ChallengesPerHour: *challenges, OpenChallenges: *openChallenges, Levels: levels, Proxies: trusted, ConnsPerAddress: *perAddress,
	})
	defer srv.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := srv.Resume(ctx); err != nil {
		return err
	}
	if *prepare {
		go func() {
			logf := func(f string, args ...any) { fmt.Fprintf(env.Stderr, "muster: "+f+"\n", args...) }
			if err := agent.Prepare(ctx, *data, *prepareFive, logf); err != nil && ctx.Err() == nil {
				logf("preparing the computer players: %v", err)
			}
		}()
	}
	ln, err := server.Listen(*addr, *perAddress, trusted)
	if err != nil {
		return err
	}
	hs := srv.HTTPServer()
	where := *db
	if store.IsPostgres(where) {
		where = "PostgreSQL"
	}
	fmt.Fprintf(env.Stdout, "Muster is running at http://%s/ (database %s)\n", ln.Addr(), where)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return hs.Shutdown(sctx)
}
