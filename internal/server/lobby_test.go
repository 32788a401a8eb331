package server

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"math"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/rating"
)

// person is a browser: its own cookies, so its own session.
type person struct {
	h   *harness
	c   *http.Client
	hdr map[string]string
}

func (h *harness) person() *person {
	jar, _ := cookiejar.New(nil)
	return &person{h: h, c: &http.Client{Jar: jar}}
}

func (p *person) call(method, path string, body any, out any) int {
	p.h.t.Helper()
	var rd *bytes.Reader
	if s, ok := body.(string); ok {
		rd = bytes.NewReader([]byte(s))
	} else {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, p.h.http.URL+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range p.hdr {
		req.Header.Set(k, v)
	}
	res, err := p.c.Do(req)
	if err != nil {
		p.h.t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

func (p *person) register(name string) {
	p.h.t.Helper()
	var me meView
	if code := p.call("POST", "/api/account/register", credentials{Username: name, Password: "correct horse " + name}, &me); code != http.StatusCreated || me.Username != name {
		p.h.t.Fatalf("register %s: %d %+v", name, code, me)
	}
}

// TestAccountKeepsAnonymousGames: a browser plays without an account,
// then registers; its game is on its player page, and the session signs
// it in on the next visit.
func TestAccountKeepsAnonymousGames(t *testing.T) {
	h := newHarness(t, "", testConfig())
	a := h.person()
	var c createResponse
	if code := a.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "attackers"}, &c); code != http.StatusCreated {
		t.Fatalf("create %d", code)
	}
	var me meView
	a.call("GET", "/api/me", nil, &me)
	if !me.Anonymous || me.ID == "" || me.YourTurn != 1 {
		t.Fatalf("anonymous identity: %+v", me)
	}
	a.register("Dodgson")
	var pv playerView
	if code := a.call("GET", "/api/players/dodgson", nil, &pv); code != http.StatusOK || len(pv.Playing) != 1 || pv.Playing[0].ID != c.ID || !pv.Me || !pv.Playing[0].YourTurn {
		t.Fatalf("player page %d %+v", code, pv)
	}
	// Registering again, or a taken name in another case, is refused.
	if code := a.call("POST", "/api/account/register", credentials{Username: "Other", Password: "long enough pw"}, nil); code != http.StatusConflict {
		t.Fatalf("second account from a signed-in browser: %d", code)
	}
	b := h.person()
	var e map[string]string
	if code := b.call("POST", "/api/account/register", credentials{Username: "DODGSON", Password: "long enough pw"}, &e); code != http.StatusConflict || !strings.Contains(e["error"], "taken") {
		t.Fatalf("a taken name: %d %v", code, e)
	}
	for _, bad := range []credentials{{Username: "x", Password: "long enough pw"}, {Username: "<b>bold</b>", Password: "long enough pw"}, {Username: "okname", Password: "short"}} {
		if code := b.call("POST", "/api/account/register", bad, &e); code != http.StatusBadRequest {
			t.Fatalf("register %+v: %d %v", bad, code, e)
		}
	}
	// Another browser signs in to the account and can move in its game,
	// which it holds by the session, not by the secret.
	if code := b.call("POST", "/api/account/login", credentials{Username: "dodgson", Password: "correct horse Dodgson"}, &me); code != http.StatusOK || me.Username != "Dodgson" {
		t.Fatalf("login %d %+v", code, me)
	}
	var v play.View
	b.call("GET", "/api/games/"+c.ID, nil, &v)
	if len(v.MySeats) != 1 || v.MySeats[0] != 0 {
		t.Fatalf("seats held by the session: %v", v.MySeats)
	}
	if code := b.call("POST", "/api/games/"+c.ID+"/act", actRequest{Action: "a4-a3", Ply: at(0)}, &v); code != http.StatusOK || v.Ply != 1 {
		t.Fatalf("a move by the session: %d %+v", code, v.Ply)
	}
	// A stranger cannot.
	if code := h.person().call("POST", "/api/games/"+c.ID+"/resign", secretRequest{}, nil); code != http.StatusForbidden {
		t.Fatalf("a stranger resigned: %d", code)
	}
	b.call("POST", "/api/account/logout", struct{}{}, nil)
	var out meView
	b.call("GET", "/api/me", nil, &out)
	if out.Username != "" || out.ID != "" {
		t.Fatalf("after logout: %+v", out)
	}
}

// TestLoginBruteForceLimited: wrong passwords are limited per account and
// per address, and then even the right one waits.
func TestLoginBruteForceLimited(t *testing.T) {
	cfg := testConfig()
	cfg.LoginsPerAccount, cfg.LoginsPerAddress = 3, 6
	h := newHarness(t, "", cfg)
	h.person().register("victim")
	h.person().register("other")
	m := h.person()
	for i := 0; i < 3; i++ {
		if code := m.call("POST", "/api/account/login", credentials{Username: "victim", Password: "guess guess"}, nil); code != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d", i, code)
		}
	}
	var e map[string]string
	if code := m.call("POST", "/api/account/login", credentials{Username: "Victim", Password: "correct horse victim"}, &e); code != http.StatusTooManyRequests || !strings.Contains(e["error"], "this account") {
		t.Fatalf("the right password after the limit: %d %v", code, e)
	}
	for i := 0; i < 2; i++ {
		m.call("POST", "/api/account/login", credentials{Username: "nobody" + string(rune('a'+i)), Password: "guess guess"}, nil)
	}
	if code := m.call("POST", "/api/account/login", credentials{Username: "other", Password: "correct horse other"}, &e); code != http.StatusTooManyRequests || !strings.Contains(e["error"], "address") {
		t.Fatalf("the address's limit: %d %v", code, e)
	}
}

// TestAccountsPerAddress: an address makes a bounded number of accounts
// an hour.
func TestAccountsPerAddress(t *testing.T) {
	cfg := testConfig()
	cfg.AccountsPerHour = 2
	h := newHarness(t, "", cfg)
	h.person().register("one")
	h.person().register("two")
	var e map[string]string
	if code := h.person().call("POST", "/api/account/register", credentials{Username: "three", Password: "long enough pw"}, &e); code != http.StatusTooManyRequests {
		t.Fatalf("a third account: %d %v", code, e)
	}
}

// TestCrossOriginAccountPostsRefused: another site cannot sign a browser
// in or out, or make a challenge for it.
func TestCrossOriginAccountPostsRefused(t *testing.T) {
	h := newHarness(t, "", testConfig())
	p := h.person()
	p.hdr = map[string]string{"Origin": "https://evil.example"}
	for _, path := range []string{"/api/account/register", "/api/account/login", "/api/account/logout", "/api/challenges"} {
		if code := p.call("POST", path, credentials{Username: "someone", Password: "long enough pw"}, nil); code != http.StatusForbidden {
			t.Fatalf("%s from another origin: %d", path, code)
		}
	}
}

// TestRatedChallenge: A offers a rated game in the lobby, B sees it and
// accepts; A's lobby points him to the game; B wins by A's resignation
// and both ratings move by Glicko-2 from 1500/350.
func TestRatedChallenge(t *testing.T) {
	h := newHarness(t, "", testConfig())
	a, b, anon := h.person(), h.person(), h.person()
	var e map[string]string
	if code := anon.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Rated: true, Side: "attackers"}, &e); code != http.StatusForbidden {
		t.Fatalf("an anonymous rated challenge: %d %v", code, e)
	}
	a.register("alice")
	b.register("bob")
	var cv challengeView
	if code := a.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Ruleset: "linnaeus", Rated: true, Side: "attackers", Minutes: 5, Increment: 3}, &cv); code != http.StatusCreated || !cv.Mine || cv.Creator != "alice" {
		t.Fatalf("challenge %d %+v", code, cv)
	}
	var lv lobbyView
	b.call("GET", "/api/lobby", nil, &lv)
	if len(lv.Challenges) != 1 || lv.Challenges[0].ID != cv.ID || lv.Challenges[0].Mine || lv.Challenges[0].Side != "attackers" || lv.Challenges[0].Rating != 1500 || !lv.Challenges[0].Provisional {
		t.Fatalf("B's lobby: %+v", lv.Challenges)
	}
	if code := a.call("POST", "/api/challenges/"+cv.ID+"/accept", struct{}{}, &e); code != http.StatusBadRequest {
		t.Fatalf("accepting one's own: %d", code)
	}
	if code := anon.call("POST", "/api/challenges/"+cv.ID+"/accept", struct{}{}, &e); code != http.StatusForbidden {
		t.Fatalf("an anonymous player accepting a rated game: %d", code)
	}
	var cr createResponse
	if code := b.call("POST", "/api/challenges/"+cv.ID+"/accept", struct{}{}, &cr); code != http.StatusCreated || cr.Seat != 1 {
		t.Fatalf("accept %d %+v", code, cr)
	}
	if code := anon.call("POST", "/api/challenges/"+cv.ID+"/accept", struct{}{}, &e); code != http.StatusNotFound {
		t.Fatalf("accepting twice: %d", code)
	}
	a.call("GET", "/api/lobby", nil, &lv)
	if len(lv.Challenges) != 1 || lv.Challenges[0].Started != cr.ID {
		t.Fatalf("A is not pointed to the game: %+v", lv.Challenges)
	}
	var v play.View
	a.call("GET", "/api/games/"+cr.ID, nil, &v)
	if !v.Rated || len(v.MySeats) != 1 || v.MySeats[0] != 0 || v.Seats[0].Name != "alice" || v.Seats[1].Name != "bob" || v.Clock == nil {
		t.Fatalf("the game as A sees it: %+v", v)
	}
	// A (attackers) moves by his session, B answers by his seat's
	// secret, three times each (a rated game is rated from there); A
	// resigns.
	for i, m := range []string{"a4-a3", "e3-d3", "a3-a4", "d3-e3", "a4-a3", "e3-d3"} {
		mover, secret := a, ""
		if i%2 == 1 {
			mover, secret = b, cr.Secret
		}
		if code := mover.call("POST", "/api/games/"+cr.ID+"/act", actRequest{Secret: secret, Action: m, Ply: at(i)}, &v); code != http.StatusOK {
			t.Fatalf("move %d %s: %d", i+1, m, code)
		}
	}
	if code := a.call("POST", "/api/games/"+cr.ID+"/resign", secretRequest{}, &v); code != http.StatusOK || v.Result != "defenders" {
		t.Fatalf("resign %d %+v", code, v.Result)
	}
	if len(v.RatingChanges) != 2 {
		t.Fatalf("rating changes %+v", v.RatingChanges)
	}
	won := rating.Update(rating.New(), []rating.Result{{Opponent: rating.New(), Score: 1}}, rating.Tau)
	lost := rating.Update(rating.New(), []rating.Result{{Opponent: rating.New(), Score: 0}}, rating.Tau)
	if math.Abs(v.RatingChanges[1].After-won.R) > 1e-6 || math.Abs(v.RatingChanges[0].After-lost.R) > 1e-6 || v.RatingChanges[0].Before != 1500 {
		t.Fatalf("changes %+v, want %.2f and %.2f", v.RatingChanges, lost.R, won.R)
	}
	// Glicko-2 from two new players: the winner gains what the loser loses.
	if math.Abs((won.R-1500)-(1500-lost.R)) > 1e-6 || won.R < 1600 {
		t.Fatalf("won %.2f lost %.2f", won.R, lost.R)
	}
	var pv playerView
	h.person().call("GET", "/api/players/bob", nil, &pv)
	if r := pv.Ratings["tablut"]; math.Abs(r.Rating-won.R) > 1e-6 || r.Games != 1 || !r.Provisional || len(pv.Finished) != 1 || pv.Finished[0].Change <= 0 {
		t.Fatalf("bob's page: %+v", pv)
	}
	// Provisional ratings stay off the leaderboard.
	var board []leaderRow
	h.person().call("GET", "/api/leaderboard/tablut", nil, &board)
	if len(board) != 0 {
		t.Fatalf("leaderboard %+v", board)
	}
	if code := h.person().call("GET", "/api/leaderboard/chess", nil, &e); code != http.StatusNotFound || !strings.Contains(e["error"], "tablut") {
		t.Fatalf("an unknown game's leaderboard: %d %v", code, e)
	}
}

// TestChallengeToOnePlayer: a challenge to a named player is shown to him
// and its creator only; he may decline it.
func TestChallengeToOnePlayer(t *testing.T) {
	h := newHarness(t, "", testConfig())
	a, b, c := h.person(), h.person(), h.person()
	a.register("alice")
	b.register("bob")
	var cv challengeView
	if code := a.call("POST", "/api/challenges", challengeRequest{Game: "lanrick", Side: "random", Opponent: "Bob", Days: 3}, &cv); code != http.StatusCreated || cv.Target != "bob" {
		t.Fatalf("challenge %d %+v", code, cv)
	}
	var lv lobbyView
	c.call("GET", "/api/lobby", nil, &lv)
	if len(lv.Challenges) != 0 {
		t.Fatalf("a stranger sees a private challenge: %+v", lv.Challenges)
	}
	if code := c.call("POST", "/api/challenges/"+cv.ID+"/accept", struct{}{}, nil); code != http.StatusForbidden {
		t.Fatalf("a stranger accepted: %d", code)
	}
	b.call("GET", "/api/lobby", nil, &lv)
	if len(lv.Challenges) != 1 || !lv.Challenges[0].ForMe || lv.Challenges[0].Days != 3 {
		t.Fatalf("bob's lobby: %+v", lv.Challenges)
	}
	if code := c.call("POST", "/api/challenges/"+cv.ID+"/cancel", struct{}{}, nil); code != http.StatusForbidden {
		t.Fatalf("a stranger cancelled: %d", code)
	}
	if code := b.call("POST", "/api/challenges/"+cv.ID+"/cancel", struct{}{}, nil); code != http.StatusOK {
		t.Fatalf("decline %d", code)
	}
	a.call("GET", "/api/lobby", nil, &lv)
	if len(lv.Challenges) != 0 {
		t.Fatalf("a declined challenge stays: %+v", lv.Challenges)
	}
	var e map[string]string
	for _, bad := range []challengeRequest{{Game: "tablut", Days: 4}, {Game: "tablut", Days: 3, Minutes: 5}, {Game: "tablut", Side: "kings"}, {Game: "tablut", Opponent: "nobody"}, {Game: "tablut", Opponent: "alice"}} {
		if code := a.call("POST", "/api/challenges", bad, &e); code < 400 || code >= 500 {
			t.Fatalf("challenge %+v: %d %v", bad, code, e)
		}
	}
}

// TestCorrespondenceDeadlineSurvivesRestart: days for a move run while the
// server is down; past the deadline, the restarted server ends the game.
func TestCorrespondenceDeadlineSurvivesRestart(t *testing.T) {
	h := newHarness(t, "", testConfig())
	a, b := h.person(), h.person()
	var cv challengeView
	a.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "attackers", Days: 2}, &cv)
	var cr createResponse
	if code := b.call("POST", "/api/challenges/"+cv.ID+"/accept", struct{}{}, &cr); code != http.StatusCreated {
		t.Fatalf("accept %d", code)
	}
	var v play.View
	a.call("POST", "/api/games/"+cr.ID+"/act", actRequest{Action: "a4-a3", Ply: at(0)}, &v)
	if v.Clock == nil || v.Clock.DaysPerMove != 2 || v.Clock.Running != 1 {
		t.Fatalf("clock %+v", v.Clock)
	}
	deadline := v.Clock.Deadline
	if d := time.Until(time.UnixMilli(deadline)); d < 47*time.Hour || d > 48*time.Hour {
		t.Fatalf("deadline in %v", d)
	}
	var pv meView
	b.call("GET", "/api/me", nil, &pv)
	if pv.YourTurn != 1 {
		t.Fatalf("B's games waiting: %d", pv.YourTurn)
	}
	db := h.db
	h.close()
	// Two days pass while the server is down: move the stored clock back.
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := st.Get(context.Background(), cr.ID)
	g.Clock.SinceMS -= 49 * 3600 * 1000
	g.Deadline = g.Clock.Deadline(1)
	if err := st.Update(context.Background(), g, 1); err != nil {
		t.Fatal(err)
	}
	st.Close()
	h2 := newHarness(t, db, testConfig())
	end := time.Now().Add(10 * time.Second)
	for {
		h2.call("GET", "/api/games/"+cr.ID, nil, &v)
		if v.Status == store.StatusOver || time.Now().After(end) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if v.Status != store.StatusOver || v.Result != "attackers" || !strings.Contains(v.Reason, "time") {
		t.Fatalf("after the deadline: %s %s %s", v.Status, v.Result, v.Reason)
	}
}

// TestChatRooms: the players' chat and the spectators' are apart while the
// game goes on; afterwards everyone reads both. Lines are limited in size
// and rate.
func TestChatRooms(t *testing.T) {
	h := newHarness(t, "", testConfig())
	a, b, c := h.person(), h.person(), h.person()
	var cv challengeView
	a.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "attackers"}, &cv)
	var cr createResponse
	b.call("POST", "/api/challenges/"+cv.ID+"/accept", struct{}{}, &cr)
	path := "/api/games/" + cr.ID + "/chat"
	var m store.Message
	if code := c.call("POST", path, chatRequest{Text: "  <b>bold</b> move?  "}, &m); code != http.StatusCreated || m.Room != store.ChatSpectators || m.Text != "<b>bold</b> move?" || m.Name != "Anonymous" {
		t.Fatalf("a spectator's line: %d %+v", code, m)
	}
	if code := a.call("POST", path, chatRequest{Text: "good luck"}, &m); code != http.StatusCreated || m.Room != store.ChatPlayers || m.Name != "Attackers (Muscovites)" {
		t.Fatalf("a player's line: %d %+v", code, m)
	}
	read := func(p *person) []store.Message {
		var ms []store.Message
		if code := p.call("GET", path, nil, &ms); code != http.StatusOK {
			t.Fatalf("read chat %d", code)
		}
		return ms
	}
	if ms := read(b); len(ms) != 1 || ms[0].Text != "good luck" {
		t.Fatalf("a player reads the spectators: %+v", ms)
	}
	if ms := read(c); len(ms) != 2 {
		t.Fatalf("a spectator reads %+v", ms)
	}
	var e map[string]string
	for _, bad := range []string{"", "   ", strings.Repeat("x", 301), "two\nlines"} {
		if code := c.call("POST", path, chatRequest{Text: bad}, &e); code != http.StatusBadRequest {
			t.Fatalf("line %q: %d %v", bad, code, e)
		}
	}
	for i := 0; i < 4; i++ { // refused lines do not count
		c.call("POST", path, chatRequest{Text: "spam"}, nil)
	}
	e = nil
	if code := c.call("POST", path, chatRequest{Text: "spam"}, &e); code != http.StatusTooManyRequests {
		t.Fatalf("the sixth line in ten seconds: %d %v", code, e)
	}
	// A client without cookies is a new player each time: the address's
	// limit still holds.
	refused := 0
	players := h.countPlayers()
	for i := 0; i < 25; i++ {
		if code := h.call("POST", path, chatRequest{Text: "no cookies"}, nil); code == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("cookieless chat was never limited")
	}
	// A refused line makes no player (hostile finding 10: 200 refused
	// posts made 200 players and sessions).
	if made := h.countPlayers() - players; made != 25-refused {
		t.Fatalf("%d players made for %d lines taken", made, 25-refused)
	}
	a.call("POST", "/api/games/"+cr.ID+"/resign", secretRequest{}, nil)
	if ms := read(b); len(ms) != 6+25-refused {
		t.Fatalf("after the game a player reads %d lines, want 6", len(ms))
	}
}

// countPlayers counts the players in the harness's database.
func (h *harness) countPlayers() int {
	h.t.Helper()
	db, err := sql.Open("sqlite", "file:"+h.db+"?mode=ro")
	if err != nil {
		h.t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM players`).Scan(&n); err != nil {
		h.t.Fatal(err)
	}
	return n
}
