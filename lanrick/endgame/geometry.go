package endgame

import (
	"math/bits"

	"github.com/muster-games/muster/lanrick"
)

// Squares are numbered as in package lanrick (a1 = 0, h8 = 63); sets of
// squares are lanrick.Bitboards.

// step[s][d] is the square one step from s in direction d, or -1.
var step [64][8]int8

var dirs = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// pairIndex numbers the 2,016 sets of two squares; pairSquares inverts it.
const pairs = 64 * 63 / 2

var (
	pairIndex   [64][64]uint16
	pairSquares [pairs][2]int8
)

// sym[t][s] is the image of square s under the t-th symmetry of the
// board (the identity first).
var sym [8][64]int8

func init() {
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		for d, st := range dirs {
			nf, nr := f+st[0], r+st[1]
			step[s][d] = -1
			if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
				step[s][d] = int8(nr*8 + nf)
			}
		}
		for t := 0; t < 8; t++ {
			x, y := f, r
			if t&1 != 0 {
				x = 7 - x
			}
			if t&2 != 0 {
				y = 7 - y
			}
			if t&4 != 0 {
				x, y = y, x
			}
			sym[t][s] = int8(y*8 + x)
		}
	}
	n := 0
	for b := 1; b < 64; b++ {
		for a := 0; a < b; a++ {
			pairIndex[a][b] = uint16(n)
			pairIndex[b][a] = uint16(n)
			pairSquares[n] = [2]int8{int8(a), int8(b)}
			n++
		}
	}
}

func bit(s int8) uint64 { return 1 << uint(s&63) }

// countTurns counts the turns appendTurns would list, and reports whether
// one of them brings both men into rdv (the turn then ends there, won).
func countTurns(a, b int8, occ uint64, budget int, rdv uint64) (n int, won bool) {
	for i := 0; i < 2; i++ {
		from, other := a, b
		if i == 1 {
			from, other = b, a
		}
		occ1 := occ &^ bit(from)
		otherIn := rdv&bit(other) != 0
		for d := 0; d < 8; d++ {
			t := from
			for k := 1; k <= budget; k++ {
				t = step[t][d]
				if t < 0 || occ1&bit(t) != 0 {
					break
				}
				n++
				tIn := rdv&bit(t) != 0
				if tIn && otherIn {
					return n, true
				}
				rem := budget - k
				occ2 := (occ1 | bit(t)) &^ bit(other)
				for d2 := 0; d2 < 8 && rem > 0; d2++ {
					u := other
					for k2 := 1; k2 <= rem; k2++ {
						u = step[u][d2]
						if u < 0 || occ2&bit(u) != 0 {
							break
						}
						n++
						if tIn && rdv&bit(u) != 0 {
							return n, true
						}
					}
				}
			}
		}
	}
	return n, false
}

// transform maps a set of squares by the t-th symmetry.
func transform(t int, b lanrick.Bitboard) lanrick.Bitboard {
	var out lanrick.Bitboard
	for w := uint64(b); w != 0; w &= w - 1 {
		out |= 1 << uint(sym[t][bits.TrailingZeros64(w)])
	}
	return out
}

// ClassOf is the line whose table holds line (one of Classes), or the
// 4-square rendezvous whose five-man table holds a rendezvous (one of
// FiveClasses): the smallest image under the board's symmetries.
func ClassOf(line lanrick.Bitboard) lanrick.Bitboard {
	c, _ := canonical(line)
	return c
}

// canonical returns the representative of a line's class under the
// board's symmetries (the smallest image) and a symmetry taking the line
// to it.
func canonical(line lanrick.Bitboard) (lanrick.Bitboard, int) {
	best, bt := line, 0
	for t := 1; t < 8; t++ {
		if im := transform(t, line); im < best {
			best, bt = im, t
		}
	}
	return best, bt
}

// Line is a 3-square rendezvous: its mark and direction (lanrick.N, NE, E
// or NW) and its squares.
type Line struct {
	Mark    lanrick.Square
	Dir     int
	Squares lanrick.Bitboard
}

// String writes the line as the mark action does ("d5 ne").
func (l Line) String() string {
	return l.Mark.String() + " " + lanrick.Directions()[l.Dir]
}

// Lines lists the 168 3-square rendezvous of Def. 2 (any non-corner mark;
// on the border only along the edge, A-G14), in the order of their marks.
func Lines() []Line {
	var out []Line
	for m := lanrick.Square(0); m < 64; m++ {
		for _, d := range [4]int{lanrick.N, lanrick.NE, lanrick.E, lanrick.NW} {
			b, ok := lanrick.Rendezvous(m, lanrick.Shape{Size: 3, Line: d})
			if ok {
				out = append(out, Line{Mark: m, Dir: d, Squares: b})
			}
		}
	}
	return out
}

// Classes returns the canonical lines, one per class of the symmetry.
func Classes() []lanrick.Bitboard {
	seen := map[lanrick.Bitboard]bool{}
	var out []lanrick.Bitboard
	for _, l := range Lines() {
		c, _ := canonical(l.Squares)
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// appendTurns appends the mover's two men after every man-move of every
// turn of the men on a and b, the men on occ (a and b included) standing
// in the way, with budget squares to spend: Rule 1's straight lines of
// unoccupied squares, each man moved at most once (Rule 3), at least one
// square. Every sequence of man-moves is a turn that may end there, so the
// entries are exactly the turns, each sequence once (moving A then B and
// moving B then A are two entries); the first man's square comes first.
func appendTurns(dst [][2]int8, a, b int8, occ uint64, budget int) [][2]int8 {
	for i := 0; i < 2; i++ {
		from, other := a, b
		if i == 1 {
			from, other = b, a
		}
		occ1 := occ &^ bit(from)
		for d := 0; d < 8; d++ {
			t := from
			for k := 1; k <= budget; k++ {
				t = step[t][d]
				if t < 0 || occ1&bit(t) != 0 {
					break
				}
				dst = append(dst, [2]int8{t, other})
				rem := budget - k
				occ2 := (occ1 | bit(t)) &^ bit(other)
				for d2 := 0; d2 < 8 && rem > 0; d2++ {
					u := other
					for k2 := 1; k2 <= rem; k2++ {
						u = step[u][d2]
						if u < 0 || occ2&bit(u) != 0 {
							break
						}
						dst = append(dst, [2]int8{t, u})
					}
				}
			}
		}
	}
	return dst
}
