package server

import (
	"container/list"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
)

// idleConns keeps at most max kept-alive connections waiting for a next
// request, closing the one that has waited longest when another begins
// to wait (as nginx lets its idle keep-alive connections go when it runs
// short of connections). A waiting connection holds its goroutine and
// net/http's two 4 KiB buffers: when a thousand visitors make their games
// at once, each browser's connection would otherwise wait the whole
// IdleTimeout for a request that mostly never comes (a game's own traffic
// goes over its WebSocket), and those connections were 13 KB of the 73 KB
// a live game cost the server at 1,000 games made at once (closing each
// after its request gave 60 KB). The longest-waiting connection is the one a
// client is least likely to use next: browsers and Go's client reuse the
// one they used last. A client whose connection was let go opens another,
// as after IdleTimeout.
type idleConns struct {
	max    int
	mu     sync.Mutex
	order  list.List // of net.Conn, the longest waiting first
	at     map[net.Conn]*list.Element
	closed atomic.Int64
}

func newIdleConns(max int) *idleConns {
	return &idleConns{max: max, at: map[net.Conn]*list.Element{}}
}

// state follows a connection's state (http.Server.ConnState).
func (ic *idleConns) state(c net.Conn, st http.ConnState) {
	var drop net.Conn
	ic.mu.Lock()
	if e, ok := ic.at[c]; ok {
		ic.order.Remove(e)
		delete(ic.at, c)
	}
	if st == http.StateIdle {
		ic.at[c] = ic.order.PushBack(c)
		if ic.order.Len() > ic.max {
			e := ic.order.Front()
			drop = e.Value.(net.Conn)
			ic.order.Remove(e)
			delete(ic.at, drop)
		}
	}
	ic.mu.Unlock()
	if drop != nil {
		// Counted before it closes: whoever sees it closed sees it
		// counted (TestIdleConnsBeyondTheLimitClose read the count
		// once its client had read the end, and once found 0).
		ic.closed.Add(1)
		drop.Close()
	}
}

// waiting is the number of connections waiting now.
func (ic *idleConns) waiting() int {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	return ic.order.Len()
}
