package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/lanrick/endgame"
	"github.com/muster-games/muster/lanrick/study"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/solve"
)

const solveHelp = `Solves positions exactly.

  muster solve GAME [--ruleset R] [--position P] [--moves M] [--depth N] [--nodes N] [--seconds S]
      Lanrick 1893 and 1899 with two men a side (the final 3-square rendezvous) are
      answered from the endgame tables: at the start of a turn, the value and the best
      turn; before the final mark, every mark's value for the setter with and without
      Rule 5's interchange; at the interchange, the value of each decision; within a turn,
      the best action, looking ahead to the next start of a turn. The tables
      are built on first use (about 25 seconds each, 24 in all) into --tables (by
      default muster/lanrick-endgame in the user's cache folder). Three men against
      two (the 4-square rendezvous, Rule 7's conversions included) are answered the
      same way from the five-man tables where they are on disk (muster solve tables
      --five), else by search.
      Any other position of any game (or any, with --search) is proved by exhaustive search to --depth actions
      (default 12): "win in n actions", "loss in n actions", or what could be said
      within the horizon. Endings decided by the game's history (repetition, turn
      limits) count as unknown to the search.

  muster solve tables [--tables DIR] [--check N]
      Builds every table (in parallel on all cores), writes each compactly (gzip, with
      a CRC-32), reads it back and compares, and with --check N proves N
      positions of each table by search over the rules package's actions.

  muster solve tables --five [--ruleset 1893|1899] [--shard I/N] [--workers W] [--check N] [--tables DIR]
      Builds the five-man tables (three men against two in the 4-square open
      rendezvous, one table for each of its 6 classes under the board's symmetries)
      after the four-man ones, which value their ends. Each is a piece of its own:
      one already on disk is read and skipped, so a killed build resumes where it
      stopped, and --shard I/N builds only the classes whose number (1 to 6) is I
      modulo N, for several machines. Each takes up to 9 GB of memory while it is
      built and an hour of CPU (see docs/carroll.md). 1893's and 1899's tables
      differ only where the final rendezvous' values do; such tables are shared. With
      --check N, N positions of each five-man table (not the four-man ones) are checked
      against the best end of their turn as the rules package plays it, and the
      shortest of them proved by search.

  muster solve selector [--ruleset 1880-12|1880-10|1881] [--men S,O] [--sample N] [--depth N]
      Carroll's correspondent (March 1881): "When the game comes near the end, it seems
      impossible to avoid its being won by the player who has the last turn to choose
      the rendenzvous." Solves, by exhaustive search, positions where the selector (with
      S men) is about to choose the rendezvous against O men — every position for 1,1,
      else --sample N random ones (men anywhere, none on the same square) — and prints
      how often the selector wins the game, loses it, or neither is proved within
      --depth actions (default 40).

  muster solve final [--ruleset 1893|1899] [--tables DIR] [--sample N] [--seed S]
      Carroll's claim (1893 Hints): "In playing for a final 3-square Rendezvous, the
      mere setting of the Mark would, but for this Rule [the interchange], decide the
      Game." For every position in which the final rendezvous can begin (the four men
      on the squares of the 4-square rendezvous just filled, the player who lost a man
      setting the mark) and N random positions of two men a side, it prints how often
      the setter wins, loses or draws with his best mark, without and with Rule 5.

  muster solve five [--ruleset 1893|1899] [--tables DIR]
      Who wins from five men: for each of the 360 positions in which three men against
      two can begin (the five on the squares of the 5-square rendezvous just filled,
      the side with two to set the 4-square mark, then Rule 5), the setter's best mark
      and its value from the five-man tables, which must all be on disk (muster solve
      tables --five); it prints how often the setter wins, loses or draws, and the
      longest win.

  muster solve convert --agent SPEC [--ruleset 1893|1899] [--convert-men 4|5] [--tables DIR] [--sample N] [--min-turns T] [--seed S] [--workers W]
      How well a computer player finishes the game: from N random starts of the final
      rendezvous (any line whose table is on disk, two men a side, none in yet) that the player to move wins
      with best play in T or more of his turns (default 1), the agent plays the winning
      side and the tables the other, perfectly. It prints how many it won (with the 95%
      interval) and how many in the tables' number of turns, by the tables' count. Give
      an agent without endgame=yes to measure its search alone. The tables must be on
      disk (muster solve tables). --convert-men 5 draws the starts from the five-man
      tables instead (three men against two in the 4-square rendezvous, of the classes
      on disk; the game runs on through Rule 7's conversions and the final rendezvous),
      --min-turns then counting both sides' turns.

  muster solve convert --ahead M --agent SPEC [--against SPEC] [--sampler SPEC] [--ruleset 1893|1899] [--sample N] [--seed S] [--workers W]
      Whether a side ahead in men wins the middle game: N games between two
      --sampler agents (default medium), each seeded from --seed and its number, are
      played to the first start of a turn where one side has M or more men more than
      the other (games that end first are left out); from each such position the
      agent of --agent plays the side ahead and that of --against (default hard) the
      other, to the end. It prints how many the side ahead won (with the 95%
      interval), lost and drew, and the same by the men each side had. No tables.`

func runSolve(env *Env, args []string) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs)
	depth := fs.Int("depth", 0, "horizon of the exact search, in actions (default 12; selector: 40)")
	nodes := fs.Int64("nodes", 50_000_000, "stop the search after this many positions (0: no limit)")
	seconds := fs.Float64("seconds", 0, "stop the search after this many seconds (0: no limit)")
	dir := fs.String("tables", endgame.DefaultDir(), "directory of the Lanrick endgame tables")
	check := fs.Int("check", 0, "tables: prove this many positions of each table by search (with --five: check this many of each five-man table)")
	sample := fs.Int("sample", 0, "final: also this many random positions; convert: the starts (default 100)")
	seed := fs.Uint64("seed", 1, "final, selector, convert: seed of the random positions")
	men := fs.String("men", "1,1", "selector: the selector's men and the other's")
	bySearch := fs.Bool("search", false, "prove by search even where the tables answer (to check them)")
	spec := fs.String("agent", "mcts(iterations=10000)", "convert: the agent that plays the won side (with --ahead, the side ahead)")
	minTurns := fs.Int("min-turns", 1, "convert: the fewest turns the winner needs with best play (his own with --men 4, both sides' with 5)")
	menFlag := fs.Int("convert-men", 4, "convert: 4, starts of the final rendezvous; 5, three men against two (the five-man tables)")
	ahead := fs.Int("ahead", 0, "convert: play middle games where a side is this many men ahead, sampled from --sampler's games, against --against (0: starts from the endgame tables)")
	against := fs.String("against", "hard", "convert --ahead: the agent that plays the side behind")
	sampler := fs.String("sampler", "medium", "convert --ahead: the agent that plays both sides of the games the positions are sampled from")
	workers := fs.Int("workers", 0, "convert: games at once; tables --five: threads (0: one per core)")
	five := fs.Bool("five", false, "tables: build the five-man tables (three men against two) too")
	shard := fs.String("shard", "1/1", "tables --five: build only the classes I modulo N (I/N)")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if *depth < 0 || *nodes < 0 || *seconds < 0 || *check < 0 || *sample < 0 {
		return fmt.Errorf("%w: --depth, --nodes, --seconds, --check and --sample take numbers from 0 up", errUsage)
	}
	if *depth == 0 {
		*depth = 12
		if len(pos) == 1 && pos[0] == "selector" {
			*depth = 40
		}
	}
	ts := &endgame.Tables{Dir: *dir, Progress: func(line lanrick.Bitboard) {
		fmt.Fprintf(env.Stderr, "building the table of line %s (about 25 s) into %s\n", study.LineName(line), *dir)
	}}
	if len(pos) == 1 && pos[0] == "tables" {
		rs, err := finalRuleset(gf, "tables")
		if err != nil {
			return err
		}
		var i, n int
		if _, err := fmt.Sscanf(*shard, "%d/%d", &i, &n); err != nil || n < 1 || i < 1 || i > n {
			return fmt.Errorf("%w: --shard takes I/N with 1 <= I <= N, not %q", errUsage, *shard)
		}
		fourCheck := *check
		if *five {
			fourCheck = 0 // --check is the five-man tables' then
		}
		if err := solveTables(env, ts, fourCheck); err != nil || !*five {
			return err
		}
		return solveFive(env, ts, rs, i, n, *workers, *check)
	}
	if len(pos) == 1 && pos[0] == "selector" {
		rs := gf.ruleset
		if rs == "" {
			rs = "1880-12"
		}
		return solveSelector(env, rs, *men, *sample, *seed, search.Limits{Depth: *depth, Nodes: *nodes})
	}
	if len(pos) == 1 && pos[0] == "convert" {
		rs, err := finalRuleset(gf, "convert")
		if err != nil {
			return err
		}
		n := *sample
		if n == 0 {
			n = 100
		}
		if *ahead < 0 || *ahead > 4 {
			return fmt.Errorf("%w: convert --ahead takes a number of men from 1 to 4, not %d", errUsage, *ahead)
		}
		if *ahead > 0 {
			return solveConvertAhead(env, rs, *spec, *against, *sampler, *ahead, n, *workers, *seed)
		}
		if *menFlag != 4 && *menFlag != 5 {
			return fmt.Errorf("%w: convert --men takes 4 (the final rendezvous) or 5 (three against two), not %d", errUsage, *menFlag)
		}
		return solveConvert(env, ts, rs, *spec, *menFlag, n, max(*minTurns, 1), *workers, *seed)
	}
	if len(pos) == 1 && pos[0] == "five" {
		rs, err := finalRuleset(gf, "five")
		if err != nil {
			return err
		}
		return solveFiveStarts(env, ts, rs)
	}
	if len(pos) == 1 && pos[0] == "final" {
		rs, err := finalRuleset(gf, "final")
		if err != nil {
			return err
		}
		return solveFinal(env, ts, rs == "1899", *sample, *seed)
	}
	g, s, err := gf.state(pos)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "game: %s\nposition: %s\n", g.Spec(), s)
	if s.IsTerminal() {
		fmt.Fprintf(env.Stdout, "result: %s (%s)\n", game.ResultName(s), s.Result().Reason)
		return nil
	}
	if ls, ok := s.(*lanrick.State); ok && !*bySearch && endgame.Applies(ls) {
		err := printAnswer(env, ts, ls)
		if !endgame.AppliesFive(ls) || !errors.Is(err, endgame.ErrMissing) {
			return err
		}
		fmt.Fprintf(env.Stdout, "the five-man tables are not on disk (muster solve tables --five builds them): searching\n")
	}
	lim := search.Limits{Depth: *depth, Nodes: *nodes, Time: time.Duration(*seconds * float64(time.Second))}
	res, err := solve.Solve(context.Background(), s, lim)
	if err != nil {
		return err
	}
	who := "chance"
	if p := s.ToAct(); p >= 0 {
		who = g.PlayerName(p)
	}
	fmt.Fprintf(env.Stdout, "method: exact search to %d actions (%d positions, %.1f s)\n", res.Depth, res.Nodes, res.Elapsed.Seconds())
	if res.Stopped {
		fmt.Fprintf(env.Stdout, "stopped: the node or time limit ended the search during depth %d\n", res.Depth+1)
	}
	fmt.Fprintf(env.Stdout, "value: %s to act: %s\n", who, solve.Verdict(res))
	if len(res.PV) > 0 {
		fmt.Fprintf(env.Stdout, "line: %s\n", strings.Join(game.Notation(s, res.PV), " "))
	}
	return nil
}

// finalRuleset is the ruleset of a command on the final rendezvous: 1893
// (the default) or 1899, whose tables those are.
func finalRuleset(gf gameFlags, cmd string) (string, error) {
	switch gf.ruleset {
	case "":
		return "1893", nil
	case "1893", "1899":
		return gf.ruleset, nil
	}
	return "", fmt.Errorf("%w: solve %s takes --ruleset 1893 or 1899, not %q", errUsage, cmd, gf.ruleset)
}

func colour(p int) string { return [2]string{"black", "white"}[p] }

// printAnswer prints what the endgame tables say of s.
func printAnswer(env *Env, ts *endgame.Tables, s *lanrick.State) error {
	ans, err := study.Ask(ts, s)
	if err != nil {
		return err
	}
	w, me := env.Stdout, int(s.ToAct())
	switch {
	case ans.Five:
		how := ""
		if ans.LookAhead {
			how = ", looking ahead to the next start of a turn"
		}
		what := "the 4-square rendezvous about to be marked"
		if ans.Phase != lanrick.PhaseMark {
			what = "rendezvous " + study.RendezvousName(ans.Line)
		}
		fmt.Fprintf(w, "method: endgame tables (3 v 2, %s)%s\n", what, how)
		fmt.Fprintf(w, "value: %s to act: %s\n", colour(me), ans.Value)
		if ans.LookAhead {
			fmt.Fprintf(w, "best action: %s\n", s.ActionString(ans.Best[0]))
		} else {
			fmt.Fprintf(w, "best turn: %s\n", strings.Join(game.Notation(s, ans.Best), " "))
		}
	case ans.LookAhead:
		fmt.Fprintf(w, "method: endgame tables (2 v 2, line %s), looking ahead to the next start of a turn\n", study.LineName(ans.Line))
		fmt.Fprintf(w, "value: %s to act: %s\n", colour(me), ans.Value)
		fmt.Fprintf(w, "best action: %s\n", s.ActionString(ans.Best[0]))
	case ans.Phase == lanrick.PhaseMark:
		fmt.Fprintf(w, "method: endgame tables (2 v 2, the final 3-square rendezvous)\n")
		printMarks(w, colour(me), colour(1-me), ans.Marks)
	case ans.Phase == lanrick.PhaseInterchange:
		fmt.Fprintf(w, "method: endgame tables (2 v 2, line %s)\n", study.LineName(ans.Line))
		fmt.Fprintf(w, "value: %s to decide: no-interchange: %s; interchange: %s\n", colour(me), ans.Kept, ans.Interchanged)
		fmt.Fprintf(w, "best: %s\n", s.ActionString(ans.Best[0]))
	default:
		fmt.Fprintf(w, "method: endgame tables (2 v 2, line %s)\n", study.LineName(ans.Line))
		fmt.Fprintf(w, "value: %s to move: %s\n", colour(me), ans.Value)
		if ans.Best != nil {
			fmt.Fprintf(w, "best turn: %s\n", strings.Join(game.Notation(s, ans.Best), " "))
		}
	}
	return nil
}

func printMarks(w io.Writer, setter, other string, ms []endgame.MarkValue) {
	if len(ms) == 0 {
		fmt.Fprintf(w, "%s has no legal mark\n", setter)
		return
	}
	c := endgame.Choose(ms)
	wins, winsWith := 0, 0
	for _, m := range ms {
		if m.Kept.Outcome > 0 {
			wins++
		}
		if m.Chosen().Outcome > 0 {
			winsWith++
		}
	}
	fmt.Fprintf(w, "%s sets the final mark: %d legal lines\n", setter, len(ms))
	fmt.Fprintf(w, "without Rule 5: best mark %s: %s %s; %d of %d marks win for %s\n",
		c.Without.Line, setter, c.Without.Kept, wins, len(ms), setter)
	fmt.Fprintf(w, "with Rule 5: best mark %s: %s %s (kept: %s, interchanged: %s); %d of %d marks win whatever %s decides\n",
		c.With.Line, setter, c.With.Chosen(), c.With.Kept, c.With.Interchanged, winsWith, len(ms), other)
}

func solveTables(env *Env, ts *endgame.Tables, check int) error {
	var total int64
	tables, err := study.BuildTables(ts, func(b study.Built) {
		st := b.Table.Stats()
		total += b.Bytes
		fmt.Fprintf(env.Stdout, "line %-6s wins %d losses %d draws %d longest %d turns  file %d bytes  %.1f s\n",
			study.LineName(b.Table.Line), st.Wins, st.Losses, st.Draws, st.Longest, b.Bytes, b.Took.Seconds())
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%d tables in %s, %d bytes, read back and equal\n", len(tables), ts.Dir, total)
	if check > 0 {
		n, err := study.CheckTables(tables, check, 7)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "checked %d positions by search: all agree\n", n)
	}
	return nil
}

// solveFive builds the five-man tables of one shard.
func solveFive(env *Env, ts *endgame.Tables, ruleset string, i, n, workers, check int) error {
	noOwnMan := ruleset == "1899"
	for k, c := range endgame.FiveClasses() {
		if (k+1-i)%n != 0 {
			continue
		}
		name := study.RendezvousName(c)
		fmt.Fprintf(env.Stderr, "five-man table %d of 6 (%s)\n", k+1, name)
		start := time.Now()
		b, err := ts.BuildFive(c, noOwnMan, workers, func(level, nodes int) {
			fmt.Fprintf(env.Stderr, "  level %d: %d nodes, %.0f s\n", level, nodes, time.Since(start).Seconds())
		})
		if err != nil {
			return err
		}
		state := fmt.Sprintf("built in %.0f s", b.Took.Seconds())
		if b.Took == 0 {
			fmt.Fprintf(env.Stdout, "rendezvous %s: on disk, %d bytes\n", name, b.Bytes)
		} else {
			st := b.Table.Stats()
			fmt.Fprintf(env.Stdout, "rendezvous %s: three to move: wins %d losses %d draws %d; two to move: wins %d losses %d draws %d; longest %d turns  file %d bytes  %s\n",
				name, st.Wins[0], st.Losses[0], st.Draws[0], st.Wins[1], st.Losses[1], st.Draws[1], st.Longest, b.Bytes, state)
		}
		if check > 0 {
			n, p, err := study.CheckFive(ts, c, ruleset, check, 11)
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "  checked %d positions against a turn's look-ahead by the rules, %d proved by search: all agree\n", n, p)
		}
	}
	return nil
}

// solveFiveStarts values the starts of three men against two.
func solveFiveStarts(env *Env, ts *endgame.Tables, ruleset string) error {
	ts.NoBuild = true
	for _, c := range endgame.FiveClasses() {
		if _, _, err := ts.Five(c, ruleset == "1899"); err != nil {
			return fmt.Errorf("five-man table of rendezvous %s: %w (muster solve tables --five builds them)", study.RendezvousName(c), err)
		}
	}
	start := time.Now()
	// How long each side's wins take, by turns (both sides').
	byTurns := map[int][2]int{}
	r, err := study.Five(ts, ruleset, func(_ study.FiveStart, v endgame.Value) {
		c := byTurns[v.Turns]
		switch v.Outcome {
		case 1:
			c[0]++
		case -1:
			c[1]++
		}
		byTurns[v.Turns] = c
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%s, the 360 starts of three men against two (the two set the mark, the three decide Rule 5's interchange): %s; longest %d turns (%.0f s)\n",
		ruleset, tallyText(r.Setter), r.Longest, time.Since(start).Seconds())
	turns := slices.Sorted(maps.Keys(byTurns))
	for _, n := range turns {
		if n == 0 {
			continue
		}
		c := byTurns[n]
		fmt.Fprintf(env.Stdout, "  won in %s (both sides', with best play): the two (setter) %d, the three %d\n", plural(n, "turn", "turns"), c[0], c[1])
	}
	return nil
}

// tallyText writes the setter's results.
func tallyText(t study.Tally) string {
	n := t.Positions()
	out := fmt.Sprintf("setter wins %d of %d (%.1f%%), loses %d, draws %d", t.Win, n, 100*float64(t.Win)/float64(max(n, 1)), t.Loss, t.Draw)
	if t.Win > 0 {
		out += fmt.Sprintf("; his wins take %.1f turns on average", float64(t.WinTurns)/float64(t.Win))
	}
	return out
}

func solveFinal(env *Env, ts *endgame.Tables, noOwnMan bool, sample int, seed uint64) error {
	for _, c := range endgame.Classes() { // load or build every table first
		if _, _, err := ts.Table(c); err != nil {
			return err
		}
	}
	run := func(name string, starts []endgame.Start) error {
		r, err := study.Final(ts, starts, noOwnMan)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "%s: %d positions", name, r.Positions)
		if r.NoMark > 0 {
			fmt.Fprintf(env.Stdout, " (%d with no legal mark, left out)", r.NoMark)
		}
		fmt.Fprintf(env.Stdout, "\n  without Rule 5: %s\n  with Rule 5:    %s\n", tallyText(r.Without), tallyText(r.With))
		return nil
	}
	if err := run("positions where the final rendezvous can begin", endgame.Arising()); err != nil {
		return err
	}
	if sample > 0 {
		return run(fmt.Sprintf("random positions of two men a side (seed %d)", seed), study.RandomStarts(sample, seed))
	}
	return nil
}

// solveSelector solves the last rendezvous of the 3×3 versions from the
// choice of the rendezvous: the selector's men against the other's.
func solveSelector(env *Env, ruleset, men string, sample int, seed uint64, lim search.Limits) error {
	g, err := lanrick.Load(ruleset)
	if err != nil {
		return err
	}
	var ns, no int
	if _, err := fmt.Sscanf(men, "%d,%d", &ns, &no); err != nil {
		return fmt.Errorf("%w: --men wants S,O with 1 to 5 men each, not %q", errUsage, men)
	}
	start := time.Now()
	r, err := study.Selector(g, ns, no, sample, seed, lim)
	if err != nil {
		return fmt.Errorf("%w: solve selector: %v", errUsage, err)
	}
	n := r.Positions
	which := "all"
	if sample > 0 {
		which = fmt.Sprintf("a sample, seed %d", seed)
	}
	fmt.Fprintf(env.Stdout, "lanrick(%s), the selector with %s against %d, %d positions (%s, %.0f s):\n", ruleset,
		plural(ns, "man", "men"), no, n, which, time.Since(start).Seconds())
	fmt.Fprintf(env.Stdout, "  the selector wins %d (%.1f%%), loses %d (%.1f%%), not proved within %d actions %d", r.Win,
		100*float64(r.Win)/float64(max(n, 1)), r.Loss, 100*float64(r.Loss)/float64(max(n, 1)), lim.Depth, r.Open)
	if r.NoMark > 0 {
		fmt.Fprintf(env.Stdout, "; %d positions with no legal rendezvous left out", r.NoMark)
	}
	fmt.Fprintln(env.Stdout)
	if ns == 1 && no == 1 {
		fmt.Fprintf(env.Stdout, "  with the selector's man on a field square: wins %d, loses %d\n", r.WinField, r.LossField)
	}
	return nil
}

// plural writes n and the noun's singular or plural.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
