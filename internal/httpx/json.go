package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strconv"
)

// API writes the JSON answers and errors of the web app and reads its
// JSON bodies.
type API struct {
	Log *slog.Logger
	// MaxBody bounds a request body.
	MaxBody int64
}

// Marshal encodes v as JSON, with HTML's characters escaped.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	err := Encode(&b, v)
	return b.Bytes(), err
}

// Encode appends v to b as Marshal encodes it.
func Encode(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(true)
	return enc.Encode(v)
}

// JSON answers with v as JSON; it returns nil, so that a handler may end
// with it.
func (a *API) JSON(w http.ResponseWriter, code int, v any) error {
	b, err := Marshal(v)
	if err != nil {
		a.Log.Error("encoding a response", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return nil
	}
	return a.Raw(w, code, b)
}

// Raw answers with b, already encoded as JSON (by Marshal). Its length
// is given, so that the answer is sent whole, not in chunks (one write
// less, and no chunk framing).
func (a *API) Raw(w http.ResponseWriter, code int, b []byte) error {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(code)
	w.Write(b)
	return nil
}

// Error answers with an error as JSON {"error": text}. A server error is
// logged, and the client is told only that it happened (or, for a busy
// database, to try again).
func (a *API) Error(w http.ResponseWriter, r *http.Request, err error) {
	code, text := a.errorText(r.Context(), r.Method, r.URL.Path, err)
	if code == http.StatusServiceUnavailable && errors.Is(err, ErrUnavailable) {
		w.Header().Set("Retry-After", "2")
	}
	a.JSON(w, code, map[string]string{"error": text})
}

// SocketError is Error for a request made over a WebSocket: the message
// {"error": text, "code": status, "what": what} answering what (such as
// "act"), with Error's words and logging.
func (a *API) SocketError(ctx context.Context, what, path string, err error) []byte {
	code, text := a.errorText(ctx, "WS", path, err)
	b, _ := Marshal(struct {
		Error string `json:"error"`
		Code  int    `json:"code"`
		What  string `json:"what"`
	}{text, code, what})
	return b
}

// errorText is the status and the words err is answered with, logging
// what an operator should see.
func (a *API) errorText(ctx context.Context, method, path string, err error) (int, string) {
	code := Status(err)
	text := err.Error()
	switch {
	case code == http.StatusServiceUnavailable && errors.Is(err, ErrUnavailable):
		a.Log.WarnContext(ctx, "request deferred", "method", method, "path", path, "err", err)
		text = ErrUnavailable.Error()
	case code >= 500 && code != http.StatusServiceUnavailable:
		a.Log.ErrorContext(ctx, "request failed", "method", method, "path", path, "err", err)
		text = "internal error: the server could not do this; try again"
	}
	return code, text
}

// Func adapts a handler that returns an error: the error is answered.
func (a *API) Func(h func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			a.Error(w, r, err)
		}
	}
}

// Decode reads a JSON body of at most MaxBody bytes into v, refusing
// other content types (a form or text/plain post from another site),
// unknown fields and trailing data.
func (a *API) Decode(w http.ResponseWriter, r *http.Request, v any) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return WithCode(http.StatusUnsupportedMediaType, errors.New("requests that change something must be sent as application/json"))
	}
	body := http.MaxBytesReader(w, r.Body, a.MaxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return WithCode(http.StatusRequestEntityTooLarge, fmt.Errorf("the request is larger than %d bytes", a.MaxBody))
		}
		return WithCode(http.StatusBadRequest, fmt.Errorf("bad request: %v", err))
	}
	if dec.More() {
		return WithCode(http.StatusBadRequest, errors.New("bad request: data after the JSON object"))
	}
	return nil
}

// remoteHost is the request's address without the port.
func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// Client identifies the caller for limits: its address without the
// port; an IPv6 address by its /64, the network one home or one machine
// is given, so that a client cannot take a new address for each request.
func Client(r *http.Request) string {
	host := remoteHost(r)
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	if a.Is4() {
		// As the address reads already: ParseAddr takes an IPv4 address
		// only in its one form (no leading zeros), the form String
		// writes, which made a string for each move on a socket.
		return host
	}
	if a = a.Unmap(); a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}
