package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/store"
)

var (
	errNoTakeback = errors.New("nothing to take back: a takeback needs a turn of yours, and against the computer a game without a clock")
	errThinking   = errors.New("the computer is thinking: take back after its move")
	errNoRequest  = errors.New("there is no takeback request to accept")
)

// Takeback requests: against a person one side asks and the other accepts
// or declines; against the computer the request is granted at once.
const (
	takebackAsk     = "offer"
	takebackAccept  = "accept"
	takebackDecline = "decline"
)

// takebackTo is the ply a takeback by seat returns to: the start of the
// last turn seat played (his turn in progress, if he is in one), or -1
// when none may be taken back: the game is over, he has played no turn,
// he is the computer, or he plays it with a clock. The mutex is held.
func (r *room) takebackTo(seat int) int {
	if r.rec.Status != store.StatusPlaying || seat < 0 || seat > 1 || r.agents[seat] != nil || r.agents[1-seat] != nil && r.rec.Clock != nil {
		return -1
	}
	turns := r.moveList()
	for i := len(turns) - 1; i >= 0; i-- {
		if int(turns[i].Player) == seat {
			return turns[i].First
		}
	}
	return -1
}

// takeback asks for, accepts or declines a takeback for the seat holding
// secret. Against the computer, asking is enough.
func (r *room) takeback(ctx context.Context, h holder, what string) (view, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seat, err := r.seated(h)
	if err != nil {
		return view{}, err
	}
	switch what {
	case takebackAsk, "":
		to := r.takebackTo(seat)
		switch {
		case to < 0:
			return view{}, errNoTakeback
		case r.agents[1-seat] == nil:
			return r.setTakebackOffer(ctx, seat)
		case r.thinking:
			return view{}, errThinking
		}
		return r.undoTo(ctx, to)
	case takebackAccept:
		to := r.takebackTo(1 - seat)
		if r.rec.TakebackOffer != 1-seat || to < 0 {
			return view{}, errNoRequest
		}
		return r.undoTo(ctx, to)
	case takebackDecline:
		return r.setTakebackOffer(ctx, -1)
	}
	return view{}, fmt.Errorf("%w: unknown takeback request %q (known: offer, accept, decline)", game.ErrSyntax, what)
}

// setTakebackOffer stores who asks for a takeback (-1: nobody).
func (r *room) setTakebackOffer(ctx context.Context, seat int) (view, error) {
	old := r.rec.TakebackOffer
	r.rec.TakebackOffer = seat
	if err := r.save(ctx, len(r.rec.Actions)); err != nil {
		r.rec.TakebackOffer = old
		return view{}, err
	}
	r.broadcast()
	return r.view(), nil
}

// undoTo takes the game back to ply. The time of the player thinking is
// charged up to now; from now on it runs for the player to act then.
func (r *room) undoTo(ctx context.Context, ply int) (view, error) {
	r.stopPondering()
	s := r.first.Clone()
	if err := game.ApplyNotation(s, r.rec.Actions[:ply]); err != nil {
		return view{}, err
	}
	before, old, oldClock, oldOffer := len(r.rec.Actions), r.rec.Actions, r.rec.Clock, r.rec.TakebackOffer
	if p := r.s.ToAct(); oldClock != nil && p >= 0 && r.clockRuns() {
		nc := oldClock.Charged(int(p), time.Now().UnixMilli())
		r.rec.Clock = &nc
	}
	r.rec.Actions = append([]string{}, old[:ply]...)
	r.rec.TakebackOffer = -1
	if err := r.saveState(ctx, before, s); err != nil {
		r.rec.Actions, r.rec.Clock, r.rec.TakebackOffer = old, oldClock, oldOffer
		return view{}, err
	}
	r.s, r.turnsAt = s, -1
	r.broadcast()
	r.kick()
	r.arm()
	return r.view(), nil
}
