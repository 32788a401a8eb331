package agent

import (
	"context"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
)

// withOracle plays from its game's oracle (Lanrick's endgame tables)
// wherever the oracle knows the answer, and leaves every other position
// to its inner agent.
type withOracle struct {
	Agent
	oracle func(game.State) (search.Result, bool)
}

func (w withOracle) Act(ctx context.Context, s game.State) (search.Result, error) {
	if res, ok := w.oracle(s); ok {
		return res, nil
	}
	return w.Agent.Act(ctx, s)
}
