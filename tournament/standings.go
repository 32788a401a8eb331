package tournament

import (
	"fmt"
	"slices"
	"strings"
)

// Tiebreak names a way to order players level on points, as FIDE's
// tie-break regulations (Handbook C.07) define it.
type Tiebreak string

const (
	// Buchholz: the sum of the final scores of the player's opponents
	// (a bye adds nothing).
	Buchholz Tiebreak = "buchholz"
	// BuchholzCut1: Buchholz less the lowest of those scores.
	BuchholzCut1 Tiebreak = "buchholz-cut1"
	// SonnebornBerger: the sum, over the player's games, of what he
	// scored in it times the opponent's final score.
	SonnebornBerger Tiebreak = "sonneborn-berger"
	// Wins: the games won over the board (byes aside).
	Wins Tiebreak = "wins"
	// DirectEncounter: the points scored in the games between the
	// players level on points and on every earlier tie-break.
	DirectEncounter Tiebreak = "direct-encounter"
)

// Tiebreaks lists the tie-breaks by name.
var Tiebreaks = []Tiebreak{Buchholz, BuchholzCut1, SonnebornBerger, Wins, DirectEncounter}

// ParseTiebreaks reads a comma-separated list of tie-break names.
func ParseTiebreaks(s string) ([]Tiebreak, error) {
	var out []Tiebreak
	for _, name := range strings.Split(s, ",") {
		tb := Tiebreak(strings.TrimSpace(name))
		if tb == "" {
			continue
		}
		if !slices.Contains(Tiebreaks, tb) {
			known := make([]string, len(Tiebreaks))
			for i, t := range Tiebreaks {
				known[i] = string(t)
			}
			return nil, fmt.Errorf("tournament: unknown tie-break %q (known: %s)", tb, strings.Join(known, ", "))
		}
		out = append(out, tb)
	}
	return out, nil
}

// Standing is a player's line in the standings. Points and the
// tie-breaks are in half points (Sonneborn-Berger in quarter points: a
// half point times a half point).
type Standing struct {
	Player    int
	Rank      int // 1-based; players level on everything share a rank
	Halves    int
	Tiebreaks []int
	Played    int // games finished over the board
	Byes      int
}

// Points returns the standing's points.
func (s Standing) Points() float64 { return float64(s.Halves) / 2 }

// Standings orders n players by the finished games (Pending ones count
// for nothing yet): by points, then by each tie-break in turn, then by
// number (the seeding), players level on points and every tie-break
// sharing a rank.
func Standings(n int, games []Game, tbs []Tiebreak) ([]Standing, error) {
	if err := check(n, games); err != nil {
		return nil, err
	}
	st := make([]Standing, n)
	for p := range st {
		st[p].Player = p
	}
	for _, g := range games {
		if g.Black == Bye {
			st[g.White].Halves += ByeHalves
			st[g.White].Byes++
			continue
		}
		if g.Result == Pending {
			continue
		}
		w, b := g.halves()
		st[g.White].Halves += w
		st[g.Black].Halves += b
		st[g.White].Played++
		st[g.Black].Played++
	}
	for i := range st {
		st[i].Tiebreaks = make([]int, len(tbs))
	}
	for k, tb := range tbs {
		if tb == DirectEncounter {
			continue // needs the order so far: below
		}
		for p := range st {
			st[p].Tiebreaks[k] = tiebreak(tb, p, games, st)
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Sort by points and the tie-breaks before each direct encounter,
	// then work the direct encounters out within the groups still level.
	less := func(upto int) func(a, b int) int {
		return func(a, b int) int {
			if st[a].Halves != st[b].Halves {
				return st[b].Halves - st[a].Halves
			}
			for k := 0; k < upto; k++ {
				if st[a].Tiebreaks[k] != st[b].Tiebreaks[k] {
					return st[b].Tiebreaks[k] - st[a].Tiebreaks[k]
				}
			}
			return 0
		}
	}
	for k, tb := range tbs {
		if tb != DirectEncounter {
			continue
		}
		slices.SortStableFunc(order, less(k))
		for i := 0; i < n; {
			j := i + 1
			for j < n && less(k)(order[i], order[j]) == 0 {
				j++
			}
			group := order[i:j]
			for _, p := range group {
				st[p].Tiebreaks[k] = direct(p, group, games)
			}
			i = j
		}
	}
	cmp := less(len(tbs))
	slices.SortStableFunc(order, cmp)
	out := make([]Standing, n)
	for i, p := range order {
		out[i] = st[p]
		if i > 0 && cmp(order[i-1], p) == 0 {
			out[i].Rank = out[i-1].Rank
		} else {
			out[i].Rank = i + 1
		}
	}
	return out, nil
}

// tiebreak computes one of the tie-breaks that need only the points.
func tiebreak(tb Tiebreak, p int, games []Game, st []Standing) int {
	sum, lowest, n := 0, -1, 0
	for _, g := range games {
		if g.Black == Bye || g.Result == Pending || g.White != p && g.Black != p {
			continue
		}
		opp, mine := g.Black, 0
		w, b := g.halves()
		mine = w
		if g.Black == p {
			opp, mine = g.White, b
		}
		score := st[opp].Halves
		switch tb {
		case Buchholz, BuchholzCut1:
			sum += score
			if lowest < 0 || score < lowest {
				lowest = score
			}
			n++
		case SonnebornBerger:
			sum += mine * score
		case Wins:
			if mine == 2 {
				sum++
			}
		}
	}
	if tb == BuchholzCut1 && n > 0 {
		sum -= lowest
	}
	return sum
}

// direct is p's half points in the games among group.
func direct(p int, group []int, games []Game) int {
	sum := 0
	for _, g := range games {
		if g.Black == Bye || g.Result == Pending || !slices.Contains(group, g.White) || !slices.Contains(group, g.Black) {
			continue
		}
		w, b := g.halves()
		switch p {
		case g.White:
			sum += w
		case g.Black:
			sum += b
		}
	}
	return sum
}
