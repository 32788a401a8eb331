package httpx

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestOutboxSendsInOrderOneAtATime: what several goroutines post is sent
// whole, each poster's in the order he posted, by one sender at a time.
func TestOutboxSendsInOrderOneAtATime(t *testing.T) {
	var mu sync.Mutex
	var sent []string
	var busy atomic.Int32
	var done sync.WaitGroup
	send := func(b []byte) error {
		if busy.Add(1) != 1 {
			t.Error("two sends at once")
		}
		time.Sleep(10 * time.Microsecond)
		mu.Lock()
		sent = append(sent, string(b))
		mu.Unlock()
		busy.Add(-1)
		done.Done()
		return nil
	}
	o := NewOutbox(send, func(f func()) { go f() }, func() { t.Error("ended") })
	const posters, each = 4, 8 // within MaxQueued at once
	done.Add(posters * each)
	var wg sync.WaitGroup
	for p := range posters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				o.Post(fmt.Appendf(nil, "%d %d", p, i))
			}
		}()
	}
	wg.Wait()
	done.Wait()
	next := make([]int, posters)
	for _, m := range sent {
		var p, i int
		fmt.Sscanf(m, "%d %d", &p, &i)
		if i != next[p] {
			t.Fatalf("poster %d's message %d sent where %d was due: %q", p, i, next[p], sent)
		}
		next[p]++
	}
}

// TestOutboxKeepsTheNewestView: of the views posted while the client is
// sent nothing, the first and the newest are sent (the newest in the
// place of those between), the other messages in turn; past MaxQueued,
// what comes is dropped.
func TestOutboxKeepsTheNewestView(t *testing.T) {
	var sent []string
	var sending func()
	o := NewOutbox(func(b []byte) error { sent = append(sent, string(b)); return nil }, func(f func()) { sending = f }, func() {})
	o.PostLatest([]byte("view 1"))
	o.Post([]byte("chat a"))
	o.PostLatest([]byte("view 2"))
	o.Post([]byte("chat b"))
	o.PostLatest([]byte("view 3"))
	o.PostLatest([]byte("view 4"))
	sending()
	if got, want := strings.Join(sent, ", "), "view 1, chat a, view 4, chat b"; got != want {
		t.Fatalf("sent %s, want %s", got, want)
	}
	sent, sending = nil, nil
	for i := range MaxQueued + 5 {
		o.Post(fmt.Appendf(nil, "%d", i))
	}
	sending()
	if len(sent) != MaxQueued || sent[len(sent)-1] != fmt.Sprint(MaxQueued-1) {
		t.Fatalf("sent %d messages, the last %q; want the first %d", len(sent), sent[len(sent)-1], MaxQueued)
	}
}

// TestOutboxEndsOnAFailedSend: a send that fails ends the connection,
// once, and nothing is sent after it.
func TestOutboxEndsOnAFailedSend(t *testing.T) {
	sends, ends := 0, 0
	var sending func()
	o := NewOutbox(func([]byte) error { sends++; return errors.New("gone") }, func(f func()) { sending = f }, func() { ends++ })
	o.Post([]byte("a"))
	o.Post([]byte("b"))
	sending()
	sending = nil
	o.Post([]byte("c"))
	o.End()
	if sends != 1 || ends != 1 || sending != nil {
		t.Fatalf("%d sends, %d ends, sending handed on again: %v; want one send, one end", sends, ends, sending != nil)
	}
}

// TestServeOutboxHoldsOnlyItsReader: a socket served by ServeOutbox
// holds one goroutine while nothing is sent (its reader), where Serve's
// hold two (the reader and serve's); it is sent what is posted, ends
// with End, and its stop is called when it ends, whoever ends it.
func TestServeOutboxHoldsOnlyItsReader(t *testing.T) {
	stopCtx, stopAll := context.WithCancel(context.Background())
	defer stopAll()
	s := NewSockets(stopCtx, 100)
	// The workers that sent (the first messages) end soon after, so
	// that the count is of what each socket holds while nothing is sent.
	s.workerIdle = 5 * time.Millisecond
	read := func(context.Context, []byte, func([]byte) error) error { return nil }
	// Each socket's outbox, by the number its path carries: the handlers
	// run in any order.
	var outsMu sync.Mutex
	outs := map[string]*Outbox{}
	var stops atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/serve" {
			s.Serve(w, r, Watch{Key: "g", Max: 100, Read: read}, func(ctx context.Context, r *http.Request, send func([]byte) error) {
				<-ctx.Done()
			})
			return
		}
		s.ServeOutbox(w, r, Watch{Key: "g", Max: 100, Read: read}, func(ctx context.Context, r *http.Request, out *Outbox) (func(), error) {
			outsMu.Lock()
			outs[r.URL.Query().Get("i")] = out
			outsMu.Unlock()
			out.Post([]byte("hello"))
			return func() { stops.Add(1) }, nil
		})
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const n = 20
	open := func(path string) []*websocket.Conn {
		var conns []*websocket.Conn
		for i := range n {
			conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+path+"?i="+strconv.Itoa(i), nil)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, conn)
		}
		return conns
	}
	goroutines := func(want int) int {
		// Settled: the handlers' goroutines have returned, and the
		// workers idle for longer than their idle have ended.
		waitOpen(t, s, want)
		time.Sleep(100 * time.Millisecond)
		return runtime.NumGoroutine()
	}
	before := goroutines(0)
	served := open("/serve")
	withServe := goroutines(n) - before
	for _, c := range served {
		c.CloseNow()
	}
	before = goroutines(0)
	conns := open("/outbox")
	withOutbox := goroutines(n) - before
	t.Logf("goroutines: %d with Serve, %d with ServeOutbox", withServe, withOutbox)
	if withOutbox > withServe-n/2 {
		t.Errorf("%d sockets: %d goroutines more with ServeOutbox, %d with Serve; want about %d fewer", n, withOutbox, withServe, n)
	}
	for _, c := range conns {
		if _, b, err := c.Read(ctx); err != nil || string(b) != "hello" {
			t.Fatalf("first message %q, %v", b, err)
		}
	}
	// Every socket has read its first message, posted once its outbox
	// was noted.
	outsMu.Lock()
	all := make([]*Outbox, n)
	for i := range all {
		all[i] = outs[strconv.Itoa(i)]
	}
	outsMu.Unlock()
	all[0].Post([]byte("later"))
	if _, b, err := conns[0].Read(ctx); err != nil || string(b) != "later" {
		t.Fatalf("a message posted later: %q, %v", b, err)
	}
	// End closes the connection; so do the client and the server's stop.
	all[1].End()
	if _, _, err := conns[1].Read(ctx); err == nil {
		t.Fatal("the socket stays open after End")
	}
	conns[2].Close(websocket.StatusNormalClosure, "")
	waitOpen(t, s, n-2)
	stopAll()
	for _, c := range append(conns[3:], conns[0]) {
		go c.Read(ctx) // the client answers the server's closing
	}
	waitOpen(t, s, 0)
	for deadline := time.Now().Add(5 * time.Second); stops.Load() != n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("stop called %d times, want %d", stops.Load(), n)
		}
	}
}

// TestOutboxLentMessagesGoBack: a message lent to several outboxes goes
// back to its lender once, when the last of them has sent or dropped it
// (closed, or a newer view in its place), and not before; each outbox
// sends what it was lent as it was.
func TestOutboxLentMessagesGoBack(t *testing.T) {
	var runs []func()
	run := func(f func()) { runs = append(runs, f) }
	runAll := func() {
		for len(runs) > 0 {
			f := runs[0]
			runs = runs[1:]
			f()
		}
	}
	back := map[string]int{}
	lend := func(s string) *Lent {
		return Lend([]byte(s), func(b []byte) {
			back[string(b)]++
			copy(b, "XXXXXXXX") // written again: an outbox that still sent it would send this
		})
	}
	sent := map[string][]string{}
	box := func(name string) *Outbox {
		return NewOutbox(func(b []byte) error { sent[name] = append(sent[name], string(b)); return nil }, run, func() {})
	}
	o1, o2, o3 := box("o1"), box("o2"), box("o3")
	l1 := lend("view 1")
	for _, o := range []*Outbox{o1, o2, o3} {
		o.PostLent(l1)
	}
	l1.Release()
	runs = nil // none sends yet
	o2.Close()
	l2, l3 := lend("view 2"), lend("view 3")
	o3.PostLent(l2)
	l2.Release()
	o3.PostLent(l3) // takes view 2's place
	l3.Release()
	if back["view 1"] != 0 || back["view 2"] != 1 || back["view 3"] != 0 {
		t.Fatalf("before any was sent, back: %v (want view 2 alone, replaced)", back)
	}
	o1.drain()
	if back["view 1"] != 0 {
		t.Fatalf("view 1 went back while o3 held it: %v", back)
	}
	o3.drain()
	runAll()
	if back["view 1"] != 1 || back["view 2"] != 1 || back["view 3"] != 1 {
		t.Fatalf("after all was sent, back: %v, want each once", back)
	}
	if !slices.Equal(sent["o1"], []string{"view 1"}) || !slices.Equal(sent["o3"], []string{"view 1", "view 3"}) || len(sent["o2"]) != 0 {
		t.Fatalf("sent: %v", sent)
	}
	// One not taken (a closed outbox) goes back with its lender's share.
	l4 := lend("view 4")
	o2.PostLent(l4)
	l4.Release()
	if back["view 4"] != 1 {
		t.Fatalf("a message no outbox took did not go back: %v", back)
	}
}
