package endgame

import "github.com/muster-games/muster/lanrick"

// The five-man rendezvous: 1893's sixth, the 4-square open one (Def. 3:
// the diagonal ray-ends of a mark on a field square), played by three men
// against two. Both sides have fewer than four men, so every turn but the
// rendezvous' opening one has 3 squares (Rule 3), and Rule 3's cap of 3
// squares a man is never the binding limit. Men on the border may slide
// along it (Rule 6).

// ringSq lists the 28 border squares in order round the board; ringAt
// inverts it (-1 off the border).
var (
	ringSq [28]int8
	ringAt [64]int8
)

func init() {
	for s := range ringAt {
		ringAt[s] = -1
	}
	i := 0
	add := func(f, r int) {
		ringSq[i] = int8(r*8 + f)
		ringAt[r*8+f] = int8(i)
		i++
	}
	for r := 0; r < 8; r++ {
		add(0, r)
	}
	for f := 1; f < 8; f++ {
		add(f, 7)
	}
	for r := 6; r >= 0; r-- {
		add(7, r)
	}
	for f := 6; f >= 1; f-- {
		add(f, 0)
	}
}

// manMove is one man's move: to square, its cost under Rules 3 and 6.
type manMove struct {
	to   int8
	cost int8
}

// appendManMoves appends the moves of the man on from with at most budget
// squares to spend, the men on occ (from included) in the way: Rule 1's
// straight lines and, in an open rendezvous rdv, Rule 6's slides along
// the border, which cost 1 up to and onto the first rendezvous square met
// and every square beyond it. A slide and a straight move to the same
// square are two moves, as they are two actions.
func appendManMoves(dst []manMove, from int8, occ uint64, budget int, rdv uint64, open bool) []manMove {
	occ &^= bit(from)
	for d := 0; d < 8; d++ {
		t := from
		for k := 1; k <= budget; k++ {
			t = step[t][d]
			if t < 0 || occ&bit(t) != 0 {
				break
			}
			dst = append(dst, manMove{to: t, cost: int8(k)})
		}
	}
	p := ringAt[from]
	if !open || p < 0 {
		return dst
	}
	for _, dir := range [2]int8{1, 27} {
		first := 0 // steps to the first rendezvous square, 0 before it is met
		for k := 1; k < 28; k++ {
			t := ringSq[(int(p)+k*int(dir))%28]
			if occ&bit(t) != 0 {
				break
			}
			cost := 1
			if first != 0 {
				cost = k
			}
			if cost > budget {
				break
			}
			dst = append(dst, manMove{to: t, cost: int8(cost)})
			if first == 0 && rdv&bit(t) != 0 {
				first = k
			}
		}
	}
	return dst
}

// openFour returns the 4-square open rendezvous of a mark (Def. 3).
func openFour(mark lanrick.Square) (lanrick.Bitboard, bool) {
	return lanrick.Rendezvous(mark, lanrick.Shape{Size: 4, Line: -1})
}
