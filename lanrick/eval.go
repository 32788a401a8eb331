package lanrick

import (
	"math"

	"github.com/muster-games/muster/game"
)

// Evaluate scores a state for player p in [-1, 1]: 2·P(p wins) − 1. A
// game of Lanrick is a series of rendezvous, each won by the first player
// to get all his men in, and each costing the loser a man (converted or
// removed) until one side is beaten. So the chance of winning the game is
// the chance of winning the rendezvous under way, as the weights fitted
// for the version's family (weights.json) predict it from the state's
// Features, times the chance of winning the game from the men each side
// will then have, and the same for losing it; the chance from a count of
// men is that of a fair coin tossed for every later rendezvous
// (MenValue). Where no weights were fitted it is EvaluateHand. It
// implements mcts.Evaluator.
func Evaluate(gs game.State, p game.Player) float64 {
	s := gs.(*State)
	if s.over {
		return s.Returns()[p]
	}
	w := weightsFor(s)
	if w == nil {
		return EvaluateHand(gs, p)
	}
	pw := 0.5 // white wins the rendezvous under way
	switch {
	case s.pendingWinner() >= 0:
		pw = float64(s.pendingWinner())
	case s.rdv != 0 && (s.phase == PhaseMove || s.phase == PhaseInterchange || s.phase == PhaseSwap):
		pw = w.Rendezvous(s.Features())
	}
	v := pw*s.valueAfter(White) + (1-pw)*s.valueAfter(Black)
	v = 2*v - 1
	if p == Black {
		return -v
	}
	return v
}

// EvaluateProgress is Evaluate with the advantage drained as the turns
// without progress run out (A9b: NoProgress completed turns without a
// rendezvous won, a man removed or converted draw the game): a side ahead
// loses a share of its advantage with each turn it lets pass, and gets it
// back whole by making progress; with no such rule it is Evaluate.
func EvaluateProgress(gs game.State, p game.Player) float64 {
	v := Evaluate(gs, p)
	s := gs.(*State)
	if lim := s.g.Rules.NoProgress; lim > 0 && !s.over {
		v *= float64(max(0, lim-int(s.noProgress))) / float64(lim)
	}
	return v
}

// pendingWinner returns the player who has just won the rendezvous and
// whose man is yet to be taken (Rule 7's conversion, or the loser's own
// removal in 1879-01), or -1.
func (s *State) pendingWinner() int {
	if s.phase != PhaseRemove {
		return -1
	}
	if s.g.Rules.old() {
		return int(1 - s.lastLoser)
	}
	return int(s.toAct)
}

// valueAfter is white's chance to win the game once q has won the
// rendezvous under way: the loser loses a man (1893: to q, where two or
// more of his are outside, Rule 7; else it is removed, Rule 8), and every
// later rendezvous is a fair toss.
func (s *State) valueAfter(q int) float64 {
	men := [2]int{s.men[Black].count(), s.men[White].count()}
	loser := 1 - q
	if !s.g.Rules.old() && s.phase != PhaseRemove && (s.men[loser]&^s.rdv).count() >= 2 {
		men[q]++
	}
	if s.phase == PhaseRemove && !s.g.Rules.old() {
		men[q]++ // Rule 7's conversion is under way
	}
	men[loser]--
	return MenValue(&s.g.Rules, men[White], men[Black])
}

// MenValue is white's chance to win the game when a rendezvous is about
// to begin, white having w men and black b, if each rendezvous were a
// fair toss: the gambler's ruin of the men. 1893 and 1899 move a man
// from the loser to the winner (Rule 7) until one side has one man left,
// (w−1)/(w+b−2); the earlier versions remove one of the loser's men until
// he has none (1879-01, 1880), one (1881) or two, where the round is
// scored (1879-03).
func MenValue(r *Rules, w, b int) float64 {
	end := 1
	switch r.Version {
	case V1879Jan, V1880Oct, V1880Dec:
		end = 0
	case V1879Mar:
		end = 2
	}
	switch {
	case b <= end:
		return 1
	case w <= end:
		return 0
	}
	if !r.old() {
		return float64(w-1) / float64(w+b-2)
	}
	return raceChance[min(w-end, 10)][min(b-end, 10)]
}

// raceChance[w][b] is the chance that white wins b tosses of a fair coin
// before black wins w of them.
var raceChance = func() (t [11][11]float64) {
	for w := range 11 {
		for b := range 11 {
			switch {
			case w == 0:
				t[w][b] = 0
			case b == 0:
				t[w][b] = 1
			default:
				t[w][b] = (t[w][b-1] + t[w-1][b]) / 2
			}
		}
	}
	return t
}()

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
