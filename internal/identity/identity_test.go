package identity

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
)

// harness is the identity service behind a test server, with a route
// that makes an identity (as creating a game does); its client keeps
// cookies like a browser. raw is a second connection to the database,
// through which a test makes the store fail.
type harness struct {
	t      *testing.T
	url    string
	client *http.Client
	raw    *sql.DB
	s      *Service
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	db := filepath.Join(t.TempDir(), "muster.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	api := &httpx.API{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 16}
	s := New(st, api, Config{AccountsPerHour: 5, LoginsPerAddress: 20, LoginsPerAccount: 5, LoginWindow: time.Minute})
	s.signOutWait = time.Millisecond
	mux := http.NewServeMux()
	s.Routes(mux)
	mux.HandleFunc("POST /play", api.Func(func(w http.ResponseWriter, r *http.Request) error {
		p, err := s.Identify(w, r)
		if err != nil {
			return err
		}
		// Asked twice in one request, the store is read once.
		again, err := s.Me(r)
		if err != nil || again != p {
			t.Errorf("Me after Identify: %v %v", again, err)
		}
		return api.JSON(w, http.StatusOK, map[string]string{"id": p.ID})
	}))
	srv := httptest.NewServer(s.Middleware(mux))
	raw, err := sql.Open("sqlite", "file:"+db+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close(); raw.Close(); st.Close() })
	jar, _ := cookiejar.New(nil)
	return &harness{t: t, url: srv.URL, client: &http.Client{Jar: jar}, raw: raw, s: s}
}

// call sends a request and returns its status, decoded answer and the
// cookies it set.
func (h *harness) call(method, path string, body any, out any) (int, []*http.Cookie) {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, h.url+path, rd)
	req.Header.Set("Content-Type", "application/json")
	res, err := h.client.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode, res.Cookies()
}

func (h *harness) exec(q string) {
	h.t.Helper()
	if _, err := h.raw.ExecContext(context.Background(), q); err != nil {
		h.t.Fatalf("%s: %v", q, err)
	}
}

// TestFailingStoreKeepsTheSession: while the database fails, a browser
// with a session is told to try again (503) and keeps its cookie and its
// identity; it is never taken for a new player.
func TestFailingStoreKeepsTheSession(t *testing.T) {
	h := newHarness(t)
	var first map[string]string
	if code, cookies := h.call("POST", "/play", struct{}{}, &first); code != http.StatusOK || len(cookies) != 1 {
		t.Fatalf("first play: %d, %d cookies", code, len(cookies))
	}
	h.exec(`ALTER TABLE sessions RENAME TO sessions_away`)
	for _, c := range []struct{ method, path string }{{"GET", "/api/me"}, {"POST", "/play"}} {
		var e struct{ Error string }
		code, cookies := h.call(c.method, c.path, struct{}{}, &e)
		if code != http.StatusServiceUnavailable || !strings.Contains(e.Error, "try again") || len(cookies) != 0 {
			t.Fatalf("%s %s with the store failing: %d %q, %d cookies set", c.method, c.path, code, e.Error, len(cookies))
		}
	}
	h.exec(`ALTER TABLE sessions_away RENAME TO sessions`)
	var me View
	if code, _ := h.call("GET", "/api/me", nil, &me); code != http.StatusOK || me.ID != first["id"] {
		t.Fatalf("after the store came back: %d, %q, want %q", code, me.ID, first["id"])
	}
}

// TestFailedSignOutIsSaid: a sign-out the database does not take (after
// its retries) answers 503 and keeps the cookie and the session; once the
// database takes it, the session ends.
func TestFailedSignOutIsSaid(t *testing.T) {
	h := newHarness(t)
	var first map[string]string
	h.call("POST", "/play", struct{}{}, &first)
	h.exec(`CREATE TRIGGER busy BEFORE DELETE ON sessions BEGIN SELECT RAISE(ABORT, 'database is locked'); END`)
	var e struct{ Error string }
	code, cookies := h.call("POST", "/api/account/logout", struct{}{}, &e)
	if code != http.StatusServiceUnavailable || !strings.Contains(e.Error, "signing out failed") || len(cookies) != 0 {
		t.Fatalf("a failed sign-out: %d %q, %d cookies set", code, e.Error, len(cookies))
	}
	var me View
	if h.call("GET", "/api/me", nil, &me); me.ID != first["id"] {
		t.Fatalf("after the failed sign-out the browser is %q, want %q", me.ID, first["id"])
	}
	h.exec(`DROP TRIGGER busy`)
	code, cookies = h.call("POST", "/api/account/logout", struct{}{}, nil)
	if code != http.StatusOK || len(cookies) != 1 || cookies[0].MaxAge >= 0 {
		t.Fatalf("sign-out: %d, cookies %v", code, cookies)
	}
	if h.call("GET", "/api/me", nil, &me); me.ID != "" {
		t.Fatalf("after signing out the browser is %q", me.ID)
	}
}

// TestUnknownSessionIsNobody: a cookie the store does not know is nobody,
// and playing makes a new identity.
func TestUnknownSessionIsNobody(t *testing.T) {
	h := newHarness(t)
	u, _ := http.NewRequest("GET", h.url, nil)
	h.client.Jar.SetCookies(u.URL, []*http.Cookie{{Name: Cookie, Value: strings.Repeat("ab", 16)}})
	var me View
	if code, _ := h.call("GET", "/api/me", nil, &me); code != http.StatusOK || me.ID != "" || !me.Anonymous {
		t.Fatalf("an unknown session: %d %+v", code, me)
	}
	var p map[string]string
	if code, cookies := h.call("POST", "/play", struct{}{}, &p); code != http.StatusOK || p["id"] == "" || len(cookies) != 1 {
		t.Fatalf("playing with an unknown session: %d %v", code, p)
	}
}

// TestRegistrationGivesANewToken: a session token planted in a browser
// before it registers (session fixation, hostile finding 8) signs nobody
// in to the new account: registering ends it and gives a new one.
func TestRegistrationGivesANewToken(t *testing.T) {
	h := newHarness(t)
	h.call("POST", "/play", struct{}{}, nil)
	u, _ := http.NewRequest("GET", h.url, nil)
	planted := h.client.Jar.Cookies(u.URL)
	if len(planted) != 1 {
		t.Fatalf("cookies %v", planted)
	}
	var me View
	code, cookies := h.call("POST", "/api/account/register", map[string]string{"username": "carroll", "password": "jabberwocky 1871"}, &me)
	if code != http.StatusCreated || me.Username != "carroll" || len(cookies) == 0 || cookies[len(cookies)-1].Value == planted[0].Value {
		t.Fatalf("register: %d %+v, cookies %v", code, me, cookies)
	}
	// The attacker, holding the planted token.
	jar, _ := cookiejar.New(nil)
	jar.SetCookies(u.URL, planted)
	attacker := &harness{t: t, url: h.url, client: &http.Client{Jar: jar}}
	var his View
	if attacker.call("GET", "/api/me", nil, &his); his.ID != "" || his.Username != "" {
		t.Fatalf("the planted token signs in %+v", his)
	}
	if h.call("GET", "/api/me", nil, &me); me.Username != "carroll" {
		t.Fatalf("the new account's browser: %+v", me)
	}
}

// browser is another client of the harness's server, with cookies of
// its own (from the same address).
func (h *harness) browser() *harness {
	jar, _ := cookiejar.New(nil)
	return &harness{t: h.t, url: h.url, client: &http.Client{Jar: jar}, raw: h.raw, s: h.s}
}

// TestTakenNameCostsNoHash: twenty registrations of a taken name at once
// are refused without hashing a password (hostile finding 2: each hashed
// 19 MiB first, 380 MB for twenty).
func TestTakenNameCostsNoHash(t *testing.T) {
	h := newHarness(t)
	if code, _ := h.call("POST", "/api/account/register", map[string]string{"username": "alice", "password": "looking glass"}, nil); code != http.StatusCreated {
		t.Fatalf("register alice: %d", code)
	}
	before := h.s.hashes.Runs()
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if code, _ := h.browser().call("POST", "/api/account/register", map[string]string{"username": "alice", "password": "whatever123"}, nil); code != http.StatusConflict {
				t.Errorf("a taken name: %d, want 409", code)
			}
		})
	}
	wg.Wait()
	if n := h.s.hashes.Runs() - before; n != 0 {
		t.Fatalf("%d passwords hashed for taken names", n)
	}
}

// TestRegistrationsAtOnceKeepTheLimit: twelve registrations at once from
// one address make no more accounts than its hourly limit (hostile
// finding 11: twelve of a limit of five), and hash at most a few at once.
func TestRegistrationsAtOnceKeepTheLimit(t *testing.T) {
	h := newHarness(t)
	var wg sync.WaitGroup
	var made atomic.Int32
	for i := range 12 {
		wg.Go(func() {
			switch code, _ := h.browser().call("POST", "/api/account/register", map[string]string{"username": fmt.Sprintf("reader%d", i), "password": "through the looking glass"}, nil); code {
			case http.StatusCreated:
				made.Add(1)
			case http.StatusTooManyRequests:
			default:
				t.Errorf("registration %d: %d", i, code)
			}
		})
	}
	wg.Wait()
	if n := made.Load(); n != 5 {
		t.Fatalf("%d accounts made at once from one address, want the limit, 5", n)
	}
	if p := h.s.hashes.Peak(); p > runtime.NumCPU() {
		t.Fatalf("%d hashes at once, more than the %d cores", p, runtime.NumCPU())
	}
}

// TestAccountLockIsPerAddress: five wrong guesses from one address lock
// that address out of the account, not its owner at another (hostile
// finding, low: anyone could lock any account for 15 minutes).
func TestAccountLockIsPerAddress(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "muster.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	api := &httpx.API{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 16}
	s := New(st, api, Config{AccountsPerHour: 5, LoginsPerAddress: 20, LoginsPerAccount: 5, LoginWindow: time.Minute})
	mux := http.NewServeMux()
	s.Routes(mux)
	h := s.Middleware(mux)
	send := func(addr, path, body string) int {
		r := httptest.NewRequest("POST", path, strings.NewReader(body))
		r.RemoteAddr = addr + ":40000"
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	if code := send("10.0.0.1", "/api/account/register", `{"username":"victim","password":"correct horse"}`); code != http.StatusCreated {
		t.Fatalf("register: %d", code)
	}
	for range 5 {
		send("10.0.0.9", "/api/account/login", `{"username":"victim","password":"wrong guess"}`)
	}
	if code := send("10.0.0.9", "/api/account/login", `{"username":"victim","password":"correct horse"}`); code != http.StatusTooManyRequests {
		t.Fatalf("the guessing address after five: %d, want 429", code)
	}
	if code := send("10.0.0.1", "/api/account/login", `{"username":"victim","password":"correct horse"}`); code != http.StatusOK {
		t.Fatalf("the owner at his own address: %d, want 200", code)
	}
}

// TestSignOutEverywhere: one browser signs every browser of the account
// out (hostile finding, low: sessions never ended on the server).
func TestSignOutEverywhere(t *testing.T) {
	h := newHarness(t)
	h.call("POST", "/api/account/register", map[string]string{"username": "alice", "password": "looking glass"}, nil)
	other := h.browser()
	if code, _ := other.call("POST", "/api/account/login", map[string]string{"username": "alice", "password": "looking glass"}, nil); code != http.StatusOK {
		t.Fatalf("login elsewhere: %d", code)
	}
	if code, _ := h.call("POST", "/api/account/logout-everywhere", struct{}{}, nil); code != http.StatusOK {
		t.Fatalf("sign out everywhere: %d", code)
	}
	for _, b := range []*harness{h, other} {
		var me View
		if b.call("GET", "/api/me", nil, &me); me.ID != "" {
			t.Fatalf("still signed in: %+v", me)
		}
	}
}

// TestIdleSessionsEnd: a session no request has used for 30 days ends at
// the sweep; one used is marked so (at most a write a day) and kept.
func TestIdleSessionsEnd(t *testing.T) {
	h := newHarness(t)
	var first map[string]string
	h.call("POST", "/play", struct{}{}, &first)
	idle := h.browser()
	var second map[string]string
	idle.call("POST", "/play", struct{}{}, &second)
	long := time.Now().Add(-31 * 24 * time.Hour).UnixMilli()
	h.exec(fmt.Sprintf(`UPDATE sessions SET seen = %d`, long))
	var me View
	if h.call("GET", "/api/me", nil, &me); me.ID != first["id"] {
		t.Fatalf("the used browser: %+v", me)
	}
	// The use is marked apart from the request: wait for it.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var seen int64
		h.raw.QueryRow(`SELECT MAX(seen) FROM sessions`).Scan(&seen)
		if seen > long || time.Now().After(deadline) {
			break
		}
	}
	h.s.Forget(context.Background())
	if h.call("GET", "/api/me", nil, &me); me.ID != first["id"] {
		t.Fatalf("the used session ended: %+v", me)
	}
	if idle.call("GET", "/api/me", nil, &me); me.ID != "" {
		t.Fatalf("the idle session lives: %+v", me)
	}
}

// TestForgetKeepsUp (hostile finding 4: clean-up deleted at most 1,000
// identities an hour while a client without cookies could make 3,000 in
// six seconds): one sweep deletes every idle anonymous identity, in
// batches, however many there are.
func TestForgetKeepsUp(t *testing.T) {
	h := newHarness(t)
	const n = 2500
	long := time.Now().Add(-48 * time.Hour).UnixMilli()
	tx, err := h.raw.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := tx.Exec(`INSERT INTO players (id, created, address) VALUES (?, ?, '203.0.113.1')`, fmt.Sprintf("idle%08d", i), long); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := h.s.Forget(context.Background()); got != n {
		t.Fatalf("one sweep forgot %d of %d idle identities", got, n)
	}
	var left int
	h.raw.QueryRow(`SELECT COUNT(*) FROM players`).Scan(&left)
	if left != 0 {
		t.Fatalf("%d left", left)
	}
}

// TestKeptRequestSaysWho: the request a game's socket keeps for its
// messages says who sends them as the opening request did (the session's
// cookie, a bot's token), with its address, URL and context, and holds
// none of a browser's other headers.
func TestKeptRequestSaysWho(t *testing.T) {
	h := newHarness(t)
	var p map[string]string
	code, cookies := h.call("POST", "/play", struct{}{}, &p)
	if code != http.StatusOK || len(cookies) != 1 {
		t.Fatalf("making an identity: %d %v", code, cookies)
	}
	type key struct{}
	r := httptest.NewRequest("GET", "/ws/games/g1?x=1", nil)
	r = r.WithContext(context.WithValue(r.Context(), key{}, "v"))
	r.RemoteAddr = "192.0.2.7:5555"
	r.AddCookie(cookies[0])
	r.Header.Set("Authorization", "Basic e30=") // not a bot's token: the cookie says who
	r.Header.Set("User-Agent", strings.Repeat("u", 500))
	r.Header.Set("Accept-Language", "en")
	want, err := h.s.Me(r)
	if err != nil || want == nil {
		t.Fatalf("the opening request's player: %v, %v", want, err)
	}
	kept := h.s.Keep(r)
	got, err := h.s.Me(h.s.Detach(context.Background(), kept))
	if err != nil || got == nil || got.ID != want.ID {
		t.Fatalf("the kept request's player: %+v, %v; want %s", got, err, want.ID)
	}
	if len(kept.Header) != 2 || kept.Header.Get("Authorization") == "" || httpx.Client(kept) != "192.0.2.7" || kept.URL.RawQuery != "x=1" || kept.Context().Value(key{}) != "v" {
		t.Errorf("kept headers %v, client %s, URL %v, context value %v", kept.Header, httpx.Client(kept), kept.URL, kept.Context().Value(key{}))
	}
}
