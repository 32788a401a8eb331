package play

import (
	"context"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/outcome"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/rating"
)

// A rated game is one period of Glicko-2 for each of its two players (as
// on lichess, a rating moves after every game); a rating idle for weeks
// first widens its deviation by one empty period a week.
const ratingPeriod = 7 * 24 * time.Hour

// scores returns each seat's score in the ended game (1 a win, ½ a draw,
// 0 a loss), or false for an ending that scores nobody (an abort, or a
// game that counts points without a winner).
func (r *room) scores(s game.State) ([2]float64, bool) {
	o := outcome.Of(s)
	if o.Kind == outcome.None {
		var err error
		if o, err = outcome.Read(r.g, r.rec.Result, r.rec.Reason); err != nil {
			return [2]float64{}, false
		}
	}
	p0, ok := o.Points(0)
	p1, _ := o.Points(1)
	return [2]float64{p0, p1}, ok
}

// CurrentRating is a player's rating in a game now, from his stored
// ratings: a new player's, or his last one widened for the periods he has
// not played; and the games he has played.
func CurrentRating(rs map[string]store.Rating, gameName string, now time.Time) (rating.Rating, int) {
	st, ok := rs[gameName]
	if !ok {
		return rating.New(), 0
	}
	cur := rating.Rating{R: st.R, RD: st.RD, Vol: st.Vol}
	for idle := now.Sub(st.Updated); idle >= ratingPeriod && cur.RD < rating.MaxRD; idle -= ratingPeriod {
		cur = rating.Update(cur, nil, rating.Tau)
	}
	return cur, st.Games
}

// finishRated stores the end of a rated game with both players' new
// ratings; the turn is held.
func (r *room) finishRated(ctx context.Context, before int, s game.State) error {
	sc, ok := r.scores(s)
	p0, p1 := r.rec.Seats[0].Player, r.rec.Seats[1].Player
	if !ok || p0 == "" || p1 == "" || p0 == p1 {
		return r.gs.store.Update(ctx, r.rec, before)
	}
	now := time.Now()
	name := r.g.Name()
	var cur [2]rating.Rating
	var played [2]int
	for i, p := range []string{p0, p1} {
		rs, err := r.gs.store.Ratings(ctx, p)
		if err != nil {
			return err
		}
		cur[i], played[i] = CurrentRating(rs, name, now)
	}
	var rows []store.Rating
	var changes []store.RatingChange
	for i, p := range []string{p0, p1} {
		next := rating.Update(cur[i], []rating.Result{{Opponent: cur[1-i], Score: sc[i]}}, rating.Tau)
		rows = append(rows, store.Rating{Player: p, Game: name, R: next.R, RD: next.RD, Vol: next.Vol, Games: played[i] + 1, Updated: now})
		changes = append(changes, store.RatingChange{Seat: i, Player: p, Before: cur[i].R, After: next.R, RD: next.RD})
	}
	r.rec.Ratings = changes
	if err := r.gs.store.FinishRated(ctx, r.rec, before, rows); err != nil {
		r.rec.Ratings = nil
		return err
	}
	return nil
}

// SnapshotRatings writes each seat's rating as the rated game begins, for
// the players to see.
func (gs *Games) SnapshotRatings(ctx context.Context, rec *store.Game) error {
	g, err := game.Load(rec.Spec)
	if err != nil {
		return err
	}
	for i := range rec.Seats {
		p := rec.Seats[i].Player
		if p == "" {
			continue
		}
		rs, err := gs.store.Ratings(ctx, p)
		if err != nil {
			return unavailable(err)
		}
		cur, _ := CurrentRating(rs, g.Name(), time.Now())
		rec.Seats[i].Rating, rec.Seats[i].RD = cur.R, cur.RD
	}
	return nil
}
