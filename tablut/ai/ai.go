// Package ai gives Muster's agents what they need of Tablut beyond the
// game contract: the evaluation, alpha-beta's fast position over Tablut's
// own core, and the levels (alpha-beta at growing depths). It registers
// them with the agent package when imported.
package ai

import (
	"os"
	"strings"
	"sync"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search/alphabeta"
	"github.com/muster-games/muster/tablut"
)

func init() { agent.Register(tablut.Info.Name, support) }

// support is what Tablut gives the agents.
var support = agent.Support{
	Eval:         tablut.Value,
	Oracle:       oracle,
	Puzzles:      puzzles,
	PlayoutLimit: 40,
	Levels: map[string]string{
		"easy":   "alphabeta(depth=1,hash=0.0625)",
		"medium": "alphabeta(depth=2,hash=0.25)",
		"hard":   "alphabeta(depth=4,hash=1)",
		"max":    "alphabeta(time=5s,hash=16)",
	},
	Position: func(s game.State, eval string) (alphabeta.Position, bool) {
		ts, ok := s.(*tablut.State)
		if !ok {
			return nil, false
		}
		var w *tablut.Weights
		switch {
		case eval == evalHand:
			w = &tablut.HandWeights
		case strings.HasSuffix(eval, ".json"):
			if ws, ok := files.Load(eval); ok {
				w = ws.(map[string]*tablut.Weights)[ts.Game().(*tablut.Game).Rules.Family()]
			}
		}
		return position{tablut.NewSearchPosition(ts, w)}, true
	},
	Evals:    []string{evalFitted, evalHand},
	EvalFile: readEvalFile,
	Tuning: &agent.Tuning{
		Features: tablut.FeatureNames[:],
		Unit:     tablut.FeatureNames[tablut.FDefender],
		Player:   game.Player(tablut.Defenders),
		Family: func(g game.Game) string {
			if tg, ok := g.(*tablut.Game); ok {
				return tg.Rules.Family()
			}
			return ""
		},
		Sample: sample,
		File:   "tablut/weights.json",
	},
}

// The evaluations alpha-beta may use: the weights fitted for the rules'
// family (the default), or the hand weights they replaced.
const (
	evalFitted = "fitted"
	evalHand   = "hand"
)

// files holds the weights files eval= has named, by path: each a map
// from family to weights (a family the file lacks plays the game's own).
var files sync.Map

// readEvalFile reads and keeps a weights file named by eval=.
func readEvalFile(path string) error {
	if _, ok := files.Load(path); ok {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	ws, err := tablut.ReadWeights(data)
	if err != nil {
		return err
	}
	files.Store(path, ws)
	return nil
}

// sample returns the features of a quiet position, as numbers.
func sample(s game.State) ([]float64, bool) {
	ts, ok := s.(*tablut.State)
	if !ok || !ts.Quiet() {
		return nil, false
	}
	pos := ts.Position()
	f := ts.Game().(*tablut.Game).Rules.Features(&pos)
	x := make([]float64, len(f))
	for i, v := range f {
		x[i] = float64(v)
	}
	return x, true
}

type position struct{ *tablut.SearchPosition }

func (p position) Clone() alphabeta.Position { return position{p.SearchPosition.Clone()} }
