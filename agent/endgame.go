package agent

import (
	"context"
	"sync"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/lanrick/endgame"
	"github.com/muster-games/muster/search"
)

// EndgameDir is where agents with endgame=yes read Lanrick's endgame
// tables (muster solve tables builds them there). Agents never build a
// table: where one is missing they search as usual. Set it before the
// first agent plays.
var EndgameDir = endgame.DefaultDir()

var (
	endgameMu     sync.Mutex
	endgameTables *endgame.Tables
)

// tables returns the tables in EndgameDir, shared by every agent (each
// table is loaded once, 7.6 MB in memory).
func tables() *endgame.Tables {
	endgameMu.Lock()
	defer endgameMu.Unlock()
	if endgameTables == nil || endgameTables.Dir != EndgameDir {
		endgameTables = &endgame.Tables{Dir: EndgameDir, NoBuild: true}
	}
	return endgameTables
}

// withEndgame plays Lanrick's final rendezvous (1893, 1899: two men a
// side, the 3-square line) perfectly from the endgame tables, and leaves
// every other position, or any whose table is missing, to its inner agent.
type withEndgame struct{ Agent }

func (w withEndgame) Act(ctx context.Context, s game.State) (search.Result, error) {
	if ls, ok := s.(*lanrick.State); ok && endgame.Applies(ls) {
		start := time.Now()
		if a, v, err := tables().Act(ls); err == nil {
			return search.Result{Action: a, PV: []game.Action{a}, Value: float64(v.Outcome), Proven: v.Outcome,
				Elapsed: time.Since(start)}, nil
		}
	}
	return w.Agent.Act(ctx, s)
}
