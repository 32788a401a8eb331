package tablut

import (
	"math/bits"
	"sync"
)

// Move is a packed move: the from square in the low byte, the to square in
// the next. Pass is the forced pass of the rulesets where a side that
// cannot move passes.
type Move uint16

// Pass is the forced pass.
const Pass Move = 0xFFFF

// NewMove packs a move.
func NewMove(from, to Square) Move { return Move(uint16(from) | uint16(to)<<8) }

// From is the square the piece leaves.
func (m Move) From() Square { return Square(m & 0xFF) }

// To is the square the piece reaches.
func (m Move) To() Square { return Square(m >> 8) }

func (m Move) String() string {
	if m == Pass {
		return "pass"
	}
	if name := moveName(m.From(), m.To()); name != "" {
		return name
	}
	return m.From().String() + "-" + m.To().String()
}

// Position is the board, the side to move and its Zobrist hash. It is a
// value: copying it copies the position.
type Position struct {
	board [Squares]Piece
	ranks [Size]uint16 // occupied cells of each rank, bit = file
	files [Size]uint16 // occupied cells of each file, bit = rank
	// sideRanks and sideFiles split ranks and files by side.
	sideRanks, sideFiles [2][Size]uint16
	men                  [2]squareSet // the attackers; the defenders with the king
	king                 Square       // the king's square
	toMove               Side
	hash                 uint64
	// Under rules that count moves by line (Rules.byLine), lineN holds
	// each side's moves along each rank (0–8) and file (9–17) and moveN
	// their sums, kept as moves are applied once linesOK. A position is
	// counted when first asked (CountMoves, a playout, a random move,
	// perft), so that a game replayed or searched without asking never
	// pays for the counts.
	lineN   [2][2 * Size]uint8
	moveN   [2]int16
	linesOK bool
}

// Captures lists the squares a move cleared; the king, when captured, is
// reported in Position.Apply's result instead.
type Captures struct {
	N  int
	Sq [4]Square
}

// At returns the piece on a square.
func (p *Position) At(s Square) Piece { return p.board[s] }

// King returns the king's square.
func (p *Position) King() Square { return p.king }

// ToMove returns the side to move.
func (p *Position) ToMove() Side { return p.toMove }

// Hash returns the Zobrist hash of the board and side to move.
func (p *Position) Hash() uint64 { return p.hash }

// Count returns the number of pieces of a kind on the board.
func (p *Position) Count(piece Piece) int {
	n := 0
	for _, q := range p.board {
		if q == piece {
			n++
		}
	}
	return n
}

func (p *Position) put(s Square, piece Piece) {
	p.board[s] = piece
	side := piece.side()
	p.ranks[s.Rank()] |= 1 << s.File()
	p.files[s.File()] |= 1 << s.Rank()
	p.sideRanks[side][s.Rank()] |= 1 << s.File()
	p.sideFiles[side][s.File()] |= 1 << s.Rank()
	p.men[side].add(s)
	p.hash ^= zobrist[piece][s]
	if piece == King {
		p.king = s
	}
}

func (p *Position) clear(s Square) {
	piece := p.board[s]
	p.board[s] = Empty
	side := piece.side()
	p.ranks[s.Rank()] &^= 1 << s.File()
	p.files[s.File()] &^= 1 << s.Rank()
	p.sideRanks[side][s.Rank()] &^= 1 << s.File()
	p.sideFiles[side][s.File()] &^= 1 << s.Rank()
	p.men[side].remove(s)
	p.hash ^= zobrist[piece][s]
}

// class is the mover class used by the compiled rules.
func (r *Rules) class(p *Position, s Square) int {
	if s == p.king {
		return 2
	}
	if r.camps.has(s) {
		return 1
	}
	return 0
}

// targets returns the reachable cells of the rank and of the file of the
// piece on s, as masks of files and of ranks.
func (r *Rules) targets(p *Position, s Square) (rankMask, fileMask uint16) {
	l := &r.lines[r.class(p, s)][s]
	rankMask = slide[p.ranks[l.rank]|l.blockRank][l.file] &^ l.forbidRank
	fileMask = slide[p.files[l.file]|l.blockFile][l.rank] &^ l.forbidFile
	return rankMask, fileMask
}

// forEach calls fn for every square in the set.
func (b squareSet) forEach(fn func(Square)) {
	for w := b.lo; w != 0; w &= w - 1 {
		fn(Square(bits.TrailingZeros64(w)))
	}
	for w := b.hi; w != 0; w &= w - 1 {
		fn(Square(64 + bits.TrailingZeros64(w)))
	}
}

// GenMoves appends the moves of the side to move to dst, passes aside, and
// returns it. It allocates nothing when dst has room.
func (r *Rules) GenMoves(p *Position, dst []Move) []Move {
	set := p.men[p.toMove]
	for half, w := range [2]uint64{set.lo, set.hi} {
		for ; w != 0; w &= w - 1 {
			s := Square(half*64 + bits.TrailingZeros64(w))
			rm, fm := r.targets(p, s)
			base := Square(s.Rank() * Size)
			for ; rm != 0; rm &= rm - 1 {
				dst = append(dst, NewMove(s, base+Square(bits.TrailingZeros16(rm))))
			}
			f := Square(s.File())
			for ; fm != 0; fm &= fm - 1 {
				dst = append(dst, NewMove(s, f+Square(bits.TrailingZeros16(fm))*Size))
			}
		}
	}
	return dst
}

// CountMoves returns the number of moves GenMoves would append.
func (r *Rules) CountMoves(p *Position) int {
	if r.byLine {
		if !p.linesOK {
			r.countAllLines(p)
		}
		return int(p.moveN[p.toMove])
	}
	n := 0
	set := p.men[p.toMove]
	for half, w := range [2]uint64{set.lo, set.hi} {
		for ; w != 0; w &= w - 1 {
			rm, fm := r.targets(p, Square(half*64+bits.TrailingZeros64(w)))
			n += bits.OnesCount16(rm) + bits.OnesCount16(fm)
		}
	}
	return n
}

// countAllLines counts both sides' moves along every line into the
// position (lineN, moveN). It needs r.byLine.
func (r *Rules) countAllLines(p *Position) {
	p.moveN, p.lineN = [2]int16{}, [2][2 * Size]uint8{}
	for i := 0; i < Size; i++ {
		r.recountRank(p, i)
		r.recountFile(p, i)
	}
	p.linesOK = true
}

// recountRank counts both sides' moves along rank i again, keeping the
// sums. It needs r.byLine.
func (r *Rules) recountRank(p *Position, i int) {
	p.recountLine(i, p.ranks[i]|r.lineBlock[i], p.sideRanks[Attackers][i], p.sideRanks[Defenders][i])
}

// recountFile is recountRank for file i.
func (r *Rules) recountFile(p *Position, i int) {
	p.recountLine(Size+i, p.files[i]|r.lineBlock[i], p.sideFiles[Attackers][i], p.sideFiles[Defenders][i])
}

// recountLine sets line x's counts from its blocked cells and each side's
// men on it.
func (p *Position) recountLine(x int, occ, att, def uint16) {
	t := lineTable()
	o := uint32(occ) << Size
	a, d := t[o|uint32(att)], t[o|uint32(def)]
	p.moveN[Attackers] += int16(a) - int16(p.lineN[Attackers][x])
	p.moveN[Defenders] += int16(d) - int16(p.lineN[Defenders][x])
	p.lineN[Attackers][x], p.lineN[Defenders][x] = a, d
}

// countAfter is the number of moves of the side to move in child, the
// position parent became by the move from, to with caps captured (by
// apply without recount): parent's count for that side, with the lines
// the move and its captures changed counted again. parent's lines must
// be counted (linesOK). It needs r.byLine.
func (r *Rules) countAfter(parent, child *Position, from, to Square, caps *Captures) int {
	side := child.toMove
	if caps.N > 0 {
		// Captures change more lines: all of them counted afresh, for
		// this side alone.
		t := lineTable()
		n := 0
		for i := 0; i < Size; i++ {
			n += int(t[uint32(child.ranks[i]|r.lineBlock[i])<<Size|uint32(child.sideRanks[side][i])])
			n += int(t[uint32(child.files[i]|r.lineBlock[i])<<Size|uint32(child.sideFiles[side][i])])
		}
		return n
	}
	// A move changes three lines: the one it runs along and the two it
	// crosses at each end.
	t := lineTable()
	fr, ff, tr, tf := from.Rank(), from.File(), to.Rank(), to.File()
	n := int(parent.moveN[side]) - int(parent.lineN[side][fr]) - int(parent.lineN[side][Size+ff])
	n += int(t[uint32(child.ranks[fr]|r.lineBlock[fr])<<Size|uint32(child.sideRanks[side][fr])])
	n += int(t[uint32(child.files[ff]|r.lineBlock[ff])<<Size|uint32(child.sideFiles[side][ff])])
	if tr != fr {
		n += int(t[uint32(child.ranks[tr]|r.lineBlock[tr])<<Size|uint32(child.sideRanks[side][tr])]) - int(parent.lineN[side][tr])
	} else {
		n += int(t[uint32(child.files[tf]|r.lineBlock[tf])<<Size|uint32(child.sideFiles[side][tf])]) - int(parent.lineN[side][Size+tf])
	}
	return n
}

// countLines returns the moves of the side to move along each rank (0–8)
// and file (9–17), and their sum. It needs r.byLine.
func (r *Rules) countLines(p *Position) (*[2 * Size]uint8, int) {
	if !p.linesOK {
		r.countAllLines(p)
	}
	return &p.lineN[p.toMove], int(p.moveN[p.toMove])
}

// pickLine returns move number x (counting as countLines did) of the side
// to move. It needs r.byLine.
func (r *Rules) pickLine(p *Position, counts *[2 * Size]uint8, x int) Move {
	side := p.toMove
	for i := 0; i < 2*Size; i++ {
		if x >= int(counts[i]) {
			x -= int(counts[i])
			continue
		}
		var line int
		var occ, movers uint16
		if i < Size {
			line = i
			occ, movers = p.ranks[line], p.sideRanks[side][line]
		} else {
			line = i - Size
			occ, movers = p.files[line], p.sideFiles[side][line]
		}
		occ |= r.lineBlock[line]
		for ; movers != 0; movers &= movers - 1 {
			at := bits.TrailingZeros16(movers)
			if c := int(reachN[occ][at]); x >= c {
				x -= c
				continue
			}
			to := nthBit(slide[occ][at], x)
			if i < Size {
				return NewMove(sq(at, line), sq(to, line))
			}
			return NewMove(sq(line, at), sq(line, to))
		}
	}
	return Pass
}

// lineCounts[occ<<9|movers] is the number of moves of the pieces on the
// cells movers along a line of 9 whose cells occ are blocked (movers
// included): the sum over movers of the free cells up to the next block.
var (
	lineCounts     *[1 << (2 * Size)]uint8
	lineCountsOnce sync.Once
)

func lineTable() *[1 << (2 * Size)]uint8 {
	lineCountsOnce.Do(func() {
		t := new([1 << (2 * Size)]uint8)
		for occ := 0; occ < 1<<Size; occ++ {
			var per [Size]uint8
			for i := range per {
				per[i] = uint8(bits.OnesCount16(slide[occ][i]))
			}
			for movers := 0; movers < 1<<Size; movers++ {
				if movers&^occ != 0 {
					continue
				}
				n := uint8(0)
				for m := movers; m != 0; m &= m - 1 {
					n += per[bits.TrailingZeros(uint(m))]
				}
				t[occ<<Size|movers] = n
			}
		}
		lineCounts = t
	})
	return lineCounts
}

// HasMove reports whether the side to move has a move.
func (r *Rules) HasMove(p *Position) bool {
	set := p.men[p.toMove]
	for half, w := range [2]uint64{set.lo, set.hi} {
		for ; w != 0; w &= w - 1 {
			if rm, fm := r.targets(p, Square(half*64+bits.TrailingZeros64(w))); rm|fm != 0 {
				return true
			}
		}
	}
	return false
}

// NthMove returns the move GenMoves would put at index n, without building
// the list (for uniform random playouts).
func (r *Rules) NthMove(p *Position, n int) Move {
	set := p.men[p.toMove]
	for half, w := range [2]uint64{set.lo, set.hi} {
		for ; w != 0; w &= w - 1 {
			s := Square(half*64 + bits.TrailingZeros64(w))
			rm, fm := r.targets(p, s)
			if c := bits.OnesCount16(rm); n < c {
				return NewMove(s, Square(s.Rank()*Size)+Square(nthBit(rm, n)))
			} else {
				n -= c
			}
			if c := bits.OnesCount16(fm); n < c {
				return NewMove(s, Square(s.File())+Square(nthBit(fm, n))*Size)
			} else {
				n -= c
			}
		}
	}
	return Pass
}

func nthBit(m uint16, n int) int {
	for ; n > 0; n-- {
		m &= m - 1
	}
	return bits.TrailingZeros16(m)
}

// IsMove reports whether m is a move of the side to move (passes aside).
func (r *Rules) IsMove(p *Position, m Move) bool {
	from, to := m.From(), m.To()
	if from < 0 || from >= Squares || to < 0 || to >= Squares || p.board[from] == Empty || p.board[from].side() != p.toMove {
		return false
	}
	return r.reaches(p, from, to)
}

// reaches reports whether the piece on from may move to to.
func (r *Rules) reaches(p *Position, from, to Square) bool {
	rm, fm := r.targets(p, from)
	switch {
	case from.Rank() == to.Rank():
		return rm&(1<<to.File()) != 0
	case from.File() == to.File():
		return fm&(1<<to.Rank()) != 0
	}
	return false
}

// hostile reports whether square s is a capturing partner against a
// soldier of side victim that stands on v, for a move by the other side.
func (r *Rules) hostile(p *Position, s, v Square, victim Side) bool {
	switch q := p.board[s]; {
	case q == Attacker:
		if victim == Defenders {
			return true
		}
	case q == Defender:
		if victim == Attackers {
			return true
		}
	case q == King:
		if victim == Attackers && r.KingArmed {
			return true
		}
	}
	if s == Castle {
		switch {
		case r.CastleHost == HostAlways:
			return true
		case p.board[s] == Empty:
			return r.CastleHost == HostEmpty
		case r.Linnaean && victim == Defenders:
			// Rule 10: the other three squares beside the occupied
			// castle are held by attackers.
			for d := 0; d < 4; d++ {
				if n := nb[Castle][d]; n != v && p.board[n] != Attacker {
					return false
				}
			}
			return true
		}
		return false
	}
	if r.Camps == CampsAshton && r.camps.has(s) {
		// Bologna: every camp is a wall against white; against black,
		// all but the four central camps, occupied or not.
		return victim == Defenders || !centralCamps.has(s)
	}
	return false
}

// hostileToKing reports whether square s counts against the king.
func (r *Rules) hostileToKing(p *Position, s Square) bool {
	if s < 0 {
		return false
	}
	switch {
	case p.board[s] == Attacker:
		return true
	case p.board[s] != Empty:
		return false
	case s == Castle:
		return true
	case r.Camps != CampsNone && r.camps.has(s):
		return true
	}
	return false
}

// kingCaptured reports whether the attacker that just reached to has
// captured the king.
func (r *Rules) kingCaptured(p *Position, to Square) bool {
	k := p.king
	dir := -1
	for d := 0; d < 4; d++ {
		if nb[to][d] == k {
			dir = d
		}
	}
	if dir < 0 {
		return false
	}
	nearCastle := k == Castle
	for d := 0; d < 4; d++ {
		if nb[k][d] == Castle {
			nearCastle = true
		}
	}
	if r.KingCapture == KingStrong || nearCastle {
		for d := 0; d < 4; d++ {
			if !r.hostileToKing(p, nb[k][d]) {
				return false
			}
		}
		return true
	}
	// Custodial: the square beyond the king, in line with the mover.
	beyond := nb[k][dir]
	if beyond < 0 {
		return false
	}
	if p.board[beyond] == Attacker {
		return true
	}
	return r.Camps == CampsAshton && p.board[beyond] == Empty && r.camps.has(beyond)
}

// kingInDanger reports whether an attacker, were the attackers to move,
// could take the king: an empty square beside him where an attacker would
// take him, and an attacker that may move there.
func (r *Rules) kingInDanger(p *Position) bool {
	k := p.king
	if k < 0 {
		return false
	}
	for d := 0; d < 4; d++ {
		n := nb[k][d]
		if n < 0 || p.board[n] != Empty {
			continue
		}
		p.board[n] = Attacker
		taken := r.kingCaptured(p, n)
		p.board[n] = Empty
		if !taken {
			continue
		}
		// The nearest man along each line to n but the king's (the men
		// beside the king, which the capture needs, cannot reach n).
		for e := 0; e < 4; e++ {
			if e == d^1 {
				continue
			}
			a := nb[n][e]
			for a >= 0 && p.board[a] == Empty {
				a = nb[a][e]
			}
			if a >= 0 && p.board[a] == Attacker && r.reaches(p, a, n) {
				return true
			}
		}
	}
	return false
}

// Apply plays a move (not a pass) without checking it. It returns the
// soldiers captured and whether the king was captured; the captured king
// stays on the board, as the game is over. Moves by line counted in p
// (linesOK) are kept counted; uncounted, they stay so.
func (r *Rules) Apply(p *Position, m Move) (caps Captures, kingTaken bool) {
	return r.apply(p, m, true)
}

// apply is Apply; without recount it leaves the moves by line uncounted
// (linesOK false), for a caller that counts only what it needs.
func (r *Rules) apply(p *Position, m Move, recount bool) (caps Captures, kingTaken bool) {
	if m != Pass {
		from, to := m.From(), m.To()
		piece := p.board[from]
		p.clear(from)
		p.put(to, piece)
		side := piece.side()
		caps = r.capturesBy(p, to, piece)
		for i := 0; i < caps.N; i++ {
			p.clear(caps.Sq[i])
		}
		if side == Attackers {
			kingTaken = r.kingCaptured(p, to)
		}
		switch {
		case !r.byLine || !recount || !p.linesOK:
			p.linesOK = false
		default:
			r.recountRank(p, from.Rank())
			r.recountFile(p, from.File())
			if to.Rank() != from.Rank() {
				r.recountRank(p, to.Rank())
			} else {
				r.recountFile(p, to.File())
			}
			for i := 0; i < caps.N; i++ {
				r.recountRank(p, caps.Sq[i].Rank())
				r.recountFile(p, caps.Sq[i].File())
			}
		}
	}
	p.passTurn()
	return caps, kingTaken
}

// capturesBy lists the soldiers that piece, just arrived on to (the board
// showing it there), captures; it changes nothing.
func (r *Rules) capturesBy(p *Position, to Square, piece Piece) (caps Captures) {
	if piece == King && !r.KingArmed {
		return caps
	}
	if !p.men[1-piece.side()].meets(beside[to]) {
		return caps // nobody of the other side beside: nothing to take
	}
	return r.capturesBeside(p, to, piece)
}

// capturesOf lists the soldiers the legal move m would capture from p,
// as apply would clear them, without making the move: a view names every
// legal move with its captures (MoveString), and most capture nothing.
// The board after the move differs from p's on m's two squares alone,
// neither of which decides a capture but as the mover's side (from is
// the mover's, and the mover slid to to past a neighbour only if it was
// empty), so capturesBeside reads p as it would the board after. Where a
// square beyond to is one whose hostility the rules judge (hostile looks
// at the board as it stands: the king's, the castle's), the move is made
// on a copy.
func (r *Rules) capturesOf(p *Position, m Move) (caps Captures) {
	if m == Pass {
		return caps
	}
	from, to := m.From(), m.To()
	piece := p.board[from]
	if piece == King && !r.KingArmed {
		return caps
	}
	if !p.men[1-piece.side()].meets(beside[to]) {
		return caps
	}
	for d := 0; d < 4; d++ {
		if s := beyond[to][d]; s >= 0 && r.special.has(s) {
			c := *p
			caps, _ = r.apply(&c, m, false)
			return caps
		}
	}
	return r.capturesBeside(p, to, piece)
}

// capturesBeside is capturesBy without its first look at who stands
// beside to (a playout looks along its lines instead). A soldier of the
// other side beside to is taken when the square beyond him holds a
// capturing partner (partner) or is one of the squares whose hostility
// the rules decide (special: the castle, Bologna's camps), which hostile
// judges.
func (r *Rules) capturesBeside(p *Position, to Square, piece Piece) (caps Captures) {
	enemy := 1 - piece.side()
	prey := Attacker
	if enemy == Defenders {
		prey = Defender
	}
	partner := &r.partner[enemy]
	for d := 0; d < 4; d++ {
		v, s := nb[to][d], beyond[to][d]
		if s < 0 || p.board[v] != prey {
			continue
		}
		if partner[p.board[s]] || r.special.has(s) && r.hostile(p, s, v, enemy) {
			caps.Sq[caps.N] = v
			caps.N++
		}
	}
	return caps
}

// passTurn gives the move to the other side.
func (p *Position) passTurn() {
	p.toMove = 1 - p.toMove
	p.hash ^= zobristSide
}

// Enclosed reports whether no defender can reach an edge square through
// squares free of attackers.
func (p *Position) Enclosed() bool {
	var seen squareSet
	var queue [Squares]Square
	n := 0
	p.men[Defenders].forEach(func(s Square) {
		seen.add(s)
		queue[n] = s
		n++
	})
	for i := 0; i < n; i++ {
		s := queue[i]
		if s.OnEdge() {
			return false
		}
		for d := 0; d < 4; d++ {
			t := nb[s][d]
			if t >= 0 && !seen.has(t) && p.board[t] != Attacker {
				seen.add(t)
				queue[n] = t
				n++
			}
		}
	}
	return true
}

// zobrist keys from a fixed seed (splitmix64), so hashes are the same in
// every run.
var (
	zobrist     [4][Squares]uint64
	zobristSide uint64
)

func init() {
	x := uint64(0x7ab1e5eed1732)
	next := func() uint64 {
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for piece := Attacker; piece <= King; piece++ {
		for s := range zobrist[piece] {
			zobrist[piece][s] = next()
		}
	}
	zobristSide = next()
}

// recomputeHash computes the hash from scratch (for tests and parsing).
func (p *Position) recomputeHash() uint64 {
	var h uint64
	for s, piece := range p.board {
		if piece != Empty {
			h ^= zobrist[piece][s]
		}
	}
	if p.toMove == Defenders {
		h ^= zobristSide
	}
	return h
}
