package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/play"
)

// TestFramingRefused: every response — page, API, static file, document,
// error — forbids being framed by another site.
func TestFramingRefused(t *testing.T) {
	h := newHarness(t, "", testConfig())
	for _, p := range []string{"/", "/rules/tablut", "/api/games", "/static/app.js", "/docs/tablut.md", "/api/games/zzzzzzzzzzzz", "/nope"} {
		res, err := http.Get(h.http.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || res.Header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: CSP %q, X-Frame-Options %q", p, csp, res.Header.Get("X-Frame-Options"))
		}
	}
}

// post sends a raw body with the given headers.
func (h *harness) post(path, body string, header map[string]string) (int, string) {
	h.t.Helper()
	req, _ := http.NewRequest("POST", h.http.URL+path, strings.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	var e map[string]string
	json.NewDecoder(res.Body).Decode(&e)
	return res.StatusCode, e["error"]
}

// TestCrossSiteRefused: a page of another site can send a simple POST
// (text/plain or a form, no preflight) with the visitor's address; such
// requests, and any request whose Origin is another site, change nothing
// and spend none of the visitor's allowance of new games.
func TestCrossSiteRefused(t *testing.T) {
	cfg := testConfig()
	cfg.GamesPerHour = 1
	h := newHarness(t, "", cfg)
	body := `{"game":"tablut","opponent":"local"}`
	for _, hdr := range []map[string]string{
		{"Content-Type": "text/plain"},
		{"Content-Type": "application/x-www-form-urlencoded"},
		{},
		{"Content-Type": "application/json", "Origin": "http://evil.example"},
		{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"},
	} {
		if code, msg := h.post("/api/games", body, hdr); code != http.StatusUnsupportedMediaType && code != http.StatusForbidden {
			t.Errorf("%v: %d %q, want 415 or 403", hdr, code, msg)
		}
	}
	if code, msg := h.post("/api/games", body, map[string]string{"Content-Type": "application/json", "Origin": h.http.URL}); code != http.StatusCreated {
		t.Fatalf("a request from the site's own page, after the refused ones: %d %q", code, msg)
	}
}

// TestActNeedsPly: an action without the ply it was made at could land on
// a position its player never saw; it is refused.
func TestActNeedsPly(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local"}, &c)
	code, msg := h.post("/api/games/"+c.ID+"/act", `{"secret":"`+c.Secrets[0]+`","action":"a4-a3"}`, map[string]string{"Content-Type": "application/json"})
	if code != http.StatusBadRequest || !strings.Contains(msg, "ply") {
		t.Fatalf("act without ply: %d %q", code, msg)
	}
	var v play.View
	h.call("GET", "/api/games/"+c.ID, nil, &v)
	if v.Ply != 0 {
		t.Fatal("the action was played")
	}
}

// TestEmptyImportRefused: an empty record is not a game.
func TestEmptyImportRefused(t *testing.T) {
	h := newHarness(t, "", testConfig())
	for _, rec := range []string{"", "  \n\t"} {
		var e map[string]string
		if code := h.call("POST", "/api/import", importRequest{createRequest: createRequest{Game: "tablut", Opponent: "local"}, Record: rec}, &e); code != 400 || !strings.Contains(e["error"], "empty") {
			t.Errorf("import %q: %d %v", rec, code, e)
		}
	}
}

// TestServerErrorsHidden: when the database fails, the browser learns
// that the server is busy and to try again (503, with Retry-After), not
// the database's words; the log has them.
func TestServerErrorsHidden(t *testing.T) {
	var log bytes.Buffer
	cfg := testConfig()
	cfg.Log = &log
	h := newHarness(t, "", cfg)
	h.st.Close()
	var e map[string]string
	code := h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local"}, &e)
	if code != http.StatusServiceUnavailable || strings.Contains(strings.ToLower(e["error"]), "sql") || !strings.Contains(e["error"], "try again") {
		t.Fatalf("%d %q", code, e["error"])
	}
	if !strings.Contains(log.String(), "request deferred") || !strings.Contains(log.String(), "sql") {
		t.Fatalf("log: %q", log.String())
	}
}

// TestBodilessChangesNeedJSON: the requests that change something without
// a body (sign out, accept or cancel a challenge) are refused unless sent
// as JSON, as a page of another site cannot without a preflight (hostile
// finding, low: they took any content type).
func TestBodilessChangesNeedJSON(t *testing.T) {
	h := newHarness(t, "", testConfig())
	for _, path := range []string{"/api/account/logout", "/api/challenges/abcdefghijkl/accept", "/api/challenges/abcdefghijkl/cancel"} {
		for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded"} {
			if code, e := h.post(path, "", map[string]string{"Content-Type": ct}); code != http.StatusUnsupportedMediaType || !strings.Contains(e, "application/json") {
				t.Errorf("%s as %q: %d %q", path, ct, code, e)
			}
		}
	}
	if code, _ := h.post("/api/account/logout", "{}", map[string]string{"Content-Type": "application/json"}); code != http.StatusOK {
		t.Fatalf("sign out as JSON: %d", code)
	}
}

// TestBehindATrustedProxy: behind a trusted TLS proxy the session cookie
// is Secure and the limits count the forwarded client addresses; a
// client that is not the proxy claims nothing by the headers (hostile
// finding, low: the cookie was never Secure behind a proxy).
func TestBehindATrustedProxy(t *testing.T) {
	cfg := testConfig()
	cfg.GamesPerHour = 1
	cfg.Proxies, _ = httpx.ParseProxies([]string{"127.0.0.1"})
	h := newHarness(t, "", cfg)
	create := func(from string) (int, []*http.Cookie) {
		req, _ := http.NewRequest("POST", h.http.URL+"/api/games", strings.NewReader(`{"game":"tablut","opponent":"local"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", from)
		req.Header.Set("X-Forwarded-Proto", "https")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode, res.Cookies()
	}
	code, cookies := create("203.0.113.9")
	if code != http.StatusCreated || len(cookies) != 1 || !cookies[0].Secure {
		t.Fatalf("through the proxy: %d, cookies %v", code, cookies)
	}
	if code, _ := create("203.0.113.9"); code != http.StatusTooManyRequests {
		t.Fatalf("the same client's second game past its limit of one: %d", code)
	}
	if code, _ := create("198.51.100.4"); code != http.StatusCreated {
		t.Fatalf("another client behind the proxy: %d", code)
	}
}

// TestMethodsAnswered (hostile findings, low: unknown methods answered
// 415, and DELETE demanded a JSON content type with no body): a method no
// route takes is 405; a DELETE needs no content type, and still comes
// from the site's own pages or none.
func TestMethodsAnswered(t *testing.T) {
	h := newHarness(t, "", testConfig())
	do := func(method, path string, hdr map[string]string) int {
		req, _ := http.NewRequest(method, h.http.URL+path, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, m := range []string{"PUT", "PATCH", "DELETE"} {
		if code := do(m, "/api/games", nil); code != http.StatusMethodNotAllowed {
			t.Errorf("%s /api/games: %d, want 405", m, code)
		}
	}
	if code := do("DELETE", "/api/account/tokens/abc", nil); code == http.StatusUnsupportedMediaType || code < 400 {
		t.Errorf("DELETE of a token without a content type, signed in as nobody: %d, want a refusal other than 415", code)
	}
	if code := do("DELETE", "/api/account/tokens/abc", map[string]string{"Origin": "http://evil.example"}); code != http.StatusForbidden {
		t.Errorf("DELETE from another site: %d, want 403", code)
	}
}
