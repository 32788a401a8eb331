package agent

import (
	"sync"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/alphabeta"
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
	// interface; without it alpha-beta searches the state generically.
	Position func(s game.State) (alphabeta.Position, bool)
	// Oracle, if set, plays perfectly where it can (endgame tables) and
	// reports false elsewhere; agents with endgame=yes consult it.
	Oracle func(s game.State) (search.Result, bool)
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

// supportOf returns the support registered for g's game, or none.
func supportOf(g game.Game) Support {
	supportMu.RLock()
	defer supportMu.RUnlock()
	return supports[g.Name()]
}

// defaultLevels are the levels of a game whose support names none.
var defaultLevels = map[string]string{
	"easy":   "mcts(iterations=200)",
	"medium": "mcts(iterations=2000)",
	"hard":   "mcts(iterations=10000)",
	"max":    "mcts(iterations=60000,threads=0)",
}
