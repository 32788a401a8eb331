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
// play — at the start of a turn or within it; or three men against two,
// and the 4-square rendezvous about to be marked, decided or in play
// (the five-man tables, where they are on disk).
func Applies(s *lanrick.State) bool {
	return AppliesFour(s) || AppliesFive(s)
}

func rulesApply(s *lanrick.State) bool {
	r := s.Game().(*lanrick.Game).Rules
	return (r.Version == lanrick.V1893 || r.Version == lanrick.V1899) && !r.OpeningEachPlayer && !r.AwardOnStart && !r.MultiMove && !s.IsTerminal()
}

// AppliesFour reports whether the four-man tables decide a state (see
// Applies).
func AppliesFour(s *lanrick.State) bool {
	if !rulesApply(s) || bits.OnesCount64(uint64(s.Men(0))) != 2 || bits.OnesCount64(uint64(s.Men(1))) != 2 {
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

// AppliesFive reports whether the five-man tables decide a state (see
// Applies): three men against two, the 4-square rendezvous about to be
// marked, or marked and in play (its Rule 7 conversions included).
func AppliesFive(s *lanrick.State) bool {
	if !rulesApply(s) {
		return false
	}
	nb, nw := bits.OnesCount64(uint64(s.Men(0))), bits.OnesCount64(uint64(s.Men(1)))
	if !(nb == 3 && nw == 2 || nb == 2 && nw == 3) {
		return false
	}
	switch s.Phase() {
	case lanrick.PhaseMark:
		return true
	case lanrick.PhaseInterchange, lanrick.PhaseSwap, lanrick.PhaseMove, lanrick.PhaseRemove:
		return bits.OnesCount64(uint64(s.RendezvousSquares())) == 4
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
		return 0, Value{}, fmt.Errorf("endgame: not a position of the final rendezvous with two men a side, nor of the 4-square one with three against two")
	}
	inTurn := 0
	if s.Phase() == lanrick.PhaseMove || s.Phase() == lanrick.PhaseRemove {
		inTurn = 1 // a Rule 7 conversion ends the turn under way
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
	if AppliesFive(s) {
		return ts.aheadFive(s, me, inTurn)
	}
	if s.Phase() == lanrick.PhaseMark && AppliesFour(s) && inTurn > 0 {
		// Rule 8 ended a five-man rendezvous within the turn: the final
		// mark's value, as the setter chooses it.
		return ts.finalMark(s, me, inTurn)
	}
	if !s.TurnStart() {
		_, v, err := ts.choose(s, me, inTurn)
		return v, err
	}
	if !AppliesFour(s) {
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

// noOwnMan reports whether s is played under 1899's proviso on the mark.
func noOwnMan(s *lanrick.State) bool { return s.Game().(*lanrick.Game).Rules.SetterNoOwnMan }

// aheadFive values a five-man state for player me: the five-man table's
// value at the start of an ordinary turn, else the value of the best
// action (within a turn, at the 2-square opening turn, the mark, the
// interchange, the men chosen, a Rule 7 conversion).
func (ts *Tables) aheadFive(s *lanrick.State, me, inTurn int) (Value, error) {
	if !s.TurnStart() || s.Opening() {
		if s.TurnStart() {
			// The opening turn counts as one for the player who plays it.
			side := int(s.ToAct())
			_, v, err := ts.choose(s, side, 1)
			if err != nil || side == me || v.Outcome == 0 {
				return v, err
			}
			return Value{Outcome: -v.Outcome, Turns: v.Turns + inTurn}, nil
		}
		_, v, err := ts.choose(s, me, inTurn)
		return v, err
	}
	side := int(s.ToAct())
	three, two := s.Men(0), s.Men(1)
	if bits.OnesCount64(uint64(three)) == 2 {
		three, two = two, three
	}
	v, err := ts.FiveValue(three, two, s.RendezvousSquares(), s.Men(side) == three, noOwnMan(s))
	if err != nil || side == me || v.Outcome == 0 {
		return v, err
	}
	return Value{Outcome: -v.Outcome, Turns: v.Turns + inTurn}, nil
}

// finalMark values for player me the setting of the final mark that Rule 8
// has just made due, within a turn of inTurn turns: the setter's best mark
// with Rule 5.
func (ts *Tables) finalMark(s *lanrick.State, me, inTurn int) (Value, error) {
	setter := int(s.ToAct())
	ms, err := ts.Marks(s.Men(0), s.Men(1), setter, noOwnMan(s))
	if err != nil {
		return Value{}, err
	}
	c := Choose(ms)
	if !c.Found {
		return Value{}, fmt.Errorf("endgame: no final mark in %s", s)
	}
	v := c.With.Chosen()
	if setter != me {
		v.Outcome = -v.Outcome
	}
	v.Turns += inTurn
	return v, nil
}
