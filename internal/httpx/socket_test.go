package httpx

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
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
	ctx, conn := dialSocket(t, srv)
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
	_, conn = dialSocket(t, srv)
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
		conn, rw, err := (&socketWriter{ResponseWriter: w}).Hijack()
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

// countingListener counts the writes made on the connections it accepts.
type countingListener struct {
	net.Listener
	writes chan int // the size of each write
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	return countingConn{c, l.writes}, err
}

type countingConn struct {
	net.Conn
	writes chan int
}

func (c countingConn) Write(p []byte) (int, error) {
	select {
	case c.writes <- len(p):
	default:
	}
	return c.Conn.Write(p)
}

// TestSocketMessageIsOneWrite: a message a socket sends, a view of 9 KiB
// as a short one, goes to the connection in one write, its frame's header
// with it (the connection's writer of 4 KiB made two of the view); a
// ping's pong, written while nothing is sent, still comes.
func TestSocketMessageIsOneWrite(t *testing.T) {
	s := NewSockets(context.Background(), 10)
	msgs := make(chan []byte)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.Serve(w, r, Watch{Key: "g", Max: 10, Read: func(context.Context, []byte, func([]byte) error) error { return nil }},
			func(ctx context.Context, r *http.Request, send func([]byte) error) {
				for {
					select {
					case <-ctx.Done():
						return
					case msg := <-msgs:
						if send(msg) != nil {
							return
						}
					}
				}
			})
	}))
	writes := make(chan int, 64)
	srv.Listener = countingListener{srv.Listener, writes}
	srv.Start()
	defer srv.Close()
	ctx, conn := dialSocket(t, srv)
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 20)
	for len(writes) > 0 {
		<-writes // the handshake's answer
	}
	for _, size := range []int{9 << 10, 20, 70 << 10} {
		msg := bytes.Repeat([]byte{'v'}, size)
		msgs <- msg
		_, got, err := conn.Read(ctx)
		if err != nil || !bytes.Equal(got, msg) {
			t.Fatalf("a message of %d bytes: read %d bytes, %v", size, len(got), err)
		}
		header := 2
		switch {
		case size > 65535:
			header = 10
		case size > 125:
			header = 4
		}
		if n := <-writes; n != size+header || len(writes) > 0 {
			t.Errorf("a message of %d bytes: a write of %d bytes, %d more; want one of %d", size, n, len(writes), size+header)
		}
		for len(writes) > 0 {
			<-writes
		}
	}
	// The pong is read by the client's reader, which a Read runs.
	read := make(chan error, 1)
	go func() { _, _, err := conn.Read(ctx); read <- err }()
	if err := conn.Ping(ctx); err != nil {
		t.Fatalf("ping: %v", err)
	}
	msgs <- []byte("after the ping")
	if err := <-read; err != nil {
		t.Fatalf("after the ping: %v", err)
	}
}

// goroutineID is the number the runtime gives the calling goroutine.
func goroutineID() string {
	b := make([]byte, 64)
	b = b[:runtime.Stack(b, false)]
	return string(bytes.Fields(b)[1])
}

// TestMessagesAreDoneByWaitingWorkers: a socket's message is handed to a
// worker that did one before and waits for the next, not to a new
// goroutine each (whose stack would grow anew); a worker idle for
// WorkerIdle ends.
func TestMessagesAreDoneByWaitingWorkers(t *testing.T) {
	s := NewSockets(context.Background(), 10)
	ran := make(chan string)
	s.handle(func() { ran <- goroutineID() })
	first := <-ran
	reused := false
	for i := 0; i < 100 && !reused; i++ {
		time.Sleep(time.Millisecond) // the worker back to waiting
		s.handle(func() { ran <- goroutineID() })
		reused = <-ran == first
	}
	if !reused {
		t.Fatalf("no message was done by the worker that did the first")
	}
	// A worker idle for longer than its idle ends.
	s = NewSockets(context.Background(), 10)
	s.workerIdle = 10 * time.Millisecond
	s.handle(func() { ran <- goroutineID() })
	first = <-ran
	time.Sleep(100 * time.Millisecond)
	s.handle(func() { ran <- goroutineID() })
	if id := <-ran; id == first {
		t.Errorf("a worker idle for %v still did a message", 10*s.workerIdle)
	}
}

// TestSurplusWorkersEnd: once a burst of messages is done, the messages
// that come one at a time go to the worker that waited last, so that the
// burst's other workers go without work and end after WorkerIdle (handed
// out in turn, each would have been kept alive).
func TestSurplusWorkersEnd(t *testing.T) {
	s := NewSockets(context.Background(), 10)
	s.workerIdle = 100 * time.Millisecond // the pace, a fifth of it, far above a worker's way back to waiting
	const burst = 8
	release := make(chan struct{})
	var started sync.WaitGroup
	started.Add(burst)
	for range burst {
		s.handle(func() { started.Done(); <-release })
	}
	started.Wait()
	close(release)
	// A message every fifth of WorkerIdle for six of them; the workers
	// of the last two counted.
	ran := make(chan string)
	ids := map[string]bool{}
	end := time.Now().Add(6 * s.workerIdle)
	for time.Now().Before(end) {
		s.handle(func() { ran <- goroutineID() })
		id := <-ran
		if time.Until(end) < 2*s.workerIdle {
			ids[id] = true
		}
		time.Sleep(s.workerIdle / 5)
	}
	s.idleMu.Lock()
	idle := len(s.idle)
	s.idleMu.Unlock()
	if len(ids) > 2 || idle > 2 {
		t.Errorf("after a burst of %d, messages one at a time went to %d workers, %d wait; want 1 of each", burst, len(ids), idle)
	}
}

// TestSocketReadsEachMessageWhole: each message a client sends reaches
// Read whole and in order, whatever its size up to the read limit (each
// read into a buffer lent for it), binary or larger ones close the
// connection, and the server's stop ends a socket whose reader waits.
func TestSocketReadsEachMessageWhole(t *testing.T) {
	stopCtx, stopAll := context.WithCancel(context.Background())
	defer stopAll()
	s := NewSockets(stopCtx, 10)
	got := make(chan string, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.ServeOutbox(w, r, Watch{Key: "g", Max: 10, Read: func(ctx context.Context, msg []byte, send func([]byte) error) error {
			got <- string(msg) // copied: msg is lent
			return send(msg)
		}}, func(ctx context.Context, r *http.Request, out *Outbox) (func(), error) { return func() {}, nil })
	}))
	defer srv.Close()
	ctx, conn := dialSocket(t, srv)
	for i, n := range []int{0, 1, 511, 512, 513, 1024, 3, 1000} {
		msg := strings.Repeat(string(rune('a'+i)), n)
		if err := conn.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		if m := <-got; m != msg {
			t.Fatalf("message %d of %d bytes read as %d bytes %.20q", i, n, len(m), m)
		}
		if _, echo, err := conn.Read(ctx); err != nil || string(echo) != msg {
			t.Fatalf("message %d answered %d bytes, %v", i, len(echo), err)
		}
	}
	if err := conn.Write(ctx, websocket.MessageText, bytes.Repeat([]byte("x"), 1025)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := conn.Read(ctx); websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Fatalf("a message over the limit: %v, want too big", err)
	}
	_, conn = dialSocket(t, srv)
	if err := conn.Write(ctx, websocket.MessageBinary, []byte("b")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := conn.Read(ctx); websocket.CloseStatus(err) != websocket.StatusUnsupportedData {
		t.Fatalf("a binary message: %v, want unsupported", err)
	}
	waitOpen(t, s, 0)
	_, conn = dialSocket(t, srv)
	waitOpen(t, s, 1)
	stopAll()
	if _, _, err := conn.Read(ctx); websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("after the stop: %v, want going away", err)
	}
	waitOpen(t, s, 0)
}

// dialSocket opens a WebSocket to srv, with a context of 10 seconds for
// the test's reads and writes.
func dialSocket(t *testing.T, srv *httptest.Server) (context.Context, *websocket.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, conn
}

// TestSocketOnEnd: what onEnd is given runs once, after the connection's
// context has ended, whether it was given before the end or after.
func TestSocketOnEnd(t *testing.T) {
	for _, before := range []bool{true, false} {
		ctx, cancel := context.WithCancel(context.Background())
		c := &socketConn{ctx: ctx}
		c.cancel = func() { c.end(cancel) }
		ran := make(chan error, 2)
		f := func() { ran <- ctx.Err() }
		if before {
			c.onEnd(f)
		}
		select {
		case <-ran:
			t.Fatal("run before the end")
		case <-time.After(20 * time.Millisecond):
		}
		c.cancel()
		c.cancel()
		if !before {
			c.onEnd(f)
		}
		if err := <-ran; err == nil {
			t.Errorf("given before the end %v: run while the context had not ended", before)
		}
		select {
		case <-ran:
			t.Errorf("given before the end %v: run twice", before)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
