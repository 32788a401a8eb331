package lanrick

import (
	"fmt"

	"github.com/muster-games/muster/game"
)

// firstMarks are the squares of 1893 Rule 2's first mark: the central four
// squares of the diagonal not containing men.
var firstMarks = bitOf(sq(2, 5)) | bitOf(sq(3, 4)) | bitOf(sq(4, 3)) | bitOf(sq(5, 2))

// markOK reports whether the current setter may set the mark on m with
// the given line (for a 3-square rendezvous), and the rendezvous.
func (s *State) markOK(m Square, line int) (Bitboard, bool) {
	sh := Shape{Size: s.shape.Size, Line: line}
	rdv, ok := Rendezvous(m, sh)
	if !ok {
		return 0, false
	}
	if s.g.Rules.QueenCheck && sh.Size%2 == 0 {
		rdv = s.checked(m, sh)
	}
	r := &s.g.Rules
	if r.FirstMarkRestricted && s.rendezvous == 1 && !firstMarks.has(m) {
		return 0, false
	}
	if r.SetterNoOwnMan && rdv&s.men[s.setter] != 0 {
		return 0, false
	}
	return rdv, true
}

// checked returns the border squares a queen on m would check along the
// shape's lines, stopping at the first man (A-G5's option): a line blocked
// before the border adds no square, a man on the border end is checked.
func (s *State) checked(m Square, sh Shape) Bitboard {
	var b Bitboard
	occ := s.all()
	for _, d := range dirsFor(sh) {
		t := step[m][d]
		for t >= 0 && !occ.has(t) && step[t][d] >= 0 {
			t = step[t][d]
		}
		if t >= 0 && Border.has(t) {
			b |= bitOf(t)
		}
	}
	return b
}

// lineDirs are the orientations of a 3-square rendezvous.
var lineDirs = [4]int{N, E, NE, NW}

// LegalActions appends the legal actions of the player to act.
func (s *State) LegalActions(dst []game.Action) []game.Action {
	if s.over || s.toAct < 0 {
		return dst
	}
	switch s.phase {
	case PhasePlace:
		for w := Border &^ s.all(); w != 0; w &= w - 1 {
			dst = append(dst, pack(kPlace, trailing(w), 0))
		}
	case PhaseMark:
		n := len(dst)
		dst = s.marks(dst)
		if len(dst) == n {
			// No square will do (never seen in play): the setter passes,
			// and the game is drawn.
			dst = append(dst, pack(kPass, 0, 0))
		}
	case PhaseInterchange:
		dst = append(dst, pack(kInterchange, 0, 0), pack(kNoInterchange, 0, 0))
	case PhaseSwap:
		for w := s.men[1-s.setter] &^ s.swapped; w != 0; w &= w - 1 {
			dst = append(dst, pack(kSwap, trailing(w), 0))
		}
	case PhaseMove:
		n := len(dst)
		dst = s.manMoves(dst)
		dst = s.markMoves(dst)
		if s.movedAny || s.g.Rules.VoluntaryPass {
			dst = append(dst, pack(kEnd, 0, 0))
		} else if len(dst) == n {
			dst = append(dst, pack(kPass, 0, 0))
		}
	default:
		dst = s.auxActionsAll(dst)
	}
	return dst
}

// marks appends the legal marks of the setter.
func (s *State) marks(dst []game.Action) []game.Action {
	for m := Square(0); m < Squares; m++ {
		switch {
		case s.g.Rules.old():
			if _, ok := s.oldMarkOK(m); ok {
				dst = append(dst, pack(kMark, int(m), 0))
			}
		case s.shape.Size == 3:
			for _, d := range lineDirs {
				if _, ok := s.markOK(m, d); ok {
					dst = append(dst, pack(kMark, int(m), d+1))
				}
			}
		default:
			if _, ok := s.markOK(m, -1); ok {
				dst = append(dst, pack(kMark, int(m), 0))
			}
		}
	}
	return dst
}

// manMoves appends the man-moves of the player to act: line moves and,
// for an open rendezvous, Rule 6's border slides.
func (s *State) manMoves(dst []game.Action) []game.Action {
	p := int(s.toAct)
	occ := s.all()
	open := s.shape.Size%2 == 0
	r := &s.g.Rules
	movable := s.men[p]
	if !r.MultiMove {
		movable &^= s.moved
	}
	for w := movable; w != 0; w &= w - 1 {
		from := Square(trailing(w))
		c := s.cap(from)
		for d := 0; d < 8; d++ {
			if s.moved.has(from) && !s.sameLine(from, d) {
				continue
			}
			t := from
			for k := int8(1); k <= c; k++ {
				t = step[t][d]
				if t < 0 || occ.has(t) {
					break
				}
				dst = append(dst, pack(kMove, int(from), int(t)))
			}
		}
		if open && Border.has(from) {
			for _, dir := range [2]int{1, -1} {
				dst = s.slides(dst, from, dir, c)
			}
		}
	}
	return dst
}

// sameLine reports whether the man on from, already moved this turn, may
// move again in direction d (1881 Rule 4: "provided it be along the same
// line of squares"; A-E5).
func (s *State) sameLine(from Square, d int) bool {
	first := int(s.lines[from]) - 1
	if first < 0 {
		return false
	}
	return d == first || !s.g.Rules.SameDirection && d == (first+4)%8
}

// slides appends Rule 6's slides of the man on from along the border ring
// in one direction: cost 1 up to the first rendezvous square met, the
// full count beyond it (within the cap).
func (s *State) slides(dst []game.Action, from Square, dir int, c int8) []game.Action {
	occ := s.all()
	i := int(ringIndex[from])
	first := 99
	for k := 1; k < 14; k++ {
		t := ring[(i+dir*k+28*2)%28]
		if occ.has(t) {
			break
		}
		if first == 99 && s.rdv.has(t) {
			first = k
		}
		cost := 1
		if k > first {
			cost = k
		}
		if int8(cost) > c {
			break
		}
		dst = append(dst, pack(kSlide, int(from), int(t)))
	}
	return dst
}

// slideCost returns the cost of a legal slide from a to b (the shorter
// way round).
func (s *State) slideCost(a, b Square) int8 {
	i, j := int(ringIndex[a]), int(ringIndex[b])
	k := (j - i + 28) % 28
	dir := 1
	if k > 14 {
		k, dir = 28-k, -1
	}
	for n := 1; n <= k; n++ {
		if s.rdv.has(ring[(i+dir*n+28)%28]) {
			if k <= n {
				return 1
			}
			return int8(k)
		}
	}
	return 1
}

// direction returns the direction from a to b, which lie on one line.
func direction(a, b Square) int {
	df, dr := sign(b.File()-a.File()), sign(b.Rank()-a.Rank())
	for d, st := range dirSteps {
		if st[0] == df && st[1] == dr {
			return d
		}
	}
	return 0
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func chebyshev(a, b Square) int8 {
	df, dr := a.File()-b.File(), a.Rank()-b.Rank()
	if df < 0 {
		df = -df
	}
	if dr < 0 {
		dr = -dr
	}
	return int8(max(df, dr))
}

// IsLegal reports whether an action is legal here.
func (s *State) IsLegal(a game.Action) bool {
	if s.toAct < 0 && !s.over {
		for _, o := range s.ChanceOutcomes(nil) {
			if o.Action == a {
				return true
			}
		}
		return false
	}
	var buf [MaxActions]game.Action
	for _, x := range s.LegalActions(buf[:0]) {
		if x == a {
			return true
		}
	}
	return false
}

// whyIllegal explains, as well as it can, why an action is not legal.
func (s *State) whyIllegal(a game.Action) string {
	k, x, y := unpack(a)
	want := map[Phase]string{
		PhasePlace: "a man to place (@sq)", PhaseRoll: "a throw of the die", PhaseMark: "the mark (mark sq)",
		PhaseInterchange: "interchange or no-interchange", PhaseSwap: "a man to interchange (swap sq)",
		PhaseMove: "a move, end or pass", PhaseRemove: "a man to take (x sq)", PhaseRelocate: "a wanderer moved to a vacant border square",
		PhaseSetIn: "a wanderer set on a vacant rendezvous square", PhaseRadiate: "the centre man moved out along a vacant line",
		PhaseBonus: "a bonus move of his own man to a vacant border square, or end", PhaseEqualise: "one of his men in the field moved to the border",
		PhaseMarshal: "one of his men in the field moved to the border",
	}[s.phase]
	fits := map[kind]Phase{kPlace: PhasePlace, kRoll: PhaseRoll, kMark: PhaseMark, kInterchange: PhaseInterchange,
		kNoInterchange: PhaseInterchange, kSwap: PhaseSwap, kMove: PhaseMove, kSlide: PhaseMove, kMarkMove: PhaseMove,
		kEnd: PhaseMove, kPass: PhaseMove, kRemove: PhaseRemove}
	aux := s.phase >= PhaseRelocate && s.phase <= PhaseMarshal
	if ph, ok := fits[k]; !ok || ph != s.phase && !(aux && (k == kMove || k == kEnd && s.phase == PhaseBonus)) {
		return fmt.Sprintf("%s is to act and the rules want %s", colourName(int(s.toAct)), want)
	}
	if aux {
		return fmt.Sprintf("the rules want %s", want)
	}
	p := int(s.toAct)
	switch k {
	case kMove, kSlide:
		from, to := Square(x), Square(y)
		switch {
		case !s.men[p].has(from):
			return fmt.Sprintf("%s has no man on %s", colourName(p), from)
		case s.all().has(to):
			return to.String() + " is occupied"
		case !s.g.Rules.MultiMove && s.moved.has(from):
			return "that man has already moved this turn"
		case k == kSlide && (s.shape.Size%2 == 1 || !Border.has(from) || !Border.has(to)):
			return "slides along the border are for an open rendezvous and men on the border (Rule 6)"
		}
		cost := chebyshev(from, to)
		if k == kSlide {
			cost = s.slideCost(from, to)
		} else if df, dr := from.File()-to.File(), from.Rank()-to.Rank(); df != 0 && dr != 0 && df != dr && df != -dr {
			return "a man moves along one straight line, straight or slanting"
		}
		if cost > s.budget {
			if s.budget == 1 {
				return fmt.Sprintf("it costs %s and 1 is left this turn", squareCount(cost))
			}
			return fmt.Sprintf("it costs %s and %d are left this turn", squareCount(cost), s.budget)
		}
		if cost > s.cap(from) {
			return "no man may move more than 3 squares, unless it is his only man outside the rendezvous"
		}
		return "the way is blocked"
	case kMark:
		if s.g.Rules.FirstMarkRestricted && s.rendezvous == 1 && !firstMarks.has(Square(x)) {
			return "the first mark goes on c6, d5, e4 or f3 (Rule 2)"
		}
		if s.shape.Size == 3 && y == 0 {
			return "a 3-square rendezvous needs its line: n, e, ne or nw"
		}
		if s.shape.Size != 3 && y != 0 {
			return fmt.Sprintf("only a 3-square rendezvous has a line; this one has %d squares", s.shape.Size)
		}
		if _, ok := Rendezvous(Square(x), Shape{s.shape.Size, y - 1}); !ok {
			return fmt.Sprintf("a %d-square rendezvous does not fit there", s.shape.Size)
		}
		return "the setter may have no man in the rendezvous"
	case kEnd:
		return "a turn ends only after at least one man has moved"
	case kPass:
		return "a pass is only for a player with no legal action"
	case kRemove, kSwap:
		return fmt.Sprintf("%s is not one of the men to choose from", Square(x))
	}
	return "not legal here"
}
