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

// withTurns plays from its game's turn-level search wherever that search
// applies, and leaves every other position to its inner agent.
type withTurns struct {
	Agent
	search func(game.State, int) (search.Result, bool)
	depth  int
}

func (w withTurns) Act(ctx context.Context, s game.State) (search.Result, error) {
	if res, ok := w.search(s, w.depth); ok {
		return res, nil
	}
	return w.Agent.Act(ctx, s)
}
