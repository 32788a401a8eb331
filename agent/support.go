package agent

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/alphabeta"
	"github.com/muster-games/muster/tune"
)

// Support is what a game gives the agents beyond the game contract. Each
// game's own support package (tablut/ai, lanrick/ai) registers it; the
// agent package names no game.
type Support struct {
	// Eval estimates a state's value for player p in [-1, 1], for MCTS's
	// priors and cut-off playouts and the generic alpha-beta adapter.
	Eval func(s game.State, p game.Player) float64
	// PlayoutLimit cuts MCTS playouts after so many actions (0: 30).
	PlayoutLimit int
	// Levels are the specs the named levels stand for in this game;
	// unset levels are MCTS budgets.
	Levels map[string]string
	// Position, if set, adapts a state to alpha-beta's fast position
	// interface, evaluated by the evaluation named eval (one of Evals);
	// without it alpha-beta searches the state generically.
	Position func(s game.State, eval string) (alphabeta.Position, bool)
	// Evals name the evaluations Position offers, the default first;
	// alpha-beta's eval setting picks one (to compare them in matches).
	Evals []string
	// EvalFile, if set, lets eval= name a weights file as muster tune
	// writes it (a path ending in .json) besides Evals' names, to try a
	// fit before it replaces the game's own: it reads and checks the
	// file, and Position then evaluates by it.
	EvalFile func(path string) error
	// Evaluations, if set, are Eval's alternatives by name (Evals' names,
	// the first being Eval itself) for MCTS's and the generic alpha-beta's
	// eval setting.
	Evaluations map[string]func(s game.State, p game.Player) float64
	// Tuning, if set, lets muster tune fit the evaluation's weights.
	Tuning *Tuning
	// Oracle, if set, plays perfectly where it can (endgame tables) and
	// reports false elsewhere; agents with endgame=yes consult it.
	Oracle func(s game.State) (search.Result, bool)
	// Prepare, if set, does once the work that lets this game's agents
	// play at full strength (Lanrick: build the endgame tables), keeping
	// what it makes under dir ("" for the game's default folder) and
	// reporting progress with logf; deep asks also for what takes hours
	// (Lanrick's five-man tables). A server runs it in the background.
	Prepare func(ctx context.Context, dir string, deep bool, logf func(format string, args ...any)) error
	// Turns, if set, searches depth whole turns where the game's turns
	// are several actions and a search over them is known (Lanrick: the
	// final rendezvous, without the tables), reporting false elsewhere;
	// agents with turns=N consult it.
	Turns func(s game.State, depth int) (search.Result, bool)
	// Puzzles, if set, draws n puzzles where the Oracle decides (Lanrick:
	// from the endgame tables on disk); seed makes the draw repeatable.
	Puzzles func(n int, seed uint64) ([]Puzzle, error)
}

// Puzzle is a position to solve: the player to move, Side, wins with best
// play in Turns of his own turns.
type Puzzle struct {
	ID       string `json:"id"`
	Spec     string `json:"spec"`
	Position string `json:"position"`
	Side     string `json:"side"`
	Turns    int    `json:"turns"`
	// Rating is the difficulty, higher harder.
	Rating  int    `json:"rating"`
	Context string `json:"context"`
	// Themes name what the puzzle is about ("escape", "the last
	// rendezvous"), for a solver to choose.
	Themes []string `json:"themes,omitempty"`
}

// Tuning is what muster tune needs to fit a game's evaluation weights to
// the results of its games.
type Tuning struct {
	// Features name the evaluation's terms, in the order Sample gives
	// them; Unit is the one whose weight is fixed at 100.
	Features []string
	Unit     string
	// Player is the player the features count for: results are his.
	Player game.Player
	// Family names the family of rulesets a game belongs to: each family
	// gets weights of its own.
	Family func(g game.Game) string
	// Sample returns the features of a quiet position, where the
	// evaluation may stand for it, and false elsewhere.
	Sample func(s game.State) ([]float64, bool)
	// File is where the game keeps its weights, from the repository's
	// root (the default for muster tune --out).
	File string
	// Episode, if set, labels each sample by the episode it stands in
	// rather than by the whole game (Lanrick: the rendezvous): called after
	// every action of a replayed game, it reports whether that action ended
	// an episode and who won it. Samples of an episode that never ended
	// are dropped.
	Episode func(s game.State) (winner game.Player, ended bool)
	// Exact, if set, draws n positions whose value is known exactly
	// (Lanrick: the final rendezvous, from the endgame tables on disk)
	// with their features and result, for a family of their own; seed
	// makes the draw repeatable.
	Exact func(n int, seed uint64) (family string, samples []tune.Sample, err error)
	// Symmetric says the features change sign when the players swap
	// colours (and Player's result becomes the other's): every sample
	// then counts once more mirrored, so that the fit favours neither
	// colour but through the features.
	Symmetric bool
}

// TuningOf returns the tuning support of g's game, or an error naming the
// games that have one.
func TuningOf(g game.Game) (*Tuning, error) {
	if t := supportOf(g).Tuning; t != nil {
		return t, nil
	}
	supportMu.RLock()
	defer supportMu.RUnlock()
	var names []string
	for name, s := range supports {
		if s.Tuning != nil {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return nil, fmt.Errorf("agent: %s has no evaluation weights to tune (tunable: %s)", g.Name(), strings.Join(names, ", "))
}

var (
	supportMu sync.RWMutex
	supports  = map[string]Support{}
)

// Register gives the agents a game's support; games' support packages
// call it from their init.
func Register(name string, s Support) {
	supportMu.Lock()
	defer supportMu.Unlock()
	supports[name] = s
}

// Prepare runs every registered game's Prepare, one after another, and
// returns the first error. deep asks also for what takes hours to build
// (Lanrick's five-man tables).
func Prepare(ctx context.Context, dir string, deep bool, logf func(format string, args ...any)) error {
	supportMu.RLock()
	var names []string
	for name, s := range supports {
		if s.Prepare != nil {
			names = append(names, name)
		}
	}
	supportMu.RUnlock()
	sort.Strings(names)
	for _, name := range names {
		if err := supportNamed(name).Prepare(ctx, dir, deep, logf); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// PrepareFor runs the Prepare of g's game, if it has one, and reports
// whether it had one: a server that builds what its computer players need
// only when a first game needs it calls this.
func PrepareFor(ctx context.Context, g game.Game, dir string, deep bool, logf func(format string, args ...any)) (bool, error) {
	p := supportOf(g).Prepare
	if p == nil {
		return false, nil
	}
	return true, p(ctx, dir, deep, logf)
}

// supportNamed returns the support registered for a game name, or none.
func supportNamed(name string) Support {
	supportMu.RLock()
	defer supportMu.RUnlock()
	return supports[name]
}

// supportOf returns the support registered for g's game, or none.
func supportOf(g game.Game) Support { return supportNamed(g.Name()) }

// defaultLevels are the levels of a game whose support names none.
var defaultLevels = map[string]string{
	"easy":   "mcts(iterations=200)",
	"medium": "mcts(iterations=2000)",
	"hard":   "mcts(iterations=10000)",
	"max":    "mcts(iterations=60000,threads=0)",
}

// Evaluator returns g's evaluation (its value of a state for a player, in
// [-1, 1]), or nil if its support gives none: the study tools read games
// through it, as Ludii's metrics read a game through its heuristics.
func Evaluator(g game.Game) func(s game.State, p game.Player) float64 {
	return supportOf(g).Eval
}

// Puzzles draws n puzzles of the game named, if its support gives any.
func Puzzles(name string, n int, seed uint64) ([]Puzzle, error) {
	f := supportNamed(name).Puzzles
	if f == nil {
		return nil, nil
	}
	return f(n, seed)
}

// Verdict is the exact value of s for the player to act where the game's
// Oracle decides it (Lanrick's endgame tables): Proven +1 or -1, the
// Turns to the end with best play and the best action. ok is false where
// nothing exact is known (a finished game says its result itself).
func Verdict(s game.State) (res search.Result, ok bool) {
	o := supportOf(s.Game()).Oracle
	if o == nil {
		return search.Result{}, false
	}
	return o(s)
}

// HasPuzzles reports whether the game named draws puzzles.
func HasPuzzles(name string) bool { return supportNamed(name).Puzzles != nil }
