package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/store"
)

// TestModeration: an account reports a chat line and a player; only an
// administrator (made from the command line, here the store) reads the
// reports and closes them; a muted player's chat is refused, a banned
// player can no longer challenge, accept or chat, and reports are
// limited.
func TestModeration(t *testing.T) {
	h := newHarness(t, "", testConfig())
	alice, mallory, admin := h.person(), h.person(), h.person()
	alice.register("alice")
	mallory.register("mallory")
	admin.register("judge")
	// A game between alice and mallory, and mallory's rude line.
	var cv challengeView
	alice.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "attackers", Opponent: "mallory"}, &cv)
	var g struct{ ID string }
	if code := mallory.call("POST", "/api/challenges/"+cv.ID+"/accept", struct{}{}, &g); code != http.StatusCreated {
		t.Fatalf("accept: %d", code)
	}
	var line struct{ ID int64 }
	if code := mallory.call("POST", "/api/games/"+g.ID+"/chat", chatRequest{Text: "something rude"}, &line); code != http.StatusCreated {
		t.Fatalf("chat: %d", code)
	}
	// Reports: of the line, of the player; anonymous and self refused.
	if code := alice.call("POST", "/api/reports", map[string]any{"game": g.ID, "line": line.ID, "reason": "insults"}, nil); code != http.StatusCreated {
		t.Fatalf("report the line: %d", code)
	}
	if code := alice.call("POST", "/api/reports", map[string]any{"username": "Mallory", "reason": "stalls every game"}, nil); code != http.StatusCreated {
		t.Fatalf("report the player: %d", code)
	}
	for _, c := range []struct {
		who  *person
		body map[string]any
		code int
	}{
		{h.person(), map[string]any{"username": "mallory", "reason": "x"}, http.StatusForbidden},
		{alice, map[string]any{"username": "alice", "reason": "x"}, http.StatusBadRequest},
		{alice, map[string]any{"username": "mallory", "reason": " "}, http.StatusBadRequest},
		{alice, map[string]any{"username": "nobody", "reason": "x"}, http.StatusNotFound},
		{alice, map[string]any{"game": g.ID, "line": 999, "reason": "x"}, http.StatusNotFound},
	} {
		if code := c.who.call("POST", "/api/reports", c.body, nil); code != c.code {
			t.Errorf("report %v: %d, want %d", c.body, code, c.code)
		}
	}
	// Only an administrator reads them.
	for _, p := range []*person{alice, mallory, admin, h.person()} {
		if code := p.call("GET", "/api/reports", nil, nil); code != http.StatusForbidden {
			t.Errorf("reports read by a non-administrator: %d", code)
		}
	}
	if err := h.st.SetAdmin(context.Background(), auth.UsernameKey("judge"), true); err != nil {
		t.Fatal(err)
	}
	var rs []struct {
		ID, Reporter, Target, Quoted, Reason string
	}
	if code := admin.call("GET", "/api/reports", nil, &rs); code != http.StatusOK || len(rs) != 2 {
		t.Fatalf("the reports: %d %+v", code, rs)
	}
	if rs[0].Quoted == "" { // the line's report first (made in the same millisecond)
		rs[0], rs[1] = rs[1], rs[0]
	}
	if rs[0].Quoted != "something rude" || rs[0].Target != "mallory" || rs[0].Reporter != "alice" || rs[1].Reason != "stalls every game" {
		t.Fatalf("the reports: %+v", rs)
	}
	if code := alice.call("POST", "/api/reports/"+rs[0].ID+"/close", map[string]string{"resolution": "banned"}, nil); code != http.StatusForbidden {
		t.Errorf("a report closed by its reporter: %d", code)
	}
	// Muted: the chat is refused, the rest goes on.
	if code := admin.call("POST", "/api/reports/"+rs[0].ID+"/close", map[string]string{"resolution": "muted"}, nil); code != http.StatusOK {
		t.Fatalf("close: %d", code)
	}
	var e map[string]string
	if code := mallory.call("POST", "/api/games/"+g.ID+"/chat", chatRequest{Text: "again"}, &e); code != http.StatusForbidden || !strings.Contains(e["error"], "muted") {
		t.Errorf("a muted player's chat: %d %v", code, e)
	}
	// Banned: no challenge, no acceptance, no chat.
	if code := admin.call("POST", "/api/reports/"+rs[1].ID+"/close", map[string]string{"resolution": "banned"}, nil); code != http.StatusOK {
		t.Fatalf("close: %d", code)
	}
	if code := mallory.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "random"}, &e); code != http.StatusForbidden || !strings.Contains(e["error"], "banned") {
		t.Errorf("a banned player's challenge: %d %v", code, e)
	}
	var open challengeView
	alice.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "random"}, &open)
	if code := mallory.call("POST", "/api/challenges/"+open.ID+"/accept", struct{}{}, nil); code != http.StatusForbidden {
		t.Errorf("a banned player accepted: %d", code)
	}
	var me meView
	mallory.call("GET", "/api/me", nil, &me)
	if !me.Banned || !me.Muted {
		t.Errorf("mallory's view of himself: %+v", me)
	}
	alice.call("GET", "/api/me", nil, &me)
	if code := admin.call("GET", "/api/reports", nil, &rs); code != http.StatusOK || len(rs) != 0 {
		t.Errorf("open reports after both closed: %+v", rs)
	}
	// The ban lifted by an administrator.
	if code := admin.call("POST", "/api/admin/players/mallory", map[string]any{"banned": false, "muted": false}, nil); code != http.StatusOK {
		t.Fatalf("lift: %d", code)
	}
	if code := mallory.call("POST", "/api/games/"+g.ID+"/chat", chatRequest{Text: "sorry"}, nil); code != http.StatusCreated {
		t.Errorf("chat after the lift: %d", code)
	}
	if code := alice.call("POST", "/api/admin/players/mallory", map[string]any{"banned": true}, nil); code != http.StatusForbidden {
		t.Errorf("a ban by a non-administrator: %d", code)
	}
	// An administrator does not ban himself (hostile finding, low: nobody
	// on the site could lift it).
	if code := admin.call("POST", "/api/admin/players/judge", map[string]any{"banned": true}, nil); code != http.StatusForbidden {
		t.Errorf("an administrator banned himself: %d", code)
	}
	// One open report of a player from one reporter is enough (hostile
	// finding, low: reports were not de-duplicated).
	if code := alice.call("POST", "/api/reports", map[string]any{"username": "mallory", "reason": "again"}, nil); code != http.StatusCreated {
		t.Errorf("a new report after the others were closed: %d", code)
	}
	if code := alice.call("POST", "/api/reports", map[string]any{"username": "mallory", "reason": "and again"}, nil); code != http.StatusConflict {
		t.Errorf("the same report again while open: %d, want 409", code)
	}
	// At most 10 reports an hour: three made, seven more.
	for i := range 7 {
		if err := h.st.CreateReport(context.Background(), &store.Report{ID: fmt.Sprint("r", i), Reporter: me.ID, Target: fmt.Sprint("someone", i), Reason: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if code := alice.call("POST", "/api/reports", map[string]any{"username": "judge", "reason": "another"}, nil); code != http.StatusTooManyRequests {
		t.Errorf("an eleventh report in an hour: %d, want 429", code)
	}
}

// TestModerationHoldsTheSeat (hostile finding 5: with the seat's secret
// and no cookie a banned player still chatted in the players' room and
// got a rematch; a muted one still chatted). A mute or a ban is checked
// on the player holding the seat, whatever session, or none, asks.
func TestModerationHoldsTheSeat(t *testing.T) {
	h := newHarness(t, "", testConfig())
	mallory, alice := h.person(), h.person()
	mallory.register("mallory")
	var c createResponse
	if code := mallory.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "friend", Side: "attackers"}, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if code := alice.call("POST", "/api/games/"+c.ID+"/join", map[string]string{"token": strings.Split(c.Invite, "join=")[1]}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	var me meView
	mallory.call("GET", "/api/me", nil, &me)
	ctx := context.Background()
	stranger := h.person() // no cookie: only the seat's secret
	chat := func() (int, string) {
		var e map[string]string
		code := stranger.call("POST", "/api/games/"+c.ID+"/chat", chatRequest{Text: "hello", Secret: c.Secret}, &e)
		return code, e["error"]
	}
	if code, _ := chat(); code != http.StatusCreated {
		t.Fatalf("the seat's chat by its secret, before any mute: %d", code)
	}
	if err := h.st.SetMuted(ctx, me.ID, true); err != nil {
		t.Fatal(err)
	}
	if code, e := chat(); code != http.StatusForbidden || !strings.Contains(e, "muted") {
		t.Errorf("a muted seat's chat by its secret: %d %q", code, e)
	}
	if err := h.st.SetBanned(ctx, me.ID, true); err != nil {
		t.Fatal(err)
	}
	if code, e := chat(); code != http.StatusForbidden || !strings.Contains(e, "banned") {
		t.Errorf("a banned seat's chat by its secret: %d %q", code, e)
	}
	if code := alice.call("POST", "/api/games/"+c.ID+"/resign", secretRequest{}, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	var e map[string]string
	if code := stranger.call("POST", "/api/games/"+c.ID+"/rematch", secretRequest{Secret: c.Secret}, &e); code != http.StatusForbidden || !strings.Contains(e["error"], "banned") {
		t.Errorf("a banned seat's rematch by its secret: %d %v", code, e)
	}
	// Alice, not banned, may still ask for it.
	if code := alice.call("POST", "/api/games/"+c.ID+"/rematch", secretRequest{}, nil); code != http.StatusOK {
		t.Errorf("the other seat's rematch: %d", code)
	}
}

// TestAdministratorAbortsAGame: an administrator calls a game in play off
// from the site, whoever plays it; its players are told at once; nobody
// else may.
func TestAdministratorAbortsAGame(t *testing.T) {
	h := newHarness(t, "", testConfig())
	admin, player := h.person(), h.person()
	admin.register("judge")
	if err := h.st.SetAdmin(context.Background(), auth.UsernameKey("judge"), true); err != nil {
		t.Fatal(err)
	}
	var c createResponse
	player.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local"}, &c)
	if code := player.call("POST", "/api/admin/games/"+c.ID+"/abort", struct{}{}, nil); code != http.StatusForbidden {
		t.Fatalf("a player's abort by the administrators' route: %d", code)
	}
	if code := admin.call("POST", "/api/admin/games/"+c.ID+"/abort", struct{}{}, nil); code != http.StatusOK {
		t.Fatalf("the administrator's abort: %d", code)
	}
	var v struct{ Status, Result string }
	player.call("GET", "/api/games/"+c.ID, nil, &v)
	if v.Status != "over" || v.Result != "aborted" {
		t.Fatalf("the game after: %+v", v)
	}
	if code := admin.call("POST", "/api/admin/games/"+c.ID+"/abort", struct{}{}, nil); code != http.StatusConflict {
		t.Errorf("an abort of a game over: %d", code)
	}
}

// TestDeletedAccountLeavesItsSeats (the public site's issue, item 4: after
// muster admin delete, the account's seat still moved and chatted, its
// live game showed the old name, and another could register the name).
// The deletion is made as muster admin makes it, on the database through
// a store of its own, while the server runs the games: the game under way
// ends resigned, the one nobody has moved in is aborted, and so is one
// at one screen of which both seats were the account's; the seat's
// secret no longer acts, and the name is held.
func TestDeletedAccountLeavesItsSeats(t *testing.T) {
	h := newHarness(t, "", testConfig())
	mallory, alice := h.person(), h.person()
	mallory.register("mallory")
	games := make([]createResponse, 2)
	for i := range games {
		if code := mallory.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "friend", Side: "attackers"}, &games[i]); code != http.StatusCreated {
			t.Fatalf("create: %d", code)
		}
		if code := alice.call("POST", "/api/games/"+games[i].ID+"/join", map[string]string{"token": strings.Split(games[i].Invite, "join=")[1]}, nil); code != http.StatusOK {
			t.Fatalf("join: %d", code)
		}
	}
	under := games[0]
	for ply, a := range []string{"a4-a3", "e3-d3"} {
		who := mallory
		if ply == 1 {
			who = alice
		}
		if code := who.call("POST", "/api/games/"+under.ID+"/act", map[string]any{"action": a, "ply": ply}, nil); code != http.StatusOK {
			t.Fatalf("move %s: %d", a, code)
		}
	}
	// And a game at one screen, both seats mallory's, under way.
	var local createResponse
	if code := mallory.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local"}, &local); code != http.StatusCreated {
		t.Fatalf("create a local game: %d", code)
	}
	for ply, a := range []string{"a4-a3", "e3-d3"} {
		if code := mallory.call("POST", "/api/games/"+local.ID+"/act", map[string]any{"action": a, "ply": ply, "secret": local.Secrets[ply]}, nil); code != http.StatusOK {
			t.Fatalf("local move %s: %d", a, code)
		}
	}
	// muster admin delete mallory, from another program on the file.
	admin, err := store.Open(h.db)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if playing, err := admin.DeleteAccount(context.Background(), auth.UsernameKey("mallory")); err != nil || len(playing) != 3 {
		t.Fatalf("delete: %v %v", playing, err)
	}
	type seen struct {
		Status, Result, Reason string
		Seats                  []struct{ Name string }
	}
	ended := func(id string) seen {
		deadline := time.Now().Add(15 * time.Second)
		for {
			var v seen
			alice.call("GET", "/api/games/"+id, nil, &v)
			if v.Status == "over" || time.Now().After(deadline) {
				return v
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if v := ended(under.ID); v.Status != "over" || v.Result != "defenders" || !strings.Contains(v.Reason, "attackers left: the account was deleted") || v.Seats[0].Name != "" {
		t.Errorf("the game under way after the deletion: %+v", v)
	}
	if v := ended(games[1].ID); v.Status != "over" || v.Result != "aborted" {
		t.Errorf("the game nobody had moved in: %+v", v)
	}
	if v := ended(local.ID); v.Status != "over" || v.Result != "aborted" {
		t.Errorf("the game at one screen, both seats the account's: %+v", v)
	}
	// The secret acts no more, on either game; the name is held.
	stranger := h.person()
	var e map[string]string
	if code := stranger.call("POST", "/api/games/"+under.ID+"/rematch", secretRequest{Secret: under.Secret}, &e); code == http.StatusOK {
		t.Errorf("the deleted seat's rematch by its secret: %d %v", code, e)
	}
	if code := stranger.call("POST", "/api/games/"+games[1].ID+"/resign", secretRequest{Secret: games[1].Secret}, &e); code == http.StatusOK {
		t.Errorf("the deleted seat's resignation by its secret: %d %v", code, e)
	}
	var line struct{ Name string }
	if code := stranger.call("POST", "/api/games/"+under.ID+"/chat", chatRequest{Text: "still here", Secret: under.Secret}, &line); code == http.StatusCreated && line.Name == "mallory" {
		t.Errorf("the deleted seat chats by its secret as %q", line.Name)
	}
	if code := h.person().call("POST", "/api/account/register", credentials{Username: "Mallory", Password: "correct horse mallory"}, &e); code != http.StatusConflict {
		t.Errorf("the deleted account's name registered again: %d %v", code, e)
	}
}
