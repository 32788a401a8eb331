package endgame

import (
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
)

// DefaultDir is where Muster keeps the tables: muster/lanrick-endgame in
// the user's cache folder (muster solve tables builds them there).
func DefaultDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "muster", "lanrick-endgame")
	}
	return "muster-endgame"
}

// ErrMissing says a table is not on disk and Tables.NoBuild forbids
// building it.
var ErrMissing = errors.New("endgame: table not built (muster solve tables builds them)")

// Applies reports whether the tables decide a state: 1893 or 1899 under
// the rulings the tables assume (one move a man a turn, the 2-square
// limit for the opening turn of a rendezvous, no award on starting), two
// men a side, and the final rendezvous about to be marked, decided or in
// play — at the start of a turn or within it.
func Applies(s *lanrick.State) bool {
	r := s.Game().(*lanrick.Game).Rules
	if r.Version != lanrick.V1893 && r.Version != lanrick.V1899 || r.OpeningEachPlayer || r.AwardOnStart || r.MultiMove {
		return false
	}
	if s.IsTerminal() || bits.OnesCount64(uint64(s.Men(0))) != 2 || bits.OnesCount64(uint64(s.Men(1))) != 2 {
		return false
	}
	switch s.Phase() {
	case lanrick.PhaseMark:
		return true
	case lanrick.PhaseInterchange, lanrick.PhaseSwap, lanrick.PhaseMove:
		return bits.OnesCount64(uint64(s.RendezvousSquares())) == 3
	}
	return false
}

// Act chooses the best action of the player to act in a state the tables
// decide (see Applies), and its value for him: the value of the best turn
// in play, counting the turn under way as one; before play, the value of
// the rendezvous from its start. It looks ahead with the rules package's
// own actions to the end of the turn (or, before play, to its start) and
// reads the positions reached from the tables. Ties go to the first
// action in the rules package's order.
func (ts *Tables) Act(s *lanrick.State) (game.Action, Value, error) {
	if !Applies(s) {
		return 0, Value{}, fmt.Errorf("endgame: not a position of the final rendezvous with two men a side")
	}
	inTurn := 0
	if s.Phase() == lanrick.PhaseMove {
		inTurn = 1
	}
	return ts.choose(s, int(s.ToAct()), inTurn)
}

// choose returns the action best for the player to act in s and the
// value of s for player me.
func (ts *Tables) choose(s *lanrick.State, me, inTurn int) (game.Action, Value, error) {
	mover := int(s.ToAct())
	var best game.Action
	var bestV Value // for the mover
	found := false
	for _, a := range s.LegalActions(nil) {
		n := s.Copy()
		n.Apply(a)
		v, err := ts.ahead(n, me, inTurn)
		if err != nil {
			return 0, Value{}, err
		}
		if mover != me {
			v = v.neg()
		}
		if !found || v.better(bestV) {
			best, bestV, found = a, v, true
		}
	}
	if !found {
		return 0, Value{}, fmt.Errorf("endgame: no legal action in %s", s)
	}
	if mover != me {
		bestV = bestV.neg()
	}
	return best, bestV, nil
}

// ahead values s for player me: the tables' value where a turn starts in
// play, else the value of the best action for the player to act.
func (ts *Tables) ahead(s *lanrick.State, me, inTurn int) (Value, error) {
	if s.IsTerminal() {
		r := s.Result()
		switch {
		case r.Winner == game.Player(me):
			return Value{Outcome: 1, Turns: inTurn}, nil
		case r.Winner < 0:
			return Value{}, nil
		}
		return Value{Outcome: -1, Turns: inTurn}, nil
	}
	if !s.TurnStart() {
		_, v, err := ts.choose(s, me, inTurn)
		return v, err
	}
	if !Applies(s) {
		return Value{}, fmt.Errorf("endgame: play left the final rendezvous: %s", s)
	}
	look := ts.Value
	if s.Opening() {
		look = ts.Opening
	}
	side := int(s.ToAct())
	v, err := look(s.Men(0), s.Men(1), s.RendezvousSquares(), side)
	if err != nil || side == me || v.Outcome == 0 {
		return v, err
	}
	return Value{Outcome: -v.Outcome, Turns: v.Turns + inTurn}, nil
}
