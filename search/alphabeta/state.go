package alphabeta

import (
	"github.com/muster-games/muster/game"
)

// FromState adapts any game.State without chance actions to Position, by
// cloning the state at every move: slower than a game's own core, but it
// searches every game of the registry. eval scores a state that is not
// over for a player (a pawn ≈ 100).
func FromState(s game.State, eval func(s game.State, p game.Player) int) Position {
	return &statePos{stack: []game.State{s.Clone()}, eval: eval}
}

type statePos struct {
	stack  []game.State
	movers []game.Player
	eval   func(game.State, game.Player) int
}

func (p *statePos) top() game.State { return p.stack[len(p.stack)-1] }

func (p *statePos) Moves(dst []game.Action) []game.Action { return p.top().LegalActions(dst) }

func (p *statePos) Make(a game.Action) {
	s := p.top()
	p.movers = append(p.movers, s.ToAct())
	c := s.Clone()
	c.Apply(a)
	p.stack = append(p.stack, c)
}

func (p *statePos) Unmake() {
	p.stack = p.stack[:len(p.stack)-1]
	p.movers = p.movers[:len(p.movers)-1]
}

// Side is the player to act; in a finished game, the opponent of the one
// who made the last move.
func (p *statePos) Side() int {
	s := p.top()
	if s.IsTerminal() {
		if len(p.movers) == 0 {
			return 0
		}
		return int(1 - p.movers[len(p.movers)-1])
	}
	return int(s.ToAct())
}

func (p *statePos) Over() (bool, int) {
	s := p.top()
	if !s.IsTerminal() {
		return false, 0
	}
	r := s.Returns()[p.Side()]
	switch {
	case r > 0:
		return true, 1
	case r < 0:
		return true, -1
	}
	return true, 0
}

func (p *statePos) Evaluate() int { return p.eval(p.top(), game.Player(p.Side())) }

func (p *statePos) Hash() uint64 { return p.top().Hash() }

func (p *statePos) Noisy(game.Action) bool { return false }

func (p *statePos) Clone() Position {
	return &statePos{stack: []game.State{p.top().Clone()}, eval: p.eval}
}
