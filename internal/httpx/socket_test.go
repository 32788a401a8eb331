package httpx

import (
	"context"
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
