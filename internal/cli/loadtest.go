package cli

import (
	"context"
	"flag"
	"fmt"
	"runtime"

	"github.com/muster-games/muster/internal/loadtest"
)

const loadtestHelp = `Plays --games games at once against a running server (muster serve), as
browsers do: each created for two people at one screen, watched over a
WebSocket and played with random legal actions (--actions each). It prints
the actions per second, the latency percentiles from sending an action to
seeing it on the WebSocket (latency_*: once the player has its view; arrival_*:
when the view's frame came off the socket, before this client decoded it and
handed it on, the latency less the client's own part), the errors and the
actions lost (accepted but missing from the stored game). Start the server with limits that allow the
load, e.g. muster serve --games-per-hour 1000 --conns-per-client 1000
--conns-per-address 5000 --challenges-per-hour 1000 --open-challenges 1000.

--lobby makes each game by a challenge in the lobby, accepted by another
browser (each player with his own session), while --lobby-watchers browsers
keep the lobby open; --watch names a second server on the same PostgreSQL
database, where the games' WebSockets go: the latency is then a move's from
one server to a watcher of the other. --pace 2s makes each player think about
two seconds before each action, as in live games (0: as fast as possible).
--ramp 10s spreads the games' beginnings over ten seconds, as players arrive
over time (0: every game is made in the same instant). Each player sends his
actions on his browser's WebSocket of the game, as the game page does (its
view comes back on the socket); --post posts each instead (POST
/api/games/{id}/act, answered with the view), as the page does while its
socket is not open.

--computer LEVEL makes each game a person (random legal actions) against the
server's computer at LEVEL (easy, medium, hard, max), and adds the computer's
reply times: from the person's action seen on the WebSocket to the computer's.
--browse N then makes N games against the computer, each resigned at once, and
opens each of them, as visitors browsing finished games do. --pid PID reads,
from /proc on this machine, the server's processor time (user and system)
while the games are played, printed per action (game creation and sockets
included), and again for the time every game was in play alone, from the
moment the last began (made, its socket open) to the moment the first ended
(server_cpu_ms_per_action_in_play, with the actions played meanwhile: what a
move costs once the games are made; absent where no moment had them all in
play, as with a --ramp longer than a game), and its resident memory: before
the games, the most while they are played (sampled twice a second), printed
as a live game's share, and after the games and the browsing. Resident memory holds the garbage not yet
collected too (about as much again as the live heap under Go's default GOGC):
for the live heap alone use serve --debug-addr's heap profile. games_live_max is
the most games under way at once (made and not yet played out): with --ramp, it
says whether every game was live at the same time. The client's
own processor time while the games are played is printed too
(client_cpu_ms_per_action): where client and server share a machine, what the
client takes the server does not get. The client plays each game on one
goroutine, reading its WebSockets in turn with a WebSocket client of its own
(no goroutine of its own, a frame written with no allocation), and runs on
one core (--procs 1), so that what it spends is mostly the system calls of
its sockets (its figures: docs/load-history.md).`

func runLoadtest(env *Env, args []string) error {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	url := fs.String("url", "http://127.0.0.1:8080", "server address")
	gameName := fs.String("game", "tablut", "game to play")
	games := fs.Int("games", 20, "games at once")
	actions := fs.Int("actions", 30, "actions per game")
	seed := fs.Uint64("seed", 1, "random seed")
	lobby := fs.Bool("lobby", false, "make each game by a challenge in the lobby and its acceptance")
	lobbyWatchers := fs.Int("lobby-watchers", 0, "browsers keeping the lobby open meanwhile")
	watchURL := fs.String("watch", "", "another server on the same database, for the games' WebSockets")
	pace := fs.Duration("pace", 0, "how long a player thinks before each action (0: as fast as the server answers)")
	computer := fs.String("computer", "", "play each game against the server's computer at this level (easy, medium, hard, max)")
	browseN := fs.Int("browse", 0, "then make this many games against the computer, each resigned at once, and open each")
	ramp := fs.Duration("ramp", 0, "spread the games' beginnings evenly over this long (0: all at once)")
	pid := fs.Int("pid", 0, "the server's process id, to report its CPU per action and memory per game (Linux)")
	post := fs.Bool("post", false, "post each action (POST /api/games/{id}/act) rather than send it on the game's WebSocket")
	procs := fs.Int("procs", 1, "the cores the client's Go runtime schedules on (GOMAXPROCS): one keeps the client to a core and spares the server it measures the scheduler's spinning (0: every core)")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 || *games < 1 || *actions < 1 || *procs < 0 {
		return fmt.Errorf("%w: want --games and --actions of at least 1, --procs of 0 or more", errUsage)
	}
	if *procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(*procs))
	}
	rep := loadtest.Run(context.Background(), loadtest.Config{URL: *url, Game: *gameName, Games: *games, Actions: *actions, Seed: *seed,
		Lobby: *lobby, LobbyWatchers: *lobbyWatchers, Watch: *watchURL, Pace: *pace, Computer: *computer, Browse: *browseN, PID: *pid, Ramp: *ramp, Post: *post})
	fmt.Fprint(env.Stdout, rep)
	if len(rep.Errors) > 0 || rep.Lost > 0 {
		return fmt.Errorf("%d errors, %d actions lost", len(rep.Errors), rep.Lost)
	}
	return nil
}
