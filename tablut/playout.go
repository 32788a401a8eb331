package tablut

import (
	"math/bits"
	"math/rand/v2"

	"github.com/muster-games/muster/game"
)

// playByLine is Playout under rules that count moves by line (byLine),
// with no encirclement and no attackers made to vary: the moves, their
// order and the ends are those of pickLine and move, one for one, but a
// move keeps only what the next draw and the rules' ends read (the board,
// each side's men along each rank and file, the line counts, the king,
// the hash and the history), and the rest of the position (all men along
// each line, each side's set of men) is made once at the end.
func (s *State) playByLine(rng *rand.Rand, maxActions int) int {
	r := &s.g.Rules
	p := &s.pos
	t := lineTable()
	if !p.linesOK {
		r.countAllLines(p)
	}
	defer p.fillFromSides()
	n := 0
	for !s.over {
		side := p.toMove
		c := int(p.moveN[side])
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
		// The move: line i (ranks 0–8, files 9–17), from cell at to
		// cell to along it, counting as pickLine does.
		x := rng.IntN(c)
		counts := &p.lineN[side]
		i := 0
		for x >= int(counts[i]) {
			x -= int(counts[i])
			i++
		}
		var occ, movers uint16
		if i < Size {
			occ, movers = p.sideRanks[Attackers][i]|p.sideRanks[Defenders][i], p.sideRanks[side][i]
			occ |= r.lineBlock[i]
		} else {
			occ, movers = p.sideFiles[Attackers][i-Size]|p.sideFiles[Defenders][i-Size], p.sideFiles[side][i-Size]
			occ |= r.lineBlock[i-Size]
		}
		at := bits.TrailingZeros16(movers)
		for c := int(reachN[occ][at]); x >= c; c = int(reachN[occ][at]) {
			x -= c
			movers &= movers - 1
			at = bits.TrailingZeros16(movers)
		}
		to := nthBit(slide[occ][at], x)
		var fr, ff, tr, tf int
		if i < Size {
			fr, ff, tr, tf = i, at, i, to
		} else {
			fr, ff, tr, tf = at, i-Size, to, i-Size
		}
		from, dest := Square(fr*Size+ff), Square(tr*Size+tf)
		s.actions = append(s.actions, game.Action(NewMove(from, dest)))

		piece := p.board[from]
		p.board[from], p.board[dest] = Empty, piece
		sr, sf := &p.sideRanks[side], &p.sideFiles[side]
		sr[fr] &^= 1 << ff
		sf[ff] &^= 1 << fr
		sr[tr] |= 1 << tf
		sf[tf] |= 1 << tr
		p.hash ^= zobrist[piece][from] ^ zobrist[piece][dest] ^ zobristSide
		if piece == King {
			p.king = dest
		}

		// Captures: a soldier of the other side beside dest with a
		// hostile square beyond it.
		var caps [4]Square
		nCaps := 0
		enemy := 1 - side
		if (piece != King || r.KingArmed) && p.sideRanks[enemy][tr]&besideCell[tf]|p.sideFiles[enemy][tf]&besideCell[tr] != 0 {
			victim := Attacker
			if side == Attackers {
				victim = Defender
			}
			for d := 0; d < 4; d++ {
				v := nb[dest][d]
				if v < 0 || p.board[v] != victim {
					continue
				}
				b := nb[v][d]
				if b < 0 {
					continue
				}
				q := p.board[b]
				switch {
				case b == Castle:
					if !r.hostile(p, b, v, enemy) {
						continue
					}
				case q == Empty:
					continue
				case side == Attackers:
					if q != Attacker {
						continue
					}
				case q == Attacker || (q == King && !r.KingArmed):
					continue
				}
				caps[nCaps] = v
				nCaps++
			}
			for _, v := range caps[:nCaps] {
				vr, vf := v.Rank(), v.File()
				p.board[v] = Empty
				p.sideRanks[enemy][vr] &^= 1 << vf
				p.sideFiles[enemy][vf] &^= 1 << vr
				p.hash ^= zobrist[victim][v]
			}
		}
		kingTaken := false
		if k := int(p.king) - int(dest); side == Attackers && (k == Size || k == -Size || (k == 1 || k == -1) && int(p.king)/Size == tr) {
			kingTaken = r.kingCaptured(p, dest)
		}
		p.toMove = 1 - side

		// The lines the move and its captures changed, counted again.
		p.recountRankBySides(t, r, fr)
		p.recountFileBySides(t, r, ff)
		if tr != fr {
			p.recountRankBySides(t, r, tr)
		} else {
			p.recountFileBySides(t, r, tf)
		}
		for _, v := range caps[:nCaps] {
			p.recountRankBySides(t, r, v.Rank())
			p.recountFileBySides(t, r, v.File())
		}

		if nCaps > 0 {
			s.lastIrrev = len(s.hashes)
		}
		s.passes = 0
		s.hashes = append(s.hashes, p.hash)
		switch {
		case kingTaken:
			s.end(Attackers, reasonKingCaptured)
		case piece == King && (tr == 0 || tf == 0 || tr == Size-1 || tf == Size-1):
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

// recountRankBySides is recountRank reading the men of rank i from each
// side's alone (playByLine keeps no other).
func (p *Position) recountRankBySides(t *[1 << (2 * Size)]uint8, r *Rules, i int) {
	a, d := p.sideRanks[Attackers][i], p.sideRanks[Defenders][i]
	o := uint32(a|d|r.lineBlock[i]) << Size
	p.setLine(i, t[o|uint32(a)], t[o|uint32(d)])
}

// recountFileBySides is recountRankBySides for file i.
func (p *Position) recountFileBySides(t *[1 << (2 * Size)]uint8, r *Rules, i int) {
	a, d := p.sideFiles[Attackers][i], p.sideFiles[Defenders][i]
	o := uint32(a|d|r.lineBlock[i]) << Size
	p.setLine(Size+i, t[o|uint32(a)], t[o|uint32(d)])
}

// setLine sets line x's counts to a and d, keeping the sums.
func (p *Position) setLine(x int, a, d uint8) {
	p.moveN[Attackers] += int16(a) - int16(p.lineN[Attackers][x])
	p.moveN[Defenders] += int16(d) - int16(p.lineN[Defenders][x])
	p.lineN[Attackers][x], p.lineN[Defenders][x] = a, d
}

// fillFromSides makes all men along each line and each side's set of men
// from each side's men along each line.
func (p *Position) fillFromSides() {
	p.men = [2]squareSet{}
	for i := 0; i < Size; i++ {
		p.ranks[i] = p.sideRanks[Attackers][i] | p.sideRanks[Defenders][i]
		p.files[i] = p.sideFiles[Attackers][i] | p.sideFiles[Defenders][i]
		for side := range 2 {
			for w := p.sideRanks[side][i]; w != 0; w &= w - 1 {
				p.men[side].add(Square(i*Size + bits.TrailingZeros16(w)))
			}
		}
	}
}
