// Package ai gives Muster's agents what they need of Lanrick beyond the
// game contract: the evaluation fitted to self-play (and Carroll's hints
// weighed by hand, eval=hand), the features muster tune fits it on, the
// endgame tables as an oracle of the final rendezvous (1893, 1899) and
// puzzles drawn from them. It registers them with the agent package when
// imported.
package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/lanrick/endgame"
	"github.com/muster-games/muster/lanrick/puzzle"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/tune"
)

func init() {
	agent.Register(lanrick.Info.Name, agent.Support{
		Eval: lanrick.Evaluate,
		// Playouts of two actions, then the fitted evaluation, its
		// advantage drained as the turns without progress run out
		// (eval=progress: a side ahead makes progress rather than let a
		// blockade run to the 100 turns' draw); longer random playouts
		// only blur it; every level plays for a win rather than shuttle
		// for a draw; hard and max read the endgame tables and, where
		// they are missing, prove the final rendezvous' wins six turns
		// deep (docs/strength.md). Medium and up explore little (c=0.05,
		// against UCT's usual 1), so that their iterations deepen the
		// lines the evaluation prefers rather than spread over a node's
		// many actions; easy keeps c=1, spread thin on purpose.
		PlayoutLimit: 2,
		Levels: map[string]string{
			"easy":   "mcts(iterations=100,contempt=0.3,eval=progress)",
			"medium": "mcts(iterations=2000,c=0.05,contempt=0.3,eval=progress)",
			"hard":   "mcts(iterations=5000,c=0.05,contempt=0.3,endgame=yes,turns=6,eval=progress)",
			"max":    "mcts(iterations=60000,threads=0,c=0.05,contempt=0.3,endgame=yes,turns=6,eval=progress)",
		},
		Oracle:  oracle,
		Turns:   turnSearch,
		Prepare: prepare,
		Puzzles: puzzles,
		Evals:   []string{evalFitted, evalHand, evalProgress},
		Evaluations: map[string]func(game.State, game.Player) float64{
			evalFitted:   lanrick.Evaluate,
			evalHand:     lanrick.EvaluateHand,
			evalProgress: lanrick.EvaluateProgress,
		},
		Tuning: &agent.Tuning{
			Features: lanrick.FeatureNames[:],
			Unit:     lanrick.FeatureNames[lanrick.FEnter],
			Player:   lanrick.White,
			Family: func(g game.Game) string {
				if lg, ok := g.(*lanrick.Game); ok {
					return lg.Rules.Family()
				}
				return ""
			},
			Sample:    sample,
			Exact:     exact,
			File:      "lanrick/weights.json",
			Symmetric: true,
			Episode: func(s game.State) (game.Player, bool) {
				w := s.(*lanrick.State).RendezvousWinner()
				return game.Player(w), w >= 0
			},
		},
	})
}

// The evaluations an agent may choose with eval=: the weights fitted for
// the version's family (the default), or Carroll's hints weighed by hand.
const (
	evalFitted = "fitted"
	evalHand   = "hand"
	// evalProgress is the fitted weights with the advantage drained as
	// the turns without progress run out (lanrick.EvaluateProgress).
	evalProgress = "progress"
)

// sample returns the features of a position at the start of a turn of
// man-moves, as numbers.
func sample(s game.State) ([]float64, bool) {
	ls, ok := s.(*lanrick.State)
	if !ok || !ls.TurnStart() {
		return nil, false
	}
	return features(ls), true
}

// features returns s's features as numbers.
func features(s *lanrick.State) []float64 {
	f := s.Features()
	x := make([]float64, len(f))
	for i, v := range f {
		x[i] = float64(v)
	}
	return x
}

// EndgameDir is where agents with endgame=yes read Lanrick's endgame
// tables (muster solve tables builds them there). Agents never build a
// table: where one is missing they search as usual. Set it before the
// first agent plays.
var EndgameDir = endgame.DefaultDir()

var (
	tablesMu sync.Mutex
	shared   *endgame.Tables
)

// prepareClasses are the tables prepare makes: every one (a test makes
// fewer).
var prepareClasses = endgame.Classes

// prepare builds, one after another on one core, every endgame table not
// yet on disk, into dir/lanrick-endgame (or EndgameDir when dir is ""),
// and points the agents there. Each table is used as soon as it is made.
// buildTable builds the table of class c into ts's folder (a test puts a
// copy there instead).
var buildTable = func(ts *endgame.Tables, c lanrick.Bitboard) error {
	_, _, err := ts.Table(c)
	return err
}

func prepare(ctx context.Context, dir string, deep bool, logf func(string, ...any)) error {
	tablesMu.Lock()
	if dir != "" {
		EndgameDir = filepath.Join(dir, "lanrick-endgame")
	}
	ts := &endgame.Tables{Dir: EndgameDir}
	tablesMu.Unlock()
	classes := prepareClasses()
	built := 0
	for i, c := range classes {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Join(ts.Dir, endgame.FileName(c))); err == nil {
			continue
		}
		start := time.Now()
		if err := buildTable(ts, c); err != nil {
			return err
		}
		built++
		logf("lanrick: endgame table %d of %d built in %.0f s into %s", i+1, len(classes), time.Since(start).Seconds(), ts.Dir)
		tablesMu.Lock()
		shared = nil // the agents look again, and find it
		tablesMu.Unlock()
	}
	if built == 0 {
		logf("lanrick: the %d endgame tables are in %s", len(classes), ts.Dir)
	}
	if !deep {
		return nil
	}
	return prepareFive(ctx, ts, logf)
}

// buildFive builds the five-man table of class c for a ruleset (noOwnMan:
// 1899's) on one core unless it is on disk, and says how long it took (0:
// it was there). A test counts the calls instead.
var buildFive = func(ts *endgame.Tables, c lanrick.Bitboard, noOwnMan bool) (time.Duration, error) {
	b, err := ts.BuildFive(c, noOwnMan, 1, nil)
	return b.Took, err
}

// prepareFive builds, one after another on one core, every five-man table
// of 1893 and 1899 not yet on disk (the two rulesets share the tables
// whose ends they value alike).
func prepareFive(ctx context.Context, ts *endgame.Tables, logf func(string, ...any)) error {
	classes := endgame.FiveClasses()
	for _, noOwnMan := range []bool{false, true} {
		for i, c := range classes {
			if err := ctx.Err(); err != nil {
				return err
			}
			took, err := buildFive(ts, c, noOwnMan)
			if err != nil {
				return err
			}
			if took > 0 {
				logf("lanrick: five-man table %d of %d built in %.0f s into %s", i+1, len(classes), took.Seconds(), ts.Dir)
				tablesMu.Lock()
				shared = nil // the agents look again, and find it
				tablesMu.Unlock()
			}
		}
	}
	logf("lanrick: the five-man tables are in %s", ts.Dir)
	return nil
}

// SetEndgameDir sets EndgameDir while agents may be reading it.
func SetEndgameDir(dir string) {
	tablesMu.Lock()
	defer tablesMu.Unlock()
	EndgameDir = dir
}

// tables returns the tables in EndgameDir, shared by every agent (each
// table is loaded once, 7.6 MB in memory).
func tables() *endgame.Tables {
	tablesMu.Lock()
	defer tablesMu.Unlock()
	if shared == nil || shared.Dir != EndgameDir {
		shared = &endgame.Tables{Dir: EndgameDir, NoBuild: true}
	}
	return shared
}

// exact draws n positions of the final rendezvous of 1893 (any line whose
// table is on disk, two men a side anywhere, none of them all in, either
// player having set the mark) at the start of a turn or up to two actions
// into it, with their features and the winner the tables give (looking
// ahead to the end of the turn where it is under way).
func exact(n int, seed uint64) (string, []tune.Sample, error) {
	ts := tables()
	lines := puzzle.Lines(ts.Dir)
	if len(lines) == 0 {
		return "", nil, fmt.Errorf("lanrick: no endgame table in %s (muster solve tables builds them)", ts.Dir)
	}
	g := lanrick.MustLoad("1893")
	r := rand.New(rand.NewPCG(seed, 0x66696e616c))
	var out []tune.Sample
	var buf []game.Action
	for len(out) < n {
		l := lines[r.IntN(len(lines))]
		black, white := endgame.RandomPosition(r)
		if black&^l.Squares == 0 || white&^l.Squares == 0 {
			continue // a side all in: the rendezvous is over
		}
		u := l.Setup(black, white, r.IntN(2), false)
		u.Setter = r.IntN(2) // the tables' value does not depend on it; the features do
		s, err := g.Build(u)
		if err != nil {
			return "", nil, err
		}
		for k := r.IntN(3); k > 0 && !s.IsTerminal(); k-- {
			buf = s.LegalActions(buf[:0])
			s.Apply(buf[r.IntN(len(buf))])
		}
		if !endgame.Applies(s) {
			continue
		}
		_, v, err := ts.Act(s)
		if err != nil {
			return "", nil, err
		}
		winner := int(s.ToAct())
		if v.Outcome < 0 {
			winner = 1 - winner
		}
		y := 0.0
		if winner == lanrick.White {
			y = 1
		}
		out = append(out, tune.Sample{X: features(s), Y: y})
	}
	return lanrick.FamilyFinal, out, nil
}

// puzzles draws Lanrick puzzles from the endgame tables on disk: a
// fifth of them three men against two where the five-man tables are
// there.
func puzzles(n int, seed uint64) ([]agent.Puzzle, error) {
	ts := tables()
	var five []puzzle.Puzzle
	if cs := puzzle.FiveClasses(ts); len(cs) > 0 {
		var err error
		if five, err = puzzle.GenerateFive(ts, cs, n/5, seed); err != nil {
			return nil, err
		}
	}
	ps, err := puzzle.Generate(ts, puzzle.Lines(ts.Dir), n-len(five), seed)
	ps = append(ps, five...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Rating < ps[j].Rating })
	out := make([]agent.Puzzle, len(ps))
	for i, p := range ps {
		themes := []string{"the last rendezvous"}
		if slices.ContainsFunc(five, func(f puzzle.Puzzle) bool { return f.ID == p.ID }) {
			themes = []string{"three against two", "border slides"}
		}
		out[i] = agent.Puzzle{ID: p.ID, Spec: p.Spec, Position: p.Position, Side: p.Side, Turns: p.Turns, Rating: p.Rating, Context: p.Context, Themes: themes}
	}
	return out, err
}

// oracle plays the final rendezvous (two men a side, the 3-square line)
// and three men against two (the 4-square one) perfectly from the tables
// on disk; elsewhere, or where a table is missing, it does not know.
func oracle(s game.State) (search.Result, bool) {
	ls, ok := s.(*lanrick.State)
	if !ok || !endgame.Applies(ls) {
		return search.Result{}, false
	}
	start := time.Now()
	a, v, err := tables().Act(ls)
	if err != nil {
		return search.Result{}, false
	}
	// Exact: a draw too is known (three men against two can be drawn).
	o := float64(v.Outcome)
	return search.Result{Kind: search.Verdict, Action: a, PV: []game.Action{a}, Value: o, Proven: v.Outcome, Turns: v.Turns,
		Exact: true, Lo: o, Hi: o, Elapsed: time.Since(start), Source: "the endgame tables",
		Note: "neither side can force his men in, and each can stop the other"}, true
}

// turnSearch plays the final rendezvous (two men a side, the 3-square
// line, in play) where the race search of package endgame, depth turns
// deep and without the tables, finds a forced win; elsewhere it does not
// apply.
func turnSearch(s game.State, depth int) (search.Result, bool) {
	ls, ok := s.(*lanrick.State)
	if !ok || !endgame.AppliesFour(ls) || ls.Phase() != lanrick.PhaseMove {
		return search.Result{}, false
	}
	start := time.Now()
	// Only a win found within the horizon, which is forced, is played
	// from here (Turns is left for the tables' exact counts); elsewhere
	// the inner search chooses (docs/strength.md).
	a, _, found := endgame.RaceOf(ls.RendezvousSquares()).Prove(ls, depth)
	if !found {
		return search.Result{}, false
	}
	return search.Result{Kind: search.Proof, Action: a, PV: []game.Action{a}, Value: 1, Proven: 1, Depth: depth, Elapsed: time.Since(start)}, true
}
