package identity

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
)

// bearer sends a request with a bot token and no cookies.
func (h *harness) bearer(method, path, tok string, out any) int {
	h.t.Helper()
	req, _ := http.NewRequest(method, h.url+path, strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	} else {
		io.Copy(io.Discard, res.Body)
	}
	return res.StatusCode
}

// account registers a new browser's account and returns its harness
// (sharing the server, with a cookie jar of its own).
func (h *harness) account(name string) *harness {
	h.t.Helper()
	jar, _ := cookiejar.New(nil)
	b := *h
	b.client = &http.Client{Jar: jar}
	var v View
	if code, _ := b.call("POST", "/api/account/register", credentials{name, "a long enough password"}, &v); code != http.StatusCreated {
		h.t.Fatalf("register %s: %d", name, code)
	}
	return &b
}

// TestBotTokens: an account becomes a bot, makes a token shown once and
// stored hashed, and a program with it is that account on every route;
// revoked, the token is refused at once; tokens are managed only from a
// signed-in browser, never with a token, and only one's own.
func TestBotTokens(t *testing.T) {
	h := newHarness(t)
	bot := h.account("alphabot")
	if code, _ := bot.call("POST", "/api/account/tokens", struct{}{}, nil); code != http.StatusForbidden {
		t.Errorf("a token for an account not a bot: %d", code)
	}
	var v View
	if code, _ := bot.call("POST", "/api/account/bot", struct{}{}, &v); code != http.StatusOK || !v.Bot {
		t.Fatalf("become a bot: %d %+v", code, v)
	}
	var made tokenView
	if code, _ := bot.call("POST", "/api/account/tokens", struct{}{}, &made); code != http.StatusCreated || !strings.HasPrefix(made.Token, tokenPrefix) || made.Created == 0 {
		t.Fatalf("new token: %d %+v", code, made)
	}
	// Stored as a hash only.
	var stored int
	h.raw.QueryRow(`SELECT COUNT(*) FROM bot_tokens WHERE token_hash = ?`, made.Token).Scan(&stored)
	if stored != 0 {
		t.Error("the token is stored in clear")
	}
	var me View
	if code := h.bearer("GET", "/api/me", made.Token, &me); code != http.StatusOK || me.ID != v.ID || !me.Bot {
		t.Fatalf("me with the token: %d %+v, want %s", code, me, v.ID)
	}
	var list []tokenView
	if code, _ := bot.call("GET", "/api/account/tokens", nil, &list); code != http.StatusOK || len(list) != 1 || list[0].ID != made.ID || list[0].Token != "" || list[0].Used == 0 {
		t.Errorf("the list: %d %+v (no token shown again; used once)", code, list)
	}
	// With a token, no token is made, listed or revoked.
	for _, c := range []struct{ method, path string }{{"POST", "/api/account/tokens"}, {"GET", "/api/account/tokens"}, {"DELETE", "/api/account/tokens/" + made.ID}} {
		if code := h.bearer(c.method, c.path, made.Token, nil); code != http.StatusForbidden {
			t.Errorf("%s %s with a token: %d", c.method, c.path, code)
		}
	}
	// Another account cannot revoke it; its owner can, and it is refused
	// at once.
	other := h.account("mallory")
	if code, _ := other.call("DELETE", "/api/account/tokens/"+made.ID, nil, nil); code != http.StatusNotFound {
		t.Errorf("another's revoke: %d", code)
	}
	if code := h.bearer("GET", "/api/me", made.Token, nil); code != http.StatusOK {
		t.Errorf("the token after another's revoke: %d", code)
	}
	if code, _ := bot.call("DELETE", "/api/account/tokens/"+made.ID, nil, nil); code != http.StatusNoContent {
		t.Fatalf("revoke: %d", code)
	}
	var e struct{ Error string }
	if code := h.bearer("GET", "/api/me", made.Token, &e); code != http.StatusUnauthorized || !strings.Contains(e.Error, "revoked") {
		t.Errorf("a revoked token: %d %q", code, e.Error)
	}
	// A malformed or made-up token is refused, never taken for a new
	// anonymous player.
	for _, tok := range []string{"", "x", tokenPrefix + strings.Repeat("0", 2*tokenBytes), made.Token + "0"} {
		if code := h.bearer("POST", "/play", tok, nil); code != http.StatusUnauthorized {
			t.Errorf("token %q: %d", tok, code)
		}
	}
	// At most MaxTokens at once.
	for i := range MaxTokens + 1 {
		code, _ := bot.call("POST", "/api/account/tokens", struct{}{}, nil)
		if want := map[bool]int{true: http.StatusCreated, false: http.StatusConflict}[i < MaxTokens]; code != want {
			t.Errorf("token %d: %d, want %d", i+1, code, want)
		}
	}
}

// TestBotMustBeNew: an anonymous player cannot become a bot, nor an
// account that has played: a person's games and rating never become a
// program's.
func TestBotMustBeNew(t *testing.T) {
	h := newHarness(t)
	if code, _ := h.call("POST", "/play", struct{}{}, nil); code != http.StatusOK {
		t.Fatal(code)
	}
	if code, _ := h.call("POST", "/api/account/bot", struct{}{}, nil); code != http.StatusForbidden {
		t.Errorf("anonymous: %d", code)
	}
	p := h.account("person")
	var me View
	p.call("GET", "/api/me", nil, &me)
	h.exec(`INSERT INTO games (id, spec, player0, created, updated, actions, seats, status) VALUES ('g1', 'tablut', '` + me.ID + `', 0, 0, '', '[]', 'playing')`)
	var e struct{ Error string }
	if code, _ := p.call("POST", "/api/account/bot", struct{}{}, &e); code != http.StatusConflict || !strings.Contains(e.Error, "played games") {
		t.Errorf("an account with a game: %d %q", code, e.Error)
	}
}
