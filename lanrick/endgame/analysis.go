package endgame

import (
	"github.com/muster-games/muster/lanrick"
)

// MarkValue is what one mark of the final rendezvous is worth to the
// player who sets it, the other then having his 2-square opening turn.
type MarkValue struct {
	Line Line
	// Kept: the men stay where they are. Interchanged: the other demanded
	// an interchange (Rule 5), so the setter's men and his change squares.
	// Turns count from the other's opening turn, which is turn 1.
	Kept, Interchanged Value
}

// Chosen is the mark's value when the other decides well under Rule 5:
// the worse of the two for the setter.
func (m MarkValue) Chosen() Value {
	if m.Kept.better(m.Interchanged) {
		return m.Interchanged
	}
	return m.Kept
}

// Marks values every line the setter may choose with two men a side on
// black and white (V6a Rule 4: any non-corner square, along the edge on
// the border). noOwnMan applies 1899's proviso: "provided that he, who
// sets it, has no man in the Rendezvous".
func (ts *Tables) Marks(black, white lanrick.Bitboard, setter int, noOwnMan bool) ([]MarkValue, error) {
	mine := black
	if setter == 1 {
		mine = white
	}
	var out []MarkValue
	for _, l := range MarkLines(mine, noOwnMan) {
		kept, err := ts.Opening(black, white, l.Squares, 1-setter)
		if err != nil {
			return nil, err
		}
		inter, err := ts.Opening(white, black, l.Squares, 1-setter)
		if err != nil {
			return nil, err
		}
		out = append(out, MarkValue{Line: l, Kept: kept.neg(), Interchanged: inter.neg()})
	}
	return out, nil
}

// MarkLines lists the lines a setter with his men on mine may choose;
// noOwnMan applies 1899's proviso.
func MarkLines(mine lanrick.Bitboard, noOwnMan bool) []Line {
	var out []Line
	for _, l := range Lines() {
		if !noOwnMan || mine&l.Squares == 0 {
			out = append(out, l)
		}
	}
	return out
}

// Choice is the setter's best choice of mark, without Rule 5 (the other
// cannot interchange) and with it (he interchanges when that is better
// for him). Found is false when the setter had no legal mark.
type Choice struct {
	Without, With MarkValue
	Found         bool
}

// Choose picks the setter's best marks.
func Choose(ms []MarkValue) Choice {
	var c Choice
	for i, m := range ms {
		if i == 0 || m.Kept.better(c.Without.Kept) {
			c.Without = m
		}
		if i == 0 || m.Chosen().better(c.With.Chosen()) {
			c.With = m
		}
	}
	c.Found = len(ms) > 0
	return c
}

// Arising lists the positions in which the final rendezvous can begin.
// A 4-square rendezvous (the diagonal ray-ends of a mark on a field
// square, Def. 3) ends, short of Rule 9, only when a player with two men
// fills it (Rule 8) — with three he would leave his enemy one man — so
// the four men left stand on its four squares, two a side, and the
// player who just lost a man sets the next mark ("in the case of
// equality he who has just lost a man", Rule 8). Each entry gives black's
// men, white's and the setter.
func Arising() []Start {
	seen := map[lanrick.Bitboard]bool{}
	var out []Start
	for m := lanrick.Square(0); m < 64; m++ {
		sq, ok := lanrick.Rendezvous(m, lanrick.Shape{Size: 4, Line: -1})
		if !ok || seen[sq] {
			continue
		}
		seen[sq] = true
		var s [4]lanrick.Bitboard
		i := 0
		for w := sq; w != 0; w &= w - 1 {
			s[i] = w & -w
			i++
		}
		for a := 0; a < 4; a++ {
			for b := a + 1; b < 4; b++ {
				black := s[a] | s[b]
				for setter := 0; setter < 2; setter++ {
					out = append(out, Start{Black: black, White: sq &^ black, Setter: setter})
				}
			}
		}
	}
	return out
}

// Start is a position before the final mark is set.
type Start struct {
	Black, White lanrick.Bitboard
	Setter       int
}
