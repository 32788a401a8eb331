package httpx

import (
	"bufio"
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/muster-games/muster/internal/token"
)

type requestKey struct{}

// RequestID is the id the access log gave the request of ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestKey{}).(string)
	return id
}

// LogHandler wraps a slog handler so that a record logged with a
// request's context (Logger.ErrorContext(r.Context(), …)) carries the
// request's id, as its access line does.
type LogHandler struct{ slog.Handler }

// Handle adds the request's id to the record.
func (h LogHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("request", id))
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs keeps the wrapping.
func (h LogHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return LogHandler{h.Handler.WithAttrs(as)}
}

// WithGroup keeps the wrapping.
func (h LogHandler) WithGroup(name string) slog.Handler { return LogHandler{h.Handler.WithGroup(name)} }

// AccessLog gives every request an id (its X-Request-ID header, in the
// answer too) and logs one line for it once answered: method, path,
// status, bytes, duration and client; then it calls after (if set) with
// the same, long set for a WebSocket or a stream. The probes of an
// operator's tools (/healthz, /readyz, /metrics) and the static files are
// logged at the debug level. A WebSocket's line comes when it closes.
func AccessLog(log *slog.Logger, after func(r *http.Request, status int, took time.Duration, long bool), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := token.New(8)
		w.Header().Set("X-Request-ID", id)
		r = r.WithContext(context.WithValue(r.Context(), requestKey{}, id))
		sw := &statusWriter{ResponseWriter: w}
		began := time.Now()
		next.ServeHTTP(sw, r)
		level := slog.LevelInfo
		switch p := r.URL.Path; {
		case p == "/healthz" || p == "/readyz" || p == "/metrics" || strings.HasPrefix(p, "/static/"):
			level = slog.LevelDebug
		}
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		took := time.Since(began)
		log.LogAttrs(r.Context(), level, "request", slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", sw.status), slog.Int64("bytes", sw.bytes), slog.Duration("took", took),
			slog.String("client", Client(r)))
		if after != nil {
			after(r, sw.status, took, sw.long)
		}
	})
}

// statusWriter records the status and size of an answer. It passes on
// flushing (streams) and hijacking (WebSockets).
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
	// long is set for a WebSocket (hijacked) or a stream (flushed).
	long bool
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush flushes a stream.
func (w *statusWriter) Flush() {
	w.long = true
	http.NewResponseController(w.ResponseWriter).Flush()
}

// Hijack hands the connection to a WebSocket.
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	w.status, w.long = http.StatusSwitchingProtocols, true
	return http.NewResponseController(w.ResponseWriter).Hijack()
}
