package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/muster-games/muster/arena"
	"github.com/muster-games/muster/metrics"
)

const reportHelp = `Reads the JSON lines of muster eval (several files are merged) and reports, per
game string and pair of agents: the win rate of each side, of the first player
and of each agent with 95% Wilson intervals, balance, completion, drawishness,
timeouts, duration (mean, median, distribution), decision moves, branching
factor and state repetition, each defined in the report; with plots (SVG) of the
outcome shares with intervals, game lengths, and win rate against search effort,
written next to the --html or --md file. Without --html or --md it prints the
Markdown report.`

func runReport(env *Env, args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	htmlOut := fs.String("html", "", "write an HTML report here")
	mdOut := fs.String("md", "", "write a Markdown report here")
	files, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%w: give one or more results files of muster eval", errUsage)
	}
	var lines []arena.Line
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		ls, err := metrics.Read(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		lines = append(lines, ls...)
	}
	if len(lines) == 0 {
		return fmt.Errorf("no games in %v", files)
	}
	groups := metrics.Summarize(lines)
	write := func(path string, html bool) error {
		plots, err := metrics.Plots(groups, filepath.Dir(path))
		if err != nil {
			return err
		}
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if html {
			metrics.HTML(f, groups, plots)
		} else {
			metrics.Markdown(f, groups, plots)
		}
		fmt.Fprintf(env.Stdout, "wrote %s and %d plots\n", path, len(plots))
		return nil
	}
	if *htmlOut != "" {
		if err := write(*htmlOut, true); err != nil {
			return err
		}
	}
	if *mdOut != "" {
		if err := write(*mdOut, false); err != nil {
			return err
		}
	}
	if *htmlOut == "" && *mdOut == "" {
		metrics.Markdown(env.Stdout, groups, nil)
	}
	return nil
}
