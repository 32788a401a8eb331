package study

import (
	"math/rand/v2"

	"github.com/muster-games/muster/lanrick"
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

// FiveStart is a position in which three men against two can begin: the
// five men on the squares of the 5-square close rendezvous just filled
// (Rule 8 removed the one outside), the side with two to set the 4-square
// mark ("he who has fewest men on the Board", Rule 8). Three holds the
// three's men, two the two's; the colours do not matter to the rules from
// here on, so the three are black.
type FiveStart struct {
	Rdv        lanrick.Bitboard // the 5-square rendezvous just filled
	Three, Two lanrick.Bitboard
}

// FiveStarts lists the 360 starts: 36 5-square rendezvous (a field mark
// and its four diagonal neighbours) × 10 ways to give three of their
// squares to the three.
func FiveStarts() []FiveStart {
	var out []FiveStart
	for m := lanrick.Square(0); m < 64; m++ {
		rdv, ok := lanrick.Rendezvous(m, lanrick.Shape{Size: 5, Line: -1})
		if !ok {
			continue
		}
		var sq []lanrick.Bitboard
		for w := rdv; w != 0; w &= w - 1 {
			sq = append(sq, w&-w)
		}
		for a := 0; a < 5; a++ {
			for b := a + 1; b < 5; b++ {
				for c := b + 1; c < 5; c++ {
					three := sq[a] | sq[b] | sq[c]
					out = append(out, FiveStart{Rdv: rdv, Three: three, Two: rdv &^ three})
				}
			}
		}
	}
	return out
}

// Setup is a start about to be marked: white (the two) sets the
// 4-square mark of the sixth rendezvous.
func (st FiveStart) Setup() lanrick.Setup {
	return lanrick.Setup{Black: st.Three, White: st.Two, ToAct: lanrick.White, Phase: lanrick.PhaseMark,
		Rendezvous: 6, Setter: lanrick.White, Mark: lanrick.NoSquare, Size: 4, Line: -1}
}

// FiveResult is what the five-man tables say of the starts: the two's
// (the setter's) lot with his best mark, the three then deciding Rule 5's
// interchange, and the longest win.
type FiveResult struct {
	Setter  Tally
	Longest int
}

// Five values every start from the tables (all six classes must be on
// disk), with the ruleset's rules for the mark and Rule 5; done, if set,
// is told of each start's value for the setter.
func Five(ts *endgame.Tables, ruleset string, done func(FiveStart, endgame.Value)) (FiveResult, error) {
	g, err := lanrick.Load(ruleset)
	if err != nil {
		return FiveResult{}, err
	}
	var r FiveResult
	for _, st := range FiveStarts() {
		s, err := g.Build(st.Setup())
		if err != nil {
			return r, err
		}
		_, v, err := ts.Act(s)
		if err != nil {
			return r, err
		}
		r.Setter.add(v)
		r.Longest = max(r.Longest, v.Turns)
		if done != nil {
			done(st, v)
		}
	}
	return r, nil
}
