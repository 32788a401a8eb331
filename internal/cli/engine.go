package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/muster-games/muster/otep"
)

const engineHelp = `Runs an engine on standard input and output.
  muster engine otep [--agent SPEC] [--movetime D]
speaks OpenTafl's engine protocol (hello, rules, position, side, clock, play,
opponent-move, analyze, finish, goodbye) for the Tablut rules OpenTafl can
express with an edge escape on 9×9; it plays alpha-beta within the clock (or
--movetime per move when untimed), or the given agent. For OpenTafl, point its
engine .ini at a script that runs "muster engine otep".`

func runEngine(env *Env, args []string) error {
	if len(args) == 0 || args[0] != "otep" {
		return fmt.Errorf("%w: the engine protocol is otep", errUsage)
	}
	fs := flag.NewFlagSet("engine", flag.ContinueOnError)
	spec := fs.String("agent", "", "agent spec (default: alpha-beta on the clock)")
	moveTime := fs.Duration("movetime", 5*time.Second, "time per move when untimed")
	pos, err := flags(fs, args[1:])
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
	e := &otep.Engine{Agent: *spec, MoveTime: *moveTime, Log: env.Stderr}
	return e.Run(context.Background(), in, env.Stdout)
}
