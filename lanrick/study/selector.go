package study

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/solve"
)

// SelectorResult counts how the selector of the last rendezvous fares.
type SelectorResult struct {
	Positions int // positions solved
	Win, Loss int // proved for the selector
	Open      int // not proved within the limits
	NoMark    int // positions with no legal rendezvous, left out
	// WinField and LossField count, with one man a side, the wins and
	// losses where the selector's man stands on a field square.
	WinField, LossField int
}

// Selector solves the last rendezvous of the 3×3 versions (1880-10,
// 1880-12, 1881) from the choice of the rendezvous: the selector (white)
// with selector men against other men of black's, the mover. With sample 0
// it solves every position of one man a side, else sample random ones.
func Selector(g *lanrick.Game, selector, other, sample int, seed uint64, lim search.Limits) (SelectorResult, error) {
	var r SelectorResult
	switch g.Rules.Version {
	case lanrick.V1880Oct, lanrick.V1880Dec, lanrick.V1881:
	default:
		return r, fmt.Errorf("the selector is a question of 1880-10, 1880-12 and 1881, not %s", g.Rules.Version)
	}
	if selector < 1 || other < 1 || selector > 5 || other > 5 {
		return r, fmt.Errorf("from 1 to 5 men a side, not %d and %d", selector, other)
	}
	if sample == 0 && (selector != 1 || other != 1) {
		return r, fmt.Errorf("more than one man a side needs a sample")
	}
	for _, m := range selectorBoards(selector, other, sample, seed) {
		s, err := g.Build(lanrick.Setup{Black: m[0], White: m[1], ToAct: lanrick.White, Phase: lanrick.PhaseMark,
			Setter: lanrick.White, Mark: lanrick.NoSquare, Line: -1})
		if err != nil {
			return r, err
		}
		if s.IsTerminal() || len(s.LegalActions(nil)) == 0 {
			r.NoMark++
			continue
		}
		res, err := solve.Solve(context.Background(), s, lim)
		if err != nil {
			return r, err
		}
		r.Positions++
		field := m[1]&lanrick.Border == 0
		switch {
		case res.Proved() && res.Lo == 1:
			r.Win++
			if field {
				r.WinField++
			}
		case res.Proved() && res.Lo == -1:
			r.Loss++
			if field {
				r.LossField++
			}
		default:
			r.Open++
		}
	}
	return r, nil
}

// selectorBoards lists the men of black (the other) and white (the
// selector): every placing of one man a side, or sample random placings.
func selectorBoards(selector, other, sample int, seed uint64) [][2]lanrick.Bitboard {
	var boards [][2]lanrick.Bitboard
	if sample == 0 {
		for a := range 64 {
			for b := range 64 {
				if a != b {
					boards = append(boards, [2]lanrick.Bitboard{1 << uint(b), 1 << uint(a)})
				}
			}
		}
		return boards
	}
	r := rand.New(rand.NewPCG(seed, 1881))
	for len(boards) < sample {
		var m [2]lanrick.Bitboard
		for p, n := range [2]int{other, selector} {
			for bits.OnesCount64(uint64(m[p])) < n {
				if q := lanrick.Bitboard(1) << uint(r.IntN(64)); (m[0]|m[1])&q == 0 {
					m[p] |= q
				}
			}
		}
		boards = append(boards, m)
	}
	return boards
}
