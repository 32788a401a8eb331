package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/muster-games/muster/arena"
)

const evalHelp = `Plays self-play games for rule studies: --games games of the two agents under
each of --rulesets (with --options added to each), sides alternated, on
--workers cores, and appends one JSON line per finished game to --out (the
game string, agents, seed, result, length, decisions, branching, repeated
positions, the record). A progress bar shows on a terminal, plain lines
otherwise. Interrupt it and run the same command again: it resumes, losing
no finished game and playing none twice. --shard i/n plays every n-th game
from the i-th (0-based), so that shards run on many machines; their files
merge by concatenation. Every game is seeded from --seed, its game string
and its number, so shards and resumed runs play the same games. --moves
starts every game after the given actions (a position to study).`

func runEval(env *Env, args []string) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	gameName := fs.String("game", "", "game: tablut or lanrick")
	rulesets := fs.String("rulesets", "", "rulesets, separated by commas (default: the default ruleset)")
	options := fs.String("options", "", "options added to every ruleset, key=value separated by commas")
	agents := fs.String("agents", "", "two agent specs, A,B")
	games := fs.Int("games", 100, "games per ruleset")
	workers := fs.Int("workers", 0, "games at once (0: one per core)")
	seed := fs.Uint64("seed", 1, "random seed")
	shard := fs.String("shard", "0/1", "shard i/n")
	out := fs.String("out", "", "results file (JSON lines), appended to")
	opening := fs.Int("opening", 2, "uniformly random actions that open each pair of games")
	moves := fs.String("moves", "", "actions played at the start of every game, before the random opening")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 || *gameName == "" || *out == "" || *games < 1 {
		return fmt.Errorf("%w: want --game, --agents, --games and --out", errUsage)
	}
	specs := splitAgents(*agents)
	if len(specs) != 2 {
		return fmt.Errorf("%w: --agents wants two specs separated by a comma", errUsage)
	}
	i, n, err := parseShard(*shard)
	if err != nil {
		return err
	}
	cfg := arena.EvalConfig{Agents: [2]string{specs[0], specs[1]}, Games: *games, Seed: *seed, Workers: *workers, Shard: i, Shards: n, Opening: *opening}
	if cfg.Specs, cfg.Moves, err = evalSpecs(*gameName, *rulesets, *options, *moves); err != nil {
		return err
	}
	done, err := arena.Done(*out)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(*out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	progress, finish := progressTo(env.Stderr)
	fmt.Fprintf(env.Stdout, "eval: %d game strings × %d games, shard %d/%d, %d already in %s\n", len(cfg.Specs), *games, i, n, len(done), *out)
	err = arena.Eval(ctx, cfg, done, f, progress)
	finish()
	if err := f.Sync(); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted: run the same command again to resume")
	}
	return err
}

// evalSpecs makes the game strings of an evaluation: the game with each
// ruleset (or its default) and the options; and the opening moves, split.
func evalSpecs(name, rulesets, options, moves string) (specs, split []string, err error) {
	names := []string{""}
	if rulesets != "" {
		names = strings.Split(rulesets, ",")
	}
	for _, r := range names {
		parts := []string{}
		if r = strings.TrimSpace(r); r != "" {
			parts = append(parts, r)
		}
		if options != "" {
			parts = append(parts, options)
		}
		spec := name
		if len(parts) > 0 {
			spec += "(" + strings.Join(parts, ",") + ")"
		}
		g, err := loadGame(spec, "")
		if err != nil {
			return nil, nil, err
		}
		specs = append(specs, g.Spec())
		split = g.SplitActions(moves)
	}
	return specs, split, nil
}

// progressTo reports an evaluation's progress: a bar on a terminal, a line
// a game otherwise. finish ends the bar.
func progressTo(w io.Writer) (progress func(finished, total int), finish func()) {
	var bar *progressbar.ProgressBar
	file, ok := w.(*os.File)
	isTerm := ok && term.IsTerminal(int(file.Fd()))
	progress = func(finished, total int) {
		switch {
		case isTerm && bar == nil:
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionShowCount(), progressbar.OptionSetDescription("games"))
			bar.Set(finished)
		case isTerm:
			bar.Set(finished)
		default:
			fmt.Fprintf(w, "eval: %d/%d games\n", finished, total)
		}
	}
	finish = func() {
		if bar != nil {
			bar.Finish()
			fmt.Fprintln(w)
		}
	}
	return progress, finish
}

func parseShard(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("%w: --shard is i/n with 0 ≤ i < n, got %q", errUsage, s)
	}
	return i, n, nil
}
