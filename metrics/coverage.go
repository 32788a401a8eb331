package metrics

import (
	"strings"

	"github.com/muster-games/muster/arena"
	"github.com/muster-games/muster/game"
)

// Coverage replays a game's record and returns the share of the board's
// squares that a piece stood on at some time (Ludii's board coverage), or
// -1 when the record cannot be replayed.
func Coverage(l arena.Line) float64 {
	g, err := game.Load(l.Spec)
	if err != nil {
		return -1
	}
	rc, ok := g.(game.Recorder)
	if !ok || l.Record == "" {
		return -1
	}
	rec, err := rc.ReadRecord(strings.NewReader(l.Record))
	if err != nil {
		return -1
	}
	s := g.NewState()
	used := map[string]bool{}
	var v game.View // drawn again into its own lists after each action
	v, total := mark(v, s, used)
	for _, text := range rec.Actions {
		a, err := s.ParseAction(text)
		if err != nil {
			return -1
		}
		s.Apply(a)
		v, _ = mark(v, s, used)
	}
	if total == 0 {
		return -1
	}
	return float64(len(used)) / float64(total)
}

// mark records the occupied squares, read from the game's board view
// (drawn into v), and returns the view and the number of squares of the
// board.
func mark(v game.View, s game.State, used map[string]bool) (game.View, int) {
	v = game.AppendView(v, s)
	for _, p := range v.Pieces {
		used[p.Square] = true
	}
	return v, v.Width * v.Height
}
