package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestTrustedProxy: behind a trusted proxy a request's client is the
// forwarded address and X-Forwarded-Proto https counts as TLS; from any
// other address the headers change nothing (a client cannot claim to be
// another, or to come by TLS).
func TestTrustedProxy(t *testing.T) {
	ps, err := ParseProxies([]string{"127.0.0.1", "10.0.0.0/8"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseProxies([]string{"not an address"}); err == nil {
		t.Fatal("a bad proxy address was read")
	}
	var client string
	var secure bool
	h := ps.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		client, secure = Client(r), IsSecure(r)
	}))
	for _, c := range []struct {
		remote, forwarded, proto string
		client                   string
		secure                   bool
	}{
		{"127.0.0.1:5000", "203.0.113.9", "https", "203.0.113.9", true},
		{"127.0.0.1:5000", "198.51.100.1, 203.0.113.9, 10.1.2.3", "http", "203.0.113.9", false},
		{"127.0.0.1:5000", "", "", "127.0.0.1", false},
		{"192.0.2.7:5000", "203.0.113.9", "https", "192.0.2.7", false},
		{"127.0.0.1:5000", "garbage", "https", "127.0.0.1", true},
		// IPv6 clients count by their /64 (hostile finding, low: one
		// machine has billions of addresses), proxies by their own.
		{"[2001:db8:1:2::7]:5000", "", "", "2001:db8:1:2::/64", false},
		{"127.0.0.1:5000", "2001:db8:1:2:aaaa:bbbb:cccc:dddd", "https", "2001:db8:1:2::/64", true},
		{"[::ffff:198.51.100.3]:5000", "", "", "198.51.100.3", false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.remote
		if c.forwarded != "" {
			r.Header.Set("X-Forwarded-For", c.forwarded)
		}
		r.Header.Set("X-Forwarded-Proto", c.proto)
		h.ServeHTTP(httptest.NewRecorder(), r)
		if client != c.client || secure != c.secure {
			t.Errorf("from %s forwarding %q (%s): client %s secure %v, want %s %v", c.remote, c.forwarded, c.proto, client, secure, c.client, c.secure)
		}
	}
}
