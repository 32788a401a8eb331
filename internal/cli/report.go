package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/muster-games/muster/arena"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick/study"
	"github.com/muster-games/muster/metrics"
)

const reportHelp = `Reads the JSON lines of muster eval (several files are merged; - reads the
standard input) and reports, per
game string and pair of agents: the win rate of each side, of the first player
and of each agent, and agent A's score (draws half), with 95% Wilson intervals
(the score also over all game strings where a pair of agents played several,
as in a match across rulesets), balance, completion, drawishness,
timeouts, outcome uniformity, the first player's advantage, duration (mean
with its 95% interval, median, distribution), decision moves, branching
factor, state repetition and board coverage (each a mean over the games with
its 95% interval), the share of games with a repeated position; and
Ludii's state-evaluation metrics, read through the game's own evaluation with
every record replayed: lead change, stability, decisiveness (threshold and
moves), clarity (variance, narrowness) and drama (eleven ways), each a mean
over the games with its 95% interval. Each is defined in the report; with plots
(SVG) of the outcome shares with intervals, game lengths, the winner's value
through the game, and win rate against search effort, written next to the
--html or --md file. Without --html or --md it prints the Markdown report.
--traces FILE writes instead, as JSON, what the state metrics read of each game
(every player's value before each action, the winners, the mover's value after
each legal action, and the actions and legal actions in the game's notation),
for another tool to be checked on the same values (docs/eval.md: Ludii's).

The games are read one at a time and forgotten once counted, so memory does
not grow with their number. A study run in shards (muster eval --shard) is
reported by merging: --partial FILE writes, instead of a report, what the
report keeps of the files read (counts, moments, lengths: a few kilobytes per
game string and pair of agents); muster report then takes such partial files
beside or instead of results files, in any order, and reports the whole.
--states=false skips the state metrics (the slow part: every legal action of
every position valued). The report lets its heap grow to 256 MiB between
garbage collections (GOGC or GOMEMLIMIT in the environment override it).

--rendezvous (Lanrick) replays every record and prints, per game string and
agents, who won each of the first rendezvous — by colour (black acts first: he
places first, or places all the men, or sets the first mark, by ruleset) and by
agent — beside who won the game. A rendezvous is won where a player's men
decrease with no man of his converted (the loser loses a man in every version).
Under 1893 and 1899 it also counts Rule 7's conversions by how many of the
loser's men stood outside the rendezvous when the winner got all his in (the
Hints' "one is generally as much as you can hope ultimately to exclude").`

func runReport(env *Env, args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	htmlOut := fs.String("html", "", "write an HTML report here")
	mdOut := fs.String("md", "", "write a Markdown report here")
	byRendezvous := fs.Bool("rendezvous", false, "Lanrick: who won each rendezvous, replayed from the records")
	tracesOut := fs.String("traces", "", "write the per-position values the state metrics read (JSON) here, for another tool to check them on")
	partialOut := fs.String("partial", "", "write the tallies of the files read (a shard's part of a study) here instead of a report")
	states := fs.Bool("states", true, "compute Ludii's state metrics (every position's legal actions valued); false skips them")
	files, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%w: give one or more results files of muster eval, or partials of muster report --partial", errUsage)
	}
	if *byRendezvous {
		return rendezvousReport(env, files)
	}
	if *tracesOut != "" {
		lines, err := readResults(env, files)
		if err != nil {
			return err
		}
		f, err := os.Create(*tracesOut)
		if err != nil {
			return err
		}
		n, err := metrics.WriteTraces(f, lines)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "wrote the values of %d games to %s\n", n, *tracesOut)
		return nil
	}
	roomyHeap()
	study := metrics.NewStudy()
	for _, name := range files {
		if err := readInto(env, study, name, *states); err != nil {
			return err
		}
	}
	if study.Games() == 0 {
		return fmt.Errorf("no games in %v", files)
	}
	if *partialOut != "" {
		f, err := os.Create(*partialOut)
		if err != nil {
			return err
		}
		err = study.WritePartial(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "wrote the tallies of %d games to %s\n", study.Games(), *partialOut)
		return nil
	}
	groups := study.Groups()
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

// rendezvousReport replays Lanrick records and tallies the winners of the
// first rendezvous of each game, by colour and by agent.
func rendezvousReport(env *Env, files []string) error {
	type key struct{ spec, a, b string }
	type tally struct {
		games    int
		byColour [4][2]int // rendezvous 1–3, then the game: black, white
		byAgent  [4][2]int // A, B
		excluded map[[2]int]int
	}
	var order []key
	tallies := map[key]*tally{}
	err := eachLine(env, files, func(l arena.Line) error {
		if l.Game != "lanrick" {
			return nil
		}
		r, err := replayLine(l)
		if err != nil {
			return err
		}
		k := key{l.Spec, l.Agents[0], l.Agents[1]}
		t := tallies[k]
		if t == nil {
			t = &tally{excluded: map[[2]int]int{}}
			tallies[k] = t
			order = append(order, k)
		}
		t.games++
		for i, c := range append(r.Won[:], r.Winner) {
			if c >= 0 {
				t.byColour[i][c]++
				t.byAgent[i][agentIndex(l, c)]++
			}
		}
		for x, n := range r.Excluded {
			t.excluded[x] += n
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(order) == 0 {
		return fmt.Errorf("no Lanrick games in the files")
	}
	w := env.Stdout
	for _, k := range order {
		t := tallies[k]
		fmt.Fprintf(w, "%s, A = %s, B = %s: %d games\n", k.spec, k.a, k.b, t.games)
		fmt.Fprintf(w, "| | won | by black | by white | by A | by B |\n|---|---|---|---|---|---|\n")
		for i, name := range []string{"rendezvous 1", "rendezvous 2", "rendezvous 3", "the game"} {
			fmt.Fprintf(w, "| %s | %d of %d | %d | %d | %d | %d |\n", name, t.byColour[i][0]+t.byColour[i][1], t.games,
				t.byColour[i][0], t.byColour[i][1], t.byAgent[i][0], t.byAgent[i][1])
		}
		if len(t.excluded) > 0 {
			writeExcluded(w, t.excluded)
		}
	}
	return nil
}

// roomyHeap lets the heap grow to 256 MiB between collections, unless
// GOGC or GOMEMLIMIT say otherwise: a report's live heap is a few
// megabytes (one game a core at a time) while it allocates gigabytes
// replaying games, so that Go's default (collect when the heap doubles)
// spends more time collecting than replaying.
func roomyHeap() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(256 << 20)
}

// openInput opens a file named on the command line; - is the standard
// input.
func openInput(env *Env, name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(env.Stdin), nil
	}
	return os.Open(name)
}

// readInto adds a results file, or a partial of muster report --partial,
// to the study.
func readInto(env *Env, study *metrics.Study, name string, states bool) error {
	f, err := openInput(env, name)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	head, _ := r.Peek(64)
	if metrics.IsPartial(head) {
		err = study.ReadPartial(r)
	} else {
		err = study.ReadResults(r, states)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// eachLine calls f with each line of the results files, one at a time.
func eachLine(env *Env, files []string, f func(arena.Line) error) error {
	for _, name := range files {
		in, err := openInput(env, name)
		if err != nil {
			return err
		}
		err = metrics.Each(in, f)
		in.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// readResults reads and merges results files of muster eval, all in
// memory.
func readResults(env *Env, files []string) ([]arena.Line, error) {
	var lines []arena.Line
	err := eachLine(env, files, func(l arena.Line) error {
		lines = append(lines, l)
		return nil
	})
	return lines, err
}

// recordOf loads the game of one line of results and reads its record.
func recordOf(l arena.Line) (game.Game, *game.Record, error) {
	g, err := game.Load(l.Spec)
	if err != nil {
		return nil, nil, err
	}
	rc, ok := g.(game.Recorder)
	if !ok {
		return nil, nil, fmt.Errorf("%s: no record format", l.Spec)
	}
	rec, err := rc.ReadRecord(strings.NewReader(l.Record))
	if err != nil {
		return nil, nil, fmt.Errorf("%s game %d: %w", l.Spec, l.Index, err)
	}
	return g, rec, nil
}

// replayLine reads the record of one line of results and replays it.
func replayLine(l arena.Line) (study.Rendezvous, error) {
	g, rec, err := recordOf(l)
	if err != nil {
		return study.Rendezvous{}, err
	}
	r, err := study.Replay(g, rec)
	if err != nil {
		return r, fmt.Errorf("game %d: %w", l.Index, err)
	}
	return r, nil
}

// agentIndex is 0 if agent A played colour in the line's game, else 1.
func agentIndex(l arena.Line, colour int) int {
	if l.Players[colour] == "A" {
		return 0
	}
	return 1
}

// writeExcluded prints how many of the loser's men stood outside the
// rendezvous when the winner got all his in and converted one (1893 Rule
// 7): the Hints' "one is generally as much as you can hope ultimately to
// exclude" (Q9), by the rendezvous's size.
func writeExcluded(w io.Writer, excluded map[[2]int]int) {
	least, most, sizes := 64, 0, []int{}
	for k := range excluded {
		least, most = min(least, k[1]), max(most, k[1])
		if !slices.Contains(sizes, k[0]) {
			sizes = append(sizes, k[0])
		}
	}
	slices.Sort(sizes)
	slices.Reverse(sizes)
	fmt.Fprintf(w, "\nRule 7 conversions, by the loser's men outside when the winner got all in:\n\n| rendezvous |")
	for n := least; n <= most; n++ {
		fmt.Fprintf(w, " %d outside |", n)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", most-least+1))
	for _, size := range sizes {
		kind := "close"
		if size%2 == 0 {
			kind = "open"
		}
		fmt.Fprintf(w, "| %d squares (%s) |", size, kind)
		for n := least; n <= most; n++ {
			fmt.Fprintf(w, " %d |", excluded[[2]int{size, n}])
		}
		fmt.Fprintln(w)
	}
}
