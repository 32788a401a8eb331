// Package agent makes the players of Muster from spec strings: random,
// Monte Carlo tree search, alpha-beta (Tablut), and the named levels easy,
// medium, hard and max. An agent acts one atomic action at a time.
package agent

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/alphabeta"
	"github.com/muster-games/muster/search/mcts"
)

// Agent chooses actions.
type Agent interface {
	// Spec is the agent's spec string, such as "mcts(iterations=2000)".
	Spec() string
	// Act chooses an action for the player to act in s (not chance, not
	// over) within the agent's limits or until ctx is done.
	Act(ctx context.Context, s game.State) (search.Result, error)
}

// Levels are the named strengths for people, strongest last.
var Levels = []string{"easy", "medium", "hard", "max"}

// level returns the spec a named level stands for in a game.
func level(name string, g game.Game) string {
	if spec, ok := supportOf(g).Levels[name]; ok {
		return spec
	}
	return defaultLevels[name]
}

// New makes an agent for game g from a spec: random, a level, or a search
// with its settings, e.g. mcts(iterations=20000, threads=2) or
// alphabeta(time=2s). seed makes it repeatable.
func New(spec string, g game.Game, seed uint64) (Agent, error) {
	sp, err := game.ParseSpec(spec)
	if err != nil {
		return nil, fmt.Errorf("agent: %q: %w", spec, err)
	}
	for _, l := range Levels {
		if sp.Name != l {
			continue
		}
		if len(sp.Options) > 0 {
			return nil, fmt.Errorf("agent: the level %s takes no settings but its budget's factor, as %s(x4)", l, l)
		}
		ls, name := level(l, g), l
		if sp.Ruleset != "" {
			k, ok := budgetFactor(sp.Ruleset)
			if !ok {
				return nil, fmt.Errorf("agent: %s: %q is not a budget's factor: x and a number from 0.01 to 1000, as %s(x4)", spec, sp.Ruleset, l)
			}
			if ls, err = scaleBudget(ls, k); err != nil {
				return nil, fmt.Errorf("agent: %s: %w", spec, err)
			}
			name = l + "(" + sp.Ruleset + ")"
		}
		a, err := New(ls, g, seed)
		if err != nil {
			return nil, err
		}
		return named{a, name}, nil
	}
	if sp.Ruleset != "" {
		return nil, fmt.Errorf("agent: %q: settings are key=value, such as %s(iterations=1000)", spec, sp.Name)
	}
	set := map[string]string{}
	for _, kv := range sp.Options {
		set[kv.Key] = kv.Value
	}
	eg, egSet := set["endgame"]
	delete(set, "endgame")
	turns, turnsSet := set["turns"]
	delete(set, "turns")
	var a Agent
	switch sp.Name {
	case "random":
		if len(set) > 0 || egSet || turnsSet {
			return nil, fmt.Errorf("agent: random takes no settings")
		}
		return &randomAgent{rng: rand.New(rand.NewPCG(seed, 0x72616e64))}, nil
	case "mcts":
		a, err = newMCTS(spec, set, g, seed)
	case "alphabeta":
		a, err = newAlphaBeta(spec, set, g)
	default:
		return nil, fmt.Errorf("agent: unknown agent %q (known: random, mcts, alphabeta, %s)", sp.Name, strings.Join(Levels, ", "))
	}
	if err != nil {
		return nil, err
	}
	if turnsSet {
		n, err := strconv.Atoi(turns)
		f := supportOf(g).Turns
		switch {
		case err != nil || n < 1 || n > 6:
			return nil, fmt.Errorf("agent: %s: turns=%q: want a number of turns from 1 to 6", spec, turns)
		case f == nil:
			return nil, fmt.Errorf("agent: %s: turns=%s: %s has no turn-level search", spec, turns, g.Name())
		}
		a = withTurns{a, f, n}
	}
	if !egSet {
		return a, nil
	}
	switch eg {
	case "no":
		return a, nil
	case "yes":
		oracle := supportOf(g).Oracle
		if oracle == nil {
			return nil, fmt.Errorf("agent: %s: endgame=yes: %s has no endgame tables", spec, g.Name())
		}
		return withOracle{a, oracle}, nil
	}
	return nil, fmt.Errorf("agent: %s: endgame=%q: want yes or no", spec, eg)
}

// budgetFactor reads a level's budget factor, "x4" or "x0.5": ok is false
// where text is none, or out of 0.01–1000.
func budgetFactor(text string) (float64, bool) {
	num, ok := strings.CutPrefix(text, "x")
	k, err := strconv.ParseFloat(num, 64)
	return k, ok && err == nil && k >= 0.01 && k <= 1000
}

// scaleBudget returns spec (a search's) with k times its budget: its
// iterations, its time and its nodes each multiplied; a search bounded by
// its depth alone gets effort=k instead, k times the nodes that depth
// takes at each position (alphabeta). The rest is kept.
func scaleBudget(spec string, k float64) (string, error) {
	sp, err := game.ParseSpec(spec)
	if err != nil {
		return "", err
	}
	scaled, depth := false, false
	for i, kv := range sp.Options {
		switch kv.Key {
		case "iterations", "nodes":
			n, err := strconv.ParseFloat(kv.Value, 64)
			if err != nil {
				return "", fmt.Errorf("%s=%q: not a number", kv.Key, kv.Value)
			}
			sp.Options[i].Value = strconv.FormatInt(max(1, int64(math.Round(n*k))), 10)
			scaled = true
		case "time":
			d, err := time.ParseDuration(kv.Value)
			if err != nil {
				return "", fmt.Errorf("time=%q: %v", kv.Value, err)
			}
			sp.Options[i].Value = time.Duration(float64(d) * k).Round(time.Millisecond).String()
			scaled = true
		case "depth":
			depth = true
		}
	}
	switch {
	case scaled:
	case depth && sp.Name == "alphabeta":
		sp.Options = append(sp.Options, game.KV{Key: "effort", Value: strconv.FormatFloat(k, 'g', -1, 64)})
	default:
		return "", fmt.Errorf("%s has no budget to scale (iterations, time, nodes, or an alpha-beta depth)", spec)
	}
	return sp.String(), nil
}

// Check reports whether spec names an agent for g, as New would build it,
// without building it: a level or search named in a request is checked
// by this.
func Check(spec string, g game.Game) error {
	_, err := New(spec, g, 0)
	return err
}

// Threads returns the threads an agent searches on (1 for random).
func Threads(a Agent) int {
	if t := Limits(a).Threads; t > 0 {
		return t
	}
	return 1
}

// Limits returns the limits an agent searches under: zero for random, and
// Threads zero where it searches on one.
func Limits(a Agent) search.Limits {
	switch a := searcher(a).(type) {
	case *abAgent:
		return a.lim
	case *mctsAgent:
		lim := a.lim
		lim.Threads = a.threads
		return lim
	}
	return search.Limits{}
}

// named is a level: an agent under another name.
type named struct {
	Agent
	name string
}

func (n named) Spec() string { return n.name }

type randomAgent struct{ rng *rand.Rand }

func (r *randomAgent) Spec() string { return "random" }

func (r *randomAgent) Act(ctx context.Context, s game.State) (search.Result, error) {
	legal := s.LegalActions(nil)
	if len(legal) == 0 {
		return search.Result{}, fmt.Errorf("agent: no legal action")
	}
	a := legal[r.rng.IntN(len(legal))]
	return search.Result{Action: a, PV: []game.Action{a}}, nil
}

// settings reads the known keys of a spec and rejects the others.
type settings struct {
	spec string
	set  map[string]string
	err  error
}

func (st *settings) duration(k string) time.Duration {
	v, ok := st.set[k]
	if !ok || st.err != nil {
		return 0
	}
	delete(st.set, k)
	d, err := time.ParseDuration(v)
	if err != nil {
		if f, err2 := strconv.ParseFloat(v, 64); err2 == nil {
			return time.Duration(f * float64(time.Second))
		}
		st.err = fmt.Errorf("agent: %s: %s=%q is not a duration such as 2s or 500ms", st.spec, k, v)
	}
	return d
}

func (st *settings) int(k string) int {
	v, ok := st.set[k]
	if !ok || st.err != nil {
		return 0
	}
	delete(st.set, k)
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		st.err = fmt.Errorf("agent: %s: %s=%q is not a whole number", st.spec, k, v)
	}
	return n
}

func (st *settings) float(k string) float64 {
	v, ok := st.set[k]
	if !ok || st.err != nil {
		return 0
	}
	delete(st.set, k)
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 {
		st.err = fmt.Errorf("agent: %s: %s=%q is not a number", st.spec, k, v)
	}
	return f
}

// off reads a yes-or-no setting that turns a part off: true for no.
func (st *settings) off(k string) bool {
	v, ok := st.set[k]
	if !ok || st.err != nil {
		return false
	}
	delete(st.set, k)
	if v != "yes" && v != "no" {
		st.err = fmt.Errorf("agent: %s: %s=%q: want yes or no", st.spec, k, v)
	}
	return v == "no"
}

func (st *settings) done(known string) error {
	if st.err != nil {
		return st.err
	}
	for k := range st.set {
		return fmt.Errorf("agent: %s: unknown setting %q (known: %s)", st.spec, k, known)
	}
	return nil
}

type mctsAgent struct {
	spec    string
	threads int
	m       *mcts.Searcher
	lim     search.Limits
}

func newMCTS(spec string, set map[string]string, g game.Game, seed uint64) (Agent, error) {
	_, threadsGiven := set["threads"]
	st := &settings{spec: spec, set: set}
	lim := search.Limits{Time: st.duration("time"), Iterations: st.int("iterations")}
	_, playoutGiven := set["playout"]
	cfg := mcts.Config{C: st.float("c"), Threads: st.int("threads"), Seed: seed, MAST: true, PlayoutLimit: st.int("playout"), Prior: 3}
	if playoutGiven && cfg.PlayoutLimit == 0 {
		cfg.PlayoutLimit = -1 // playout=0: none, the new node evaluated at once
	}
	if _, ok := set["prior"]; ok {
		cfg.Prior = st.float("prior")
	}
	cfg.Contempt = st.float("contempt")
	_, transposeGiven := set["transpose"]
	cfg.Transpose = transposeGiven && !st.off("transpose")
	if !threadsGiven {
		cfg.Threads = 1
	}
	evalName, evalSet := set["eval"]
	delete(set, "eval")
	if err := st.done("time, iterations, threads, c, playout, prior, contempt, transpose, eval, endgame, turns"); err != nil {
		return nil, err
	}
	eval, err := evaluation(spec, g, evalName, evalSet)
	if err != nil {
		return nil, err
	}
	if cfg.Contempt > 1 {
		return nil, fmt.Errorf("agent: %s: contempt=%g: a draw costs 0 to 1 (a loss)", spec, cfg.Contempt)
	}
	if cfg.Threads == 0 {
		cfg.Threads = runtime.NumCPU()
	}
	if lim.Time == 0 && lim.Iterations == 0 {
		lim.Iterations = 2000
	}
	sup := supportOf(g)
	cfg.Eval = eval
	if cfg.PlayoutLimit == 0 {
		cfg.PlayoutLimit = cmp.Or(sup.PlayoutLimit, 30)
	}
	return &mctsAgent{spec: spec, threads: cfg.Threads, m: mcts.New(cfg), lim: lim}, nil
}

func (a *mctsAgent) Spec() string { return a.spec }

func (a *mctsAgent) Act(ctx context.Context, s game.State) (search.Result, error) {
	if s.IsTerminal() || s.ToAct() == game.Chance {
		return search.Result{}, fmt.Errorf("agent: nothing for a player to do")
	}
	legal := s.LegalActions(nil)
	if len(legal) == 1 {
		return search.Result{Action: legal[0], PV: legal}, nil
	}
	return a.m.Search(ctx, s, a.lim), nil
}

type abAgent struct {
	spec string
	lim  search.Limits
	// effort, where set, searches each position effort times the nodes
	// its depth alone takes there, deepening past it (a level's budget
	// scaled: hard(x4)).
	effort float64
	// entries is the table's size; the table is made at the first search
	// (an agent checked, or seated in a game that never asks it, holds
	// none).
	entries  int
	ttOnce   sync.Once
	tt       *alphabeta.Table
	position func(game.State, string) (alphabeta.Position, bool)
	evalName string
	opt      alphabeta.Options // null=no, extend=no
	eval     func(game.State, game.Player) float64
}

func newAlphaBeta(spec string, set map[string]string, g game.Game) (Agent, error) {
	if g.Traits().Chance {
		return nil, fmt.Errorf("agent: alphabeta cannot search the dice of %s; use mcts or a level (%s)", g.Spec(), strings.Join(Levels, ", "))
	}
	_, threadsSet := set["threads"]
	st := &settings{spec: spec, set: set}
	lim := search.Limits{Time: st.duration("time"), Depth: st.int("depth"), Nodes: int64(st.int("nodes")), Threads: st.int("threads")}
	evalName, evalSet := set["eval"]
	delete(set, "eval")
	opt := alphabeta.Options{NoNull: st.off("null"), NoExtend: st.off("extend")}
	_, hashSet := set["hash"]
	hash := st.float("hash")
	effort := st.float("effort")
	if err := st.done("time, depth, nodes, effort, threads, hash, eval, null, extend, endgame, turns"); err != nil {
		return nil, err
	}
	if effort != 0 && (effort < 1 || effort > 1000 || lim.Depth == 0 || lim.Time != 0 || lim.Nodes != 0) {
		return nil, fmt.Errorf("agent: %s: effort=%g: a factor from 1 to 1000 of the nodes a depth= alone takes (with no time= or nodes=)", spec, effort)
	}
	switch {
	case !hashSet:
		hash = DefaultHash
	case hash < MinHash || hash > MaxHash:
		return nil, fmt.Errorf("agent: %s: hash=%g: the table is %g to %d MiB", spec, hash, MinHash, MaxHash)
	}
	sup := supportOf(g)
	eval := sup.Eval
	if sup.Position == nil || sup.Evaluations != nil {
		// The generic adapter: its evaluation is chosen as MCTS's is.
		var err error
		if eval, err = evaluation(spec, g, evalName, evalSet); err != nil {
			return nil, err
		}
	} else if err := checkEval(spec, g, evalName, evalSet); err != nil {
		return nil, err
	}
	if threadsSet && lim.Threads == 0 {
		lim.Threads = runtime.NumCPU()
	}
	if lim.Time == 0 && lim.Depth == 0 && lim.Nodes == 0 {
		lim.Depth = 4
	}
	return &abAgent{spec: spec, lim: lim, effort: effort, entries: int(hash * (1 << 20) / float64(alphabeta.EntryBytes)), position: sup.Position, evalName: evalName, opt: opt, eval: eval}, nil
}

// checkEval checks an eval= setting against the names g's support offers.
func checkEval(spec string, g game.Game, name string, set bool) error {
	sup := supportOf(g)
	if !set || slices.Contains(sup.Evals, name) {
		return nil
	}
	if sup.EvalFile != nil && strings.HasSuffix(name, ".json") {
		if err := sup.EvalFile(name); err != nil {
			return fmt.Errorf("agent: %s: eval=%s: %w", spec, name, err)
		}
		return nil
	}
	if len(sup.Evals) == 0 {
		return fmt.Errorf("agent: %s: %s has one evaluation; eval= chooses nothing", spec, g.Name())
	}
	known := strings.Join(sup.Evals, ", ")
	if sup.EvalFile != nil {
		known += ", or a weights file as muster tune writes it (FILE.json)"
	}
	return fmt.Errorf("agent: %s: eval=%q: unknown evaluation (known: %s)", spec, name, known)
}

// evaluation returns the evaluation an agent's eval= setting names: g's
// Eval where it is not set.
func evaluation(spec string, g game.Game, name string, set bool) (func(game.State, game.Player) float64, error) {
	sup := supportOf(g)
	if !set {
		return sup.Eval, nil
	}
	if err := checkEval(spec, g, name, set); err != nil {
		return nil, err
	}
	if f := sup.Evaluations[name]; f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("agent: %s: eval=%q: only alpha-beta reads %s's evaluations by name", spec, name, g.Name())
}

// DefaultHash is an alpha-beta agent's table in MiB where hash= is not
// set; MinHash and MaxHash bound it (1/64 MiB is 1,024 entries, enough
// for a search of a ply or two).
const (
	DefaultHash = 16
	MinHash     = 1.0 / 64
	MaxHash     = 4096
)

// table returns the agent's table, made on first use.
func (a *abAgent) table() *alphabeta.Table {
	a.ttOnce.Do(func() { a.tt = alphabeta.NewTable(a.entries) })
	return a.tt
}

func (a *abAgent) Spec() string { return a.spec }

func (a *abAgent) Act(ctx context.Context, s game.State) (search.Result, error) {
	if s.IsTerminal() || s.ToAct() == game.Chance {
		return search.Result{}, fmt.Errorf("agent: nothing for a player to do")
	}
	if a.effort == 0 {
		return alphabeta.SearchWith(ctx, a.searchPosition(s), a.lim, a.table(), a.opt), nil
	}
	// The depth's nodes here, then the search again (its table warm)
	// to effort times them, as deep as they reach.
	first := alphabeta.SearchWith(ctx, a.searchPosition(s), a.lim, a.table(), a.opt)
	lim := a.lim
	lim.Depth, lim.Nodes = 0, max(1, int64(a.effort*float64(first.Nodes)))
	res := alphabeta.SearchWith(ctx, a.searchPosition(s), lim, a.table(), a.opt)
	if res.Action == 0 || res.Depth < first.Depth {
		return first, nil
	}
	res.Nodes += first.Nodes
	return res, nil
}

// SecondLine is the engine's best line that does not begin with first's
// action: the one its search found besides (MCTS's second root action),
// or, for alpha-beta, a search again with that action left out at the
// root, within ctx. It reports false where the agent gives none.
func SecondLine(ctx context.Context, a Agent, s game.State, first search.Result) (search.Result, bool) {
	if first.Second != nil {
		return *first.Second, true
	}
	x, ok := searcher(a).(*abAgent)
	if !ok || first.Action == 0 || s.IsTerminal() || len(s.LegalActions(nil)) < 2 {
		return search.Result{}, false
	}
	opt := x.opt
	opt.Exclude = first.Action
	res := alphabeta.SearchWith(ctx, x.searchPosition(s), x.lim, x.table(), opt)
	if res.Action == 0 || res.Action == first.Action {
		return search.Result{}, false
	}
	return res, true
}

// searcher is the search under a level's name, an oracle and a turn
// search: the agent that searches where they do not answer.
func searcher(a Agent) Agent {
	for {
		switch x := a.(type) {
		case named:
			a = x.Agent
		case withOracle:
			a = x.Agent
		case withTurns:
			a = x.Agent
		default:
			return a
		}
	}
}

func (a *abAgent) searchPosition(s game.State) alphabeta.Position {
	if a.position != nil {
		if pos, ok := a.position(s, a.evalName); ok {
			return pos
		}
	}
	eval := func(s game.State, p game.Player) int {
		if a.eval == nil {
			return 0
		}
		return int(1000 * a.eval(s, p))
	}
	return alphabeta.FromState(s, eval)
}

// Ponder searches s, the position after the agent's own move, with the
// opponent to act, until ctx is done, on the agent's threads and into its
// table, so that the search of its next move, whatever the opponent
// plays, starts from what was learnt meanwhile.
func (a *abAgent) Ponder(ctx context.Context, s game.State) {
	if s.IsTerminal() || s.ToAct() == game.Chance {
		return
	}
	alphabeta.SearchWith(ctx, a.searchPosition(s), search.Limits{Threads: a.lim.Threads}, a.table(), a.opt)
}

// A Ponderer thinks on the opponent's time: see Ponder.
type Ponderer interface {
	Ponder(ctx context.Context, s game.State)
}

// Ponder lets an agent think on the opponent's time where it can (the
// alpha-beta agents), until ctx is done; it reports whether it did.
func Ponder(ctx context.Context, a Agent, s game.State) bool {
	p, ok := searcher(a).(Ponderer)
	if ok {
		p.Ponder(ctx, s)
	}
	return ok
}
