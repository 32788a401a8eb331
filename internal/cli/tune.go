package cli

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/arena"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/tune"
)

const tuneHelp = `Fits the weights of a game's evaluation to the results of finished games (the
JSON lines of muster eval): a logistic regression of each game's result on the
evaluation's features in its quiet positions (no capture or win to be had at
once), at most --per-game of them a game, after the first --skip plies. Each
family of rulesets (Tablut: camps, encirclement, strong_king, plain; Lanrick:
1893-1899, 1880-1881, 1879) is fitted on its own games. Lanrick's positions are
those at the start of a turn, each counted also with the colours swapped (its
features are white's less black's), and what is fitted is who wins the
rendezvous under way rather than the game (the evaluation weighs the men each
side will have after it; see docs/strength.md). --exact N fits instead, as a
family of its own, N positions whose value the game knows exactly (Lanrick:
the final rendezvous, from the endgame tables on disk). The weights are scaled
to hundredths of the unit feature (Tablut: a defender; Lanrick: a man outside
with a clear line in), with the fit's intercept as a constant added to every
position (so that an evaluation of 0 is even chances, what a draw is worth),
and its unit's weight in logits as a scale, and written into --out with the command, the games and the losses, replacing the entries
of the families fitted and keeping the others; the game embeds that file, so
the next build plays with them. A family with fewer than --min-games games is
left as it was.

It prints, per family, the games and positions, the mean log loss of the fit
beside that of the win rate alone and of the weights --out held before, and the
new weights and constant. Compare the new weights with the old in play before
keeping them (Tablut: write the fit to a file of its own, then eval=FILE.json
plays it against the embedded weights):
  cp tablut/weights.json try.json && muster tune games.jsonl --out try.json
  muster eval --game tablut --rulesets ashton --agents 'alphabeta(time=0.25s,eval=try.json)','alphabeta(time=0.25s)' …
  muster eval --game tablut --rulesets ashton --agents 'alphabeta(depth=4)','alphabeta(depth=4,eval=hand)' …
  muster match lanrick --agents 'mcts(iterations=2000)','mcts(iterations=2000,eval=hand)' …`

func runTune(env *Env, args []string) error {
	fl := flag.NewFlagSet("tune", flag.ContinueOnError)
	gameName := fl.String("game", "tablut", "the game whose evaluation is fitted")
	out := fl.String("out", "", "the weights file to update (default: the game's own, from the repository root)")
	skip := fl.Int("skip", 8, "plies at the start of each game not sampled (the random opening)")
	perGame := fl.Int("per-game", 24, "most positions sampled from one game, evenly spaced")
	ridge := fl.Float64("ridge", 1e-4, "ridge penalty on the weights (in logits)")
	minGames := fl.Int("min-games", 200, "fewest games a family is fitted on")
	dry := fl.Bool("dry-run", false, "print the fit but write nothing")
	exact := fl.Int("exact", 0, "also fit the family of positions of known value the game offers, on this many of them (Lanrick: the final rendezvous, from the endgame tables on disk)")
	seed := fl.Uint64("seed", 1, "seed of the --exact positions")
	files, err := flags(fl, args)
	if err != nil {
		return err
	}
	if len(files) == 0 && *exact == 0 {
		return fmt.Errorf("%w: give one or more results files of muster eval (or --exact N)", errUsage)
	}
	if *skip < 0 || *ridge < 0 || *minGames < 1 || *perGame < 1 || *exact < 0 {
		return fmt.Errorf("%w: --skip, --ridge and --exact must not be negative, --min-games and --per-game at least 1", errUsage)
	}
	g, err := game.Load(*gameName)
	if err != nil {
		return err
	}
	tn, err := agent.TuningOf(g)
	if err != nil {
		return err
	}
	if *out == "" {
		*out = tn.File
	}
	table := &tune.Table{Unit: tn.Unit, Families: map[string]*tune.Entry{}}
	switch data, err := os.ReadFile(*out); {
	case err == nil:
		if table, err = tune.Parse(data, tn.Features); err != nil {
			return fmt.Errorf("%s: %w", *out, err)
		}
		if table.Unit != tn.Unit {
			return fmt.Errorf("%s: weights in hundredths of %s, want %s", *out, table.Unit, tn.Unit)
		}
		if table.Families == nil {
			table.Families = map[string]*tune.Entry{}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	lines, err := readResults(env, files)
	if err != nil {
		return err
	}
	fams, err := tuneSamples(tn, g.Name(), lines, *skip, *perGame)
	if err != nil {
		return err
	}
	if *exact > 0 {
		if tn.Exact == nil {
			return fmt.Errorf("%s has no positions of known value to fit (--exact)", g.Name())
		}
		name, samples, err := tn.Exact(*exact, *seed)
		if err != nil {
			return err
		}
		f := &tuneFamily{exact: len(samples)}
		for _, x := range samples {
			f.add(tn, x.X, x.Y)
		}
		fams[name] = f
	}
	names := make([]string, 0, len(fams))
	for name := range fams {
		names = append(names, name)
	}
	sort.Strings(names)
	w := env.Stdout
	fitted := 0
	for _, name := range names {
		fam := fams[name]
		positions := len(fam.samples)
		if tn.Symmetric {
			positions /= 2
		}
		if fam.exact > 0 {
			fmt.Fprintf(w, "%s: %d positions of known value\n", name, positions)
		} else {
			fmt.Fprintf(w, "%s: %d games (%s), %d quiet positions\n", name, fam.games, strings.Join(fam.specs, ", "), positions)
		}
		if fam.exact == 0 && fam.games < *minGames {
			fmt.Fprintf(w, "  not fitted: fewer than --min-games %d games\n", *minGames)
			continue
		}
		fit, err := tune.Logistic(fam.samples, *ridge)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		weights, constant, err := tune.Scaled(fit, tn.Features, tn.Unit)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(w, "  log loss %.4f (the win rate alone %.4f", fit.Loss, fit.Base)
		if old := table.Families[name]; old != nil {
			if l, err := lossOf(old.Weights, tn.Features, fam.samples); err == nil {
				fmt.Fprintf(w, ", the weights before %.4f", l)
			}
		}
		fmt.Fprintf(w, ")\n  weights:")
		for _, f := range tn.Features {
			fmt.Fprintf(w, " %s %d", f, weights[f])
		}
		unit := fit.Weights[slices.Index(tn.Features, tn.Unit)]
		fmt.Fprintf(w, "; constant %d; the unit (%s) is %.4f logits\n", constant, tn.Unit, unit)
		table.Families[name] = &tune.Entry{
			Weights:   weights,
			Constant:  constant,
			Scale:     math.Round(unit*1e6) / 1e6,
			Command:   "muster tune " + strings.Join(args, " "),
			Data:      fam.data(),
			Games:     fam.games,
			Positions: positions,
			Loss:      round4(fit.Loss),
			Base:      round4(fit.Base),
		}
		fitted++
	}
	if fitted == 0 {
		return fmt.Errorf("no family had %d games to fit", *minGames)
	}
	if *dry {
		return nil
	}
	data, err := table.Marshal()
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s\n", *out)
	return nil
}

// tuneFamily gathers the samples of one family of rulesets.
type tuneFamily struct {
	games   int
	specs   []string
	agents  map[string]int
	samples []tune.Sample
	// exact counts the positions of known value the family holds instead
	// of games.
	exact int
}

// add adds a sample, and its mirror where the tuning is symmetric.
func (f *tuneFamily) add(tn *agent.Tuning, x []float64, y float64) {
	f.samples = append(f.samples, tune.Sample{X: x, Y: y})
	if tn.Symmetric {
		neg := make([]float64, len(x))
		for j, v := range x {
			neg[j] = -v
		}
		f.samples = append(f.samples, tune.Sample{X: neg, Y: 1 - y})
	}
}

func (f *tuneFamily) data() string {
	if f.exact > 0 {
		return fmt.Sprintf("%d positions of known value drawn with --exact", f.exact)
	}
	var ag []string
	for a, n := range f.agents {
		ag = append(ag, fmt.Sprintf("%d games of %s", n, a))
	}
	sort.Strings(ag)
	return strings.Join(ag, "; ") + " under " + strings.Join(f.specs, ", ")
}

// tuneSamples replays each finished game of the named game (once, however
// often it was played) and samples its quiet positions after skip plies,
// labelled with the game's result for the tuning's player, by family: at
// most perGame of them, evenly spaced, so that a long game weighs no more
// than a short one.
func tuneSamples(tn *agent.Tuning, name string, lines []arena.Line, skip, perGame int) (map[string]*tuneFamily, error) {
	fams := map[string]*tuneFamily{}
	seen := map[string]bool{}
	for _, l := range lines {
		if l.Game != name || !l.Finished {
			continue
		}
		g, rec, err := recordOf(l)
		if err != nil {
			return nil, err
		}
		// Two deterministic agents alike play the same game with sides
		// swapped: count it once.
		key := l.Spec + " " + strings.Join(rec.Actions, " ")
		if seen[key] {
			continue
		}
		seen[key] = true
		s := g.NewState()
		var xs [][]float64
		var ys []float64
		var pending [][]float64 // the samples of the episode under way
		for i, text := range rec.Actions {
			if i >= skip {
				if x, ok := tn.Sample(s); ok {
					pending = append(pending, x)
				}
			}
			if err := game.ApplyNotation(s, []string{text}); err != nil {
				return nil, fmt.Errorf("%s game %d: %w", l.Spec, l.Index, err)
			}
			if tn.Episode == nil {
				continue
			}
			if w, ended := tn.Episode(s); ended {
				for _, x := range pending {
					xs, ys = append(xs, x), append(ys, resultFor(w, tn.Player))
				}
				pending = pending[:0]
			}
		}
		if tn.Episode == nil {
			if !s.IsTerminal() {
				continue
			}
			y := resultFor(s.Result().Winner, tn.Player)
			for _, x := range pending {
				xs, ys = append(xs, x), append(ys, y)
			}
		}
		fam := tn.Family(g)
		f := fams[fam]
		if f == nil {
			f = &tuneFamily{agents: map[string]int{}}
			fams[fam] = f
		}
		f.games++
		if !slices.Contains(f.specs, l.Spec) {
			f.specs = append(f.specs, l.Spec)
		}
		f.agents[l.Agents[0]+" v "+l.Agents[1]]++
		for i := range min(len(xs), perGame) {
			j := i * len(xs) / min(len(xs), perGame)
			f.add(tn, xs[j], ys[j])
		}
	}
	return fams, nil
}

// resultFor is a result for player p: 1 won by p, 0 by the other, ½ a
// draw (winner < 0).
func resultFor(winner, p game.Player) float64 {
	switch {
	case winner == p:
		return 1
	case winner >= 0:
		return 0
	}
	return 0.5
}

// lossOf is the log loss on the samples of weights scored as one feature,
// their scale fitted.
func lossOf(weights map[string]int, features []string, samples []tune.Sample) (float64, error) {
	one := make([]tune.Sample, len(samples))
	for i, s := range samples {
		v := 0.0
		for j, f := range features {
			v += float64(weights[f]) * s.X[j]
		}
		one[i] = tune.Sample{X: []float64{v / 100}, Y: s.Y}
	}
	fit, err := tune.Logistic(one, 0)
	return fit.Loss, err
}

func round4(x float64) float64 { return float64(int64(x*10000+0.5)) / 10000 }
