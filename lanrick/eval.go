package lanrick

import (
	"math"

	"github.com/muster-games/muster/game"
)

// Evaluate scores a state for player p in [-1, 1]: 2·P(p wins) − 1 as the
// weights fitted for its family of versions (weights.json) predict it
// from the state's Features, or EvaluateHand where no fit exists. It
// implements mcts.Evaluator.
func Evaluate(gs game.State, p game.Player) float64 {
	s := gs.(*State)
	if s.over {
		return s.Returns()[p]
	}
	w := fitted[s.g.Rules.Family()]
	if w == nil {
		return EvaluateHand(gs, p)
	}
	v := w.White(s.Features())
	if p == Black {
		return -v
	}
	return v
}

// EvaluateHand scores a state for player p in [-1, 1], after Carroll's Hints:
// men count most (a side is lost at one man, or at four taken); then how
// far each man has to go to the rendezvous; holding the central square of
// a close rendezvous; and having men beside the enemy's furthest man (the
// "guard of honour" that keeps him out), with weights chosen by hand
// (eval=hand in the agents' settings).
func EvaluateHand(gs game.State, p game.Player) float64 {
	s := gs.(*State)
	if s.over {
		return s.Returns()[p]
	}
	var score [2]float64
	for q := 0; q < 2; q++ {
		score[q] = 3 * float64(s.men[q].count())
		if s.g.Rules.Version == V1879Mar {
			score[q] += 4 * float64(s.scores[q])
		}
	}
	if s.mark != NoSquare && s.rdv != 0 {
		for q := 0; q < 2; q++ {
			far, farSq := -1, NoSquare
			for w := s.men[q]; w != 0; w &= w - 1 {
				m := Square(trailing(w))
				d := s.distance(m)
				if d > 0 {
					score[q] -= 1 + 0.5*float64(d-1) // each man outside, and his way in
				}
				if d > far {
					far, farSq = d, m
				}
			}
			if s.men[q]&^s.rdv == 0 {
				score[q] += 2 // all in
			}
			if s.shape.Size%2 == 1 && s.men[q].has(s.mark) {
				score[q] += 0.5 // the central square
			}
			// Guards beside the enemy's furthest man.
			if farSq >= 0 && far > 0 {
				for d := 0; d < 8; d++ {
					if t := step[farSq][d]; t >= 0 && s.men[1-q].has(t) {
						score[1-q] += 0.15
					}
				}
			}
		}
	}
	v := math.Tanh((score[p] - score[1-p]) / 10)
	return v
}

// distance is the number of king steps from m to the nearest square of
// the rendezvous (0 inside).
func (s *State) distance(m Square) int {
	if s.rdv.has(m) {
		return 0
	}
	best := 99
	for w := s.rdv; w != 0; w &= w - 1 {
		if d := int(chebyshev(m, Square(trailing(w)))); d < best {
			best = d
		}
	}
	return best
}
