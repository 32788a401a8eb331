package endgame

import (
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// The solver of the five-man tables (FiveTable): the graph over
// man-moves, its edges forwards and backwards, and the pass that values
// its nodes level by level of turns to the end.

// Node kinds: 0–9 the three to move, 10–14 the two. Each is a budget left
// and the men already moved, as a mask over the mover's men in ascending
// order of their squares.
const (
	kinds     = 15
	duoKinds  = 10 // first kind of the two's
	startTrio = 0
	startDuo  = duoKinds
)

type turnState struct {
	budget int
	moved  uint8
}

var kindState = [kinds]turnState{
	{3, 0}, {2, 1}, {2, 2}, {2, 4}, {1, 1}, {1, 2}, {1, 4}, {1, 6}, {1, 5}, {1, 3},
	{3, 0}, {2, 1}, {2, 2}, {1, 1}, {1, 2},
}

// kindOf[duo][budget][moved] is the kind of a state, or -1.
var kindOf [2][4][8]int8

func init() {
	for r := range kindOf {
		for b := range kindOf[r] {
			for m := range kindOf[r][b] {
				kindOf[r][b][m] = -1
			}
		}
	}
	for k, s := range kindState {
		r := 0
		if k >= duoKinds {
			r = 1
		}
		kindOf[r][s.budget][s.moved] = int8(k)
	}
}

// fiveIndex numbers placings of three men and two on a region of the board
// (all 64 squares for the real game; tests solve smaller regions, the
// squares outside standing as walls).
type fiveIndex struct {
	sq    []int8    // the region's squares, ascending
	at    [64]int16 // a square's place in sq, or -1
	block uint64    // the squares outside the region
	trios [][3]int8 // squares of each set of three, ascending
	duos  [][2]int8
	c2    []int // c2[x] = x(x-1)/2
	c3    []int
}

func newFiveIndex(region uint64) *fiveIndex {
	ix := &fiveIndex{block: ^region}
	for s := range ix.at {
		ix.at[s] = -1
	}
	for w := region; w != 0; w &= w - 1 {
		s := int8(bits.TrailingZeros64(w))
		ix.at[s] = int16(len(ix.sq))
		ix.sq = append(ix.sq, s)
	}
	n := len(ix.sq)
	ix.c2, ix.c3 = make([]int, n+1), make([]int, n+1)
	for x := 0; x <= n; x++ {
		ix.c2[x] = x * (x - 1) / 2
		ix.c3[x] = x * (x - 1) * (x - 2) / 6
	}
	for c := 2; c < n; c++ {
		for b := 1; b < c; b++ {
			for a := 0; a < b; a++ {
				ix.trios = append(ix.trios, [3]int8{ix.sq[a], ix.sq[b], ix.sq[c]})
			}
		}
	}
	for b := 1; b < n; b++ {
		for a := 0; a < b; a++ {
			ix.duos = append(ix.duos, [2]int8{ix.sq[a], ix.sq[b]})
		}
	}
	return ix
}

func (ix *fiveIndex) nodes() int { return len(ix.trios) * len(ix.duos) * kinds }

// placing returns the placing number of three men and two (each set in
// any order; squares in the region).
func (ix *fiveIndex) placing(t [3]int8, d [2]int8) int {
	a, b, c := ix.at[t[0]], ix.at[t[1]], ix.at[t[2]]
	if a > b {
		a, b = b, a
	}
	if b > c {
		b, c = c, b
	}
	if a > b {
		a, b = b, a
	}
	x, y := ix.at[d[0]], ix.at[d[1]]
	if x > y {
		x, y = y, x
	}
	return (ix.c3[c]+ix.c2[b]+int(a))*len(ix.duos) + ix.c2[y] + int(x)
}

// node returns the node of a placing and a kind.
func node(placing, kind int) uint32 { return uint32(placing*kinds + kind) }

// decodeNode returns a node's men (each set ascending), its kind, and
// whether its placing is one (no two men on one square).
func (ix *fiveIndex) decodeNode(n uint32) (t [3]int8, d [2]int8, kind int, ok bool) {
	kind = int(n % kinds)
	p := int(n / kinds)
	t, d = ix.trios[p/len(ix.duos)], ix.duos[p%len(ix.duos)]
	occ := bit(t[0]) | bit(t[1]) | bit(t[2])
	ok = occ&(bit(d[0])|bit(d[1])) == 0
	return t, d, kind, ok
}

// movedMask returns the mask, over men (ascending), of those on squares
// in moved.
func movedMask(men []int8, moved uint64) uint8 {
	var m uint8
	for i, s := range men {
		if moved&bit(s) != 0 {
			m |= 1 << i
		}
	}
	return m
}

func sort3(t [3]int8) [3]int8 {
	if t[0] > t[1] {
		t[0], t[1] = t[1], t[0]
	}
	if t[1] > t[2] {
		t[1], t[2] = t[2], t[1]
	}
	if t[0] > t[1] {
		t[0], t[1] = t[1], t[0]
	}
	return t
}

func sort2(d [2]int8) [2]int8 {
	if d[0] > d[1] {
		d[0], d[1] = d[1], d[0]
	}
	return d
}

func setOf(men []int8) uint64 {
	var b uint64
	for _, s := range men {
		b |= bit(s)
	}
	return b
}

// Edges of the man-move graph. A same edge stays within the mover's turn;
// a cross edge passes the move to the other side; an exit ends the
// rendezvous with a known value for the mover.
const (
	edgeSame = iota
	edgeCross
	edgeExit
)

// fiveGraph is the man-move graph of one five-man rendezvous (see
// FiveTable): its squares, its placings and the values of its exits.
type fiveGraph struct {
	ix  *fiveIndex
	rdv uint64
	// exit values Rule 8's end for the two, who filled the rendezvous
	// (his men on duo, the three's remaining two on trio), this turn
	// counting as the first.
	exit func(duo, trio uint64) Value
	// stuck lets a position have no move, and leaves it drawn: on a
	// region with walls that can happen, never on the board (one of two
	// men always has a free neighbour or border square).
	stuck bool
}

// moverMen returns the men of a node's mover and the other side's.
func moverMen(t [3]int8, d [2]int8, kind int) (mover, other []int8) {
	if kind < duoKinds {
		return t[:], d[:]
	}
	return d[:], t[:]
}

// forward calls visit for every edge out of node n (one per man-move and
// Rule 7 choice, and the end of the turn).
func (g *fiveGraph) forward(n uint32, buf []manMove, visit func(kind int, to uint32, v Value)) []manMove {
	t, d, kind, ok := g.ix.decodeNode(n)
	if !ok {
		return buf
	}
	st := kindState[kind]
	trioMoves := kind < duoKinds
	var men [3]int8
	var other []int8
	if trioMoves {
		men = t
		other = d[:]
	} else {
		men = [3]int8{d[0], d[1], -1}
		other = t[:]
	}
	nm := 3
	if !trioMoves {
		nm = 2
	}
	otherSet := setOf(other)
	occ := setOf(men[:nm]) | otherSet | g.ix.block
	p := int(n / kinds)
	if st.moved != 0 {
		visit(edgeCross, g.start(p, !trioMoves), Value{})
	}
	var movedSq uint64
	for i := 0; i < nm; i++ {
		if st.moved&(1<<i) != 0 {
			movedSq |= bit(men[i])
		}
	}
	all := uint8(1)<<nm - 1
	for i := 0; i < nm; i++ {
		if st.moved&(1<<i) != 0 {
			continue
		}
		from := men[i]
		buf = appendManMoves(buf[:0], from, occ, st.budget, g.rdv, true)
		for _, mv := range buf {
			after := men
			after[i] = mv.to
			afterSet := setOf(after[:nm])
			if afterSet&^g.rdv == 0 {
				switch {
				case trioMoves:
					visit(edgeExit, 0, Value{Outcome: 1, Turns: 1})
				case bits.OnesCount64(otherSet&g.rdv) == 2:
					visit(edgeExit, 0, g.exit(afterSet, otherSet&g.rdv))
				default:
					// Rule 7: the two convert one of the three's outlying
					// men; the three, now two, move next.
					for _, c := range other {
						if g.rdv&bit(c) != 0 {
							continue
						}
						np := g.ix.placing([3]int8{after[0], after[1], c}, others(other, c))
						visit(edgeCross, node(np, startDuo), Value{})
					}
				}
				continue
			}
			var np int
			if trioMoves {
				np = g.ix.placing(after, d)
			} else {
				np = g.ix.placing(t, [2]int8{after[0], after[1]})
			}
			left := st.budget - int(mv.cost)
			done := st.moved | 1<<i
			if left == 0 || done == all {
				visit(edgeCross, g.start(np, !trioMoves), Value{})
				continue
			}
			sorted := after
			if trioMoves {
				sorted = sort3(after)
			} else {
				s2 := sort2([2]int8{after[0], after[1]})
				sorted = [3]int8{s2[0], s2[1], -1}
			}
			mask := movedMask(sorted[:nm], movedSq|bit(mv.to))
			visit(edgeSame, node(np, g.kind(trioMoves, left, mask)), Value{})
		}
	}
	return buf
}

func (g *fiveGraph) start(placing int, trio bool) uint32 {
	if trio {
		return node(placing, startTrio)
	}
	return node(placing, startDuo)
}

func (g *fiveGraph) kind(trio bool, budget int, mask uint8) int {
	r := 1
	if trio {
		r = 0
	}
	k := kindOf[r][budget][mask]
	if k < 0 {
		panic(fmt.Sprintf("endgame: no node kind for budget %d, moved %b", budget, mask))
	}
	return int(k)
}

// appendUnmoves appends the squares a man now on y could have come from by
// one man-move (one entry per action, as appendManMoves lists them), with
// the move's cost, at most budget; occ holds every man (y's included) and
// the walls.
func appendUnmoves(dst []manMove, y int8, occ uint64, budget int, rdv uint64) []manMove {
	occ &^= bit(y)
	for d := 0; d < 8; d++ {
		t := y
		for k := 1; k <= budget; k++ {
			t = step[t][d]
			if t < 0 || occ&bit(t) != 0 {
				break
			}
			dst = append(dst, manMove{to: t, cost: int8(k)})
		}
	}
	p := ringAt[y]
	if p < 0 {
		return dst
	}
	for _, dir := range [2]int{1, 27} {
		between := false // a rendezvous square lies strictly between
		for k := 1; k < 28; k++ {
			t := ringSq[(int(p)+k*dir)%28]
			if occ&bit(t) != 0 {
				break
			}
			cost := 1
			if between {
				cost = k
			}
			if cost > budget {
				break
			}
			dst = append(dst, manMove{to: t, cost: int8(cost)})
			if rdv&bit(t) != 0 {
				between = true
			}
		}
	}
	return dst
}

// backward calls visit for every edge into node n, once for each edge out
// of its source (as forward lists them): the same edges, reversed.
func (g *fiveGraph) backward(n uint32, buf []manMove, visit func(kind int, from uint32)) []manMove {
	t, d, kind, ok := g.ix.decodeNode(n)
	if !ok {
		return buf
	}
	st := kindState[kind]
	occ := setOf(t[:]) | setOf(d[:]) | g.ix.block
	trioSet, duoSet := setOf(t[:]), setOf(d[:])
	if st.moved != 0 {
		// Within a turn: the last man-move was one of the moved men's.
		trioMoves := kind < duoKinds
		mover := duoSet
		if trioMoves {
			mover = trioSet
		}
		if mover&^g.rdv == 0 {
			return buf
		}
		men, _ := moverMen(t, d, kind)
		for j, y := range men {
			if st.moved&(1<<j) == 0 {
				continue
			}
			buf = appendUnmoves(buf[:0], y, occ, 3-st.budget, g.rdv)
			for _, mv := range buf {
				b := st.budget + int(mv.cost)
				before := replace(men, y, mv.to)
				mask := movedMask(before, movedSquares(men, st.moved)&^bit(y))
				r := 1
				if trioMoves {
					r = 0
				}
				k := kindOf[r][b][mask]
				if k < 0 {
					continue
				}
				visit(edgeSame, node(g.placingOf(t, d, trioMoves, before), int(k)))
			}
		}
		return buf
	}
	// The start of a turn: the other side ended his.
	yTrio := kind < duoKinds
	xTrio := !yTrio
	xMen, xSet := d[:], duoSet
	if xTrio {
		xMen, xSet = t[:], trioSet
	}
	p := int(n / kinds)
	first, last := duoKinds+1, kinds
	if xTrio {
		first, last = 1, duoKinds
	}
	for k := first; k < last; k++ {
		visit(edgeCross, node(p, k))
	}
	if xSet&^g.rdv != 0 {
		for _, y := range xMen {
			buf = appendUnmoves(buf[:0], y, occ, 3, g.rdv)
			for _, mv := range buf {
				before := replace(xMen, y, mv.to)
				np := g.placingOf(t, d, xTrio, before)
				g.endingStates(xTrio, before, mv.to, int(mv.cost), func(k int) { visit(edgeCross, node(np, k)) })
			}
		}
	}
	if yTrio {
		return buf
	}
	// Rule 7: the three (the two, before) got both in, converting c.
	var c int8 = -1
	for _, s := range t {
		if g.rdv&bit(s) == 0 {
			if c >= 0 {
				return buf
			}
			c = s
		}
	}
	if c < 0 || bits.OnesCount64(duoSet&g.rdv) > 1 {
		return buf
	}
	dMen := others(t[:], c)
	oldTrio := [3]int8{d[0], d[1], c}
	for _, y := range dMen {
		buf = appendUnmoves(buf[:0], y, occ, 3, g.rdv)
		for _, mv := range buf {
			before := replace(dMen[:], y, mv.to)
			np := g.ix.placing(oldTrio, [2]int8{before[0], before[1]})
			sorted := sort2([2]int8{before[0], before[1]})
			for k := duoKinds; k < kinds; k++ {
				st := kindState[k]
				if int(mv.cost) > st.budget {
					continue
				}
				if st.moved&(1<<indexOf(sorted[:], mv.to)) != 0 {
					continue
				}
				visit(edgeCross, node(np, k))
			}
		}
	}
	return buf
}

// endingStates calls f with every kind of node of the mover (men before
// the move, the moved man on from) from which moving that man at that
// cost ends the turn: the budget spent, or every man moved.
func (g *fiveGraph) endingStates(trio bool, before []int8, from int8, cost int, f func(kind int)) {
	var sorted []int8
	if trio {
		s := sort3([3]int8{before[0], before[1], before[2]})
		sorted = s[:]
	} else {
		s := sort2([2]int8{before[0], before[1]})
		sorted = s[:]
	}
	i := indexOf(sorted, from)
	first, last := duoKinds, kinds
	if trio {
		first, last = 0, duoKinds
	}
	all := uint8(1)<<len(sorted) - 1
	for k := first; k < last; k++ {
		st := kindState[k]
		if st.moved&(1<<i) != 0 || cost > st.budget {
			continue
		}
		if st.budget == cost || st.moved|1<<i == all {
			f(k)
		}
	}
}

// others returns the two of three men not on square c.
func others(three []int8, c int8) [2]int8 {
	var rest [2]int8
	j := 0
	for _, o := range three {
		if o != c {
			rest[j] = o
			j++
		}
	}
	return rest
}

func indexOf(men []int8, s int8) int {
	for i, m := range men {
		if m == s {
			return i
		}
	}
	panic("endgame: a man not among the men")
}

// replace returns men (ascending) with y moved to x, ascending.
func replace(men []int8, y, x int8) []int8 {
	out := make([]int8, len(men))
	copy(out, men)
	for i := range out {
		if out[i] == y {
			out[i] = x
		}
	}
	if len(out) == 3 {
		s := sort3([3]int8{out[0], out[1], out[2]})
		return s[:]
	}
	s := sort2([2]int8{out[0], out[1]})
	return s[:]
}

func movedSquares(men []int8, mask uint8) uint64 {
	var b uint64
	for i, s := range men {
		if mask&(1<<i) != 0 {
			b |= bit(s)
		}
	}
	return b
}

// placingOf returns the placing with the mover's men replaced.
func (g *fiveGraph) placingOf(t [3]int8, d [2]int8, trioMoves bool, men []int8) int {
	if trioMoves {
		return g.ix.placing([3]int8{men[0], men[1], men[2]}, d)
	}
	return g.ix.placing(t, [2]int8{men[0], men[1]})
}

// Value encoding in a node: 0 drawn (or not yet known), else the turns to
// the end, the current one counting as the first, with lossBit set when
// the side to move loses.
const lossBit = 0x80

func decodeFive(b uint8) Value {
	switch {
	case b == 0:
		return Value{}
	case b&lossBit != 0:
		return Value{Outcome: -1, Turns: int(b &^ lossBit)}
	}
	return Value{Outcome: 1, Turns: int(b)}
}

// hasWin marks in the counts a node that wins by an exit whatever else
// it does.
const hasWin = 0xff

var errFiveDepth = errors.New("endgame: a five-man value past 127 turns")

// packed holds a byte for each node, four to a word, so that workers can
// change them with the word's atomic operations.
type packed []uint32

func newPacked(n int) packed { return make(packed, (n+3)/4) }

func (a packed) get(i uint32) uint8 {
	return uint8(atomic.LoadUint32(&a[i>>2]) >> ((i & 3) * 8))
}

// set stores v in byte i if it holds 0, reporting whether it did.
func (a packed) set(i uint32, v uint8) bool {
	w, sh := &a[i>>2], (i&3)*8
	for {
		old := atomic.LoadUint32(w)
		if uint8(old>>sh) != 0 {
			return false
		}
		if atomic.CompareAndSwapUint32(w, old, old|uint32(v)<<sh) {
			return true
		}
	}
}

// dec takes one from byte i unless it holds 0 or hasWin, and returns what
// it then holds (hasWin, or 0 only when this call made it 0; 1 when it
// was already 0, which is never wanted).
func (a packed) dec(i uint32) uint8 {
	w, sh := &a[i>>2], (i&3)*8
	for {
		old := atomic.LoadUint32(w)
		b := uint8(old >> sh)
		if b == hasWin {
			return hasWin
		}
		if b == 0 {
			return 1
		}
		if atomic.CompareAndSwapUint32(w, old, old-1<<sh) {
			return b - 1
		}
	}
}

// solve values every node of the graph on workers goroutines (0: one a
// core), level by level: a level's nodes are those whose value is that
// many turns to the end. Progress, if set, is told each level's count.
func (g *fiveGraph) solve(workers int, progress func(level, nodes int)) (packed, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	nn := g.ix.nodes()
	d, count := newPacked(nn), newPacked(nn)
	pendWin, pendLoss, err := g.count(count, workers)
	if err != nil {
		return nil, err
	}
	var next []uint32
	for level := 1; level < lossBit; level++ {
		q := next
		for _, n := range pendWin[level] {
			if d.set(n, uint8(level)) {
				q = append(q, n)
			}
		}
		for _, n := range pendLoss[level] {
			if d.get(n) == 0 && count.dec(n) == 0 {
				d.set(n, uint8(level)|lossBit)
				q = append(q, n)
			}
		}
		pendWin[level], pendLoss[level] = nil, nil
		// Within a turn: a node's value passes to the nodes of the same
		// turn before it, at the same level; only nodes within a turn
		// have such edges in.
		all := q
		for front := q; len(front) > 0; {
			front = parallel(front, workers, func(n uint32, buf []manMove, out []uint32) ([]manMove, []uint32) {
				if kindState[n%kinds].moved == 0 {
					return buf, out
				}
				lost := d.get(n)&lossBit != 0
				buf = g.backward(n, buf, func(_ int, p uint32) {
					switch {
					case d.get(p) != 0:
					case !lost:
						if d.set(p, uint8(level)) {
							out = append(out, p)
						}
					case count.dec(p) == 0:
						d.set(p, uint8(level)|lossBit)
						out = append(out, p)
					}
				})
				return buf, out
			})
			all = append(all, front...)
		}
		// Across turns, one level on: only the starts of turns have such
		// edges in.
		next = parallel(all, workers, func(n uint32, buf []manMove, out []uint32) ([]manMove, []uint32) {
			if kindState[n%kinds].moved != 0 {
				return buf, out
			}
			lost := d.get(n)&lossBit != 0
			buf = g.backward(n, buf, func(_ int, p uint32) {
				switch {
				case d.get(p) != 0:
				case lost:
					if d.set(p, uint8(level+1)) {
						out = append(out, p)
					}
				case count.dec(p) == 0:
					d.set(p, uint8(level+1)|lossBit)
					out = append(out, p)
				}
			})
			return buf, out
		})
		if progress != nil {
			progress(level, len(all))
		}
		if len(next) == 0 && !pending(pendWin[level+1:]) && !pending(pendLoss[level+1:]) {
			return d, nil
		}
		if level+1 >= lossBit {
			break
		}
	}
	return nil, errFiveDepth
}

// count sets every node's count of edges out (hasWin for a node that an
// exit wins) and lists the exits by level: the nodes they win, and the
// losing exits to count off.
func (g *fiveGraph) count(count packed, workers int) (pendWin, pendLoss [lossBit + 1][]uint32, err error) {
	nn := g.ix.nodes()
	type part struct {
		win, loss [lossBit + 1][]uint32
		err       error
	}
	parts := make([]part, workers)
	// Words of four nodes are counted by one worker each.
	chunk := (nn/workers + 3) &^ 3
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, nn)
		wg.Add(1)
		go func(pt *part) {
			defer wg.Done()
			buf := make([]manMove, 0, 64)
			var losses []int
			for n := lo; n < hi; n++ {
				if _, _, _, valid := g.ix.decodeNode(uint32(n)); !valid {
					continue
				}
				c, win, ok := 0, 0, true
				losses = losses[:0]
				buf = g.forward(uint32(n), buf, func(kind int, _ uint32, v Value) {
					switch {
					case kind != edgeExit:
						c++
					case v.Outcome > 0:
						if win == 0 || v.Turns < win {
							win = v.Turns
						}
					default:
						if v.Outcome == 0 || v.Turns >= lossBit {
							ok = false
						}
						c++
						losses = append(losses, v.Turns)
					}
				})
				switch {
				case !ok:
					pt.err = fmt.Errorf("endgame: node %d has an exit that is drawn or too long", n)
					return
				case win >= lossBit:
					pt.err = errFiveDepth
					return
				case win > 0:
					count[n>>2] |= hasWin << ((n & 3) * 8)
					pt.win[win] = append(pt.win[win], uint32(n))
				case c == 0 && g.stuck:
				case c == 0:
					pt.err = fmt.Errorf("endgame: node %d has no move", n)
					return
				case c >= hasWin:
					pt.err = fmt.Errorf("endgame: node %d has %d moves", n, c)
					return
				default:
					count[n>>2] |= uint32(c) << ((n & 3) * 8)
					for _, l := range losses {
						pt.loss[l] = append(pt.loss[l], uint32(n))
					}
				}
			}
		}(&parts[w])
	}
	wg.Wait()
	for _, pt := range parts {
		if pt.err != nil {
			return pendWin, pendLoss, pt.err
		}
		for l := range pt.win {
			pendWin[l] = append(pendWin[l], pt.win[l]...)
			pendLoss[l] = append(pendLoss[l], pt.loss[l]...)
		}
	}
	return pendWin, pendLoss, nil
}

// parallelMin is the fewest nodes parallel shares between workers (fewer
// are done on one), parallelGrain how many a worker takes at a time; a
// test lowers both to run the workers together on a small region.
var parallelMin, parallelGrain = 4096, 1024

// parallel calls f for every node of ns on workers goroutines, each with
// a buffer and a list of its own, and returns the lists joined.
func parallel(ns []uint32, workers int, f func(n uint32, buf []manMove, out []uint32) ([]manMove, []uint32)) []uint32 {
	if len(ns) < parallelMin || workers == 1 {
		var out []uint32
		buf := make([]manMove, 0, 64)
		for _, n := range ns {
			buf, out = f(n, buf, out)
		}
		return out
	}
	outs := make([][]uint32, workers)
	var wg sync.WaitGroup
	var at atomic.Int64
	grain := int64(parallelGrain)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			buf := make([]manMove, 0, 64)
			for {
				lo := int(at.Add(grain) - grain)
				if lo >= len(ns) {
					return
				}
				for _, n := range ns[lo:min(lo+int(grain), len(ns))] {
					buf, outs[w] = f(n, buf, outs[w])
				}
			}
		}(w)
	}
	wg.Wait()
	var out []uint32
	for _, o := range outs {
		out = append(out, o...)
	}
	return out
}

func pending(ls [][]uint32) bool {
	for _, l := range ls {
		if len(l) > 0 {
			return true
		}
	}
	return false
}
