package tournament

import "slices"

// ArenaGame is one of a player's games in an arena, in the order played,
// from his side.
type ArenaGame struct {
	Outcome Outcome
	// Berserk: he halved his own clock at the start (lichess's berserk).
	Berserk bool
	// Moves are the game's moves (both sides'), for the rules that
	// depend on a game's length.
	Moves int
}

// Outcome is a game's result for one player.
type Outcome int8

const (
	Loss Outcome = iota
	DrawOutcome
	Win
)

// Arena scoring, as lichess scores its arenas.
const (
	ArenaWin  = 2 // a win
	ArenaDraw = 1 // a draw
	// StreakAfter wins in a row put a player on fire: his next games
	// score double (4 a win, 2 a draw) until one is not a win.
	StreakAfter = 2
	// BerserkMoves: a berserk win scores one more if the game lasted at
	// least this many moves.
	BerserkMoves = 7
	// ShortDraw: a draw in fewer moves than this scores nothing.
	ShortDraw = 10
)

// ArenaPoints scores a player's arena games in order: 2 a win, 1 a draw
// (none for a draw of fewer than ShortDraw moves), doubled while he is
// on fire — after StreakAfter wins in a row, until a game he does not
// win — and 1 more for a berserk win of at least BerserkMoves moves. It
// returns his points, each game's, and whether he is on fire now.
func ArenaPoints(games []ArenaGame) (total int, each []int, fire bool) {
	each = make([]int, len(games))
	run := 0
	for i, g := range games {
		double := run >= StreakAfter
		pts := 0
		switch g.Outcome {
		case Win:
			pts = ArenaWin
			run++
		case DrawOutcome:
			if g.Moves >= ShortDraw {
				pts = ArenaDraw
			}
			run = 0
		default:
			run = 0
		}
		if double {
			pts *= 2
		}
		if g.Outcome == Win && g.Berserk && g.Moves >= BerserkMoves {
			pts++
		}
		each[i] = pts
		total += pts
	}
	return total, each, run >= StreakAfter
}

// Waiting is a player free to be paired in an arena.
type Waiting struct {
	Player int
	// Rank is his place in the standings now (1 the leader).
	Rank int
	// Last is his last opponent, Bye if none.
	Last int
}

// ArenaPairs pairs the players waiting in an arena as lichess does in
// spirit: by their places in the standings, each with the nearest in
// rank, but never with his last opponent where another is free — and,
// unless rematch is set (nobody else is playing, so nobody else will come
// free), not with him at all: they wait for the next pairing, as does
// one left over. Colours: the player listed first in a
// pair takes White, and he is the one of the two who has had White less
// often by whites (a player's White count less his Black count), the
// higher-ranked where level.
func ArenaPairs(waiting []Waiting, whites map[int]int, rematch bool) []Pairing {
	w := slices.Clone(waiting)
	slices.SortStableFunc(w, func(a, b Waiting) int {
		if a.Rank != b.Rank {
			return a.Rank - b.Rank
		}
		return a.Player - b.Player
	})
	var out []Pairing
	used := make([]bool, len(w))
	for i := range w {
		if used[i] {
			continue
		}
		pick := -1
		for j := i + 1; j < len(w); j++ {
			if used[j] {
				continue
			}
			if w[i].Last == w[j].Player || w[j].Last == w[i].Player {
				if pick < 0 {
					pick = -2 - j // a rematch, kept if nothing else is free
				}
				continue
			}
			pick = j
			break
		}
		if pick < -1 && rematch {
			pick = -2 - pick
		}
		if pick < 0 {
			continue
		}
		used[i], used[pick] = true, true
		a, b := w[i].Player, w[pick].Player
		if whites[b] < whites[a] {
			a, b = b, a
		}
		out = append(out, Pairing{a, b})
	}
	return out
}
