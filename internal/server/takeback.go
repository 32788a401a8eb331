package server

import (
	"context"
	"errors"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/store"
)

var (
	errNoTakeback = errors.New("takebacks are for casual games against the computer: no clock, and a move of yours to take back")
	errThinking   = errors.New("the computer is thinking: take back after its move")
)

// takebackTo is the ply a takeback by seat returns to: the start of the
// last turn seat played (his turn in progress, if he is in one), or -1
// when none may be taken back: only against the computer, without a
// clock, in play. The mutex is held.
func (r *room) takebackTo(seat int) int {
	if r.rec.Status != store.StatusPlaying || r.rec.Clock != nil || seat < 0 || seat > 1 || r.agents[1-seat] == nil {
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

// takeback undoes the last turn of the seat holding secret and what the
// computer answered, back to the start of that turn.
func (r *room) takeback(ctx context.Context, secret string) (view, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seat, err := r.seated(secret)
	if err != nil {
		return view{}, err
	}
	to := r.takebackTo(seat)
	switch {
	case to < 0:
		return view{}, errNoTakeback
	case r.thinking:
		return view{}, errThinking
	}
	s := r.first.Clone()
	if err := game.ApplyNotation(s, r.rec.Actions[:to]); err != nil {
		return view{}, err
	}
	before, old := len(r.rec.Actions), r.rec.Actions
	r.rec.Actions = append([]string{}, old[:to]...)
	if err := r.srv.store.Update(ctx, r.rec, before); err != nil {
		r.rec.Actions = old
		return view{}, err
	}
	r.s, r.turnsAt = s, -1
	r.broadcast()
	r.kick()
	return r.view(), nil
}
