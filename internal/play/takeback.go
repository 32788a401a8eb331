package play

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
)

var (
	errNoTakeback = httpx.NewError(http.StatusConflict, "nothing to take back: a takeback needs a turn of yours, and against the computer a game without a clock")
	errThinking   = httpx.NewError(http.StatusConflict, "the computer is thinking: take back after its move")
	errNoRequest  = httpx.NewError(http.StatusUnprocessableEntity, "there is no takeback request to accept")
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
// he is the computer, or he plays it with a clock. The turn is held.
func (r *room) takebackTo(seat int) int {
	if r.rec.Status != store.StatusPlaying || seat < 0 || seat > 1 || r.isAI(game.Player(seat)) || r.isAI(game.Player(1-seat)) && r.rec.Clock != nil {
		return -1
	}
	return r.moveList().lastTurnOf(seat)
}

// takeback asks for, accepts or declines a takeback for the seat holding
// secret. Against the computer, asking is enough.
func (r *room) takeback(ctx context.Context, h holder, what string) (View, error) {
	if err := r.lock(ctx); err != nil {
		return View{}, err
	}
	defer r.unlock()
	seat, err := r.seated(h)
	if err != nil {
		return View{}, err
	}
	switch what {
	case takebackAsk, "":
		to := r.takebackTo(seat)
		switch {
		case to < 0:
			return View{}, errNoTakeback
		case !r.isAI(game.Player(1 - seat)):
			if err := r.offerAllowed(seat); err != nil {
				return View{}, err
			}
			return r.setTakebackOffer(ctx, seat)
		case r.thinking:
			return View{}, errThinking
		}
		return r.undoTo(ctx, to)
	case takebackAccept:
		to := r.takebackTo(1 - seat)
		if r.rec.TakebackOffer != 1-seat || to < 0 {
			return View{}, errNoRequest
		}
		return r.undoTo(ctx, to)
	case takebackDecline:
		if err := r.offerAllowed(seat); err != nil {
			return View{}, err
		}
		return r.setTakebackOffer(ctx, -1)
	}
	return View{}, fmt.Errorf("%w: unknown takeback request %q (known: offer, accept, decline)", game.ErrSyntax, what)
}

// setTakebackOffer stores who asks for a takeback (-1: nobody).
func (r *room) setTakebackOffer(ctx context.Context, seat int) (View, error) {
	old := r.rec.TakebackOffer
	r.rec.TakebackOffer = seat
	if err := r.save(ctx, len(r.rec.Actions)); err != nil {
		r.rec.TakebackOffer = old
		return View{}, err
	}
	r.publish()
	return r.snap.Load().head(), nil
}

// undoTo takes the game back to ply. The time of the player thinking is
// charged up to now; from now on it runs for the player to act then.
func (r *room) undoTo(ctx context.Context, ply int) (View, error) {
	r.stopPondering()
	s := r.first.Clone()
	if err := game.ApplyNotation(s, r.rec.Actions[:ply]); err != nil {
		return View{}, err
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
		return View{}, err
	}
	r.s, r.turnsAt = s, -1
	r.publish()
	r.kick()
	r.arm()
	return r.snap.Load().head(), nil
}
