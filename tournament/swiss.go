package tournament

import (
	"errors"
	"fmt"
	"slices"
)

// ErrNoPairing is returned when no pairing keeps every pair from meeting
// twice (a Swiss of more rounds than its players can fill).
var ErrNoPairing = errors.New("tournament: no pairing without a repeated game")

// maxSteps bounds the search for a Swiss pairing.
const maxSteps = 1_000_000

// Swiss pairs the next round of a Swiss among players 0..n-1 (numbered
// by seeding, the strongest first), given every game so far (the last
// round's must be finished) and the players withdrawn. The system is
// FIDE's Dutch system in its main lines, simplified (Handbook C.04.3;
// the worked example is TestSwissWorkedExample):
//
//  1. Withdrawn players are not paired.
//  2. With an odd number left, the bye goes to the lowest-placed player
//     (fewest points, then the highest number) who has not had one and
//     whose bye leaves the others a pairing (only where none does, to one
//     who has); it is worth a point (ByeHalves).
//  3. The others are placed by points, then by number.
//  4. From the top, each player still unpaired meets, in his score group
//     (the unpaired players on his points; a player left alone there
//     floats down to the next group), the player half the group below
//     him — the top half against the bottom half, 1 against 1 — or, where
//     they have met, the nearest one who has not: further down the bottom
//     half first, then back up, then the groups below. No two players
//     meet twice: the search goes back over earlier choices as far as it
//     must, and ErrNoPairing says when no pairing is left.
//  5. Colours: White to the player who has had fewer Whites than Blacks;
//     if level, the one who had Black in the last round where the two
//     differ; if still level, the higher-placed player takes the colour
//     he did not have in his last game, and in the first round the top
//     half takes White on odd boards, Black on even ones.
//
// The games come back board by board, the bye last.
func Swiss(n int, games []Game, withdrawn []int) ([]Game, error) {
	if err := check(n, games); err != nil {
		return nil, err
	}
	round := 1
	for _, g := range games {
		if g.Black != Bye && g.Result == Pending {
			return nil, fmt.Errorf("tournament: round %d has a game unfinished (%d-%d)", g.Round, g.White, g.Black)
		}
		round = max(round, g.Round+1)
	}
	st, err := Standings(n, games, nil)
	if err != nil {
		return nil, err
	}
	halves := make([]int, n)
	for _, s := range st {
		halves[s.Player] = s.Halves
	}
	met := map[[2]int]bool{}
	hadBye := make([]bool, n)
	for _, g := range games {
		if g.Black == Bye {
			hadBye[g.White] = true
		} else {
			met[[2]int{g.White, g.Black}] = true
			met[[2]int{g.Black, g.White}] = true
		}
	}
	// Placed: by points, then number.
	var placed []int
	for p := range n {
		if !slices.Contains(withdrawn, p) {
			placed = append(placed, p)
		}
	}
	slices.SortStableFunc(placed, func(a, b int) int {
		if halves[a] != halves[b] {
			return halves[b] - halves[a]
		}
		return a - b
	})
	if len(placed) < 2 {
		return nil, fmt.Errorf("tournament: %d players left to pair", len(placed))
	}
	// The bye: from the bottom, the first without one whose absence
	// leaves a pairing.
	byes := []int{-1}
	if len(placed)%2 == 1 {
		byes = byes[:0]
		for i := len(placed) - 1; i >= 0; i-- {
			if !hadBye[placed[i]] {
				byes = append(byes, placed[i])
			}
		}
		// Where none of those leaves a pairing (or all have had one), a
		// second bye, from the bottom again.
		for i := len(placed) - 1; i >= 0; i-- {
			if hadBye[placed[i]] {
				byes = append(byes, placed[i])
			}
		}
	}
	for _, bye := range byes {
		rest := slices.DeleteFunc(slices.Clone(placed), func(p int) bool { return p == bye })
		pairs, ok := pairSwiss(rest, halves, met)
		if !ok {
			continue
		}
		out := make([]Game, 0, len(pairs)+1)
		for board, pr := range pairs {
			w, b := colours(pr[0], pr[1], board, round, games)
			out = append(out, Game{Round: round, White: w, Black: b})
		}
		if bye >= 0 {
			out = append(out, Game{Round: round, White: bye, Black: Bye})
		}
		return out, nil
	}
	return nil, ErrNoPairing
}

// pairSwiss pairs the placed players (in their order) by rule 4; each
// pair is the higher-placed player first, the pairs in board order.
func pairSwiss(placed []int, halves []int, met map[[2]int]bool) ([][2]int, bool) {
	paired := make(map[int]bool, len(placed))
	var pairs [][2]int
	steps := 0
	var solve func() bool
	solve = func() bool {
		if steps++; steps > maxSteps {
			return false
		}
		// The highest-placed player still unpaired, and his group.
		var rest []int
		for _, q := range placed {
			if !paired[q] {
				rest = append(rest, q)
			}
		}
		if len(rest) == 0 {
			return true
		}
		p := rest[0]
		group := 1
		for group < len(rest) && halves[rest[group]] == halves[p] {
			group++
		}
		if group == 1 && len(rest) > 1 { // alone: float down into the next group
			group++
			for group < len(rest) && halves[rest[group]] == halves[rest[1]] {
				group++
			}
		}
		for _, i := range candidates(group, len(rest)) {
			q := rest[i]
			if met[[2]int{p, q}] {
				continue
			}
			paired[p], paired[q] = true, true
			pairs = append(pairs, [2]int{p, q})
			if solve() {
				return true
			}
			pairs = pairs[:len(pairs)-1]
			paired[p], paired[q] = false, false
			if steps > maxSteps {
				return false
			}
		}
		return false
	}
	return pairs, solve()
}

// candidates orders the opponents (indices into the unpaired players,
// the first being the player to pair) for the first of a group of size
// group among rest players: half the group down, then further down the
// group, then back up it, then the players below the group in order.
func candidates(group, rest int) []int {
	ideal := group / 2
	var out []int
	for i := ideal; i < group; i++ {
		out = append(out, i)
	}
	for i := ideal - 1; i >= 1; i-- {
		out = append(out, i)
	}
	for i := group; i < rest; i++ {
		out = append(out, i)
	}
	return out
}

// colours decides who of a (higher placed) and b has White (rule 5).
func colours(a, b, board, round int, games []Game) (white, black int) {
	ha, hb := history(a, games), history(b, games)
	da, db := balance(ha), balance(hb)
	switch {
	case da < db:
		return a, b
	case db < da:
		return b, a
	}
	for i := 1; i <= min(len(ha), len(hb)); i++ {
		ca, cb := ha[len(ha)-i], hb[len(hb)-i]
		if ca != cb {
			if ca == 'b' {
				return a, b
			}
			return b, a
		}
	}
	if len(ha) > 0 {
		if ha[len(ha)-1] == 'b' {
			return a, b
		}
		return b, a
	}
	if board%2 == 0 {
		return a, b
	}
	return b, a
}

// history is a player's colours over the board, round by round: 'w' or
// 'b'.
func history(p int, games []Game) []byte {
	var mine []Game
	for _, g := range games {
		if g.Black != Bye && (g.White == p || g.Black == p) {
			mine = append(mine, g)
		}
	}
	slices.SortStableFunc(mine, func(a, b Game) int { return a.Round - b.Round })
	h := make([]byte, len(mine))
	for i, g := range mine {
		h[i] = 'b'
		if g.White == p {
			h[i] = 'w'
		}
	}
	return h
}

// balance is Whites less Blacks.
func balance(h []byte) int {
	d := 0
	for _, c := range h {
		if c == 'w' {
			d++
		} else {
			d--
		}
	}
	return d
}
