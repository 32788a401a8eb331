package tablut

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"sync"

	"github.com/muster-games/muster/game"
)

// lines is what playByLine keeps of a position besides its board, king
// and hash: each side's men along each line, the ranks 0–8 then the
// files 9–17, and the moves each side has along each line and in all.
// With ranks and files in one array, a move touches its lines by table
// rather than by branch: it runs along line i from cell at to cell to,
// and crosses lines cross[i]+at and cross[i]+to at their cell cell[i].
// Each line also has its men as one number in base 3 (idx: a cell's digit
// is 0 when empty, 1 for an attacker, 2 for a defender or the king), plus
// ternN on a line through the castle, by which recount reads both sides'
// moves along it at once from ternCounts, kept up as the men move.
type lines struct {
	men   [2][2 * Size]uint16
	n     [2][24]uint8 // the 18 lines' counts, then 0s: three words of 8
	total [2]int16
	block [2 * Size]uint16
	idx   [2 * Size]uint16
}

const ternN = 19683 // 3^Size

// pow3[c] is cell c's digit's weight in a line's idx.
var pow3 = func() (p [Size]uint16) {
	w := uint16(1)
	for c := range p {
		p[c] = w
		w *= 3
	}
	return p
}()

var (
	ternOnce   sync.Once
	ternCounts *[2 * ternN]uint16
)

// ternTable returns the number of moves along a line for each idx: the
// attackers' in the low byte, the defenders' in the high one; the first
// ternN entries for a line with no blocked cell, the others for a line
// whose middle cell, the castle, blocks (the only blocked cell under rules
// that count moves by line).
func ternTable() *[2 * ternN]uint16 {
	ternOnce.Do(func() {
		lt := lineTable()
		t := new([2 * ternN]uint16)
		for i := range t {
			men, block := ternLine(i)
			o := uint32(men[Attackers]|men[Defenders]|block) << Size
			t[i] = uint16(lt[o|uint32(men[Attackers])]) | uint16(lt[o|uint32(men[Defenders])])<<8
		}
		ternCounts = t
	})
	return ternCounts
}

// ternLine is the line whose idx is i: each side's men (a cell's digit 1
// an attacker's, 2 a defender's or the king's) and its blocked cell, the
// castle in the middle where i is ternN or more.
func ternLine(i int) (men [2]uint16, block uint16) {
	if i >= ternN {
		block = 1 << (Size / 2)
	}
	for c, v := 0, i%ternN; c < Size; c, v = c+1, v/3 {
		if d := v % 3; d > 0 {
			men[d-1] |= 1 << c
		}
	}
	return men, block
}

var (
	moveOnce  sync.Once
	lineMoves *[2 * ternN][2][16]uint8
)

// moveTable returns, for each idx (as in ternTable) and side, the moves
// along the line in the order pickLine counts them: by man from the
// lowest cell, then by cell reached from the lowest, each as the man's
// cell in the low four bits and the cell reached in the high four.
func moveTable() *[2 * ternN][2][16]uint8 {
	moveOnce.Do(func() {
		t := new([2 * ternN][2][16]uint8)
		for i := range t {
			men, block := ternLine(i)
			occ := men[Attackers] | men[Defenders] | block
			for side := range 2 {
				x := 0
				for m := men[side]; m != 0; m &= m - 1 {
					at := bits.TrailingZeros16(m)
					for r := slide[occ][at]; r != 0; r &= r - 1 {
						t[i][side][x] = uint8(at) | uint8(bits.TrailingZeros16(r))<<4
						x++
					}
				}
			}
		}
		lineMoves = t
	})
	return lineMoves
}

// tern3[m] is the sum of pow3 over the cells of m: a line's idx is
// tern3[attackers] + 2*tern3[defenders].
var tern3 = func() (t [1 << Size]uint16) {
	for m := range t {
		for c := 0; c < Size; c++ {
			if m&(1<<c) != 0 {
				t[m] += pow3[c]
			}
		}
	}
	return t
}()

// Tables for lines: lineSq[i][c] is the square of cell c of line i;
// cross[i] is where the lines crossing line i begin (the files for a
// rank, the ranks for a file) and cell[i] is line i's cell along them.
var (
	lineSq [2 * Size][Size]Square
	cross  [2 * Size]uint8
	cell   [2 * Size]uint8
)

func init() {
	for i := 0; i < Size; i++ {
		for c := 0; c < Size; c++ {
			lineSq[i][c] = sq(c, i)
			lineSq[Size+i][c] = sq(i, c)
		}
		cross[i], cell[i] = Size, uint8(i)
		cross[Size+i], cell[Size+i] = 0, uint8(i)
	}
}

// playByLine is Playout under rules that count moves by line (byLine),
// with no encirclement and no attackers made to vary: the moves, their
// order and the ends are those of pickLine and move, one for one, but a
// move keeps only what the next draw and the rules' ends read (the board,
// the king, the hash and the history in the state; each side's men and
// moves along each line in lines), and the rest of the position is made
// once at the end.
func (s *State) playByLine(rng *rand.Rand, maxActions int) int {
	r := &s.g.Rules
	p := &s.pos
	t := ternTable()
	mt := moveTable()
	if !p.linesOK {
		r.countAllLines(p)
	}
	var l lines
	for side := range 2 {
		copy(l.men[side][:Size], p.sideRanks[side][:])
		copy(l.men[side][Size:], p.sideFiles[side][:])
	}
	for side := range 2 {
		copy(l.n[side][:], p.lineN[side][:])
	}
	l.total = p.moveN
	copy(l.block[:Size], r.lineBlock[:])
	copy(l.block[Size:], r.lineBlock[:])
	for i := range l.idx {
		l.idx[i] = tern3[l.men[Attackers][i]] + 2*tern3[l.men[Defenders][i]]
		if l.block[i] != 0 {
			l.idx[i] += ternN
		}
	}
	defer l.store(p)
	var seen positionFilter
	seen.reset(s.hashes[s.lastIrrev:])

	n := 0
	for !s.over {
		side := p.toMove
		c := int(l.total[side])
		if c == 0 && r.NoMoves != NoMovesPass {
			s.noMoves()
			break
		}
		if n >= maxActions {
			break
		}
		n++
		if c == 0 {
			s.move(Pass) // judged whole; it takes nothing, so seen goes on
			seen.add(p.hash)
			continue
		}
		// The move: the line found by pickLine, then the x-th move
		// along it in moveTable, counted as (*Rules).pickLine counts.
		x := rng.IntN(c)
		x, i := pickLine(&l.n[side], x)
		mv := mt[l.idx[i]][side][x]
		at, to := int(mv&0xf), int(mv>>4)
		from, dest := lineSq[i][at], lineSq[i][to]
		s.actions = append(s.actions, game.Action(NewMove(from, dest)))

		piece := p.board[from]
		p.board[from], p.board[dest] = Empty, piece
		ca, ct, k := int(cross[i])+at, int(cross[i])+to, cell[i]
		men := &l.men[side]
		men[i] ^= 1<<at | 1<<to
		men[ca] ^= 1 << k
		men[ct] ^= 1 << k
		w := uint16(side + 1)
		l.idx[i] += w * (pow3[to] - pow3[at])
		l.idx[ca] -= w * pow3[k]
		l.idx[ct] += w * pow3[k]
		p.hash ^= zobrist[piece][from] ^ zobrist[piece][dest] ^ zobristSide
		if piece == King {
			p.king = dest
		}

		// Captures: a soldier of the other side beside dest with a
		// hostile square beyond it.
		var caps Captures
		enemy := 1 - side
		if (piece != King || r.KingArmed) && l.men[enemy][i]&flanked(men[i]|l.block[i], to)|l.men[enemy][ct]&flanked(men[ct]|l.block[ct], int(k)) != 0 {
			caps = r.capturesBeside(p, dest, piece)
			for _, v := range caps.Sq[:caps.N] {
				vr, vf := v.Rank(), v.File()
				p.hash ^= zobrist[p.board[v]][v]
				p.board[v] = Empty
				l.men[enemy][vr] &^= 1 << vf
				l.men[enemy][Size+vf] &^= 1 << vr
				l.idx[vr] -= uint16(enemy+1) * pow3[vf]
				l.idx[Size+vf] -= uint16(enemy+1) * pow3[vr]
			}
		}
		kingTaken := false
		if d := int(p.king) - int(dest); side == Attackers && (d == Size || d == -Size || (d == 1 || d == -1) && int(p.king)/Size == int(dest)/Size) {
			kingTaken = r.kingCaptured(p, dest)
		}
		p.toMove = enemy

		// The lines the move and its captures changed, counted again.
		l.recount(t, i)
		l.recount(t, ca)
		l.recount(t, ct)
		for _, v := range caps.Sq[:caps.N] {
			l.recount(t, v.Rank())
			l.recount(t, Size+v.File())
		}

		if caps.N > 0 {
			s.lastIrrev = len(s.hashes)
			seen = positionFilter{}
		}
		s.passes = 0
		s.hashes = append(s.hashes, p.hash)
		again := r.Repetition != RepNone && seen.add(p.hash)
		switch {
		case kingTaken:
			s.end(Attackers, reasonKingCaptured)
		case piece == King && dest.OnEdge():
			s.end(Defenders, reasonKingEscaped)
		case again || r.TurnLimit > 0 && len(s.actions) >= r.TurnLimit:
			// The other ends (a king on the edge, two passes, the
			// encirclement) cannot follow a move here, nor a
			// repetition where the position is new since the last
			// capture (seen).
			s.judgeButMoves(side)
		}
	}
	return n
}

// positionFilter notes the positions since the last capture for a
// playout, which only goes forward, so that a repetition is looked for in
// the history (occurrences, a scan of the positions since the capture,
// once a third of a linnaeus playout's time) only where the position may
// have occurred before: a bit for each position, by the top ten bits of
// its hash. A clear bit says the position is new; a set one, that it may
// not be (about one in ten of them where 100 positions have passed since
// the last capture).
type positionFilter [16]uint64

// reset notes the positions hs, and no other.
func (f *positionFilter) reset(hs []uint64) {
	*f = positionFilter{}
	for _, h := range hs {
		f.add(h)
	}
}

// add notes the position of hash h and reports whether its bit was set
// already: whether it may have occurred before.
func (f *positionFilter) add(h uint64) bool {
	w, b := &f[h>>60], uint64(1)<<(h>>54&63)
	again := *w&b != 0
	*w |= b
	return again
}

// pickLine returns the line of move x in counts (the moves along each
// line in turn) and the move's number along it. It reads the counts eight
// at a time, a byte each: a line has at most 16 moves (each empty cell
// reached from its nearest man on either side), so eight lines' sums fit
// a byte, and a byte of w*ones is the sum of that byte and those below it.
func pickLine(counts *[24]uint8, x int) (int, int) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	w := [4]uint64{
		binary.LittleEndian.Uint64(counts[:8]) * ones,
		binary.LittleEndian.Uint64(counts[8:16]) * ones,
		binary.LittleEndian.Uint64(counts[16:24]) * ones,
	}
	// The word: past the first when x is at least its sum, past the
	// second when at least both sums, chosen without a branch.
	s0 := int(w[0] >> 56)
	s1 := s0 + int(w[1]>>56)
	g0, g1 := 1+(x-s0)>>63, 1+(x-s1)>>63 // 1 if x >= the sum
	g := g0 + g1
	x -= s0&-g0 + (s1-s0)&-g1
	sums := w[g&3]
	// The lines of the word whose sums through them are at most x: a
	// byte's high bit stays set in (x|0x80) - sum when x >= sum.
	k := bits.OnesCount64(((uint64(x)*ones | highs) - sums) & highs)
	return x - int(sums<<8>>(8*k)&0xff), 8*g + k
}

// flanked returns the cells beside cell c along a line that have a cell of
// partners beyond them (partners: the mover's men and the line's blocked
// cell, the castle, the only square under byLine rules that may be hostile
// when empty): where a capture may be.
func flanked(partners uint16, c int) uint16 {
	return partners>>1&(1<<(c+1)) | partners<<1&(1<<c>>1)
}

// recount counts both sides' moves along line x again, keeping the sums.
func (l *lines) recount(t *[2 * ternN]uint16, x int) {
	v := t[l.idx[x]]
	na, nd := uint8(v), uint8(v>>8)
	l.total[Attackers] += int16(na) - int16(l.n[Attackers][x])
	l.total[Defenders] += int16(nd) - int16(l.n[Defenders][x])
	l.n[Attackers][x], l.n[Defenders][x] = na, nd
}

// store writes the lines back into the position, with all men along each
// line and each side's set of men made from them.
func (l *lines) store(p *Position) {
	for side := range 2 {
		copy(p.lineN[side][:], l.n[side][:])
	}
	p.moveN, p.linesOK = l.total, true
	p.men = [2]squareSet{}
	for i := 0; i < Size; i++ {
		for side := range 2 {
			p.sideRanks[side][i], p.sideFiles[side][i] = l.men[side][i], l.men[side][Size+i]
			// Rank i is squares 9i to 9i+8: the low word's bits from 9i,
			// the high word's from 9i-64 (rank 7 has a square in each).
			m, at := uint64(l.men[side][i]), uint(i*Size)
			if at < 64 {
				p.men[side].lo |= m << at
				p.men[side].hi |= m >> (64 - at)
			} else {
				p.men[side].hi |= m << (at - 64)
			}
		}
		p.ranks[i] = p.sideRanks[Attackers][i] | p.sideRanks[Defenders][i]
		p.files[i] = p.sideFiles[Attackers][i] | p.sideFiles[Defenders][i]
	}
}
