package endgame

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/muster-games/muster/lanrick"
)

// Budgets of Rule 3 with two men a side.
const (
	turnBudget    = 3 // "3 … according as he has … less than 4 men"
	openingBudget = 2 // "In playing the first turn for a Rendezvous, a Player may move 2 squares only"
)

// stride is the number of entries for one side to move: black pair ×
// white pair.
const stride = pairs * pairs

// Table is the solved race for one 3-square line: for every placing of two
// black and two white men and each side to move, at the start of a turn
// that is not a rendezvous' 2-square opening turn, the number of turns to
// the end under perfect play (see Value).
type Table struct {
	Line lanrick.Bitboard
	// d[side*stride + otherPair*pairs + moverPair]: 0 drawn (or two men on
	// one square), odd n: the side to move wins with his ((n+1)/2)-th turn
	// from here, even n: he loses, the other winning with his (n/2)-th.
	d []uint8
}

// Value is the result of a position for the player to move.
type Value struct {
	// Outcome is +1 won, -1 lost, 0 drawn, for the player to move.
	Outcome int
	// Turns counts the turns to the end, both players', the winning turn
	// included (0 for a draw): 1 wins this turn, 2 loses on the other's
	// next turn, and so on.
	Turns int
}

func (v Value) String() string {
	switch v.Outcome {
	case 1:
		return fmt.Sprintf("win in %d turns", v.Turns)
	case -1:
		return fmt.Sprintf("loss in %d turns", v.Turns)
	}
	return "draw"
}

// better reports whether v is better than w for the player they belong to
// (a win beats a draw beats a loss; sooner wins and later losses are
// better).
func (v Value) better(w Value) bool {
	if v.Outcome != w.Outcome {
		return v.Outcome > w.Outcome
	}
	if v.Outcome > 0 {
		return v.Turns < w.Turns
	}
	return v.Turns > w.Turns
}

// neg is v for the other player, over the same turns (the setter's value
// of the opening turn the other plays, say).
func (v Value) neg() Value { return Value{Outcome: -v.Outcome, Turns: v.Turns} }

// after returns the value, for the player who moved into a position, of
// that position worth v to the player then to move.
func (v Value) after() Value {
	if v.Outcome == 0 {
		return v
	}
	return Value{Outcome: -v.Outcome, Turns: v.Turns + 1}
}

func decode(n uint8) Value {
	switch {
	case n == 0:
		return Value{}
	case n%2 == 1:
		return Value{Outcome: 1, Turns: int(n)}
	}
	return Value{Outcome: -1, Turns: int(n)}
}

// index returns the entry of a position, men given as bitboards of two:
// side, then the other player's men, then the mover's.
func index(side int, black, white uint64) int {
	mover, other := black, white
	if side == 1 {
		mover, other = white, black
	}
	m0, m1 := bits.TrailingZeros64(mover), 63-bits.LeadingZeros64(mover)
	o0, o1 := bits.TrailingZeros64(other), 63-bits.LeadingZeros64(other)
	return side*stride + int(pairIndex[o0][o1])*pairs + int(pairIndex[m0][m1])
}

// ErrShape says a position is not one the tables hold.
var ErrShape = errors.New("endgame: not two men a side on distinct squares")

// Value returns the value of a position for the side to move (lanrick's
// Black 0 or White 1) at the start of an ordinary turn; black and white
// must hold two men each on four distinct squares.
func (t *Table) Value(black, white lanrick.Bitboard, side int) (Value, error) {
	if bits.OnesCount64(uint64(black)) != 2 || bits.OnesCount64(uint64(white)) != 2 || black&white != 0 || side&^1 != 0 {
		return Value{}, ErrShape
	}
	return decode(t.d[index(side, uint64(black), uint64(white))]), nil
}

// Build solves the race for one line. It runs on one goroutine over
// arrays of its own.
func Build(line lanrick.Bitboard) (*Table, error) {
	if bits.OnesCount64(uint64(line)) != 3 {
		return nil, fmt.Errorf("endgame: a line has 3 squares, not %d", bits.OnesCount64(uint64(line)))
	}
	t := &Table{Line: line, d: make([]uint8, 2*stride)}
	count := make([]uint16, 2*stride)
	queue, err := t.forward(count, uint64(line))
	if err != nil {
		return nil, err
	}
	return t, t.backward(count, queue)
}

// forward marks the positions won this turn and counts the turns of every
// other (with multiplicity); it returns the won ones. Entries are laid out
// so that the men of the player to move vary fastest: the predecessors of
// a position differ only in those. Like Build it touches only the table's
// own arrays.
func (t *Table) forward(count []uint16, rdv uint64) ([]uint32, error) {
	queue := make([]uint32, 0, 1<<20)
	for side := 0; side < 2; side++ {
		for op := 0; op < pairs; op++ {
			oq := pairSquares[op]
			others := bit(oq[0]) | bit(oq[1])
			base := side*stride + op*pairs
			for mp := 0; mp < pairs; mp++ {
				mq := pairSquares[mp]
				if others&(bit(mq[0])|bit(mq[1])) != 0 {
					continue
				}
				i := base + mp
				n, won := countTurns(mq[0], mq[1], others|bit(mq[0])|bit(mq[1]), turnBudget, rdv)
				switch {
				case won:
					t.d[i] = 1
					queue = append(queue, uint32(i))
				case n == 0:
					// Impossible with four men: one of two men always has a
					// free neighbour. A pass would need its own handling.
					return nil, fmt.Errorf("endgame: no legal turn in entry %d", i)
				case n > 65535:
					return nil, fmt.Errorf("endgame: %d turns overflow the counter", n)
				default:
					count[i] = uint16(n)
				}
			}
		}
	}
	return queue, nil
}

// backward works in order of distance: a position whose player to move
// loses makes every predecessor a win; one he wins takes one turn off each
// predecessor's count, and a predecessor with none left is lost.
// Predecessors are found by the same generator, turns being reversible
// (the reverse of moving A then B is moving B back then A back, over the
// same squares).
func (t *Table) backward(count []uint16, queue []uint32) error {
	buf := make([][2]int8, 0, 512)
	for head := 0; head < len(queue); head++ {
		i := int(queue[head])
		side := i / stride
		rest := i % stride
		// Here the player to move is side; the men that moved into this
		// position are the other's (the high pair), side's are fixed.
		moving, fixed := pairSquares[rest/pairs], pairSquares[rest%pairs]
		n := t.d[i]
		if n == 255 {
			return errors.New("endgame: distance overflow")
		}
		lost := n%2 == 0
		occ := bit(moving[0]) | bit(moving[1]) | bit(fixed[0]) | bit(fixed[1])
		base := (1-side)*stride + int(pairIndex[fixed[0]][fixed[1]])*pairs
		buf = appendTurns(buf[:0], moving[0], moving[1], occ, turnBudget)
		for _, m := range buf {
			j := base + int(pairIndex[m[0]][m[1]])
			if t.d[j] != 0 {
				continue
			}
			if !lost {
				if count[j]--; count[j] != 0 {
					continue
				}
			}
			t.d[j] = n + 1
			queue = append(queue, uint32(j))
		}
	}
	return nil
}
