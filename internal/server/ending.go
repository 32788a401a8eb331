package server

import (
	"context"
	"fmt"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/store"
)

// resign ends the game for the seat holding secret, lost.
func (r *room) resign(ctx context.Context, h holder) (view, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seat, err := r.seated(h)
	if err != nil {
		return view{}, err
	}
	winner := r.g.PlayerName(game.Player(1 - seat))
	if err := r.end(ctx, winner, r.g.PlayerName(game.Player(seat))+" resigned"); err != nil {
		return view{}, err
	}
	return r.view(), nil
}

// Draw requests.
const (
	drawOffer   = "offer"
	drawAccept  = "accept"
	drawDecline = "decline"
)

// draw offers, accepts or declines a draw for the seat holding secret.
func (r *room) draw(ctx context.Context, h holder, what string) (view, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seat, err := r.seated(h)
	if err != nil {
		return view{}, err
	}
	old := r.rec.DrawOffer
	switch what {
	case drawOffer:
		if r.agents[1-seat] != nil {
			return view{}, errDeclines
		}
		r.rec.DrawOffer = seat
	case drawAccept:
		if r.rec.DrawOffer != 1-seat {
			return view{}, errNoOffer
		}
		if err := r.end(ctx, "draw", "draw agreed"); err != nil {
			return view{}, err
		}
		return r.view(), nil
	case drawDecline:
		r.rec.DrawOffer = -1
	default:
		return view{}, fmt.Errorf("%w: unknown draw request %q (known: offer, accept, decline)", game.ErrSyntax, what)
	}
	if err := r.save(ctx, len(r.rec.Actions)); err != nil {
		r.rec.DrawOffer = old
		return view{}, err
	}
	r.broadcast()
	return r.view(), nil
}

// end finishes the game by resignation, time or agreement; the mutex is
// held.
func (r *room) end(ctx context.Context, result, reason string) error {
	ply := len(r.rec.Actions)
	offer := r.rec.DrawOffer
	r.rec.Status, r.rec.Result, r.rec.Reason, r.rec.DrawOffer = store.StatusOver, result, reason, -1
	if err := r.save(ctx, ply); err != nil {
		r.rec.Status, r.rec.Result, r.rec.Reason, r.rec.DrawOffer = store.StatusPlaying, "", "", offer
		return err
	}
	if r.timer != nil {
		r.timer.Stop()
	}
	r.stopPondering()
	r.broadcast()
	return nil
}

// canAbort reports whether the game may be called off without a result:
// until both sides have acted (as on lichess), or while a friend's seat is
// still empty. The mutex is held.
func (r *room) canAbort() bool {
	if r.rec.Status != store.StatusPlaying {
		return false
	}
	for _, seat := range r.rec.Seats {
		if seat.JoinHash != "" {
			return true
		}
	}
	return len(r.moveList()) < 2
}

// abort calls the game off, without a winner, for a seat holder.
func (r *room) abort(ctx context.Context, h holder) (view, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.seated(h); err != nil {
		return view{}, err
	}
	if !r.canAbort() {
		return view{}, errNoAbort
	}
	if err := r.end(ctx, resultAborted, "aborted before both sides had moved"); err != nil {
		return view{}, err
	}
	return r.view(), nil
}

// resultAborted is the result of a game called off.
const resultAborted = "aborted"

// rematch gives the holder of a seat of this finished game his seat in the
// game that follows it, with the sides swapped: the first to ask creates
// it (the computer keeps its level, a person's seat waits for him), the
// other claims his seat there with his secret of this game.
func (r *room) rematch(ctx context.Context, h holder) (createResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seat := r.seatOf(h)
	switch {
	case seat < 0:
		return createResponse{}, errBadSecret
	case r.rec.Status == store.StatusPlaying:
		return createResponse{}, errNotOver
	}
	if r.rec.Rematch == "" {
		return r.newRematch(ctx, seat)
	}
	next, err := r.srv.room(ctx, r.rec.Rematch)
	if err != nil {
		return createResponse{}, err
	}
	id, mine, err := next.claim(ctx, 1-seat)
	if err != nil {
		return createResponse{}, err
	}
	return createResponse{ID: id, Seat: 1 - seat, Secret: mine}, nil
}

// newRematch creates the rematch for seat and records it on this game;
// the mutex is held.
func (r *room) newRematch(ctx context.Context, seat int) (createResponse, error) {
	rec := &store.Game{ID: newID(), Spec: r.rec.Spec, Owner: r.rec.Owner, DrawOffer: -1, TakebackOffer: -1, Start: r.rec.Start, Seats: make([]store.Seat, len(r.rec.Seats)),
		Rated: r.rec.Rated}
	secret := randomToken(16)
	for p, old := range r.rec.Seats {
		switch {
		case p == seat:
			rec.Seats[1-p] = store.Seat{Kind: store.SeatHuman, SecretHash: hashSecret(secret), Player: old.Player, Name: old.Name}
		case old.Kind == store.SeatAI:
			rec.Seats[1-p] = old
		default: // the other person's seat, claimed through this game
			rec.Seats[1-p] = store.Seat{Kind: store.SeatHuman, JoinHash: hashSecret(randomToken(16)), Player: old.Player, Name: old.Name}
		}
	}
	if c := r.rec.Clock; c != nil {
		rec.Clock = &store.Clock{BaseMS: c.BaseMS, IncMS: c.IncMS, LeftMS: [2]int64{c.BaseMS, c.BaseMS}, SinceMS: time.Now().UnixMilli(), DaysPerMove: c.DaysPerMove}
	}
	if rec.Rated {
		if err := r.srv.snapshotRatings(ctx, rec); err != nil {
			return createResponse{}, err
		}
	}
	if err := r.srv.store.Create(ctx, rec); err != nil {
		return createResponse{}, err
	}
	r.rec.Rematch = rec.ID
	if err := r.save(ctx, len(r.rec.Actions)); err != nil {
		r.rec.Rematch = ""
		return createResponse{}, err
	}
	next, err := r.srv.room(ctx, rec.ID)
	if err != nil {
		return createResponse{}, err
	}
	next.start()
	r.broadcast()
	return createResponse{ID: rec.ID, Seat: 1 - seat, Secret: secret}, nil
}

// claim gives seat p, left waiting by a rematch, a new secret.
func (r *room) claim(ctx context.Context, p int) (string, string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seat := r.rec.Seats[p]
	if seat.Kind != store.SeatHuman || seat.JoinHash == "" {
		return "", "", errRematchTaken
	}
	secret := randomToken(16)
	r.rec.Seats[p].JoinHash, r.rec.Seats[p].SecretHash = "", hashSecret(secret)
	if err := r.save(ctx, len(r.rec.Actions)); err != nil {
		r.rec.Seats[p] = seat
		return "", "", err
	}
	r.broadcast()
	r.arm()
	return r.rec.ID, secret, nil
}
