package cli

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/tablut"
	"github.com/muster-games/muster/tablutchallenge"
)

const challengeHelp = `Plays a game on a Tablut Challenge server (University of Bologna; the ashton
ruleset). White (the defenders) connects to port 5800, black (the attackers) to
5801, unless --port is given. --time is the server's limit per move in seconds
(default 60); Muster answers within it, keeping a margin of 10% and at least
half a second for the network. One agent plays the whole game (by default
alpha-beta, deepening until the move's time is up); --agent chooses another.`

func runChallenge(env *Env, args []string) error {
	fs := flag.NewFlagSet("tablutchallenge", flag.ContinueOnError)
	colour := fs.String("color", "", "white or black")
	host := fs.String("host", "localhost", "server host")
	port := fs.Int("port", 0, "server port (default 5800 for white, 5801 for black)")
	name := fs.String("name", "Muster", "player name sent to the server")
	limit := fs.Float64("time", 60, "the server's time per move, seconds")
	spec := fs.String("agent", clockAgent, "agent spec; each move stops within the server's time")
	seed := fs.Uint64("seed", 1, "seed of the agent's random choices")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, pos)
	}
	white := false
	switch *colour {
	case "white", "WHITE":
		white = true
	case "black", "BLACK":
	default:
		return fmt.Errorf("%w: --color must be white or black", errUsage)
	}
	if *limit <= 0 {
		return fmt.Errorf("%w: --time must be positive", errUsage)
	}
	if *port == 0 {
		*port = tablutchallenge.BlackPort
		if white {
			*port = tablutchallenge.WhitePort
		}
	}
	budget := time.Duration(*limit * 0.9 * float64(time.Second))
	if margin := time.Duration(*limit*float64(time.Second)) - budget; margin < 500*time.Millisecond {
		budget = time.Duration(*limit*float64(time.Second)) - 500*time.Millisecond
	}
	if budget < 50*time.Millisecond {
		budget = 50 * time.Millisecond
	}
	player, err := agent.New(*spec, tablut.MustLoad("ashton"), *seed)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	c := &tablutchallenge.Client{Name: *name, White: white, MoveTime: budget, Player: player}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	addr := net.JoinHostPort(*host, strconv.Itoa(*port))
	fmt.Fprintf(env.Stdout, "playing %s on %s, %.1fs a move\n", *colour, addr, budget.Seconds())
	end, err := c.Play(ctx, addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "game over: %s\n", end)
	return nil
}
