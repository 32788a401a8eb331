package httpx

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestServeReturnsWhileTheSocketLives: Serve hands the connection to a
// goroutine of its own and returns, the socket still sends (and the
// request serve reads still has a live context), it is counted
// while open and no longer once the client has left, and the server's
// stop closes the ones left.
func TestServeReturnsWhileTheSocketLives(t *testing.T) {
	stopCtx, stopAll := context.WithCancel(context.Background())
	defer stopAll()
	s := NewSockets(stopCtx, 10)
	returned := make(chan error, 4)
	tick := make(chan []byte)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		returned <- s.Serve(w, r, Watch{Key: "g", Max: 10}, func(ctx context.Context, r *http.Request, send func([]byte) error) {
			for {
				select {
				case <-ctx.Done():
					return
				case msg := <-tick:
					if err := r.Context().Err(); err != nil {
						// The request serve reads lives with the
						// connection, not with its handler.
						msg = []byte("the request's context ended: " + err.Error())
					}
					if send(msg) != nil {
						return
					}
				}
			}
		})
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	conn, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-returned:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("Serve did not return while the socket was open")
	}
	if spectators, _ := s.Open(); spectators != 1 {
		t.Fatalf("%d open, want 1", spectators)
	}
	tick <- []byte("after the handler returned")
	if _, data, err := conn.Read(ctx); err != nil || string(data) != "after the handler returned" {
		t.Fatalf("read %q, %v", data, err)
	}
	conn.Close(websocket.StatusNormalClosure, "")
	waitOpen(t, s, 0)

	// A second socket is closed by the server's stop.
	conn, _, err = websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-returned
	waitOpen(t, s, 1)
	stopAll()
	if _, _, err := conn.Read(ctx); websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("after the stop: %v, want going away", err)
	}
	waitOpen(t, s, 0)
}

// waitOpen waits until n spectators' sockets are counted open.
func waitOpen(t *testing.T, s *Sockets, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		spectators, _ := s.Open()
		if spectators == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d open, want %d", spectators, n)
		}
	}
}

// TestSocketReaderIsSmallAndKeepsWhatWasReadAhead: a WebSocket's
// connection is handed over with a reader of socketReadBuffer bytes, and
// the bytes the connection's own reader had read past the request (sent
// with it) are read first.
func TestSocketReaderIsSmallAndKeepsWhatWasReadAhead(t *testing.T) {
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, rw, err := socketWriter{w}.Hijack()
		if err != nil {
			got <- err.Error()
			return
		}
		defer conn.Close()
		// As websocket.Accept does: what is buffered is kept, and the
		// reader reads the connection after it.
		ahead, _ := rw.Reader.Peek(rw.Reader.Buffered())
		rw.Reader.Reset(io.MultiReader(bytes.NewReader(ahead), conn))
		b := make([]byte, 11)
		_, err = io.ReadFull(rw.Reader, b)
		got <- fmt.Sprintf("%d %s %v", rw.Reader.Size(), b, err)
	}))
	defer srv.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The request and what follows it in one write: the server's reader
	// reads both at once.
	if _, err := conn.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\nhello there")); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if want := fmt.Sprintf("%d hello there <nil>", socketReadBuffer); s != want {
			t.Errorf("read %q, want %q", s, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler read nothing")
	}
}
