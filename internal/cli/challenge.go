package cli

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/tablut"
	"github.com/muster-games/muster/tablutchallenge"
)

const challengeHelp = `Plays a game on a Tablut Challenge server (University of Bologna; the ashton
ruleset). White (the defenders) connects to port 5800, black (the attackers) to
5801, unless --port is given. --time is the server's limit per move in seconds
(its -t; default 60). Muster thinks --think seconds a move (by default the
server's limit less 10%, and less at least half a second for the network) on
--threads threads (by default every core), and with --ponder on the opponent's
time too. One agent plays the whole game, its
table kept from move to move: by default alpha-beta, deepening until the move's
time is up; --agent chooses another (write its threads in its spec then).

The game's end is said in words: a win, a loss or a draw and why, including the
endings the server gives without saying why (a refused move, a time out,
which it ends by closing the connection). --traffic FILE keeps every message
sent and received, with the seconds since the connection opened.`

func runChallenge(env *Env, args []string) error {
	fs := flag.NewFlagSet("tablutchallenge", flag.ContinueOnError)
	colour := fs.String("color", "", "white or black")
	host := fs.String("host", "localhost", "server host")
	port := fs.Int("port", 0, "server port (default 5800 for white, 5801 for black)")
	name := fs.String("name", "Muster", "player name sent to the server")
	limit := fs.Float64("time", 60, "the server's time per move, seconds")
	think := fs.Float64("think", 0, "seconds Muster thinks a move (default: the server's time less a margin)")
	threads := fs.Int("threads", runtime.NumCPU(), "search threads of the default agent")
	spec := fs.String("agent", "", "agent spec (default alphabeta on the clock with --threads); each move stops within --think")
	seed := fs.Uint64("seed", 1, "seed of the agent's random choices")
	traffic := fs.String("traffic", "", "file to write every message to")
	ponder := fs.Bool("ponder", false, "think on the opponent's time too (alpha-beta agents; leave off where the opponent shares the cores)")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, pos)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
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
	if *threads < 1 {
		return fmt.Errorf("%w: --threads must be at least 1", errUsage)
	}
	if *spec != "" && set["threads"] {
		return fmt.Errorf("%w: --threads is for the default agent; write the threads in --agent's spec, as alphabeta(depth=64,threads=%d)", errUsage, *threads)
	}
	if *spec == "" {
		*spec = fmt.Sprintf("alphabeta(depth=64,threads=%d)", *threads)
	}
	if *port == 0 {
		*port = tablutchallenge.BlackPort
		if white {
			*port = tablutchallenge.WhitePort
		}
	}
	server := time.Duration(*limit * float64(time.Second))
	budget := min(time.Duration(float64(server)*0.9), server-500*time.Millisecond)
	if *think > 0 {
		t := time.Duration(*think * float64(time.Second))
		if t > budget {
			return fmt.Errorf("%w: --think %gs leaves no margin inside the server's %gs; at most %.1fs", errUsage, *think, *limit, budget.Seconds())
		}
		budget = t
	}
	if budget < 50*time.Millisecond {
		return fmt.Errorf("%w: --time %gs is too short to think in", errUsage, *limit)
	}
	player, err := agent.New(*spec, tablut.MustLoad("ashton"), *seed)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	c := &tablutchallenge.Client{Name: *name, White: white, MoveTime: budget, Limit: server, Player: player, Log: env.Stdout}
	if *ponder {
		c.Ponder = func(ctx context.Context, s game.State) { agent.Ponder(ctx, player, s) }
	}
	if *traffic != "" {
		f, err := os.Create(*traffic)
		if err != nil {
			return err
		}
		defer f.Close()
		c.Traffic = f
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	addr := net.JoinHostPort(*host, strconv.Itoa(*port))
	fmt.Fprintf(env.Stdout, "playing %s on %s as %s: %s\n", *colour, addr, *spec, thinking(agent.Limits(player), budget, server))
	end, err := c.Play(ctx, addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "game over: %s\n", end)
	return nil
}

// thinking says truly how long and on how many threads the agent thinks.
func thinking(lim search.Limits, budget, server time.Duration) string {
	t := budget
	if lim.Time > 0 && lim.Time < t {
		t = lim.Time
	}
	out := fmt.Sprintf("up to %.1fs a move", t.Seconds())
	if lim.Time == 0 && lim.Depth > 0 && lim.Depth < 64 {
		out += fmt.Sprintf(" (depth %d at most)", lim.Depth)
	}
	if lim.Nodes > 0 {
		out += fmt.Sprintf(" (%d nodes at most)", lim.Nodes)
	}
	n := max(lim.Threads, 1)
	return out + fmt.Sprintf(" on %s; the server allows %gs", plural(n, "thread", "threads"), server.Seconds())
}
