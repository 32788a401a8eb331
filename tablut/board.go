package tablut

import (
	"fmt"
	"math/bits"
	"strings"
)

// The board is 9×9. Squares are numbered rank by rank from a1:
//
//	9 | 72 73 74 75 76 77 78 79 80
//	8 | 63 64 65 66 67 68 69 70 71
//	7 | 54 55 56 57 58 59 60 61 62
//	6 | 45 46 47 48 49 50 51 52 53
//	5 | 36 37 38 39 40 41 42 43 44     the castle is e5 = 40
//	4 | 27 28 29 30 31 32 33 34 35
//	3 | 18 19 20 21 22 23 24 25 26
//	2 |  9 10 11 12 13 14 15 16 17
//	1 |  0  1  2  3  4  5  6  7  8
//	    a  b  c  d  e  f  g  h  i
//
// The attackers start at the edges, the defenders round the castle.
const (
	Size    = 9
	Squares = Size * Size
	Castle  = 4*Size + 4
)

// Square is a board square, 0 to 80, or NoSquare.
type Square int8

// NoSquare marks the absence of a square.
const NoSquare Square = -1

func sq(file, rank int) Square { return Square(rank*Size + file) }

// File is the square's column, 0 for a.
func (s Square) File() int { return int(s) % Size }

// Rank is the square's row, 0 for rank 1.
func (s Square) Rank() int { return int(s) / Size }

// OnEdge reports whether the square is on the border of the board.
func (s Square) OnEdge() bool {
	f, r := s.File(), s.Rank()
	return f == 0 || r == 0 || f == Size-1 || r == Size-1
}

func (s Square) String() string {
	if s < 0 || int(s) >= Squares {
		return "-"
	}
	return squareName[s]
}

// squareName are the squares' names, made once: a view names each
// square of every legal move, and names made anew cost a game in play
// memory and time.
var squareName = func() (names [Squares]string) {
	for s := range names {
		names[s] = string(rune('a'+s%Size)) + string(rune('1'+s/Size))
	}
	return names
}()

// movesFromSquare is how many moves along a rank or a file leave a
// square: the other squares of its rank and of its file.
const movesFromSquare = 2 * (Size - 1)

// lineMove is the number of the move from, to along a rank or a file
// among from's movesFromSquare (the other squares of its rank in order,
// then of its file), counted from from's first: -1 where from and to are
// the same square or not on one line.
func lineMove(from, to Square) int {
	if from < 0 || to < 0 || int(from) >= Squares || int(to) >= Squares || from == to {
		return -1
	}
	fr, ff, tr, tf := int(from)/Size, int(from)%Size, int(to)/Size, int(to)%Size
	switch {
	case fr == tr:
		if tf > ff {
			tf--
		}
		return int(from)*movesFromSquare + tf
	case ff == tf:
		if tr > fr {
			tr--
		}
		return int(from)*movesFromSquare + Size - 1 + tr
	}
	return -1
}

// moveNameLen is the length of a move's text ("e3-e1").
const moveNameLen = 5

// moveNames holds the text of every move along a rank or a file
// ("e3-e1"), moveNameLen bytes at lineMove's place, made once like the
// squares' names: one string of 6 KB, small enough to stay in the
// processor's cache while a view names its legal moves. (With a table of
// strings by from and to, 105 KB, Move's String took 3% of the server's
// processor time on a profile at 1,000 live games, for a lookup: misses
// of the cache, it seems; with this string, too little to be listed.)
var moveNames = func() string {
	b := make([]byte, Squares*movesFromSquare*moveNameLen)
	for from := range Square(Squares) {
		for to := range Square(Squares) {
			if i := lineMove(from, to); i >= 0 {
				name := squareName[from] + "-" + squareName[to]
				if len(name) != moveNameLen {
					panic("tablut: a move's name of " + name)
				}
				copy(b[i*moveNameLen:], name)
			}
		}
	}
	return string(b)
}()

// moveName is the text of the move from, to along a rank or a file; ""
// for squares not on one line.
func moveName(from, to Square) string {
	i := lineMove(from, to)
	if i < 0 {
		return ""
	}
	return moveNames[i*moveNameLen : (i+1)*moveNameLen]
}

// moveSquares are the squares of the move from, to along a rank or a
// file, [from, to]: one list for every such move, shared by all who
// describe it (none may change it; its capacity ends with it, so that an
// append copies).
func moveSquares(from, to Square) []string {
	i := lineMove(from, to)
	if i < 0 {
		return []string{from.String(), to.String()}
	}
	return squarePairs[2*i : 2*i+2 : 2*i+2]
}

// squarePairs holds the squares of every move along a rank or a file,
// two by two, at twice lineMove's place.
var squarePairs = func() []string {
	pairs := make([]string, 2*Squares*movesFromSquare)
	for from := range Square(Squares) {
		for to := range Square(Squares) {
			if i := lineMove(from, to); i >= 0 {
				pairs[2*i], pairs[2*i+1] = squareName[from], squareName[to]
			}
		}
	}
	return pairs
}()

// ParseSquare reads a square name such as "e5".
func ParseSquare(s string) (Square, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'i' || s[1] < '1' || s[1] > '9' {
		return NoSquare, fmt.Errorf("tablut: bad square %q: want a1 to i9", s)
	}
	return sq(int(s[0]-'a'), int(s[1]-'1')), nil
}

// Piece is the content of a square.
type Piece int8

const (
	Empty Piece = iota
	Attacker
	Defender
	King
)

// Side is attackers or defenders; it is also the game.Player number.
type Side int8

const (
	Attackers Side = 0
	Defenders Side = 1
)

func (s Side) String() string {
	if s == Attackers {
		return "attackers"
	}
	return "defenders"
}

func (p Piece) side() Side {
	if p == Attacker {
		return Attackers
	}
	return Defenders
}

// neighbour steps: north, south, west, east.
var steps = [4][2]int{{0, 1}, {0, -1}, {-1, 0}, {1, 0}}

// neighbour returns the square one step in direction d, or NoSquare off
// the board.
func neighbour(s Square, d int) Square {
	f, r := s.File()+steps[d][0], s.Rank()+steps[d][1]
	if f < 0 || r < 0 || f >= Size || r >= Size {
		return NoSquare
	}
	return sq(f, r)
}

// nb[s][d] caches neighbour; beyond[s][d] is the square two steps from s
// in direction d (NoSquare off the board).
var nb, beyond [Squares][4]Square

// slide[occ][i] is the set of cells reachable along a line of 9 from cell
// i when the cells in occ block: the cells before the first blocker on
// each side.
var slide [1 << Size][Size]uint16

// reachN[occ][i] is the number of cells in slide[occ][i]: a small table
// (4.6 KB) that stays in the fastest cache.
var reachN [1 << Size][Size]uint8

func init() {
	for s := Square(0); s < Squares; s++ {
		for d := 0; d < 4; d++ {
			nb[s][d] = neighbour(s, d)
			beyond[s][d] = NoSquare
			if n := nb[s][d]; n >= 0 {
				beyond[s][d] = neighbour(n, d)
			}
		}
	}
	for occ := 0; occ < 1<<Size; occ++ {
		for i := 0; i < Size; i++ {
			var m uint16
			for j := i + 1; j < Size && occ&(1<<j) == 0; j++ {
				m |= 1 << j
			}
			for j := i - 1; j >= 0 && occ&(1<<j) == 0; j-- {
				m |= 1 << j
			}
			slide[occ][i] = m
			reachN[occ][i] = uint8(bits.OnesCount16(m))
		}
	}
}

// squareSet is a set of squares as a bit mask of 81 bits in two words.
type squareSet struct{ lo, hi uint64 }

func (b *squareSet) add(s Square) {
	if s < 64 {
		b.lo |= 1 << uint(s)
	} else {
		b.hi |= 1 << uint(s-64)
	}
}

func (b *squareSet) remove(s Square) {
	if s < 64 {
		b.lo &^= 1 << uint(s)
	} else {
		b.hi &^= 1 << uint(s-64)
	}
}

func (b squareSet) has(s Square) bool {
	if s < 0 {
		return false
	}
	if s < 64 {
		return b.lo&(1<<uint(s)) != 0
	}
	return b.hi&(1<<uint(s-64)) != 0
}

// count is the number of squares in the set.
func (b squareSet) count() int { return bits.OnesCount64(b.lo) + bits.OnesCount64(b.hi) }

// meets reports whether the sets share a square.
func (b squareSet) meets(c squareSet) bool { return b.lo&c.lo|b.hi&c.hi != 0 }

// beside[s] are the squares beside s (up to four).
var beside = func() (sets [Squares]squareSet) {
	for s := Square(0); s < Squares; s++ {
		for d := 0; d < 4; d++ {
			if n := neighbour(s, d); n >= 0 {
				sets[s].add(n)
			}
		}
	}
	return sets
}()

func squareSetOf(names string) squareSet {
	var b squareSet
	for _, n := range strings.Fields(names) {
		s, err := ParseSquare(n)
		if err != nil {
			panic(err)
		}
		b.add(s)
	}
	return b
}

// The start: the 16 attacker squares are also the camps (Ashton) or forts
// (Foteviken).
var (
	startAttackers = squareSetOf("d1 e1 f1 e2 a4 a5 a6 b5 i4 i5 i6 h5 d9 e9 f9 e8")
	centralCamps   = squareSetOf("e1 a5 i5 e9")
)

// StartOTN is the start position in OpenTafl Notation, rank 1 first.
const StartOTN = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
