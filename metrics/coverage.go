package metrics

import (
	"math/bits"
	"strings"

	"github.com/muster-games/muster/arena"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/tablut"
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
	used := map[int]bool{}
	total := mark(s, used)
	for _, text := range rec.Actions {
		a, err := s.ParseAction(text)
		if err != nil {
			return -1
		}
		s.Apply(a)
		mark(s, used)
	}
	if total == 0 {
		return -1
	}
	return float64(len(used)) / float64(total)
}

// mark records the occupied squares and returns the board's size.
func mark(s game.State, used map[int]bool) int {
	switch st := s.(type) {
	case *tablut.State:
		for q := tablut.Square(0); q < tablut.Squares; q++ {
			if st.At(q) != tablut.Empty {
				used[int(q)] = true
			}
		}
		return tablut.Squares
	case *lanrick.State:
		for p := 0; p < 2; p++ {
			for w := uint64(st.Men(p)); w != 0; w &= w - 1 {
				used[bits.TrailingZeros64(w)] = true
			}
		}
		return lanrick.Squares
	}
	return 0
}
