package tournaments

import (
	"context"
	"slices"
	"time"

	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
	"github.com/muster-games/muster/tournament"
)

// Arena is the kind of tournament lichess made popular: a fixed time
// (its Rounds field holds the minutes), players paired again as soon as
// they are free, each with the nearest free player in the standings but
// not his last opponent (they wait while others play), and scored by
// tournament.ArenaPoints: 2 a win, 1 a draw (none for one of fewer than
// 10 moves), double on a streak of two wins. Players may join while it runs; one who withdraws is paired
// no more (a pause). Games that end after the arena's end do not count.
const Arena = "arena"

// arenaState is an arena's games as they stand.
type arenaState struct {
	// games per player (by seed), in the order they ended.
	games [][]tournament.ArenaGame
	// busy marks players in a game now; last each one's last opponent.
	busy   []bool
	last   []int
	whites map[int]int
}

// arena reads an arena's games from the state's.
func arena(t *store.Tournament, st *state) *arenaState {
	n := len(st.players)
	as := &arenaState{games: make([][]tournament.ArenaGame, n), busy: make([]bool, n), last: make([]int, n), whites: map[int]int{}}
	for i := range as.last {
		as.last[i] = tournament.Bye
	}
	end := t.Starts.Add(time.Duration(t.Rounds) * time.Minute)
	type done struct {
		at   time.Time
		w, b int
		res  tournament.Result
		ply  int
	}
	var ended []done
	for _, tg := range st.games {
		if tg.Black < 0 || tg.White >= n || tg.Black >= n {
			continue
		}
		as.last[tg.White], as.last[tg.Black] = tg.Black, tg.White
		as.whites[tg.White]++
		as.whites[tg.Black]--
		rec, made := st.recs[tg.Game]
		res := st.result[tg.Game]
		if !made || res == tournament.Pending { // playing, or being made
			as.busy[tg.White], as.busy[tg.Black] = true, true
			continue
		}
		if rec.Updated.After(end) {
			continue
		}
		ended = append(ended, done{at: rec.Updated, w: tg.White, b: tg.Black, res: res, ply: len(rec.Actions)})
	}
	slices.SortStableFunc(ended, func(a, b done) int { return a.at.Compare(b.at) })
	for _, d := range ended {
		moves := d.ply / 2
		wo, bo := tournament.DrawOutcome, tournament.DrawOutcome
		switch d.res {
		case tournament.WhiteWin:
			wo, bo = tournament.Win, tournament.Loss
		case tournament.BlackWin:
			wo, bo = tournament.Loss, tournament.Win
		}
		as.games[d.w] = append(as.games[d.w], tournament.ArenaGame{Outcome: wo, Moves: moves})
		as.games[d.b] = append(as.games[d.b], tournament.ArenaGame{Outcome: bo, Moves: moves})
	}
	return as
}

// arenaLines are an arena's standings: points, then games played fewer
// (the same points in fewer games rank higher), then seed.
func arenaLines(st *state, as *arenaState) []Line {
	var out []Line
	order := make([]int, len(st.players))
	pts := make([]int, len(st.players))
	lines := make([]Line, len(st.players))
	for i, p := range st.players {
		order[i] = i
		total, each, fire := tournament.ArenaPoints(as.games[i])
		pts[i] = total
		lines[i] = Line{Name: p.Name, Points: float64(total), Played: len(each), Withdrawn: p.Withdrawn, Scores: each, Fire: fire, player: i}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if pts[a] != pts[b] {
			return pts[b] - pts[a]
		}
		return lines[a].Played - lines[b].Played
	})
	for k, i := range order {
		l := lines[i]
		l.Rank = k + 1
		if k > 0 && pts[i] == pts[order[k-1]] && lines[i].Played == lines[order[k-1]].Played {
			l.Rank = out[k-1].Rank
		}
		out = append(out, l)
	}
	return out
}

// advanceArena pairs the free players while the arena lasts, and ends
// it once its time is up and its last games are over.
func (s *Service) advanceArena(ctx context.Context, t *store.Tournament, st *state) error {
	as := arena(t, st)
	for _, tg := range st.games {
		if tg.Black >= 0 && as.busy[tg.White] {
			if err := s.ensureGame(ctx, t, st, tg); err != nil {
				return err
			}
		}
	}
	end := t.Starts.Add(time.Duration(t.Rounds) * time.Minute)
	if !s.now().Before(end) {
		if slices.Contains(as.busy, true) {
			return nil
		}
		return s.store.FinishTournament(ctx, t.ID)
	}
	rank := map[int]int{}
	for k, l := range arenaLines(st, as) {
		rank[l.player] = k + 1
	}
	var waiting []tournament.Waiting
	for i, p := range st.players {
		if !p.Withdrawn && !as.busy[i] {
			waiting = append(waiting, tournament.Waiting{Player: i, Rank: rank[i], Last: as.last[i]})
		}
	}
	// A rematch only when nobody else plays (nobody else will come free).
	pairs := tournament.ArenaPairs(waiting, as.whites, !slices.Contains(as.busy, true))
	if len(pairs) == 0 {
		return nil
	}
	var games []store.TournamentGame
	for _, p := range pairs {
		games = append(games, store.TournamentGame{Round: t.Round + 1, White: p.White, Black: p.Black, Game: token.ID()})
	}
	if err := s.store.BeginRound(ctx, t.ID, t.Round, games); err != nil {
		return err
	}
	for _, tg := range games {
		if err := s.ensureGame(ctx, t, st, tg); err != nil {
			return err
		}
	}
	return nil
}
