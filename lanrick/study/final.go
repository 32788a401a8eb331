package study

import (
	"math/rand/v2"

	"github.com/muster-games/muster/lanrick/endgame"
)

// Tally counts the setter's results with his best mark.
type Tally struct {
	Win, Loss, Draw int
	WinTurns        int // the turns his wins take, summed
}

func (t *Tally) add(v endgame.Value) {
	switch v.Outcome {
	case 1:
		t.Win++
		t.WinTurns += v.Turns
	case -1:
		t.Loss++
	default:
		t.Draw++
	}
}

// Positions is the number of positions counted.
func (t Tally) Positions() int { return t.Win + t.Loss + t.Draw }

// FinalResult is the setter's lot in the final rendezvous of 1893 and
// 1899 without and with Rule 5's interchange.
type FinalResult struct {
	Positions     int
	NoMark        int // positions with no legal mark, left out
	Without, With Tally
}

// Final answers Carroll's claim of the 1893 Hints ("the mere setting of
// the Mark would, but for this Rule, decide the Game") over starts: for
// each, the setter's best mark without the interchange and with it.
// noOwnMan is 1899's rule that the setter may not mark a line holding one
// of his men.
func Final(ts *endgame.Tables, starts []endgame.Start, noOwnMan bool) (FinalResult, error) {
	r := FinalResult{Positions: len(starts)}
	for _, st := range starts {
		ms, err := ts.Marks(st.Black, st.White, st.Setter, noOwnMan)
		if err != nil {
			return r, err
		}
		if len(ms) == 0 {
			r.NoMark++
			continue
		}
		c := endgame.Choose(ms)
		r.Without.add(c.Without.Kept)
		r.With.add(c.With.Chosen())
	}
	return r, nil
}

// RandomStarts places two men a side at random n times, the setter drawn
// too.
func RandomStarts(n int, seed uint64) []endgame.Start {
	r := rand.New(rand.NewPCG(seed, 1893))
	starts := make([]endgame.Start, n)
	for i := range starts {
		black, white := endgame.RandomPosition(r)
		starts[i] = endgame.Start{Black: black, White: white, Setter: r.IntN(2)}
	}
	return starts
}
