package tournament

import "fmt"

// Pairing is one game of a round: White against Black, players by
// number; Black is Bye where White sits the round out.
type Pairing struct {
	White, Black int
}

// Bye stands for no opponent.
const Bye = -1

// RoundRobin returns the rounds of a round robin of n players by FIDE's
// Berger tables: n-1 rounds of n/2 games for even n; for odd n a
// phantom last player whose partner has the bye, n rounds. Players are
// numbered by their seeding (Berger's 1 is player 0).
//
// In round r (1-based) of n players (n even), player n meets the player
// a with 2a ≡ r+1 (mod n-1), White in even rounds; the others meet in
// pairs whose numbers add to r+1 (mod n-1), White the one from whom the
// other is an odd number of places on round the circle; the games after
// the first are listed from a+1 on, as the tables print them.
func RoundRobin(n int) ([][]Pairing, error) {
	if n < 2 {
		return nil, fmt.Errorf("tournament: a round robin needs 2 or more players, not %d", n)
	}
	m := n + n%2             // with the phantom
	k := m - 1               // players on the circle: 1..k, player m fixed
	mod := func(x int) int { // into 1..k
		x %= k
		if x <= 0 {
			x += k
		}
		return x
	}
	rounds := make([][]Pairing, k)
	for r := 1; r <= k; r++ {
		// The circle player who meets m: 2a ≡ r+1 (mod k), k odd.
		a := 0
		for x := 1; x <= k; x++ {
			if mod(2*x) == mod(r+1) {
				a = x
				break
			}
		}
		var games []Pairing
		if r%2 == 0 {
			games = append(games, Pairing{m, a})
		} else {
			games = append(games, Pairing{a, m})
		}
		for t := 1; t < m/2; t++ {
			w := mod(a + t)
			b := mod(r + 1 - w)
			games = append(games, Pairing{w, b})
		}
		// From Berger's numbers (1..m) to players (0..n-1), the phantom's
		// partner having the bye.
		out := make([]Pairing, 0, len(games))
		for _, g := range games {
			w, b := g.White-1, g.Black-1
			switch {
			case w == n:
				out = append(out, Pairing{b, Bye})
			case b == n:
				out = append(out, Pairing{w, Bye})
			default:
				out = append(out, Pairing{w, b})
			}
		}
		rounds[r-1] = out
	}
	return rounds, nil
}

// DoubleRoundRobin is RoundRobin played twice, the second cycle with
// the colours reversed.
func DoubleRoundRobin(n int) ([][]Pairing, error) {
	first, err := RoundRobin(n)
	if err != nil {
		return nil, err
	}
	rounds := first
	for _, r := range first {
		second := make([]Pairing, len(r))
		for i, g := range r {
			if g.Black == Bye {
				second[i] = g
			} else {
				second[i] = Pairing{g.Black, g.White}
			}
		}
		rounds = append(rounds, second)
	}
	return rounds, nil
}
