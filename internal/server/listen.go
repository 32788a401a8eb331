package server

import (
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/muster-games/muster/internal/httpx"
)

// HTTPServer returns the http.Server to serve s with: a request's headers
// must come within 10 s and its whole body within ReadTimeout, an answer
// be written within WriteTimeout (WebSockets clear both once open), and
// an idle kept-alive connection closes after IdleTimeout, or sooner when
// IdleConns others have waited less long (idle.go); so a client that
// sends half a request and waits is let go.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: s.cfg.ReadTimeout, WriteTimeout: s.cfg.WriteTimeout,
		IdleTimeout: s.cfg.IdleTimeout, MaxHeaderBytes: 1 << 16, ConnState: s.idle.state}
}

// Listen listens on addr, closing at once a connection from an address
// that already holds perAddress of them; a trusted proxy's connections
// are not counted (it carries every client's: the clients behind it are
// counted by the address it gives, request by request).
func Listen(addr string, perAddress, total int, trusted httpx.Proxies) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return LimitListener(ln, perAddress, total, trusted), nil
}

// LimitListener wraps ln so that no address (an IPv6 one by its /64)
// holds more than perAddress connections at once, but the trusted
// proxies, and all of them together, the proxies' included, no more
// than total (0: no such bound), so that the process keeps descriptors
// for its database and files: the ones beyond are closed as they are
// accepted.
func LimitListener(ln net.Listener, perAddress, total int, trusted httpx.Proxies) net.Listener {
	return &limitListener{Listener: ln, max: perAddress, total: total, trusted: trusted, open: map[string]int{}}
}

type limitListener struct {
	net.Listener
	max, total int
	trusted    httpx.Proxies
	mu         sync.Mutex
	open       map[string]int
	// all counts the connections open, every address's.
	all int
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		r := &http.Request{RemoteAddr: c.RemoteAddr().String()}
		host := ""
		if !l.trusted.Trusts(r) {
			host = httpx.Client(r)
		}
		l.mu.Lock()
		if l.total > 0 && l.all >= l.total || host != "" && l.open[host] >= l.max {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.all++
		if host != "" {
			l.open[host]++
		}
		l.mu.Unlock()
		return &countedConn{Conn: c, l: l, host: host}, nil
	}
}

// countedConn gives its place back when it closes (once); host is ""
// for a trusted proxy's, counted only among all.
type countedConn struct {
	net.Conn
	l    *limitListener
	host string
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.all--
		if c.host != "" {
			if c.l.open[c.host]--; c.l.open[c.host] <= 0 {
				delete(c.l.open, c.host)
			}
		}
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}
