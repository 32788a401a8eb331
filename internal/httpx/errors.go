package httpx

import (
	"errors"
	"net/http"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/store"
)

// statusError is an error with the HTTP status it answers.
type statusError struct {
	code int
	err  error
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

// WithCode gives err the status it answers.
func WithCode(code int, err error) error { return &statusError{code, err} }

// NewError returns an error with text, answering code: a sentinel that
// callers compare with errors.Is.
func NewError(code int, text string) error { return &statusError{code, errors.New(text)} }

// ErrUnavailable answers a request the server could not do now because
// the database failed or is busy: the client should try again.
var ErrUnavailable = NewError(http.StatusServiceUnavailable, "the server is busy: try again in a moment")

// Unavailable marks err, a failure of the database, as one the client
// may retry (503); the answer says so without err's text.
func Unavailable(err error) error {
	return &statusError{http.StatusServiceUnavailable, errors.Join(ErrUnavailable, err)}
}

// Status is the HTTP status an error answers: its own, one of the game's
// or the store's, or 500 for anything unforeseen.
func Status(err error) int {
	var se *statusError
	switch {
	case errors.As(err, &se):
		return se.code
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, store.ErrConflict):
		return http.StatusConflict
	case errors.Is(err, game.ErrIllegal), errors.Is(err, game.ErrSyntax):
		return http.StatusUnprocessableEntity
	case errors.Is(err, game.ErrUnknown):
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}
