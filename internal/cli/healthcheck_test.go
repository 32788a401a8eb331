package cli

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestHealthcheck: muster healthcheck asks /healthz (or /readyz) where
// serve listens, ":PORT" on 127.0.0.1, and fails unless it answers 200.
func TestHealthcheck(t *testing.T) {
	var draining atomic.Bool
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/healthz":
			w.Write([]byte("ok"))
		case r.URL.Path == "/readyz" && !draining.Load():
			w.Write([]byte("ready"))
		default:
			http.Error(w, "draining", http.StatusServiceUnavailable)
		}
	}))
	defer ts.Close()
	_, port, _ := net.SplitHostPort(ts.Listener.Addr().String())
	run := func(environ map[string]string, args ...string) (string, error) {
		var out bytes.Buffer
		err := runHealthcheck(&Env{Stdout: &out, Stderr: &out, Environ: environ}, args)
		return out.String(), err
	}
	if out, err := run(map[string]string{"MUSTER_ADDR": ":" + port}); err != nil || !strings.Contains(out, "127.0.0.1:"+port+"/healthz: ok") {
		t.Errorf("healthcheck from MUSTER_ADDR: %q %v", out, err)
	}
	if _, err := run(nil, "--addr", "127.0.0.1:"+port, "--ready"); err != nil {
		t.Errorf("--ready of a ready server: %v", err)
	}
	draining.Store(true)
	if _, err := run(nil, "--addr", "127.0.0.1:"+port, "--ready"); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("--ready of a draining server: %v", err)
	}
	ts.Close()
	if _, err := run(nil, "--addr", "127.0.0.1:"+port); err == nil {
		t.Error("a stopped server passed")
	}
	if _, err := run(nil, "--addr", "nonsense"); err == nil || !strings.Contains(err.Error(), "--addr") {
		t.Errorf("a bad --addr: %v", err)
	}
}
