// Package ai gives Muster's agents what they need of Lanrick beyond the
// game contract: Carroll's hints as an evaluation, and the endgame tables
// as an oracle of the final rendezvous (1893, 1899). It registers them
// with the agent package when imported.
package ai

import (
	"sync"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/lanrick/endgame"
	"github.com/muster-games/muster/search"
)

func init() {
	agent.Register(lanrick.Info.Name, agent.Support{
		Eval:         lanrick.Evaluate,
		PlayoutLimit: 24,
		Levels: map[string]string{
			"easy":   "mcts(iterations=200)",
			"medium": "mcts(iterations=2000)",
			"hard":   "mcts(iterations=10000,endgame=yes)",
			"max":    "mcts(iterations=60000,threads=0,endgame=yes)",
		},
		Oracle: oracle,
	})
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

// oracle plays the final rendezvous (two men a side, the 3-square line)
// perfectly from the tables on disk; elsewhere, or where a table is
// missing, it does not know.
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
	return search.Result{Action: a, PV: []game.Action{a}, Value: float64(v.Outcome), Proven: v.Outcome, Elapsed: time.Since(start)}, true
}
