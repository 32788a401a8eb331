package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/store"
)

// httpError is an error with the status it answers.
type httpError struct {
	code int
	err  error
}

func (e httpError) Error() string { return e.err.Error() }
func (e httpError) Unwrap() error { return e.err }

// withCode gives an error the status it answers.
func withCode(code int, err error) error { return httpError{code, err} }

// Errors of requests on a game, shown to the player.
var (
	errNoGame       = errors.New("no such game")
	errNotYourTurn  = errors.New("it is not your turn")
	errBadSecret    = errors.New("this seat's secret is wrong: you may only watch")
	errNoAbort      = errors.New("the game has begun: resign or offer a draw instead")
	errNotOver      = errors.New("the game is not over yet")
	errRematchTaken = errors.New("your seat in the rematch is already taken")
	errStale        = errors.New("the game has moved on: reload it")
	errOver         = errors.New("the game is over")
	errBadInvite    = errors.New("this invitation is not valid (it may have been used)")
	errNoOffer      = errors.New("there is no draw offer to accept")
	errDeclines     = errors.New("the agent declines: it plays on")
)

// statusOf is the HTTP status an error answers: its own, one of the
// game's, or 500 for anything unforeseen.
func statusOf(err error) int {
	var he httpError
	switch {
	case errors.As(err, &he):
		return he.code
	case errors.Is(err, errNoGame), errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, errBadSecret), errors.Is(err, errBadInvite):
		return http.StatusForbidden
	case errors.Is(err, errStale), errors.Is(err, errOver), errors.Is(err, store.ErrConflict), errors.Is(err, errNoAbort),
		errors.Is(err, errNotOver), errors.Is(err, errRematchTaken), errors.Is(err, errNoTakeback), errors.Is(err, errThinking):
		return http.StatusConflict
	case errors.Is(err, errNotYourTurn), errors.Is(err, errNoOffer), errors.Is(err, errNoRequest), errors.Is(err, errDeclines),
		errors.Is(err, game.ErrIllegal), errors.Is(err, game.ErrSyntax):
		return http.StatusUnprocessableEntity
	case errors.Is(err, game.ErrUnknown):
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	err := enc.Encode(v)
	return b.Bytes(), err
}

// writeJSON answers with v as JSON.
func (s *Server) writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := marshal(v)
	if err != nil {
		s.log.Error("encoding a response", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(b)
}

// writeError answers with an error as JSON {"error": text}. A server
// error is logged, and the browser is told only that it happened.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	code := statusOf(err)
	text := err.Error()
	if code >= 500 && code != http.StatusServiceUnavailable {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		text = "internal error: the server could not do this; try again"
	}
	s.writeJSON(w, code, map[string]string{"error": text})
}

// decode reads a JSON body of at most MaxBody bytes into v, refusing
// other content types (a form or text/plain post from another site),
// unknown fields and trailing data.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return withCode(http.StatusUnsupportedMediaType, errors.New("requests that change something must be sent as application/json"))
	}
	body := http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return withCode(http.StatusRequestEntityTooLarge, fmt.Errorf("the request is larger than %d bytes", s.cfg.MaxBody))
		}
		return withCode(http.StatusBadRequest, fmt.Errorf("bad request: %v", err))
	}
	if dec.More() {
		return withCode(http.StatusBadRequest, errors.New("bad request: data after the JSON object"))
	}
	return nil
}
