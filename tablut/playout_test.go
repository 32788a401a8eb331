package tablut

import (
	"math/rand/v2"
	"testing"
)

// TestLineCountsFitPickLine: pickLine adds eight lines' counts in a byte,
// which holds while no line has more than 16 moves for a side.
func TestLineCountsFitPickLine(t *testing.T) {
	most := 0
	for _, n := range lineTable() {
		most = max(most, int(n))
	}
	if most > 16 || most < Size-1 {
		t.Fatalf("a line has up to %d moves for a side; pickLine needs at most 16, and a man alone on a line has 8", most)
	}
}

// TestMoveTableAsTernTable: for every line's men and each side, the
// moves moveTable lists (as many as ternTable counts) are the side's
// moves along the line, each once, by man from the lowest cell and then
// by cell reached from the lowest (the order pickLine counts them in).
func TestMoveTableAsTernTable(t *testing.T) {
	mt, tt := moveTable(), ternTable()
	for i := range mt {
		men, block := ternLine(i)
		occ := men[Attackers] | men[Defenders] | block
		for side := range 2 {
			n := int(tt[i] >> (8 * side) & 0xff)
			last := -1
			for x, mv := range mt[i][side][:n] {
				at, to := int(mv&0xf), int(mv>>4)
				if men[side]&(1<<at) == 0 || slide[occ][at]&(1<<to) == 0 || at*Size+to <= last {
					t.Fatalf("line %d, side %d: move %d is %d to %d, after %d (men %09b, occupied %09b)", i, side, x, at, to, last, men[side], occ)
				}
				last = at*Size + to
			}
		}
	}
}

// TestPickLineAsScan: pickLine finds the line and the move along it that
// a scan of the counts one by one finds, for any counts up to 16 and any
// move.
func TestPickLineAsScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var counts [24]uint8
		total := 0
		for i := range 2 * Size {
			if rng.IntN(3) > 0 {
				counts[i] = uint8(rng.IntN(17))
			}
			total += int(counts[i])
		}
		if total == 0 {
			continue
		}
		x := rng.IntN(total)
		wantX, wantI := x, 0
		for wantX >= int(counts[wantI]) {
			wantX -= int(counts[wantI])
			wantI++
		}
		if gotX, gotI := pickLine(&counts, x); gotX != wantX || gotI != wantI {
			t.Fatalf("counts %v, move %d: pickLine says line %d move %d, the scan line %d move %d", counts[:2*Size], x, gotI, gotX, wantI, wantX)
		}
	}
}
