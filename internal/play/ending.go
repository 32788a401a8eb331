package play

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/events"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/moderation"
	"github.com/muster-games/muster/internal/outcome"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

// resign ends the game for the seat holding secret, lost.
func (r *room) resign(ctx context.Context, h holder) (View, error) {
	if err := r.lock(ctx); err != nil {
		return View{}, err
	}
	defer r.unlock()
	seat, err := r.seated(h)
	if err != nil {
		return View{}, err
	}
	if err := r.end(ctx, outcome.Won(1-seat, r.g.PlayerName(game.Player(seat))+" resigned")); err != nil {
		return View{}, err
	}
	return r.snap.Load().head(), nil
}

// Draw requests.
const (
	drawOffer   = "offer"
	drawAccept  = "accept"
	drawDecline = "decline"
)

// draw offers, accepts or declines a draw for the seat holding secret.
func (r *room) draw(ctx context.Context, h holder, what string) (View, error) {
	if err := r.lock(ctx); err != nil {
		return View{}, err
	}
	defer r.unlock()
	seat, err := r.seated(h)
	if err != nil {
		return View{}, err
	}
	old := r.rec.DrawOffer
	if what == drawOffer || what == drawDecline {
		if err := r.offerAllowed(seat); err != nil {
			return View{}, err
		}
	}
	switch what {
	case drawOffer:
		if r.isAI(game.Player(1 - seat)) {
			return View{}, errDeclines
		}
		r.rec.DrawOffer = seat
	case drawAccept:
		if r.rec.DrawOffer != 1-seat {
			return View{}, errNoOffer
		}
		if err := r.end(ctx, outcome.Drawn("draw agreed")); err != nil {
			return View{}, err
		}
		return r.snap.Load().head(), nil
	case drawDecline:
		r.rec.DrawOffer = -1
	default:
		return View{}, fmt.Errorf("%w: unknown draw request %q (known: offer, accept, decline)", game.ErrSyntax, what)
	}
	if err := r.save(ctx, len(r.rec.Actions)); err != nil {
		r.rec.DrawOffer = old
		return View{}, err
	}
	r.publish()
	return r.snap.Load().head(), nil
}

// end finishes the game by resignation, time or agreement; the turn is
// held. A rated game ended before both sides have moved is aborted,
// whatever ended it: unrated, as on lichess, so that nobody farms ratings
// from games never played. One ended so before each side has played
// minRatedTurns turns keeps its result but is not rated: a resignation
// after a move each gives or takes no rating. A casual one keeps its
// result.
func (r *room) end(ctx context.Context, o outcome.Outcome) error {
	rated := r.rec.Rated
	switch {
	case rated && o.Kind != outcome.Aborted && r.canAbort():
		o = outcome.Abort(o.Reason + " before both sides had moved")
	case rated && o.Kind != outcome.Aborted && r.moveList().len() < 2*minRatedTurns:
		r.rec.Rated = false
		o.Reason += fmt.Sprintf(" before %d moves each: not rated", minRatedTurns)
	}
	ply := len(r.rec.Actions)
	offer := r.rec.DrawOffer
	r.rec.Status, r.rec.Result, r.rec.Reason, r.rec.DrawOffer = store.StatusOver, o.Text(r.g), o.Reason, -1
	if err := r.save(ctx, ply); err != nil {
		r.rec.Status, r.rec.Result, r.rec.Reason, r.rec.DrawOffer, r.rec.Rated = store.StatusPlaying, "", "", offer, rated
		return err
	}
	r.finished()
	r.gs.Finished.Add(1)
	r.gs.cfg.Events.GameFinished(events.GameFinished{Game: r.id})
	r.publish()
	return nil
}

// canAbort reports whether the game may be called off without a result:
// until both sides have acted (as on lichess), or while a friend's seat is
// still empty. The turn is held.
func (r *room) canAbort() bool {
	if r.rec.Status != store.StatusPlaying {
		return false
	}
	for _, seat := range r.rec.Seats {
		if seat.JoinHash != "" {
			return true
		}
	}
	return r.moveList().len() < 2
}

// abort calls the game off, without a winner, for a seat holder.
func (r *room) abort(ctx context.Context, h holder) (View, error) {
	if err := r.lock(ctx); err != nil {
		return View{}, err
	}
	defer r.unlock()
	if _, err := r.seated(h); err != nil {
		return View{}, err
	}
	if !r.canAbort() {
		return View{}, errNoAbort
	}
	if err := r.end(ctx, outcome.Abort("aborted before both sides had moved")); err != nil {
		return View{}, err
	}
	return r.snap.Load().head(), nil
}

// minRatedTurns is the turns each side plays before a game ended by
// resignation, time or agreement is rated.
const minRatedTurns = 3

// rematch gives the holder of a seat of this finished game his seat in the
// game that follows it, with the sides swapped: the first to ask creates
// it (the computer keeps its level, a person's seat waits for him), the
// other claims his seat there with his secret of this game. This room's
// turn is let go before the rematch's room is loaded or its turn taken.
func (gs *Games) rematch(ctx context.Context, id string, h holder, addr string) (createResponse, error) {
	defer gs.creating.Lock(addr)() // a new game, maybe: see newGame
	var seat int
	var next string
	var resp createResponse
	err := gs.with(ctx, id, func(r *room) error {
		if err := r.lock(ctx); err != nil {
			return err
		}
		defer r.unlock()
		seat = seatOf(r.rec.Seats, h)
		switch {
		case seat < 0:
			return errBadSecret
		case r.rec.Status == store.StatusPlaying:
			return errNotOver
		}
		// A ban holds the seat, whoever holds its secret.
		if err := moderation.CheckPlayer(ctx, gs.store, r.rec.Seats[seat].Player, false); err != nil {
			return err
		}
		switch {
		case r.rec.Rematch != "":
			next = r.rec.Rematch
			return nil
		}
		// A new game: it counts against the asking address's games an
		// hour, as any other.
		if err := gs.underGameLimit(ctx, addr); err != nil {
			return err
		}
		var err error
		resp, err = r.newRematch(ctx, seat, addr)
		return err
	})
	switch {
	case err != nil:
		return createResponse{}, err
	case next == "":
		// Made here: its room starts, outside this one's turn.
		gs.load(ctx, resp.ID)
		return resp, nil
	}
	var mine string
	err = gs.with(ctx, next, func(nr *room) error {
		var err error
		mine, err = nr.claim(ctx, 1-seat)
		return err
	})
	if err != nil {
		return createResponse{}, err
	}
	return createResponse{ID: next, Seat: 1 - seat, Secret: mine}, nil
}

// newRematch stores the rematch for seat, asked from addr, and records it
// on this game; the turn is held.
func (r *room) newRematch(ctx context.Context, seat int, addr string) (createResponse, error) {
	rec := &store.Game{ID: token.ID(), Spec: r.rec.Spec, Owner: addr, DrawOffer: -1, TakebackOffer: -1, Start: r.rec.Start, Seats: make([]store.Seat, len(r.rec.Seats)),
		Rated: r.rec.Rated}
	secret := token.New(16)
	for p, old := range r.rec.Seats {
		switch {
		case p == seat:
			rec.Seats[1-p] = store.Seat{Kind: store.SeatHuman, SecretHash: token.Hash(secret), Player: old.Player, Name: old.Name, Bot: old.Bot}
		case old.Kind == store.SeatAI:
			rec.Seats[1-p] = old
		default: // the other person's seat, claimed through this game
			rec.Seats[1-p] = store.Seat{Kind: store.SeatHuman, JoinHash: token.Hash(token.New(16)), Player: old.Player, Name: old.Name, Bot: old.Bot}
		}
	}
	if c := r.rec.Clock; c != nil {
		rec.Clock = &store.Clock{BaseMS: c.BaseMS, IncMS: c.IncMS, LeftMS: [2]int64{c.BaseMS, c.BaseMS}, SinceMS: time.Now().UnixMilli(), DaysPerMove: c.DaysPerMove}
	}
	if rec.Rated {
		if err := r.gs.SnapshotRatings(ctx, rec); err != nil {
			return createResponse{}, err
		}
	}
	st, err := initial(r.g, rec)
	if err != nil {
		return createResponse{}, err
	}
	rec.ToAct = ToActOf(rec, st)
	if err := r.gs.store.Create(ctx, rec); err != nil {
		return createResponse{}, unavailable(err)
	}
	r.rec.Rematch = rec.ID
	if err := r.save(ctx, len(r.rec.Actions)); err != nil {
		r.rec.Rematch = ""
		return createResponse{}, err
	}
	r.publish()
	return createResponse{ID: rec.ID, Seat: 1 - seat, Secret: secret}, nil
}

// claim gives seat p, left waiting by a rematch, a new secret.
func (r *room) claim(ctx context.Context, p int) (string, error) {
	if err := r.lock(ctx); err != nil {
		return "", err
	}
	defer r.unlock()
	seat := r.rec.Seats[p]
	if seat.Kind != store.SeatHuman || seat.JoinHash == "" {
		return "", errRematchTaken
	}
	secret := token.New(16)
	r.rec.Seats[p].JoinHash, r.rec.Seats[p].SecretHash = "", token.Hash(secret)
	if err := r.save(ctx, len(r.rec.Actions)); err != nil {
		r.rec.Seats[p] = seat
		return "", err
	}
	r.publish()
	r.arm()
	return secret, nil
}

// offerAllowed checks a seat's allowance of offers and refusals (draws,
// takebacks).
func (r *room) offerAllowed(seat int) error {
	if ok, retry := r.gs.offers.Allow(fmt.Sprintf("%s %d", r.id, seat), time.Now()); !ok {
		return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("at most %d offers a minute: wait %s", offersPerMinute, retry.Round(time.Second)))
	}
	return nil
}
