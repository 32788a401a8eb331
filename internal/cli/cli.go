// Package cli is the muster command: one function per subcommand, each
// taking its arguments and writing to the given streams, so that tests
// run them as a user would.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/muster-games/muster/game"
)

// command is one subcommand.
type command struct {
	name, usage, summary, help string
	run                        func(env *Env, args []string) error
}

// Env holds the streams a command reads and writes, and, for tests, its
// environment (nil: the process's) and a context whose end stands for
// SIGTERM (nil: the signals).
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Environ        map[string]string
	Context        context.Context
}

var commands []command

func init() {
	commands = []command{
		{"help", "muster help [COMMAND]", "explain the commands, or one command", "", runHelp},
		{"serve", "muster serve [--addr 127.0.0.1:8080] [--db muster.db]", "run the web app on localhost", serveHelp, runServe},
		{"healthcheck", "muster healthcheck [--addr 127.0.0.1:8080] [--ready]", "ask a server on this machine whether it answers (a container's health check)", healthcheckHelp, runHealthcheck},
		{"version", "muster version [--json]", "print the version and the commit this binary was built from", versionHelp, runVersion},
		{"backup", "muster backup [--db muster.db] [--out FILE]", "copy a server's SQLite database while it runs, consistently", backupHelp, runBackup},
		{"migrate", "muster migrate [--db DB] [--dry-run]", "bring a database's schema up to date, or say what that would run", migrateHelp, runMigrate},
		{"image", "muster image [--out DIR] [--tag NAME] [--tls-roots FILE]", "write a container image of this (static) binary as an OCI layout, without a container engine", imageHelp, runImage},
		{"rules", "muster rules GAME", "list a game's rulesets with their sources, and its options", rulesHelp, runRules},
		{"perft", "muster perft GAME [--ruleset R] [--position P] [--moves M] --depth N [--divide]", "count the leaves of the game tree", perftHelp, runPerft},
		{"legal", "muster legal GAME [--ruleset R] [--position P] [--moves \"m1 m2 …\"] [--json]", "apply moves and print the legal actions", legalHelp, runLegal},
		{"playouts", "muster playouts GAME [--ruleset R] [--position P] [--seconds S | --games N] [--seed X]", "play uniformly random games and report speed and results", playoutsHelp, runPlayouts},
		{"match", "muster match GAME [--ruleset R] --agents SPEC_A,SPEC_B --games N [--seed S] [--workers W]", "play two agents against each other, sides alternated, and print the Elo difference", matchHelp, runMatch},
		{"play", "muster play GAME [--ruleset R] [--SIDE SPEC]… (--black, --white; Tablut: --attackers, --defenders)", "play in the terminal against an agent or another person", playHelp, runPlay},
		{"engine", "muster engine otep [--agent SPEC] [--movetime D]", "run an engine for OpenTafl's engine protocol on standard input and output", engineHelp, runEngine},
		{"tablutchallenge", "muster tablutchallenge --color white|black [--host H] [--port P] [--name N] [--time S] [--agent SPEC]", "play on a Tablut Challenge server (Bologna's ashton rules)", challengeHelp, runChallenge},
		{"bot", "muster bot --token T [--url U] [--agent SPEC] [--accept casual,rated] [--games N]", "play a bot account on a Muster server with one of Muster's agents", botHelp, runBot},
		{"admin", "muster admin create|grant|revoke|ban|unban|mute|unmute|abort|delete NAME | rename NAME NEW | list | addresses [--since D] [--db DB]", "an operator's work without SQL: accounts and administrators, bans, aborted games, renamed or deleted accounts, the busiest addresses", adminHelp, runAdmin},
		{"loadtest", "muster loadtest [--url U] [--game G] [--games N] [--actions N]", "play many games at once against a running server and report speed, latency and errors", loadtestHelp, runLoadtest},
		{"eval", "muster eval --game G [--rulesets R1,R2] [--options k=v,…] --agents A,B --games N [--workers W] [--seed S] [--shard i/n] --out results.jsonl", "self-play games across rulesets for rule studies, resumable and shardable", evalHelp, runEval},
		{"report", "muster report results.jsonl… [--html report.html] [--md report.md]", "Ludii-style metrics and plots of self-play results", reportHelp, runReport},
		{"tune", "muster tune results.jsonl… [--game tablut|lanrick] [--out FILE] [--skip N] [--per-game N] [--min-games N] [--exact N] [--dry-run]", "fit the evaluation's weights to the results of self-play games, per family of rulesets", tuneHelp, runTune},
		{"solve", "muster solve GAME [--ruleset R] [--position P] [--moves M] [--depth N]  |  muster solve tables|final|five|selector|convert …", "solve positions exactly: Lanrick's last two rendezvous from endgame tables, any position by exhaustive search", solveHelp, runSolve},
		{"record", "muster record GAME [--ruleset R] --moves M  |  muster record --read FILE", "write a game record, or read and check one", recordHelp, runRecord},
	}
}

// errUsage marks errors in the command line itself (exit status 2).
var errUsage = errors.New("usage")

// Run runs the muster command with its arguments (without the program
// name) and returns the exit status: 0 on success, 1 when the command
// fails (an illegal move, a malformed position), 2 on a bad command line.
func Run(args []string, stdout, stderr io.Writer) int {
	return RunIO(args, nil, stdout, stderr)
}

// RunIO is Run with standard input (for play and engine).
func RunIO(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	if len(args) == 0 {
		runHelp(env, nil)
		return 2
	}
	name := args[0]
	if name == "-h" || name == "--help" {
		name = "help"
	}
	for _, c := range commands {
		if c.name == name {
			err := c.run(env, args[1:])
			switch {
			case err == nil:
				return 0
			case errors.As(err, new(helpRequest)):
				printHelp(stdout, c, err.(helpRequest).flags)
				return 0
			case errors.Is(err, errUsage):
				fmt.Fprintf(stderr, "muster %s: %v\nusage: %s\n", name, err, c.usage)
				return 2
			default:
				fmt.Fprintf(stderr, "muster %s: %v\n", name, err)
				return 1
			}
		}
	}
	fmt.Fprintf(stderr, "muster: unknown command %q (known: %s)\n", name, strings.Join(commandNames(), ", "))
	return 2
}

func commandNames() []string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return names
}

func runHelp(env *Env, args []string) error {
	if len(args) > 0 && args[0] != "-h" && args[0] != "--help" {
		for _, c := range commands {
			if c.name == args[0] {
				printHelp(env.Stdout, c, c.flagText())
				return nil
			}
		}
		return fmt.Errorf("%w: no command %q (known: %s)", errUsage, args[0], strings.Join(commandNames(), ", "))
	}
	fmt.Fprint(env.Stdout, `Muster plays and studies Lewis Carroll's Lanrick and Linnaeus's Tablut.

usage: muster COMMAND [arguments]

commands:
`)
	for _, c := range commands {
		fmt.Fprintf(env.Stdout, "  %-16s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(env.Stdout, `
games: %s
A GAME is a name, optionally with a ruleset and options:
  tablut   tablut(ludii-smith)   tablut(linnaeus, king_capture=strong)
--ruleset takes the part in parentheses: --ruleset "walker,repetition=third".

Run "muster help COMMAND" for the details of a command.
`, strings.Join(game.Names(), ", "))
	return nil
}

// helpRequest is a command's answer to -h or --help: its flags, described.
type helpRequest struct{ flags string }

func (helpRequest) Error() string { return "help requested" }

// printHelp writes a command's usage, its text and its flags.
func printHelp(w io.Writer, c command, flags string) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.usage, strings.TrimSpace(c.summary+"\n\n"+c.help))
	if flags != "" {
		fmt.Fprintf(w, "\nflags:\n%s", flags)
	}
}

// flagText asks the command for its flags, as --help would.
func (c command) flagText() string {
	if c.name == "help" {
		return ""
	}
	quiet := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	var hr helpRequest
	if err := c.run(quiet, []string{"--help"}); errors.As(err, &hr) {
		return hr.flags
	}
	return ""
}

// flags parses a command's flags, which may come before or after its one
// positional argument (the game); it returns the positional arguments.
// Asked for help, it returns a helpRequest with the flags described.
func flags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				var b strings.Builder
				fs.SetOutput(&b)
				fs.PrintDefaults()
				return nil, helpRequest{b.String()}
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// loadGame builds the game from a GAME argument and a --ruleset value.
func loadGame(spec, ruleset string) (game.Game, error) {
	sp, err := game.ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	if ruleset != "" {
		if sp.Ruleset != "" || len(sp.Options) > 0 {
			return nil, fmt.Errorf("%w: give the ruleset either in GAME or with --ruleset, not both", errUsage)
		}
		sp.Ruleset, sp.Options, err = game.ParseRuleset(ruleset)
		if err != nil {
			return nil, err
		}
	}
	return game.LoadSpec(sp)
}

// gameFlags are the flags every game command shares.
type gameFlags struct {
	ruleset, position, moves string
}

func (gf *gameFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&gf.ruleset, "ruleset", "", "ruleset and options, such as ludii-smith or \"walker,repetition=third\"")
	fs.StringVar(&gf.position, "position", "", "start from this position (the game's position format)")
	fs.StringVar(&gf.moves, "moves", "", "actions to apply first, separated by spaces")
}

// state loads the game named by the one positional argument and returns
// the state after --position and --moves.
func (gf *gameFlags) state(pos []string) (game.Game, game.State, error) {
	if len(pos) != 1 {
		return nil, nil, fmt.Errorf("%w: want one GAME (known: %s), got %d arguments", errUsage, strings.Join(game.Names(), ", "), len(pos))
	}
	g, err := loadGame(pos[0], gf.ruleset)
	if err != nil {
		return nil, nil, err
	}
	s := g.NewState()
	if gf.position != "" {
		if s, err = g.ParseState(gf.position); err != nil {
			return nil, nil, err
		}
	}
	if err := game.ApplyNotation(s, g.SplitActions(gf.moves)); err != nil {
		return nil, nil, err
	}
	return g, s, nil
}
