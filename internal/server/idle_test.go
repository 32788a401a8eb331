package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestIdleConnsBeyondTheLimitClose: with IdleConns 2, a third kept-alive
// connection that waits closes the one that has waited longest; the two
// others still answer; a connection that is asked again is no longer
// waiting.
func TestIdleConnsBeyondTheLimitClose(t *testing.T) {
	cfg := testConfig()
	cfg.IdleConns = 2
	h := newHarness(t, "", cfg)
	addr := serveTCP(t, h.srv, 16)
	type kept struct {
		c net.Conn
		r *bufio.Reader
	}
	ask := func(k kept) error {
		fmt.Fprintf(k.c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		res, err := http.ReadResponse(k.r, nil)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("status %d", res.StatusCode)
		}
		return err
	}
	var conns []kept
	for i := range 3 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		k := kept{c, bufio.NewReader(c)}
		if err := ask(k); err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		conns = append(conns, k)
		waitFor(t, func() bool { return h.srv.idle.waiting() == min(i+1, 2) })
	}
	conns[0].c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := conns[0].r.ReadByte(); err != io.EOF {
		t.Fatalf("the longest-waiting connection: read %v, want it closed (EOF)", err)
	}
	if n := h.srv.idle.closed.Load(); n != 1 {
		t.Fatalf("%d connections closed for waiting, want 1", n)
	}
	// The two others answer again, and wait again: none closes.
	for i, k := range conns[1:] {
		if err := ask(k); err != nil {
			t.Fatalf("connection %d after the third: %v", i+1, err)
		}
	}
	waitFor(t, func() bool { return h.srv.idle.waiting() == 2 })
	if n := h.srv.idle.closed.Load(); n != 1 {
		t.Fatalf("%d connections closed for waiting, want still 1", n)
	}
}

// waitFor waits until ok, failing after 10 s.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("timed out")
		}
	}
}
