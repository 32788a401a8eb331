// Package ai gives Muster's agents what they need of Tablut beyond the
// game contract: the evaluation, alpha-beta's fast position over Tablut's
// own core, and the levels (alpha-beta at growing depths). It registers
// them with the agent package when imported.
package ai

import (
	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search/alphabeta"
	"github.com/muster-games/muster/tablut"
)

func init() {
	agent.Register(tablut.Info.Name, agent.Support{
		Eval:         tablut.Value,
		PlayoutLimit: 40,
		Levels: map[string]string{
			"easy":   "alphabeta(depth=1)",
			"medium": "alphabeta(depth=2)",
			"hard":   "alphabeta(depth=4)",
			"max":    "alphabeta(time=5s)",
		},
		Position: func(s game.State) (alphabeta.Position, bool) {
			ts, ok := s.(*tablut.State)
			if !ok {
				return nil, false
			}
			return Position(ts), true
		},
	})
}

// Position adapts a Tablut state to the alpha-beta search (a copy is
// searched).
func Position(s *tablut.State) alphabeta.Position {
	return position{tablut.NewSearchPosition(s)}
}

type position struct{ *tablut.SearchPosition }

func (p position) Clone() alphabeta.Position { return position{p.SearchPosition.Clone()} }
