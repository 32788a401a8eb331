package lanrick

import (
	"fmt"

	"github.com/muster-games/muster/game"
)

func (s *State) Play(a game.Action) error {
	if !s.IsLegal(a) {
		if s.over {
			return fmt.Errorf("lanrick: %w %s: the game is over", game.ErrIllegal, actionText(a))
		}
		return fmt.Errorf("lanrick: %w %s: %s", game.ErrIllegal, actionText(a), s.whyIllegal(a))
	}
	s.Apply(a)
	return nil
}

// Apply plays a legal action without checking it.
func (s *State) Apply(a game.Action) {
	s.actions = append(s.actions, a)
	s.removed, s.converted, s.wonBy, s.began, s.scored = 0, 0, 0, false, false
	k, x, y := unpack(a)
	if k != kPass {
		s.passes = 0
	}
	p := int(s.toAct)
	if s.phase >= PhaseRelocate && s.phase <= PhaseMarshal {
		s.auxApply(k, x, y)
		s.checkRepetition()
		return
	}
	switch k {
	case kPlace:
		s.place(Square(x))
	case kRoll:
		s.applyRoll(int8(x))
	case kMarkMove:
		s.applyMarkMove(Square(y))
	case kMark:
		s.setMark(Square(x), y-1)
	case kInterchange:
		s.interchange()
	case kNoInterchange:
		s.startPlay()
	case kSwap:
		s.swap(Square(x))
	case kMove, kSlide:
		s.move(p, Square(x), Square(y), k == kSlide)
	case kEnd:
		s.endTurnChecked()
	case kPass:
		s.pass()
	case kRemove:
		s.removeChosen(Square(x))
	}
	if k != kRoll { // a neglected throw changes nothing, and is nobody's stalling
		s.checkRepetition()
	}
}

// place sets a man on q (1879–1881).
func (s *State) place(q Square) {
	_, colour := s.placeTurn()
	s.setMen(colour, s.men[colour]|bitOf(q))
	s.placed++
	if s.placed == 10 {
		s.afterSetting()
	} else {
		s.toAct, _ = s.placeTurn()
	}
}

// setMark sets the mark on m with the line (a direction, or -1).
func (s *State) setMark(m Square, line int) {
	s.mark, s.shape.Line = m, line
	if !s.g.Rules.old() {
		s.rdv, _ = s.markOK(m, line)
		s.afterMark()
		return
	}
	s.rdv, _ = Rendezvous(m, s.shape)
	setter := int(s.setter)
	s.startPlay()
	if s.g.Rules.Version == V1880Dec {
		s.checkBothIn(setter) // A-D7: a selection over all his men wins it for the other
	}
}

// interchange: 1893 Rule 5, the other player takes the setter's men (all
// of them when the sides are equal, else as many as the setter has, which
// the setter chooses by swaps).
func (s *State) interchange() {
	if s.men[s.setter].count() == s.men[1-s.setter].count() {
		b, w := s.men[Black], s.men[White]
		s.setMen(Black, w)
		s.setMen(White, b)
		s.startPlay()
		return
	}
	s.phase, s.toAct = PhaseSwap, s.setter
	s.swapLeft, s.swapped = int8(s.men[s.setter].count()), 0
}

// swap chooses the man on q for the interchange.
func (s *State) swap(q Square) {
	s.swapped |= bitOf(q)
	s.swapLeft--
	if s.swapLeft > 0 {
		return
	}
	mine := s.men[s.setter]
	s.setMen(int(s.setter), s.swapped)
	s.setMen(int(1-s.setter), s.men[1-s.setter]&^s.swapped|mine)
	s.swapped = 0
	s.startPlay()
}

// move moves p's man from one square to another, paying for the squares
// (a slide costs as slideCost says), and judges the rendezvous.
func (s *State) move(p int, from, to Square, slide bool) {
	cost := chebyshev(from, to)
	if slide {
		cost = s.slideCost(from, to)
	}
	s.setMen(p, s.men[p]&^bitOf(from)|bitOf(to))
	if s.g.Rules.MultiMove {
		if !s.moved.has(from) {
			s.lines[to] = int8(direction(from, to)) + 1
		} else {
			s.lines[to] = s.lines[from]
		}
		s.lines[from] = 0
	}
	s.moved = s.moved&^bitOf(from) | bitOf(to)
	s.movedAny = true
	if int8(p) != s.setter {
		s.privilege = false
	}
	s.budget -= cost
	switch {
	case !s.g.Rules.EndOfTurnWin && s.allIn(p):
		s.wonRendezvous(p)
	case s.budget <= 0:
		s.endTurnChecked()
	}
}

// pass: the player to act can do nothing.
func (s *State) pass() {
	s.passes++
	switch {
	case s.phase == PhaseMark:
		s.finish(-1, "no square for the mark")
	case s.passes >= 2:
		s.finish(-1, "neither player can move")
	default:
		s.endTurn()
	}
}

// endTurnChecked ends a turn, first judging the rendezvous where it is
// won only at the end of a turn (win_check=end_of_turn).
func (s *State) endTurnChecked() {
	if p := int(s.toAct); s.g.Rules.EndOfTurnWin && s.allIn(p) {
		s.wonRendezvous(p)
		return
	}
	s.endTurn()
}

// afterMark goes on after the mark is set: 1893 Rule 5's interchange, if
// the other player may demand one, else play.
func (s *State) afterMark() {
	other := 1 - s.setter
	if s.g.Rules.Interchange && s.men[s.setter].count() <= s.men[other].count() {
		s.phase, s.toAct = PhaseInterchange, other
		return
	}
	s.startPlay()
}

// startPlay begins play for the rendezvous: he who did not set the mark
// plays first.
func (s *State) startPlay() {
	s.privilege = !s.g.Rules.NoMarkPrivilege // 1880-12 Rule 5: until the non-selector moves a man
	s.startTurn(1 - s.setter)
	if s.g.Rules.AwardOnStart {
		for _, p := range []int{int(1 - s.setter), int(s.setter)} {
			if s.allIn(p) {
				s.wonRendezvous(p)
				return
			}
		}
	}
}

// wonRendezvous: p has all his men in (1893 Rules 7–9).
func (s *State) wonRendezvous(p int) {
	s.clearTurn()
	s.wonBy = int8(p) + 1
	if s.g.Rules.old() {
		s.oldWon(p)
		s.settle()
		return
	}
	enemy := 1 - p
	out := s.men[enemy] &^ s.rdv
	if out.count() >= 2 {
		// Rule 7: not full; p converts one of the outlying men.
		s.phase, s.toAct = PhaseRemove, int8(p)
		return
	}
	// Rule 8: full; the outlying man is removed.
	s.setMen(enemy, s.men[enemy]&^out)
	s.removed |= out
	s.progress()
	s.lastLoser = int8(enemy)
	if s.men[enemy].count() <= 1 {
		s.finish(p, colourName(enemy)+" has one man left")
		return
	}
	setter := int8(enemy)
	if nb, nw := s.men[Black].count(), s.men[White].count(); nb != nw {
		setter = Black
		if nw < nb {
			setter = White
		}
	}
	s.beginRendezvous(setter)
}

// convert: Rule 7, p replaces the outlying man on q with one of his own;
// this ends his turn.
func (s *State) convert(p int, q Square) {
	enemy := 1 - p
	s.setMen(enemy, s.men[enemy]&^bitOf(q))
	s.setMen(p, s.men[p]|bitOf(q))
	s.converted |= bitOf(q)
	s.progress()
	s.lastLoser = int8(enemy)
	if s.men[enemy].count() <= 1 {
		s.finish(p, colourName(enemy)+" has one man left")
		return
	}
	s.startTurn(int8(enemy))
}

// checkRepetition draws the game on the third occurrence of a state
// since the last progress.
func (s *State) checkRepetition() {
	h := s.Hash()
	if s.g.Rules.Repetition && !s.over && s.seen.has(h) {
		n := 0
		for _, x := range s.hashes {
			if x == h {
				n++
			}
		}
		if n >= 2 {
			s.stalled("threefold repetition")
			if !s.over {
				return
			}
		}
	}
	s.remember(h)
}
