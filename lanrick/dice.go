package lanrick

import "github.com/muster-games/muster/game"

func (s *State) startRoll() {
	s.phase, s.toAct = PhaseRoll, -1
	s.roll, s.rollRow = 0, 0
	s.mark, s.rdv = NoSquare, 0
	s.shape = Shape{Size: 9, Line: -1}
}

// ChanceOutcomes lists the throws of the die with their probabilities.
func (s *State) ChanceOutcomes(dst []game.Outcome) []game.Outcome {
	if s.over || s.phase != PhaseRoll {
		return dst
	}
	faces := 6
	if s.g.Rules.Version == V1879Mar && s.g.Rules.Dice == DiceTeetotum {
		faces = 4
	}
	for n := 1; n <= faces; n++ {
		dst = append(dst, game.Outcome{Action: pack(kRoll, n, 0), Prob: 1 / float64(faces)})
	}
	return dst
}

// applyRoll takes one throw of the die.
func (s *State) applyRoll(n int8) {
	r := &s.g.Rules
	var v int8 // the row or column fixed by this throw, 0 if none yet
	if r.Version == V1879Jan {
		v = n + 1 // interior rows and columns 1–6 are ranks and files 2–7
	} else {
		switch r.Dice {
		case DiceReroll: // throws below three are neglected
			if n >= 3 {
				v = n
			}
		case DiceNB: // the March 1879 N.B.
			switch {
			case s.roll == 0 && n >= 3:
				v = n
			case s.roll == 0:
				s.roll = n
			case n >= 3:
				v, s.roll = n, 0
			default:
				v, s.roll = 2*s.roll+n, 0
			}
		case DiceTeetotum: // February 1879: 1 means row 3 … 4 row 6
			v = n + 2
		}
	}
	if v == 0 {
		return
	}
	if s.rollRow == 0 {
		s.rollRow = v
		return
	}
	s.mark = sq(int(v)-1, int(s.rollRow)-1)
	s.rdv, _ = Rendezvous(s.mark, s.shape)
	s.roll, s.rollRow = 0, 0
	if r.Version == V1879Jan && (s.allIn(Black) || s.allIn(White)) {
		// Rule 5: if either Player has all his men already in the new
		// rendezvous, the die must be thrown again.
		s.startRoll()
		return
	}
	first := s.first // 1879-03: the 'first Player'
	if r.Version == V1879Jan {
		first = s.placer // A-J2: he who placed first
		if r.OtherMovesFirst {
			first = 1 - s.placer
		}
		if s.rendezvous > 1 {
			first = s.lastLoser // A-J4: the turns alternate on
			if r.WinnerFirst {
				first = 1 - s.lastLoser
			}
		}
	}
	s.setter = 1 - first
	s.startTurn(first)
}
