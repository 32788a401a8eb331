package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/otep"
	"github.com/muster-games/muster/tablut"
)

const engineHelp = `Runs an engine on standard input and output.
  muster engine otep [--agent SPEC] [--movetime D]
speaks OpenTafl's engine protocol (hello, rules, position, side, clock, play,
opponent-move, analyze, finish, goodbye) for the Tablut rules OpenTafl can
express with an edge escape on 9×9. One agent (by default alpha-beta, which
deepens its search until the move's time is up) plays the whole game, its
table kept from move to move; each move gets a share of the clock OpenTafl
sends (in milliseconds), or --movetime when the game is untimed; with --ponder it
thinks on the opponent's time too. For OpenTafl, point its
engine .ini at a script that runs "muster engine otep".`

// clockAgent searches deeper and deeper until the time for the move, which
// the protocols give as a deadline, is up.
const clockAgent = "alphabeta(depth=64)"

func runEngine(env *Env, args []string) error {
	switch {
	case len(args) > 0 && args[0] == "otep":
		args = args[1:]
	case len(args) == 0 || args[0] != "-h" && args[0] != "--help":
		return fmt.Errorf("%w: the engine protocol is otep", errUsage)
	}
	fs := flag.NewFlagSet("engine", flag.ContinueOnError)
	spec := fs.String("agent", clockAgent, "agent spec; each move stops at the time the clock allows")
	seed := fs.Uint64("seed", 1, "seed of the agent's random choices")
	moveTime := fs.Duration("movetime", 5*time.Second, "time per move when untimed")
	ponder := fs.Bool("ponder", false, "think on the opponent's time too (alpha-beta agents; leave off where the opponent shares the cores)")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, pos)
	}
	in := env.Stdin
	if in == nil {
		in = os.Stdin
	}
	if _, err := agent.New(*spec, tablut.MustLoad("opentafl"), *seed); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	var current agent.Agent // the game's agent, for pondering
	newPlayer := func(g game.Game) (otep.Player, error) {
		a, err := agent.New(*spec, g, *seed)
		current = a
		return a, err
	}
	e := &otep.Engine{NewPlayer: newPlayer, MoveTime: *moveTime, Log: env.Stderr}
	if *ponder {
		e.Ponder = func(ctx context.Context, s game.State) { agent.Ponder(ctx, current, s) }
	}
	return e.Run(context.Background(), in, env.Stdout)
}
