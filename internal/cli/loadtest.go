package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/muster-games/muster/internal/loadtest"
)

const loadtestHelp = `Plays --games games at once against a running server (muster serve), as
browsers do: each created for two people at one screen, watched over a
WebSocket and played with random legal actions (--actions each). It prints
the actions per second, the latency percentiles from sending an action to
seeing it on the WebSocket, the errors and the actions lost (accepted but
missing from the stored game). Start the server with limits that allow the
load, e.g. muster serve --games-per-hour 1000 --conns-per-client 1000
--challenges-per-hour 1000.

--lobby makes each game by a challenge in the lobby, accepted by another
browser (each player with his own session), while --lobby-watchers browsers
keep the lobby open; --watch names a second server on the same PostgreSQL
database, where the games' WebSockets go: the latency is then a move's from
one server to a watcher of the other. --pace 2s makes each player think about
two seconds before each action, as in live games (0: as fast as possible).`

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
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 || *games < 1 || *actions < 1 {
		return fmt.Errorf("%w: want --games and --actions of at least 1", errUsage)
	}
	rep := loadtest.Run(context.Background(), loadtest.Config{URL: *url, Game: *gameName, Games: *games, Actions: *actions, Seed: *seed,
		Lobby: *lobby, LobbyWatchers: *lobbyWatchers, Watch: *watchURL, Pace: *pace})
	fmt.Fprint(env.Stdout, rep)
	if len(rep.Errors) > 0 || rep.Lost > 0 {
		return fmt.Errorf("%d errors, %d actions lost", len(rep.Errors), rep.Lost)
	}
	return nil
}
