package lanrick

import (
	"fmt"

	"github.com/muster-games/muster/game"
)

// This file holds the phases of the 3×3 versions, 1879 to 1881: setting
// the men, the dice, the winner's removals and relocations, the 1879-03
// wanderers, radiating and bonus moves, and the 1881 equalising and
// re-marshalling.

// old reports whether the rules are one of the 3×3 versions.
func (r *Rules) old() bool { return r.Version < V1893 }

// startSetting begins the setting of all ten men, placer first.
func (s *State) startSetting(placer int8) {
	s.setMen(Black, 0)
	s.setMen(White, 0)
	s.placer, s.placed = placer, 0
	s.mark, s.rdv, s.setter = NoSquare, 0, -1
	s.shape = Shape{Size: 9, Line: -1}
	s.phase = PhasePlace
	s.toAct, _ = s.placeTurn()
}

// placeTurn returns who places the next man and its colour.
func (s *State) placeTurn() (actor int8, colour int) {
	i := s.placed
	switch s.g.Rules.Version {
	case V1879Mar: // the first Player sets all five, then the other
		if i < 5 {
			return s.placer, int(s.placer)
		}
		return 1 - s.placer, int(1 - s.placer)
	case V1880Oct, V1880Dec: // one player sets all ten, black first
		if i < 5 {
			return s.placer, Black
		}
		return s.placer, White
	}
	// 1879-01, 1881: alternately, each his own men.
	if i%2 == 0 {
		return s.placer, int(s.placer)
	}
	return 1 - s.placer, int(1 - s.placer)
}

// afterSetting goes on when all ten men are set.
func (s *State) afterSetting() {
	switch s.g.Rules.Version {
	case V1879Jan, V1879Mar:
		s.rendezvous++
		s.began = true
		s.startRoll()
	case V1880Oct, V1880Dec:
		s.beginRendezvous(1 - s.placer) // the other selects
	case V1881:
		s.beginRendezvous(s.placer) // he who begins sets the mark
	}
}

// oldMarkOK checks a mark of the selecting versions (1880-10, 1880-12,
// 1881).
func (s *State) oldMarkOK(m Square) (Bitboard, bool) {
	if !Field.has(m) {
		return 0, false
	}
	rdv, _ := Rendezvous(m, Shape{Size: 9, Line: -1})
	mine := s.men[s.setter]
	switch s.g.Rules.Version {
	case V1880Oct:
		if s.prevRdv != 0 {
			// A-O2: clear of the old one; A-O3: empty if possible.
			if s.g.Rules.ClearCentreOnly {
				if s.prevRdv.has(m) {
					return 0, false
				}
			} else if rdv&s.prevRdv != 0 {
				return 0, false
			}
			if rdv&s.all() != 0 && s.anyEmptyClear() {
				return 0, false
			}
		}
	case V1880Dec:
		if rdv&mine != 0 { // "which must not include any of his own men"
			return 0, false
		}
	case V1881:
		// Rule 5: none of his men in it, and he cannot, in one turn,
		// move them all in.
		if rdv&mine != 0 || s.canAllIn(s.setter, rdv) {
			return 0, false
		}
	}
	return rdv, true
}

// anyEmptyClear reports whether some 3×3 clear of the old one holds no men
// (1880-10 Rule 5, "and also, if possible, empty").
func (s *State) anyEmptyClear() bool {
	for m := Square(0); m < Squares; m++ {
		if !Field.has(m) {
			continue
		}
		rdv, _ := Rendezvous(m, Shape{Size: 9, Line: -1})
		clear := rdv&s.prevRdv == 0
		if s.g.Rules.ClearCentreOnly {
			clear = !s.prevRdv.has(m)
		}
		if clear && rdv&s.all() == 0 {
			return true
		}
	}
	return false
}

// canAllIn reports whether p could bring all his men into rdv in one turn
// of the 1881 rules from here (A-E3). None of his men are in it, and his
// budget equals his number of men while each man must move at least one
// square, so each man must step into a distinct vacant square of it: a
// matching of men to adjacent vacant rendezvous squares.
func (s *State) canAllIn(p int8, rdv Bitboard) bool {
	men := s.men[p].squares(nil)
	free := rdv &^ s.all()
	var match func(i int, used Bitboard) bool
	match = func(i int, used Bitboard) bool {
		if i == len(men) {
			return true
		}
		for d := 0; d < 8; d++ {
			t := step[men[i]][d]
			if t >= 0 && free.has(t) && !used.has(t) && match(i+1, used|bitOf(t)) {
				return true
			}
		}
		return false
	}
	return len(men) > 0 && match(0, 0)
}

// oldWon: p has all his men in the rendezvous (1879–1881).
func (s *State) oldWon(p int) {
	loser := int8(1 - p)
	s.lastLoser = loser
	s.progress()
	r := &s.g.Rules
	if r.Version == V1879Jan {
		// Rule 4: each may move as many squares as he had men in the last
		// rendezvous, and one more (A-J3 reading A; B: men on the board).
		s.budgets[p] = int8(s.men[p].count() + 1)
		s.budgets[loser] = int8((s.men[loser] & s.rdv).count() + 1)
		if r.BudgetB {
			s.budgets[loser] = int8(s.men[loser].count() + 1)
		}
		s.phase, s.toAct = PhaseRemove, loser // the loser removes one of his own
	} else {
		s.phase, s.toAct = PhaseRemove, int8(p)
	}
	s.prevRdv = s.rdv
	s.marshalStart = loser
}

// oldRemove takes off the man on q after a rendezvous is won.
func (s *State) oldRemove(q Square) {
	loser := s.lastLoser
	winner := 1 - loser
	if q >= 0 {
		s.setMen(int(loser), s.men[loser]&^bitOf(q))
		s.removed |= bitOf(q)
	}
	r := &s.g.Rules
	switch r.Version {
	case V1879Jan:
		if s.men[loser] == 0 {
			s.finish(int(winner), colourName(int(loser))+" has lost all his men")
			return
		}
		s.rendezvous++
		s.began = true
		s.startRoll()
	case V1879Mar:
		if s.men[loser].count() <= 2 {
			s.roundEnd(winner)
			return
		}
		s.wanderers = int8((s.men[loser] &^ s.rdv).count())
		s.first = winner
		s.phase, s.toAct = PhaseSetIn, winner
		if r.OwnerSetsIn {
			s.toAct = loser
		}
	case V1880Oct, V1880Dec:
		if s.men[loser] == 0 {
			s.finish(int(winner), colourName(int(loser))+" has lost all his men")
			return
		}
		s.phase, s.toAct = PhaseRelocate, winner
	case V1881:
		if s.men[loser].count() <= 1 {
			s.finish(int(winner), colourName(int(winner))+" has taken four men")
			return
		}
		s.phase, s.toAct = PhaseRelocate, winner
	}
}

// roundEnd scores a 1879-03 round: "When one Player has only two men left,
// the other scores as many marks as he has men" (February: above two).
func (s *State) roundEnd(winner int8) {
	r := &s.g.Rules
	score := s.men[winner].count()
	target := int8(5)
	if r.FebScoring {
		score -= 2
		target = 3
	}
	s.scores[winner] += int8(score)
	s.scored = true
	if s.scores[winner] >= target {
		s.finish(int(winner), fmt.Sprintf("%s scored %d marks", colourName(int(winner)), s.scores[winner]))
		s.result.Scores = []int{int(s.scores[Black]), int(s.scores[White])}
		return
	}
	// "the ten men are then set again, as in rule 2, the one, who was
	// 'second Player' when last they were set, being now 'first Player'".
	s.first = 1 - s.placer
	s.startSetting(1 - s.placer)
}

// toBorder appends the moves of the man on from to a vacant border square
// along one line (any distance), or, if there is none and the fallback
// is on, to any vacant border square (A12).
func (s *State) toBorder(dst []game.Action, from Square) []game.Action {
	occ := s.all()
	n := len(dst)
	for d := 0; d < 8; d++ {
		for t := step[from][d]; t >= 0 && !occ.has(t); t = step[t][d] {
			if Border.has(t) {
				dst = append(dst, pack(kMove, int(from), int(t)))
			}
		}
	}
	if len(dst) == n && s.g.Rules.RelocateFallback {
		for w := Border &^ occ; w != 0; w &= w - 1 {
			dst = append(dst, pack(kMove, int(from), trailing(w)))
		}
	}
	return dst
}

// fieldMen returns the men of p on field squares (1881 Rules 7–8).
func (s *State) fieldMen(p int8) Bitboard { return s.men[p] & Field }

// auxActions appends the legal actions of the phases after a win.
func (s *State) auxActions(dst []game.Action) []game.Action {
	loser := s.lastLoser
	switch s.phase {
	case PhaseRelocate:
		for w := s.men[loser] &^ s.rdv &^ Border; w != 0; w &= w - 1 {
			dst = s.toBorder(dst, Square(trailing(w)))
		}
	case PhaseEqualise, PhaseMarshal:
		for w := s.fieldMen(s.toAct); w != 0; w &= w - 1 {
			dst = s.toBorder(dst, Square(trailing(w)))
		}
	case PhaseSetIn:
		free := s.rdv &^ s.all()
		for w := s.men[loser] &^ s.rdv; w != 0; w &= w - 1 {
			for v := free; v != 0; v &= v - 1 {
				dst = append(dst, pack(kMove, trailing(w), trailing(v)))
			}
		}
	case PhaseRadiate:
		// The centre man: any vacant line, or if all eight are taken any
		// vacant border square (1879-03 Rule 6).
		c := s.mark
		occ := s.all()
		n := len(dst)
		for d := 0; d < 8; d++ {
			if t := step[c][d]; t >= 0 && !occ.has(t) {
				if end := rayEnd(c, d); !occ.has(end) {
					dst = append(dst, pack(kMove, int(c), int(end)))
				}
			}
		}
		if len(dst) == n {
			for w := Border &^ occ; w != 0; w &= w - 1 {
				dst = append(dst, pack(kMove, int(c), trailing(w)))
			}
		}
	case PhaseBonus:
		dst = append(dst, pack(kEnd, 0, 0))
		for w := s.men[s.toAct] & Border; w != 0; w &= w - 1 {
			from := Square(trailing(w))
			dist := s.kingDistances(from)
			for v := Border &^ s.all(); v != 0; v &= v - 1 {
				if t := trailing(v); dist[t] > 0 && dist[t] <= s.bonus {
					dst = append(dst, pack(kMove, int(from), t))
				}
			}
		}
	}
	return dst
}

// kingDistances returns the number of king steps from from to every
// square through vacant squares (0 where unreachable), for 1879-03 Rule 7
// ("not being obliged … to keep each man to one line").
func (s *State) kingDistances(from Square) [Squares]int8 {
	var dist [Squares]int8
	occ := s.all()
	queue := []Square{from}
	seen := bitOf(from)
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for d := 0; d < 8; d++ {
			t := step[q][d]
			if t < 0 || seen.has(t) || occ.has(t) {
				continue
			}
			if s.g.Rules.BonusBorderOnly && !Border.has(t) {
				continue
			}
			seen |= bitOf(t)
			dist[t] = dist[q] + 1
			queue = append(queue, t)
		}
	}
	return dist
}

// auxApply plays an action of the phases after a win.
func (s *State) auxApply(k kind, x, y int) {
	from, to := Square(x), Square(y)
	if k == kMove {
		p := int8(Black)
		if s.men[White].has(from) {
			p = White
		}
		if s.phase == PhaseBonus {
			s.bonus -= s.kingDistances(from)[to]
		}
		s.setMen(int(p), s.men[p]&^bitOf(from)|bitOf(to))
	}
	switch s.phase {
	case PhaseBonus:
		if k == kEnd || s.bonus <= 0 {
			s.rendezvous++
			s.began = true
			s.startRoll()
		}
	case PhaseRadiate:
		s.afterRadiate()
	case PhaseMarshal:
		s.toAct = 1 - s.toAct
	}
	s.settle()
}

// settle moves on from the phases after a win when they are done, and
// plays by itself any step that leaves no choice.
func (s *State) settle() {
	for !s.over {
		switch s.phase {
		case PhaseRelocate, PhaseEqualise, PhaseMarshal, PhaseSetIn, PhaseRadiate, PhaseRemove:
		default:
			return
		}
		if s.phase == PhaseEqualise || s.phase == PhaseMarshal {
			if !s.pickWithdrawer() {
				continue
			}
		}
		var buf [MaxActions]game.Action
		legal := s.auxActionsAll(buf[:0])
		switch len(legal) {
		case 0:
			if s.phase == PhaseRemove {
				s.oldRemove(NoSquare)
				continue
			}
			s.advance()
		case 1:
			_, x, y := unpack(legal[0])
			k, _, _ := unpack(legal[0])
			if s.phase == PhaseRemove {
				s.removeChosen(Square(x))
			} else {
				s.auxApply(k, x, y)
			}
			return
		default:
			return
		}
	}
}

func (s *State) auxActionsAll(dst []game.Action) []game.Action {
	if s.phase == PhaseRemove {
		chooser := s.toAct
		victim := 1 - chooser
		if s.g.Rules.Version == V1879Jan {
			victim = chooser
		}
		for w := s.men[victim] &^ s.rdv; w != 0; w &= w - 1 {
			dst = append(dst, pack(kRemove, trailing(w), 0))
		}
		return dst
	}
	return s.auxActions(dst)
}

// pickWithdrawer sets who moves a man to the border in 1881's Rules 7–8,
// or moves on when nobody has to; it reports whether someone acts.
func (s *State) pickWithdrawer() bool {
	switch s.phase {
	case PhaseEqualise:
		nb, nw := s.fieldMen(Black).count(), s.fieldMen(White).count()
		switch {
		case nb > nw:
			s.toAct = Black
		case nw > nb:
			s.toAct = White
		default:
			// Rule 8: he who has fewest men on the board, or in case of
			// equality he who lost the last rendezvous, begins.
			start := s.lastLoser
			if cb, cw := s.men[Black].count(), s.men[White].count(); cb != cw {
				start = Black
				if cw < cb {
					start = White
				}
			}
			s.phase, s.toAct, s.marshalStart = PhaseMarshal, start, start
			return false
		}
		return true
	case PhaseMarshal:
		if s.all()&Field == 0 {
			s.beginRendezvous(s.marshalStart)
			return false
		}
		if s.fieldMen(s.toAct) == 0 {
			s.toAct = 1 - s.toAct // a player with none in the field skips
		}
		return true
	}
	return true
}

// advance moves on from a phase that has nothing left to do.
func (s *State) advance() {
	winner := 1 - s.lastLoser
	switch s.phase {
	case PhaseRelocate:
		if s.g.Rules.Version == V1881 {
			s.phase = PhaseEqualise
			return
		}
		s.beginRendezvous(s.lastLoser) // the loser selects the next
	case PhaseSetIn:
		s.radiate()
	case PhaseRadiate:
		s.afterRadiate()
	case PhaseEqualise, PhaseMarshal:
		// A man that can reach no border square is left (A12 "leave").
		s.beginRendezvous(s.marshalStart)
	}
	_ = winner
}

// radiate moves every man in the rendezvous but the centre man to the
// border end of his line from the centre (1879-03 Rule 6).
func (s *State) radiate() {
	c := s.mark
	for d := 0; d < 8; d++ {
		t := step[c][d]
		for p := 0; p < 2; p++ {
			if s.men[p].has(t) {
				s.setMen(int(p), s.men[p]&^bitOf(t)|bitOf(rayEnd(c, d)))
			}
		}
	}
	if s.all().has(c) {
		s.phase = PhaseRadiate
		s.toAct = Black
		if s.men[White].has(c) {
			s.toAct = White
		}
		return
	}
	s.afterRadiate()
}

// afterRadiate gives the winner his bonus moves, if there were wanderers
// (Rule 7), then throws for the next rendezvous (Rule 8).
func (s *State) afterRadiate() {
	if s.wanderers > 0 {
		s.phase, s.toAct = PhaseBonus, 1-s.lastLoser
		s.bonus = 2 * s.wanderers
		return
	}
	s.rendezvous++
	s.began = true
	s.startRoll()
}

// removeChosen removes the chosen man after a win, in any version.
func (s *State) removeChosen(q Square) {
	if s.g.Rules.old() {
		s.oldRemove(q)
		s.settle()
		return
	}
	s.convert(int(s.toAct), q)
}

// markMoves appends the 1880-12 Rule 5 mark moves of the non-selector.
func (s *State) markMoves(dst []game.Action) []game.Action {
	if s.g.Rules.Version != V1880Dec || s.g.Rules.NoMarkPrivilege || !s.privilege || s.movedAny || s.toAct == s.setter {
		return dst
	}
	for d := 0; d < 8; d++ {
		if t := step[s.mark][d]; t >= 0 && s.markMoveOK(d) {
			dst = append(dst, pack(kMarkMove, 0, int(t)))
		}
	}
	return dst
}

// markMoveOK checks a mark move in direction d: not to a border square,
// every man in the rendezvous carried one square with it onto a square
// that is free or itself carried, and the new rendezvous not including
// any of the mover's own men (A-D1; purposive: none of his men that are
// not carried).
func (s *State) markMoveOK(d int) bool {
	t := step[s.mark][d]
	if t < 0 || !Field.has(t) {
		return false
	}
	carried := s.all() & s.rdv
	var moved [2]Bitboard
	for p := 0; p < 2; p++ {
		for w := s.men[p] & carried; w != 0; w &= w - 1 {
			n := step[trailing(w)][d]
			if n < 0 || (s.all().has(n) && !carried.has(n)) {
				return false
			}
			moved[p] |= bitOf(n)
		}
	}
	newRdv, _ := Rendezvous(t, Shape{Size: 9, Line: -1})
	me := int(s.toAct)
	mine := s.men[me]&^carried | moved[me]
	if s.g.Rules.PurposiveMarkMove {
		return (s.men[me]&^carried)&newRdv == 0
	}
	return mine&newRdv == 0
}

// applyMarkMove moves the mark in direction of to, carrying the men in the
// rendezvous; it is the mover's whole turn.
func (s *State) applyMarkMove(to Square) {
	d := 0
	for i := 0; i < 8; i++ {
		if step[s.mark][i] == to {
			d = i
		}
	}
	carried := s.all() & s.rdv
	for p := 0; p < 2; p++ {
		var nb Bitboard
		for _, q := range (s.men[p] & carried).squares(nil) {
			nb |= bitOf(step[q][d])
		}
		s.setMen(int(p), s.men[p]&^carried|nb)
	}
	s.mark = to
	s.rdv, _ = Rendezvous(to, s.shape)
	if !s.checkBothIn(int(s.toAct)) {
		s.endTurn()
	}
}

// checkBothIn is 1880-12's win check after an action other than a man's
// move (A-D6): a player who has all his men in wins; if both have, the one
// who acted (both_in=other: the other). It reports whether one won.
func (s *State) checkBothIn(actor int) bool {
	order := []int{actor, 1 - actor}
	if s.g.Rules.OtherWinsBothIn && s.allIn(0) && s.allIn(1) {
		order[0], order[1] = order[1], order[0]
	}
	for _, p := range order {
		if s.allIn(p) {
			s.wonRendezvous(p)
			return true
		}
	}
	return false
}
