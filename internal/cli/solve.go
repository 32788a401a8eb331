package cli

import (
	"context"
	"flag"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/lanrick/endgame"
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
      default muster/lanrick-endgame in the user's cache folder).
      Any other position of any game (or any, with --search) is proved by exhaustive search to --depth actions
      (default 12): "win in n actions", "loss in n actions", or what could be said
      within the horizon. Endings decided by the game's history (repetition, turn
      limits) count as unknown to the search.

  muster solve tables [--tables DIR] [--check N]
      Builds every table (in parallel on all cores), writes each compactly (gzip, with
      a CRC-32), reads it back and compares, and with --check N proves N
      positions of each table by search over the rules package's actions.

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
      the setter wins, loses or draws with his best mark, without and with Rule 5.`

func runSolve(env *Env, args []string) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs)
	depth := fs.Int("depth", 0, "horizon of the exact search, in actions (default 12; selector: 40)")
	nodes := fs.Int64("nodes", 50_000_000, "stop the search after this many positions (0: no limit)")
	seconds := fs.Float64("seconds", 0, "stop the search after this many seconds (0: no limit)")
	dir := fs.String("tables", endgame.DefaultDir(), "directory of the Lanrick endgame tables")
	check := fs.Int("check", 0, "tables: prove this many positions of each table by search")
	sample := fs.Int("sample", 0, "final: also this many random positions")
	seed := fs.Uint64("seed", 1, "final, selector: seed of the random positions")
	men := fs.String("men", "1,1", "selector: the selector's men and the other's")
	bySearch := fs.Bool("search", false, "prove by search even where the tables answer (to check them)")
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
		fmt.Fprintf(env.Stderr, "building the table of line %s (about 25 s) into %s\n", lineName(line), *dir)
	}}
	if len(pos) == 1 && pos[0] == "tables" {
		return solveTables(env, ts, *check)
	}
	if len(pos) == 1 && pos[0] == "selector" {
		rs := gf.ruleset
		if rs == "" {
			rs = "1880-12"
		}
		return solveSelector(env, rs, *men, *sample, *seed, *depth, *nodes)
	}
	if len(pos) == 1 && pos[0] == "final" {
		rs := gf.ruleset
		if rs == "" {
			rs = "1893"
		}
		if rs != "1893" && rs != "1899" {
			return fmt.Errorf("%w: solve final takes --ruleset 1893 or 1899, not %q", errUsage, rs)
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
		return solveFromTables(env, ts, ls)
	}
	ctx := context.Background()
	if *seconds > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(*seconds*float64(time.Second)))
		defer cancel()
	}
	start := time.Now()
	res, err := solve.Solve(ctx, s, solve.Limits{Depth: *depth, Nodes: *nodes})
	if err != nil {
		return err
	}
	who := "chance"
	if p := s.ToAct(); p >= 0 {
		who = g.PlayerName(p)
	}
	fmt.Fprintf(env.Stdout, "method: exact search to %d actions (%d positions, %.1f s)\n", res.Depth, res.Nodes, time.Since(start).Seconds())
	if res.Stopped {
		fmt.Fprintf(env.Stdout, "stopped: the node or time limit ended the search during depth %d\n", res.Depth+1)
	}
	fmt.Fprintf(env.Stdout, "value: %s to act: %s\n", who, res)
	if len(res.Line) > 0 {
		var line []string
		c := s.Clone()
		for _, a := range res.Line {
			line = append(line, c.ActionString(a))
			c.Apply(a)
		}
		fmt.Fprintf(env.Stdout, "line: %s\n", strings.Join(line, " "))
	}
	return nil
}

func lineName(line lanrick.Bitboard) string {
	for _, l := range endgame.Lines() {
		if l.Squares == line {
			return l.String()
		}
	}
	return fmt.Sprintf("%016x", uint64(line))
}

// tablesApply reports whether the tables answer a state directly: the
// final rendezvous (endgame.Applies) about to be marked, decided or begun
// at the start of a turn. Other states they decide are answered by
// looking ahead (endgame.Tables.Act).
func tablesApply(s *lanrick.State) bool {
	if !endgame.Applies(s) {
		return false
	}
	switch s.Phase() {
	case lanrick.PhaseMark, lanrick.PhaseInterchange:
		return true
	case lanrick.PhaseMove:
		full := 3
		if s.Opening() {
			full = 2
		}
		return s.TurnStart() && s.Budget() == full
	}
	return false
}

func colour(p int) string { return [2]string{"black", "white"}[p] }

func solveFromTables(env *Env, ts *endgame.Tables, s *lanrick.State) error {
	w := env.Stdout
	black, white := s.Men(0), s.Men(1)
	me := int(s.ToAct())
	if !tablesApply(s) { // within a turn, or choosing the men interchanged
		a, v, err := ts.Act(s)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "method: endgame tables (2 v 2, line %s), looking ahead to the next start of a turn\n", lineName(s.RendezvousSquares()))
		fmt.Fprintf(w, "value: %s to act: %s\n", colour(me), v)
		fmt.Fprintf(w, "best action: %s\n", s.ActionString(a))
		return nil
	}
	switch s.Phase() {
	case lanrick.PhaseMark:
		g := s.Game().(*lanrick.Game)
		ms, err := ts.Marks(black, white, me, g.Rules.SetterNoOwnMan)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "method: endgame tables (2 v 2, the final 3-square rendezvous)\n")
		printMarks(w, colour(me), colour(1-me), ms)
	case lanrick.PhaseInterchange:
		line := s.RendezvousSquares()
		kept, err := ts.Opening(black, white, line, me)
		if err != nil {
			return err
		}
		inter, err := ts.Opening(white, black, line, me)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "method: endgame tables (2 v 2, line %s)\n", lineName(line))
		fmt.Fprintf(w, "value: %s to decide: no-interchange: %s; interchange: %s\n", colour(me), kept, inter)
		best, _, err := ts.Act(s)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "best: %s\n", s.ActionString(best))
	case lanrick.PhaseMove:
		line := s.RendezvousSquares()
		v, after, err := ts.Best(black, white, line, me, s.Opening())
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "method: endgame tables (2 v 2, line %s)\n", lineName(line))
		fmt.Fprintf(w, "value: %s to move: %s\n", colour(me), v)
		if acts := turnTo(s, after); acts != nil {
			fmt.Fprintf(w, "best turn: %s\n", strings.Join(acts, " "))
		}
	}
	return nil
}

// turnTo finds actions of the player to move that end his turn with his
// men on after (or win on the way there).
func turnTo(s *lanrick.State, after lanrick.Bitboard) []string {
	me := s.ToAct()
	var walk func(c *lanrick.State, acts []string) []string
	walk = func(c *lanrick.State, acts []string) []string {
		for _, a := range c.LegalActions(nil) {
			name := c.ActionString(a)
			if name == "end" {
				if c.Men(int(me)) == after {
					return append(acts, name)
				}
				continue
			}
			n := c.Copy()
			n.Apply(a)
			next := append(acts[:len(acts):len(acts)], name)
			if n.IsTerminal() || n.Phase() == lanrick.PhaseRemove || n.ToAct() != me {
				if n.Men(int(me)) == after {
					return next
				}
				continue
			}
			if found := walk(n, next); found != nil {
				return found
			}
		}
		return nil
	}
	return walk(s.Copy(), nil)
}

func printMarks(w interface{ Write([]byte) (int, error) }, setter, other string, ms []endgame.MarkValue) {
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
	classes := endgame.Classes()
	workers := min(runtime.NumCPU(), len(classes))
	type done struct {
		i   int
		t   *endgame.Table
		dur time.Duration
		err error
	}
	jobs := make(chan int)
	results := make(chan done)
	var wg sync.WaitGroup
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				start := time.Now()
				t, _, err := ts.Table(classes[i])
				results <- done{i, t, time.Since(start), err}
			}
		}()
	}
	go func() {
		for i := range classes {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()
	var firstErr error
	var total int64
	tables := make([]*endgame.Table, len(classes))
	for d := range results {
		if d.err != nil {
			fmt.Fprintf(env.Stderr, "line %s: %v\n", lineName(classes[d.i]), d.err)
			if firstErr == nil {
				firstErr = d.err
			}
			continue
		}
		tables[d.i] = d.t
		st := d.t.Stats()
		size := int64(0)
		if fi, err := os.Stat(filepath.Join(ts.Dir, endgame.FileName(d.t.Line))); err == nil {
			size = fi.Size()
		}
		total += size
		fmt.Fprintf(env.Stdout, "line %-6s wins %d losses %d draws %d longest %d turns  file %d bytes  %.1f s\n",
			lineName(d.t.Line), st.Wins, st.Losses, st.Draws, st.Longest, size, d.dur.Seconds())
	}
	if firstErr != nil {
		return firstErr
	}
	// Read each file back and compare.
	for _, t := range tables {
		f, err := os.Open(filepath.Join(ts.Dir, endgame.FileName(t.Line)))
		if err != nil {
			return err
		}
		back, err := endgame.Read(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("reading back line %s: %w", lineName(t.Line), err)
		}
		if !back.Equal(t) {
			return fmt.Errorf("line %s: the file differs from the table built", lineName(t.Line))
		}
	}
	fmt.Fprintf(env.Stdout, "%d tables in %s, %d bytes, read back and equal\n", len(tables), ts.Dir, total)
	if check > 0 {
		return checkTables(env, tables, check)
	}
	return nil
}

// checkTables proves n positions of each table by search over the rules
// package's actions: won or lost within 3 turns (a turn being at most
// three actions), as the table says.
func checkTables(env *Env, tables []*endgame.Table, n int) error {
	g := lanrick.MustLoad("1893")
	r := rand.New(rand.NewPCG(7, 8))
	checked := 0
	for _, t := range tables {
		var line endgame.Line
		for _, l := range endgame.Lines() {
			if l.Squares == t.Line {
				line = l
			}
		}
		for k, tries := 0, 0; k < n && tries < 1_000_000; tries++ {
			black, white := endgame.RandomPosition(r)
			side := r.IntN(2)
			v, err := t.Value(black, white, side)
			if err != nil {
				return err
			}
			if v.Turns > 2+k%2 {
				continue
			}
			k++
			s, err := g.Parse(endgame.PositionText(black, white, line, side, false))
			if err != nil {
				return err
			}
			res, err := solve.Solve(context.Background(), s, solve.Limits{Depth: 3*v.Turns + 1})
			if err != nil {
				return err
			}
			if !res.Proved || int(res.Lo) != v.Outcome {
				return fmt.Errorf("line %s: %s: table says %v, search %v", line, s, v, res)
			}
			checked++
		}
	}
	fmt.Fprintf(env.Stdout, "checked %d positions by search: all agree\n", checked)
	return nil
}

// tally counts the setter's results.
type tally struct{ win, loss, draw, turns int }

func (t *tally) add(v endgame.Value) {
	switch v.Outcome {
	case 1:
		t.win++
		t.turns += v.Turns
	case -1:
		t.loss++
	default:
		t.draw++
	}
}

func (t tally) String() string {
	n := t.win + t.loss + t.draw
	mean := 0.0
	if t.win > 0 {
		mean = float64(t.turns) / float64(t.win)
	}
	out := fmt.Sprintf("setter wins %d of %d (%.1f%%), loses %d, draws %d", t.win, n, 100*float64(t.win)/float64(max(n, 1)), t.loss, t.draw)
	if t.win > 0 {
		out += fmt.Sprintf("; his wins take %.1f turns on average", mean)
	}
	return out
}

func solveFinal(env *Env, ts *endgame.Tables, noOwnMan bool, sample int, seed uint64) error {
	w := env.Stdout
	for _, c := range endgame.Classes() { // load or build every table first
		if _, _, err := ts.Table(c); err != nil {
			return err
		}
	}
	run := func(name string, starts []endgame.Start) error {
		var without, with tally
		noMark := 0
		for _, st := range starts {
			ms, err := ts.Marks(st.Black, st.White, st.Setter, noOwnMan)
			if err != nil {
				return err
			}
			if len(ms) == 0 {
				noMark++
				continue
			}
			c := endgame.Choose(ms)
			without.add(c.Without.Kept)
			with.add(c.With.Chosen())
		}
		fmt.Fprintf(w, "%s: %d positions", name, len(starts))
		if noMark > 0 {
			fmt.Fprintf(w, " (%d with no legal mark, left out)", noMark)
		}
		fmt.Fprintf(w, "\n  without Rule 5: %s\n  with Rule 5:    %s\n", without, with)
		return nil
	}
	if err := run("positions where the final rendezvous can begin", endgame.Arising()); err != nil {
		return err
	}
	if sample > 0 {
		r := rand.New(rand.NewPCG(seed, 1893))
		starts := make([]endgame.Start, sample)
		for i := range starts {
			black, white := endgame.RandomPosition(r)
			starts[i] = endgame.Start{Black: black, White: white, Setter: r.IntN(2)}
		}
		if err := run(fmt.Sprintf("random positions of two men a side (seed %d)", seed), starts); err != nil {
			return err
		}
	}
	return nil
}

// solveSelector solves the last rendezvous of the 3×3 versions from the
// choice of the rendezvous: the selector's men against the other's.
func solveSelector(env *Env, ruleset, men string, sample int, seed uint64, depth int, nodes int64) error {
	g, err := lanrick.Load(ruleset)
	if err != nil {
		return err
	}
	switch g.Rules.Version {
	case lanrick.V1880Oct, lanrick.V1880Dec, lanrick.V1881:
	default:
		return fmt.Errorf("%w: solve selector takes --ruleset 1880-10, 1880-12 or 1881, not %q", errUsage, ruleset)
	}
	var ns, no int
	if _, err := fmt.Sscanf(men, "%d,%d", &ns, &no); err != nil || ns < 1 || no < 1 || ns > 5 || no > 5 {
		return fmt.Errorf("%w: --men wants S,O with 1 to 5 men each, not %q", errUsage, men)
	}
	if sample == 0 && (ns != 1 || no != 1) {
		return fmt.Errorf("%w: give --sample N for more than one man a side", errUsage)
	}
	// The selector is white, the other black (the mover first).
	var boards [][2]lanrick.Bitboard
	if sample == 0 {
		for a := 0; a < 64; a++ {
			for b := 0; b < 64; b++ {
				if a != b {
					boards = append(boards, [2]lanrick.Bitboard{1 << uint(b), 1 << uint(a)})
				}
			}
		}
	} else {
		r := rand.New(rand.NewPCG(seed, 1881))
		for len(boards) < sample {
			var m [2]lanrick.Bitboard
			for p, n := range [2]int{no, ns} {
				for bits.OnesCount64(uint64(m[p])) < n {
					if q := lanrick.Bitboard(1) << uint(r.IntN(64)); (m[0]|m[1])&q == 0 {
						m[p] |= q
					}
				}
			}
			boards = append(boards, m)
		}
	}
	var win, loss, open, noMark int
	var winOther, lossOther int // the selector's man on the border or not (1,1)
	start := time.Now()
	for _, m := range boards {
		text := "board=" + boardField(m) + " to=white phase=mark setter=white"
		s, err := g.Parse(text)
		if err != nil {
			return fmt.Errorf("%s: %w", text, err)
		}
		if s.IsTerminal() || len(s.LegalActions(nil)) == 0 {
			noMark++
			continue
		}
		res, err := solve.Solve(context.Background(), s, solve.Limits{Depth: depth, Nodes: nodes})
		if err != nil {
			return err
		}
		onBorder := m[1]&lanrick.Border != 0
		switch {
		case res.Proved && res.Lo == 1:
			win++
			if !onBorder {
				winOther++
			}
		case res.Proved && res.Lo == -1:
			loss++
			if !onBorder {
				lossOther++
			}
		default:
			open++
		}
	}
	n := win + loss + open
	fmt.Fprintf(env.Stdout, "lanrick(%s), the selector with %s against %d, %d positions (%s, %.0f s):\n", ruleset, plural(ns, "man", "men"), no, n,
		map[bool]string{true: "all", false: fmt.Sprintf("a sample, seed %d", seed)}[sample == 0], time.Since(start).Seconds())
	fmt.Fprintf(env.Stdout, "  the selector wins %d (%.1f%%), loses %d (%.1f%%), not proved within %d actions %d", win,
		100*float64(win)/float64(max(n, 1)), loss, 100*float64(loss)/float64(max(n, 1)), depth, open)
	if noMark > 0 {
		fmt.Fprintf(env.Stdout, "; %d positions with no legal rendezvous left out", noMark)
	}
	fmt.Fprintln(env.Stdout)
	if ns == 1 && no == 1 {
		fmt.Fprintf(env.Stdout, "  with the selector's man on a field square: wins %d, loses %d\n", winOther, lossOther)
	}
	return nil
}

// boardField writes the board field of a position: black m[0], white m[1].
func boardField(m [2]lanrick.Bitboard) string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			q := lanrick.Bitboard(1) << uint(r*8+f)
			c := byte(0)
			switch {
			case m[0]&q != 0:
				c = 'b'
			case m[1]&q != 0:
				c = 'w'
			}
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// plural writes n and the noun's singular or plural.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
