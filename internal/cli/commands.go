package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/muster-games/muster/game"
)

const rulesHelp = `Lists each ruleset of GAME with its date, description and source, then the
options every ruleset is a preset of, with their values and each ruleset's
setting. A ruleset can be changed with options: tablut(walker, repetition=third).`

func runRules(env *Env, args []string) error {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want one GAME (known: %s)", errUsage, strings.Join(game.Names(), ", "))
	}
	info, err := game.Lookup(pos[0])
	if err != nil {
		return err
	}
	w := env.Stdout
	fmt.Fprintf(w, "%s: %s\n\nrulesets:\n", info.Name, info.Description)
	for _, r := range info.Rulesets {
		def := ""
		if r.Default {
			def = " (default)"
		}
		date := ""
		if r.Date != "" {
			date = " (" + r.Date + ")"
		}
		fmt.Fprintf(w, "\n  %s%s\n    %s\n    source: %s%s\n", r.ID, def, r.Description, r.Source, date)
	}
	fmt.Fprintf(w, "\noptions (set as %s(RULESET, key=value, …)):\n", info.Name)
	for _, o := range info.Options {
		values := "a whole number"
		if o.Values != nil {
			values = strings.Join(o.Values, " | ")
		}
		ruling := ""
		if o.Ruling != "" {
			ruling = " (" + o.Ruling + ")"
		}
		fmt.Fprintf(w, "\n  %s = %s\n    %s%s\n   ", o.Key, values, o.Description, ruling)
		for _, r := range info.Rulesets {
			for _, kv := range r.Settings {
				if kv.Key == o.Key {
					fmt.Fprintf(w, " %s=%s", r.ID, kv.Value)
				}
			}
		}
		fmt.Fprintln(w)
	}
	return nil
}

const perftHelp = `Counts the positions reached after exactly N actions from the start (or from
--position after --moves), for every depth from 1 to N, with the time taken. A
position where the game is over is a leaf at whatever depth it is reached and is
not expanded. The last line is the leaf count at depth N as a bare integer.
--divide prints the count below each first action instead. --threads N counts
the subtrees of the first actions on N threads at once (Tablut's threads share
one table of the positions counted; other games' count apart, and with --divide
every game's do, so the processor time may grow as the wall time falls); each
depth's line gives both. Tablut counts a position that a symmetry of the board
takes onto itself (the start: 80 moves in 10 classes of 8) by one move of each
class of moves the symmetries make, times the class's size: the same counts.`

func runPerft(env *Env, args []string) error {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs)
	depth := fs.Int("depth", 0, "depth in actions (≥ 1)")
	divide := fs.Bool("divide", false, "print the count below each first action")
	threads := fs.Int("threads", 1, "threads counting the first actions' subtrees at once")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if *depth < 1 || *depth > 64 {
		return fmt.Errorf("%w: --depth must be 1 to 64", errUsage)
	}
	if *threads < 1 || *threads > 1024 {
		return fmt.Errorf("%w: --threads must be 1 to 1024", errUsage)
	}
	_, s, err := gf.state(pos)
	if err != nil {
		return err
	}
	w := env.Stdout
	if *divide {
		var total uint64
		buf := s.LegalActions(nil)
		type row struct {
			name string
			n    uint64
		}
		var rows []row
		counts := game.PerftBelow(s, buf, *depth-1, *threads)
		for i, a := range buf {
			rows = append(rows, row{s.ActionString(a), counts[i]})
			total += counts[i]
		}
		slices.SortFunc(rows, func(a, b row) int { return strings.Compare(a.name, b.name) })
		for _, r := range rows {
			fmt.Fprintf(w, "%s: %d\n", r.name, r.n)
		}
		fmt.Fprintf(w, "actions: %d\n%d\n", len(rows), total)
		return nil
	}
	var last uint64
	for d := 1; d <= *depth; d++ {
		start := time.Now()
		cpu0, cpuOK := cpuTime()
		last = game.PerftThreads(s, d, *threads)
		el := time.Since(start)
		cpu1, _ := cpuTime()
		fmt.Fprintf(w, "depth %d: %d leaves in %.3fs", d, last, el.Seconds())
		if cpuOK {
			fmt.Fprintf(w, ", %.3f CPU-s", (cpu1 - cpu0).Seconds())
		}
		fmt.Fprintf(w, " (%.0f leaves/s)\n", float64(last)/max(el.Seconds(), 1e-9))
	}
	fmt.Fprintf(w, "%d\n", last)
	return nil
}

const legalHelp = `Applies --moves (from the start or --position) and prints the position, the
player to act, the result if the game is over, and the legal actions in notation.
With --json it prints one object:
  {"to_move": …, "legal": [sorted notation], "result": null or the winner's name,
   "draw" or the scores, "position": …}
An illegal or malformed move is an error naming the move and why (exit status 1).`

func runLegal(env *Env, args []string) error {
	fs := flag.NewFlagSet("legal", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	g, s, err := gf.state(pos)
	if err != nil {
		return err
	}
	legal := []string{}
	for _, a := range s.LegalActions(nil) {
		legal = append(legal, s.ActionString(a))
	}
	for _, o := range s.ChanceOutcomes(nil) {
		legal = append(legal, s.ActionString(o.Action))
	}
	slices.Sort(legal)
	toMove := ""
	switch p := s.ToAct(); p {
	case game.Terminal:
	case game.Chance:
		toMove = "chance"
	default:
		toMove = g.PlayerName(p)
	}
	if *asJSON {
		out := struct {
			ToMove   *string  `json:"to_move"`
			Legal    []string `json:"legal"`
			Result   *string  `json:"result"`
			Reason   string   `json:"reason,omitempty"`
			Position string   `json:"position"`
		}{Legal: legal, Position: s.String()}
		if toMove != "" {
			out.ToMove = &toMove
		}
		if s.IsTerminal() {
			r := game.ResultName(s)
			out.Result = &r
			out.Reason = s.Result().Reason
		}
		enc := json.NewEncoder(env.Stdout)
		return enc.Encode(out)
	}
	w := env.Stdout
	fmt.Fprintf(w, "game: %s\nposition: %s\n", g.Spec(), s)
	if s.IsTerminal() {
		fmt.Fprintf(w, "result: %s (%s)\n", game.ResultName(s), s.Result().Reason)
		return nil
	}
	fmt.Fprintf(w, "to move: %s\nlegal (%d): %s\n", toMove, len(legal), strings.Join(legal, " "))
	return nil
}

const playoutsHelp = `Plays uniformly random games (each legal action equally likely; chance actions
with their probabilities), for --seconds (default 5) or --games, on --threads
cores (default 1; each thread plays games of its own with its own random numbers),
and prints one "name: value" per line: games, threads, seconds (wall), cpu_seconds
(the processor time of the whole process), games_per_second, games_per_cpu_second,
actions_per_second, mean_length (actions per game), and the share of each result as
a fraction (for Tablut: attackers, defenders, draws). --seed makes a run repeatable
(with --games, for a given --threads).`

func runPlayouts(env *Env, args []string) error {
	fs := flag.NewFlagSet("playouts", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs)
	seconds := fs.Float64("seconds", 0, "play for this long (default 5 when --games is not given)")
	games := fs.Int("games", 0, "play this many games")
	seed := fs.Uint64("seed", 1, "random seed")
	threads := fs.Int("threads", 1, "threads playing games at once")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if *seconds < 0 || *games < 0 || (*seconds > 0 && *games > 0) {
		return fmt.Errorf("%w: give --seconds or --games, positive", errUsage)
	}
	if *threads < 1 || *threads > 1024 {
		return fmt.Errorf("%w: --threads must be 1 to 1024", errUsage)
	}
	if *seconds == 0 && *games == 0 {
		*seconds = 5
	}
	g, start, err := gf.state(pos)
	if err != nil {
		return err
	}
	if start.IsTerminal() {
		return fmt.Errorf("the game is already over at %s", start)
	}
	deadline := time.Now().Add(time.Duration(*seconds * float64(time.Second)))
	tallies := make([]playoutTally, *threads)
	cpu0, cpuOK := cpuTime()
	began := time.Now()
	game.Parallel(*threads, *threads, func() func(int) {
		return func(k int) {
			// Thread k plays games k, k+threads, … of --games.
			quota := 0
			if *games > 0 {
				quota = (*games - k + *threads - 1) / *threads
			}
			rng := rand.New(rand.NewPCG(*seed+uint64(k), 0x706c61796f757473))
			tallies[k] = playoutsOn(g, start, rng, quota, deadline)
		}
	})
	el := time.Since(began).Seconds()
	cpu1, _ := cpuTime()
	var t playoutTally
	t.wins = make([]int, g.NumPlayers())
	for _, k := range tallies {
		if k.err != nil {
			return k.err
		}
		t.played += k.played
		t.actions += k.actions
		t.draws += k.draws
		t.scored += k.scored
		for p, n := range k.wins {
			t.wins[p] += n
		}
	}
	w := env.Stdout
	fmt.Fprintf(w, "game: %s\n", g.Spec())
	fmt.Fprintf(w, "games: %d\n", t.played)
	fmt.Fprintf(w, "threads: %d\n", *threads)
	fmt.Fprintf(w, "seconds: %.3f\n", el)
	if cpuOK {
		fmt.Fprintf(w, "cpu_seconds: %.3f\n", (cpu1 - cpu0).Seconds())
	}
	fmt.Fprintf(w, "games_per_second: %.0f\n", float64(t.played)/el)
	if cpu := (cpu1 - cpu0).Seconds(); cpuOK && cpu > 0 {
		fmt.Fprintf(w, "games_per_cpu_second: %.0f\n", float64(t.played)/cpu)
	}
	fmt.Fprintf(w, "actions_per_second: %.0f\n", float64(t.actions)/el)
	fmt.Fprintf(w, "mean_length: %.1f\n", float64(t.actions)/float64(t.played))
	for p, n := range t.wins {
		fmt.Fprintf(w, "%s: %.3f\n", g.PlayerName(game.Player(p)), float64(n)/float64(t.played))
	}
	fmt.Fprintf(w, "draws: %.3f\n", float64(t.draws)/float64(t.played))
	if t.scored > 0 {
		fmt.Fprintf(w, "scored: %.3f\n", float64(t.scored)/float64(t.played))
	}
	return nil
}

// playoutTally is what one thread of playouts counted.
type playoutTally struct {
	played, actions, draws, scored int
	wins                           []int
	err                            error
}

// playoutsOn plays random games from start: quota of them, or while the
// deadline is ahead when quota is 0.
func playoutsOn(g game.Game, start game.State, rng *rand.Rand, quota int, deadline time.Time) playoutTally {
	t := playoutTally{wins: make([]int, g.NumPlayers())}
	buf := make([]game.Action, 0, g.MaxActions())
	const maxActions = 1_000_000
	s := start.Clone()
	for t.played < quota || (quota == 0 && (t.played%64 != 0 || time.Now().Before(deadline))) {
		s = game.CopyInto(s, start)
		var n int
		n, buf = game.Playout(s, rng, maxActions, buf)
		t.actions += n
		t.played++
		if !s.IsTerminal() {
			t.err = fmt.Errorf("a game did not end within %d actions", maxActions)
			return t
		}
		switch r := s.Result(); {
		case r.Winner >= 0:
			t.wins[r.Winner]++
		case r.Scores != nil:
			t.scored++
		default:
			t.draws++
		}
	}
	return t
}

const recordHelp = `Writes the record of a game: GAME with --moves (and --position) is replayed,
checked, and written in the game's record format (Tablut: OpenTafl Notation's
game-record layout) to standard output. With --read FILE it reads a record,
replays and checks every move, and prints the final position and result.`

func runRecord(env *Env, args []string) error {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs)
	read := fs.String("read", "", "read and check this record file")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if *read != "" {
		if len(pos) > 1 {
			return fmt.Errorf("%w: too many arguments", errUsage)
		}
		data, err := os.ReadFile(*read)
		if err != nil {
			return err
		}
		name := sniffGame(string(data))
		if len(pos) == 1 {
			name = pos[0]
		}
		g, err := loadGame(name, "")
		if err != nil {
			return err
		}
		rc, ok := g.(game.Recorder)
		if !ok {
			return fmt.Errorf("%s has no record format", g.Name())
		}
		rec, err := rc.ReadRecord(strings.NewReader(string(data)))
		if err != nil {
			return err
		}
		s, err := game.Replay(rec)
		if err != nil {
			return fmt.Errorf("%s: %w", *read, err)
		}
		fmt.Fprintf(env.Stdout, "game: %s\nactions: %d\nposition: %s\n", s.Game().Spec(), len(rec.Actions), s)
		if s.IsTerminal() {
			fmt.Fprintf(env.Stdout, "result: %s (%s)\n", game.ResultName(s), s.Result().Reason)
		}
		return nil
	}
	g, s, err := gf.state(pos)
	if err != nil {
		return err
	}
	rc, ok := g.(game.Recorder)
	if !ok {
		return fmt.Errorf("%s has no record format", g.Name())
	}
	tags := []game.KV{{Key: "date", Value: time.Now().Format("2006.01.02")}}
	if s.IsTerminal() {
		tags = append(tags, game.KV{Key: "result", Value: game.ResultName(s)}, game.KV{Key: "termination", Value: s.Result().Reason})
	}
	return rc.WriteRecord(env.Stdout, game.NewRecord(gf.position, s, tags...))
}

// sniffGame finds the game a record is of from its game tag (Lanrick's
// [game:…], Tablut's [muster-game:…] or [variant:Tablut]); tablut if none.
func sniffGame(text string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		for _, tag := range []string{"[game:", "[muster-game:"} {
			if strings.HasPrefix(line, tag) {
				if sp, err := game.ParseSpec(strings.TrimSuffix(line[len(tag):], "]")); err == nil {
					return sp.Name
				}
			}
		}
	}
	return "tablut"
}
