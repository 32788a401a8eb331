package endgame

import (
	"math/bits"
	"sort"
	"sync"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
)

// Race searches the final rendezvous turn by turn, without the tables: a
// computer player's search where the tables are not on disk. Each node is
// the start of a turn; its moves are the turns (every sequence of
// man-moves, as the tables' generator lists them, the same men after
// them counted once); a turn that gets both men in wins. Positions the
// search does not reach the end of are valued by the race each side would
// run alone: the turns his two men need to get in on an empty board.
type Race struct {
	line uint64
	// alone[p] is the turns the men on pair p need to get both into the
	// line with no other man on the board (255 where they cannot).
	alone [pairs]uint8
}

var (
	racesMu sync.Mutex
	races   = map[lanrick.Bitboard]*Race{}
)

// RaceOf returns the race search of a 3-square line, made once.
func RaceOf(line lanrick.Bitboard) *Race {
	racesMu.Lock()
	defer racesMu.Unlock()
	if r := races[line]; r != nil {
		return r
	}
	r := &Race{line: uint64(line)}
	r.measure()
	races[line] = r
	return r
}

// measure fills alone by a search backwards from the pairs in the line
// (turns on an empty board are reversible: straight moves over empty
// squares).
func (r *Race) measure() {
	for i := range r.alone {
		r.alone[i] = 255
	}
	var front []int
	for p := 0; p < pairs; p++ {
		sq := pairSquares[p]
		if (bit(sq[0])|bit(sq[1]))&^r.line == 0 {
			r.alone[p] = 0
			front = append(front, p)
		}
	}
	var buf [][2]int8
	for d := uint8(1); len(front) > 0; d++ {
		var next []int
		for _, p := range front {
			sq := pairSquares[p]
			buf = appendTurns(buf[:0], sq[0], sq[1], bit(sq[0])|bit(sq[1]), turnBudget)
			for _, m := range buf {
				q := int(pairIndex[m[0]][m[1]])
				if r.alone[q] == 255 {
					r.alone[q] = d
					next = append(next, q)
				}
			}
		}
		front = next
	}
}

// RaceWin is the score of a win found by the race search, less the turns
// to it (both sides', the first included); a loss is its negation, and
// anything else (the difference of the two races alone) lies far below.
const RaceWin = 1000

// eval values a position for the player to move (men mine, other's
// theirs): the turns the other needs alone less his own, the mover half a
// turn ahead.
func (r *Race) eval(mine, theirs uint64) int {
	a := int(r.alone[pairOf(mine)])
	b := int(r.alone[pairOf(theirs)])
	return 2*(b-a) + 1
}

func pairOf(men uint64) uint16 {
	return pairIndex[bits.TrailingZeros64(men)][63-bits.LeadingZeros64(men)]
}

type raceEntry struct {
	depth int8
	flag  int8 // 0 exact, 1 lower bound, 2 upper bound
	value int
	best  uint64
}

// turns lists the mover's men after each of his turns, each placing once,
// nearest the line first; won is a placing with both in, if one is
// reachable (the turn ends there, won).
func (r *Race) turns(mine, theirs uint64, budget int) (moves []uint64, won uint64) {
	m0, m1 := int8(bits.TrailingZeros64(mine)), int8(63-bits.LeadingZeros64(mine))
	var buf [][2]int8
	buf = appendTurns(buf, m0, m1, mine|theirs, budget)
	seen := map[uint64]bool{}
	for _, m := range buf {
		b := bit(m[0]) | bit(m[1])
		if b&^r.line == 0 {
			return nil, b
		}
		if !seen[b] {
			seen[b] = true
			moves = append(moves, b)
		}
	}
	sort.Slice(moves, func(i, j int) bool {
		return r.alone[pairOf(moves[i])] < r.alone[pairOf(moves[j])] ||
			r.alone[pairOf(moves[i])] == r.alone[pairOf(moves[j])] && moves[i] < moves[j]
	})
	return moves, 0
}

func (r *Race) negamax(mine, theirs uint64, depth, alpha, beta, ply int, tt map[[2]uint64]raceEntry) int {
	key := [2]uint64{mine, theirs}
	var hint uint64
	if e, ok := tt[key]; ok {
		hint = e.best
		if int(e.depth) >= depth {
			switch {
			case e.flag == 0:
				return e.value
			case e.flag == 1 && e.value >= beta:
				return e.value
			case e.flag == 2 && e.value <= alpha:
				return e.value
			}
		}
	}
	moves, won := r.turns(mine, theirs, turnBudget)
	if won != 0 {
		return RaceWin - ply
	}
	if depth <= 0 {
		return r.eval(mine, theirs)
	}
	if hint != 0 {
		for i, m := range moves {
			if m == hint {
				moves[0], moves[i] = moves[i], moves[0]
				break
			}
		}
	}
	a0 := alpha
	best, bestM := -2*RaceWin, moves[0]
	for _, m := range moves {
		v := -r.negamax(theirs, m, depth-1, -beta, -alpha, ply+1, tt)
		if v > best {
			best, bestM = v, m
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			break
		}
	}
	flag := int8(0)
	switch {
	case best <= a0:
		flag = 2
	case best >= beta:
		flag = 1
	}
	tt[key] = raceEntry{depth: int8(depth), flag: flag, value: best, best: bestM}
	return best
}

// Prove looks for a forced win of the player to move in the final
// rendezvous, at the start of his turn or within it (AppliesFour, in
// play), within depth turns: his own, played out action by action with
// the rules package, then depth-1 more by the race search, shallowest
// first. It returns the first action of the win and the turns to it (his
// own turn counting as the first), or ok false where it finds none.
func (r *Race) Prove(s *lanrick.State, depth int) (a game.Action, turns int, ok bool) {
	if !AppliesFour(s) || s.Phase() != lanrick.PhaseMove || uint64(s.RendezvousSquares()) != r.line {
		return 0, 0, false
	}
	me := int(s.ToAct())
	theirs := uint64(s.Men(1 - me))
	// The ends of the turn, each with an action that leads to it.
	first := map[uint64]game.Action{}
	var ends []uint64
	var won game.Action
	found := false
	var walk func(c *lanrick.State, root game.Action)
	walk = func(c *lanrick.State, root game.Action) {
		for _, a := range c.LegalActions(nil) {
			if found {
				return
			}
			n := c.Copy()
			n.Apply(a)
			ra := root
			if c == s {
				ra = a
			}
			switch {
			case n.IsTerminal() || n.Phase() == lanrick.PhaseRemove:
				if !n.IsTerminal() || int(n.Result().Winner) == me {
					won, found = ra, true
				}
			case int(n.ToAct()) == me:
				walk(n, ra)
			default:
				mine := uint64(n.Men(me))
				if _, seen := first[mine]; !seen {
					first[mine] = ra
					ends = append(ends, mine)
				}
			}
		}
	}
	walk(s, 0)
	if found {
		return won, 1, true
	}
	sort.Slice(ends, func(i, j int) bool {
		return r.alone[pairOf(ends[i])] < r.alone[pairOf(ends[j])] ||
			r.alone[pairOf(ends[i])] == r.alone[pairOf(ends[j])] && ends[i] < ends[j]
	})
	tt := map[[2]uint64]raceEntry{}
	for d := 1; d < depth; d++ {
		for _, e := range ends {
			// Only whether he wins matters: the other's window is that of
			// a loss.
			if v := -r.negamax(theirs, e, d, -RaceWin, -(RaceWin - 100), 2, tt); v > RaceWin-100 {
				return first[e], RaceWin - v, true
			}
		}
	}
	return 0, 0, false
}
