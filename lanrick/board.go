package lanrick

import (
	"fmt"
	"math/bits"
)

// Size is the board's edge and Squares its number of squares; the
// numbering is drawn in the package comment. The 28 border squares form
// the border, the other 36 the field. Sets of squares are bitboards (bit s
// for square s).
const (
	Size    = 8
	Squares = Size * Size
)

// Square is a board square, 0 to 63, or NoSquare.
type Square int8

// NoSquare marks the absence of a square.
const NoSquare Square = -1

func sq(file, rank int) Square { return Square(rank*Size + file) }

// File is the column, 0 for a.
func (s Square) File() int { return int(s) & 7 }

// Rank is the row, 0 for rank 1.
func (s Square) Rank() int { return int(s) >> 3 }

func (s Square) String() string {
	if s < 0 || s >= Squares {
		return "-"
	}
	return squareName[s]
}

// squareName are the squares' names, made once (a view names many).
var squareName = func() (names [Squares]string) {
	for s := range names {
		names[s] = string(rune('a'+s&7)) + string(rune('1'+s>>3))
	}
	return names
}()

// ParseSquare reads a square name such as "e5".
func ParseSquare(t string) (Square, error) {
	if len(t) != 2 || t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8' {
		return NoSquare, fmt.Errorf("lanrick: bad square %q: want a1 to h8", t)
	}
	return sq(int(t[0]-'a'), int(t[1]-'1')), nil
}

// Bitboard is a set of squares.
type Bitboard uint64

func (b Bitboard) has(s Square) bool { return s >= 0 && b&(1<<uint(s)) != 0 }
func (b Bitboard) count() int        { return bits.OnesCount64(uint64(b)) }
func bitOf(s Square) Bitboard        { return 1 << uint(s) }

// squares lists the squares of the set in order.
func (b Bitboard) squares(dst []Square) []Square {
	for w := uint64(b); w != 0; w &= w - 1 {
		dst = append(dst, Square(bits.TrailingZeros64(w)))
	}
	return dst
}

// Directions: north (toward black, rank 8), then clockwise.
const (
	N = iota
	NE
	E
	SE
	S
	SW
	W
	NW
)

var dirNames = [8]string{"n", "ne", "e", "se", "s", "sw", "w", "nw"}

// dirIndex is the direction named n (see dirNames), or -1.
func dirIndex(n string) int {
	for d, name := range dirNames {
		if name == n {
			return d
		}
	}
	return -1
}

var dirSteps = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// step returns the square one step from s in direction d, or NoSquare.
var step [Squares][8]Square

// Border is the set of the 28 border squares; Field the other 36.
var (
	Border Bitboard
	Field  Bitboard
	// ring lists the border squares in order round the board, clockwise
	// from a1 (a1 a2 … a8 b8 … h8 h7 … h1 g1 … b1); ringIndex inverts it.
	ring      [28]Square
	ringIndex [Squares]int8
)

func init() {
	for s := Square(0); s < Squares; s++ {
		for d := 0; d < 8; d++ {
			f, r := s.File()+dirSteps[d][0], s.Rank()+dirSteps[d][1]
			if f < 0 || r < 0 || f >= Size || r >= Size {
				step[s][d] = NoSquare
			} else {
				step[s][d] = sq(f, r)
			}
		}
		f, r := s.File(), s.Rank()
		if f == 0 || r == 0 || f == 7 || r == 7 {
			Border |= bitOf(s)
		}
		ringIndex[s] = -1
	}
	Field = ^Border
	i := 0
	for r := 0; r < 8; r++ { // a1 … a8
		ring[i] = sq(0, r)
		i++
	}
	for f := 1; f < 8; f++ { // b8 … h8
		ring[i] = sq(f, 7)
		i++
	}
	for r := 6; r >= 0; r-- { // h7 … h1
		ring[i] = sq(7, r)
		i++
	}
	for f := 6; f >= 1; f-- { // g1 … b1
		ring[i] = sq(f, 0)
		i++
	}
	for i, s := range ring {
		ringIndex[s] = int8(i)
	}
}

// rayEnd is the last square from s in direction d (s itself at the edge).
func rayEnd(s Square, d int) Square {
	for step[s][d] >= 0 {
		s = step[s][d]
	}
	return s
}

// Shape is the kind of a rendezvous: its size and, for the 3-square one,
// the orientation of its line.
type Shape struct {
	Size int // 9 … 3; 9 for every 3×3 of 1879–1881
	Line int // for Size 3: the direction N, NE, E or NW of the line; else -1
}

// dirsFor returns the directions of an 1893 shape (Def. 2–3 and §4.3 of
// the rules page): 8 and 9 all eight; 6 and 7 all but east and west (the
// squares on the mark's rank, parallel to the players' edges); 4 and 5 the
// diagonals; 3 the line.
func dirsFor(sh Shape) []int {
	switch sh.Size {
	case 9, 8:
		return []int{N, NE, E, SE, S, SW, W, NW}
	case 7, 6:
		return []int{N, NE, SE, S, SW, NW}
	case 5, 4:
		return []int{NE, SE, SW, NW}
	case 3:
		return []int{sh.Line, (sh.Line + 4) % 8}
	}
	return nil
}

// Rendezvous returns the squares of a rendezvous with its mark on m, and
// whether the shape fits there. Odd sizes are close (the mark and its
// neighbours in the shape's directions); even sizes are open (the ends of
// the mark's rays in those directions, geometric, whatever stands on them).
func Rendezvous(m Square, sh Shape) (Bitboard, bool) {
	if m < 0 || m >= Squares || sh.Size < 3 || sh.Size > 9 {
		return 0, false
	}
	if sh.Size == 3 && sh.Line != N && sh.Line != E && sh.Line != NE && sh.Line != NW {
		return 0, false
	}
	var b Bitboard
	if sh.Size%2 == 1 {
		b = bitOf(m)
		for _, d := range dirsFor(sh) {
			t := step[m][d]
			if t < 0 {
				return 0, false
			}
			b |= bitOf(t)
		}
		return b, true
	}
	for _, d := range dirsFor(sh) {
		t := rayEnd(m, d)
		if t == m {
			return 0, false
		}
		b |= bitOf(t)
	}
	return b, b.count() == sh.Size
}
