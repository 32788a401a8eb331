package httpx

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Proxies are the addresses of the proxies in front of the server (a TLS
// proxy, a load balancer) whose X-Forwarded-For and X-Forwarded-Proto are
// believed: behind them a request's client is the address the nearest
// untrusted hop gave, and it came by TLS if the proxy says so. Requests
// from any other address keep their own address, whatever they claim.
type Proxies []netip.Prefix

// ParseProxies reads addresses and CIDR prefixes ("127.0.0.1",
// "10.0.0.0/8").
func ParseProxies(list []string) (Proxies, error) {
	var out Proxies
	for _, s := range list {
		if !strings.Contains(s, "/") {
			a, err := netip.ParseAddr(s)
			if err != nil {
				return nil, err
			}
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// Trusts reports whether a request comes from one of the proxies itself.
func (ps Proxies) Trusts(r *http.Request) bool { return ps.trusted(remoteHost(r)) }

func (ps Proxies) trusted(s string) bool {
	a, err := netip.ParseAddr(strings.TrimSpace(s))
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

type secureKey struct{}

// Middleware rewrites a request that came through a trusted proxy: its
// RemoteAddr becomes the client's (the last address in X-Forwarded-For
// that is not a trusted proxy), and IsSecure reports X-Forwarded-Proto's
// https.
func (ps Proxies) Middleware(next http.Handler) http.Handler {
	if len(ps) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ps.trusted(remoteHost(r)) {
			hops := strings.Split(r.Header.Get("X-Forwarded-For"), ",")
			for i := len(hops) - 1; i >= 0; i-- {
				hop := strings.TrimSpace(hops[i])
				if hop == "" || ps.trusted(hop) {
					continue
				}
				if a, err := netip.ParseAddr(hop); err == nil {
					r = r.Clone(r.Context())
					r.RemoteAddr = net.JoinHostPort(a.String(), "0")
				}
				break
			}
			if strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
				r = r.WithContext(context.WithValue(r.Context(), secureKey{}, true))
			}
		}
		next.ServeHTTP(w, r)
	})
}

// IsSecure reports whether the request came by TLS, to the server or to
// a trusted proxy in front of it.
func IsSecure(r *http.Request) bool {
	secure, _ := r.Context().Value(secureKey{}).(bool)
	return r.TLS != nil || secure
}
