package tournament

import "fmt"

// Result is a game's outcome from White's side.
type Result int8

const (
	Pending  Result = iota // not finished (or not begun)
	WhiteWin               // 1–0
	Draw                   // ½–½
	BlackWin               // 0–1
)

// String writes the result as a crosstable does.
func (r Result) String() string {
	switch r {
	case WhiteWin:
		return "1-0"
	case Draw:
		return "½-½"
	case BlackWin:
		return "0-1"
	}
	return "*"
}

// Game is one game of a tournament: its round (1-based), its players by
// number, and its result; Black is Bye for a round White sits out.
type Game struct {
	Round        int
	White, Black int
	Result       Result
}

// ByeHalves is what a bye is worth in half points: a whole point, as
// FIDE scores a pairing-allocated bye in a Swiss and lichess in its
// Swiss events.
const ByeHalves = 2

// halves returns the half points each side scored in g.
func (g Game) halves() (white, black int) {
	switch {
	case g.Black == Bye:
		return ByeHalves, 0
	case g.Result == WhiteWin:
		return 2, 0
	case g.Result == Draw:
		return 1, 1
	case g.Result == BlackWin:
		return 0, 2
	}
	return 0, 0
}

// check reports the first game that names a player outside 0..n-1.
func check(n int, games []Game) error {
	for _, g := range games {
		if g.White < 0 || g.White >= n || g.Black != Bye && (g.Black < 0 || g.Black >= n || g.Black == g.White) {
			return fmt.Errorf("tournament: round %d: game %d-%d: players are 0 to %d", g.Round, g.White, g.Black, n-1)
		}
	}
	return nil
}
