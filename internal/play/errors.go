package play

import (
	"errors"
	"net/http"

	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
)

// Errors of requests on a game, shown to the player.
var (
	errNotYourTurn  = httpx.NewError(http.StatusUnprocessableEntity, "it is not your turn")
	errBadSecret    = httpx.NewError(http.StatusForbidden, "this seat's secret is wrong: you may only watch")
	errNoAbort      = httpx.NewError(http.StatusConflict, "the game has begun: resign or offer a draw instead")
	errNotOver      = httpx.NewError(http.StatusConflict, "the game is not over yet")
	errRematchTaken = httpx.NewError(http.StatusConflict, "your seat in the rematch is already taken")
	errStale        = httpx.NewError(http.StatusConflict, "the game has moved on: reload it")
	errOver         = httpx.NewError(http.StatusConflict, "the game is over")
	errBadInvite    = httpx.NewError(http.StatusForbidden, "this invitation is not valid (it may have been used)")
	errNoOffer      = httpx.NewError(http.StatusUnprocessableEntity, "there is no draw offer to accept")
	errDeclines     = httpx.NewError(http.StatusUnprocessableEntity, "the computer declines the draw: it plays on")
)

// unavailable marks a store's failure as one to retry (503), leaving its
// own answers (no such game, a conflict) as they are.
func unavailable(err error) error {
	if err == nil || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConflict) {
		return err
	}
	return httpx.Unavailable(err)
}
