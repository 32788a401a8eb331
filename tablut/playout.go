package tablut

import (
	"math/bits"
	"math/rand/v2"

	"github.com/muster-games/muster/game"
)

// lines is what playByLine keeps of a position besides its board, king
// and hash: each side's men along each line, the ranks 0–8 then the
// files 9–17, and the moves each side has along each line and in all.
// With ranks and files in one array, a move touches its lines by table
// rather than by branch: it runs along line i from cell at to cell to,
// and crosses lines cross[i]+at and cross[i]+to at their cell cell[i].
type lines struct {
	men   [2][2 * Size]uint16
	n     [2][2 * Size]uint8
	total [2]int16
	block [2 * Size]uint16
}

// Tables for lines: lineSq[i][c] is the square of cell c of line i;
// cross[i] is where the lines crossing line i begin (the files for a
// rank, the ranks for a file) and cell[i] is line i's cell along them;
// nthSet[m][x] is the x-th set bit of mask m.
var (
	lineSq [2 * Size][Size]Square
	cross  [2 * Size]uint8
	cell   [2 * Size]uint8
	nthSet [1 << Size][Size]uint8
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
	for m := range nthSet {
		x := 0
		for c := 0; c < Size; c++ {
			if m&(1<<c) != 0 {
				nthSet[m][x] = uint8(c)
				x++
			}
		}
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
	t := lineTable()
	if !p.linesOK {
		r.countAllLines(p)
	}
	var l lines
	for side := range 2 {
		copy(l.men[side][:Size], p.sideRanks[side][:])
		copy(l.men[side][Size:], p.sideFiles[side][:])
	}
	l.n, l.total = p.lineN, p.moveN
	copy(l.block[:Size], r.lineBlock[:])
	copy(l.block[Size:], r.lineBlock[:])
	defer l.store(p)

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
			s.move(Pass)
			continue
		}
		// The move: along line i, from cell at to cell to, counting
		// as pickLine does.
		x := rng.IntN(c)
		counts := &l.n[side]
		i := 0
		for x >= int(counts[i]) {
			x -= int(counts[i])
			i++
		}
		occ := l.men[Attackers][i] | l.men[Defenders][i] | l.block[i]
		movers := l.men[side][i]
		at := bits.TrailingZeros16(movers)
		for c := int(reachN[occ][at]); x >= c; c = int(reachN[occ][at]) {
			x -= c
			movers &= movers - 1
			at = bits.TrailingZeros16(movers)
		}
		to := int(nthSet[slide[occ][at]][x])
		from, dest := lineSq[i][at], lineSq[i][to]
		s.actions = append(s.actions, game.Action(NewMove(from, dest)))

		piece := p.board[from]
		p.board[from], p.board[dest] = Empty, piece
		ca, ct, k := int(cross[i])+at, int(cross[i])+to, cell[i]
		men := &l.men[side]
		men[i] ^= 1<<at | 1<<to
		men[ca] ^= 1 << k
		men[ct] ^= 1 << k
		p.hash ^= zobrist[piece][from] ^ zobrist[piece][dest] ^ zobristSide
		if piece == King {
			p.king = dest
		}

		// Captures: a soldier of the other side beside dest with a
		// hostile square beyond it.
		var caps Captures
		enemy := 1 - side
		if (piece != King || r.KingArmed) && l.men[enemy][i]&besideCell[to]|l.men[enemy][ct]&besideCell[k] != 0 {
			caps = r.capturesBeside(p, dest, piece)
			for _, v := range caps.Sq[:caps.N] {
				vr, vf := v.Rank(), v.File()
				p.hash ^= zobrist[p.board[v]][v]
				p.board[v] = Empty
				l.men[enemy][vr] &^= 1 << vf
				l.men[enemy][Size+vf] &^= 1 << vr
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
		}
		s.passes = 0
		s.hashes = append(s.hashes, p.hash)
		switch {
		case kingTaken:
			s.end(Attackers, reasonKingCaptured)
		case piece == King && dest.OnEdge():
			s.end(Defenders, reasonKingEscaped)
		case r.Repetition != RepNone || r.TurnLimit > 0 && len(s.actions) >= r.TurnLimit:
			// The other ends (a king on the edge, two passes, the
			// encirclement) cannot follow a move here.
			s.judgeButMoves(side)
		}
	}
	return n
}

// besideCell[i] are the cells beside cell i along a line of 9.
var besideCell = func() (m [Size]uint16) {
	for i := range m {
		m[i] = (1<<(i+1) | 1<<i>>1) & (1<<Size - 1)
	}
	return m
}()

// recount counts both sides' moves along line x again, keeping the sums.
func (l *lines) recount(t *[1 << (2 * Size)]uint8, x int) {
	a, d := l.men[Attackers][x], l.men[Defenders][x]
	o := uint32(a|d|l.block[x]) << Size
	na, nd := t[o|uint32(a)], t[o|uint32(d)]
	l.total[Attackers] += int16(na) - int16(l.n[Attackers][x])
	l.total[Defenders] += int16(nd) - int16(l.n[Defenders][x])
	l.n[Attackers][x], l.n[Defenders][x] = na, nd
}

// store writes the lines back into the position, with all men along each
// line and each side's set of men made from them.
func (l *lines) store(p *Position) {
	p.lineN, p.moveN, p.linesOK = l.n, l.total, true
	p.men = [2]squareSet{}
	for i := 0; i < Size; i++ {
		for side := range 2 {
			p.sideRanks[side][i], p.sideFiles[side][i] = l.men[side][i], l.men[side][Size+i]
			for w := l.men[side][i]; w != 0; w &= w - 1 {
				p.men[side].add(Square(i*Size + bits.TrailingZeros16(w)))
			}
		}
		p.ranks[i] = p.sideRanks[Attackers][i] | p.sideRanks[Defenders][i]
		p.files[i] = p.sideFiles[Attackers][i] | p.sideFiles[Defenders][i]
	}
}
