package server

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/muster-games/muster/internal/play"
)

// TestAbort: a game may be called off until both sides have moved, by a
// seat holder only, and not after.
func TestAbort(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Side: "attackers"}, &c)
	var v play.View
	var e map[string]string
	h.call("GET", "/api/games/"+c.ID, nil, &v)
	if !v.CanAbort {
		t.Fatal("a new game cannot be aborted")
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/abort", secretRequest{}, &e); code != 403 {
		t.Fatalf("a spectator aborts: %d", code)
	}
	h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, &v)
	h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[1], Action: "e3-f3", Ply: at(1)}, &v)
	if v.CanAbort {
		t.Fatal("the game can be aborted after both sides moved")
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/abort", secretRequest{Secret: c.Secrets[0]}, &e); code != 409 {
		t.Fatalf("abort after both moved: %d %v", code, e)
	}
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Side: "attackers"}, &c)
	h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, &v)
	if code := h.call("POST", "/api/games/"+c.ID+"/abort", secretRequest{Secret: c.Secrets[1]}, &v); code != 200 || v.Status != "over" || v.Result != "aborted" {
		t.Fatalf("abort after one move: %d %s %s", code, v.Status, v.Result)
	}
}

// TestRematch: after a game, either player gets a rematch with the sides
// swapped; the first to ask creates it, the other claims his seat there
// with his secret of the old game, once; against the computer the agent
// keeps its level.
func TestRematch(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Side: "attackers", Minutes: 3, Increment: 1}, &c)
	var e map[string]string
	if code := h.call("POST", "/api/games/"+c.ID+"/rematch", secretRequest{Secret: c.Secrets[0]}, &e); code != 409 {
		t.Fatalf("a rematch during the game: %d", code)
	}
	var v play.View
	h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, &v)
	h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[1], Action: "e3-f3", Ply: at(1)}, &v)
	if code := h.call("POST", "/api/games/"+c.ID+"/resign", secretRequest{Secret: c.Secrets[1]}, &v); code != 200 || v.Status != "over" {
		t.Fatalf("resign: %d %s", code, v.Status)
	}
	if v.Clock == nil || v.Clock.Running != -1 {
		t.Fatalf("a clock runs after the end: %+v", v.Clock)
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/rematch", secretRequest{}, &e); code != 403 {
		t.Fatalf("a spectator's rematch: %d", code)
	}
	var first, second createResponse
	if code := h.call("POST", "/api/games/"+c.ID+"/rematch", secretRequest{Secret: c.Secrets[0]}, &first); code != 200 || first.Seat != 1 || first.ID == c.ID {
		t.Fatalf("the attacker's rematch: %d %+v", code, first)
	}
	h.call("GET", "/api/games/"+c.ID, nil, &v)
	if v.Rematch != first.ID {
		t.Fatalf("the old game names rematch %q, want %q", v.Rematch, first.ID)
	}
	var nv play.View
	h.call("GET", "/api/games/"+first.ID, nil, &nv)
	if nv.Status != "playing" || nv.Ply != 0 || nv.Clock == nil || nv.Clock.BaseMS != 180000 || nv.Clock.IncMS != 1000 || nv.Seats[0].Claimed {
		t.Fatalf("the rematch: %s ply %d clock %+v seats %+v", nv.Status, nv.Ply, nv.Clock, nv.Seats)
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/rematch", secretRequest{Secret: c.Secrets[1]}, &second); code != 200 || second.ID != first.ID || second.Seat != 0 {
		t.Fatalf("the defender's rematch: %d %+v", code, second)
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/rematch", secretRequest{Secret: c.Secrets[1]}, &e); code != 409 {
		t.Fatalf("claiming the seat twice: %d", code)
	}
	// The defender of the old game now attacks.
	if code := h.call("POST", "/api/games/"+first.ID+"/act", actRequest{Secret: second.Secret, Action: "a4-a3", Ply: at(0)}, &nv); code != 200 {
		t.Fatalf("the new attacker's move: %d", code)
	}
	// Against the computer.
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "defenders"}, &c)
	h.call("POST", "/api/games/"+c.ID+"/resign", secretRequest{Secret: c.Secret}, &v)
	if code := h.call("POST", "/api/games/"+c.ID+"/rematch", secretRequest{Secret: c.Secret}, &first); code != 200 || first.Seat != 0 {
		t.Fatalf("rematch against the computer: %d %+v", code, first)
	}
	h.call("GET", "/api/games/"+first.ID, nil, &nv)
	if nv.Seats[1].Kind != "ai" || nv.Seats[1].Agent != "easy" || !nv.Seats[0].Claimed {
		t.Fatalf("the rematch's seats: %+v", nv.Seats)
	}
}

// TestStartPosition: a game may begin from a position (a lesson, a
// study); it survives a restart, its record starts there, the record
// imports again, and a rematch begins there too; a bad position is refused.
func TestStartPosition(t *testing.T) {
	db := t.TempDir() + "/muster.db"
	h := newHarness(t, db, testConfig())
	pos := "board=8/8/8/3wwww1/3bwbb1/3bb3/8/8 to=white phase=move rdv=1 size=9 mark=e4 setter=black budget=5 opening=no opened=bw"
	var c createResponse
	if code := h.call("POST", "/api/games", createRequest{Game: "lanrick", Ruleset: "1893", Opponent: "local", Side: "white", Position: pos}, &c); code != 201 {
		t.Fatalf("create from a position: %d", code)
	}
	var v play.View
	for _, m := range []string{"e4-f3", "f5-e4", "g5-f5"} {
		if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[1], Action: m, Ply: at(v.Ply)}, &v); code != 200 {
			t.Fatalf("%s: %d", m, code)
		}
	}
	won := false
	for _, e := range v.Events {
		won = won || e.Kind == "rendezvous-won"
	}
	if !won || len(v.Turns.List()) != 1 || v.Turns.List()[0].First != 0 {
		t.Fatalf("Carroll's first example did not win the rendezvous: events %+v, turns %+v", v.Events, v.Turns.List())
	}
	h.close()
	h = newHarness(t, db, testConfig())
	var back play.View
	h.call("GET", "/api/games/"+c.ID+"?ply=1", nil, &back)
	if back.Ply != 1 || !strings.Contains(back.Position, "to=white") {
		t.Fatalf("after a restart, ply 1: %+v", back.Position)
	}
	status, body := h.raw("GET", "/api/games/"+c.ID+"/record")
	if status != 200 || !strings.Contains(body, "board=8/8/8/3wwww1") {
		t.Fatalf("the record does not start from the position: %d\n%s", status, body)
	}
	var imp createResponse
	if code := h.call("POST", "/api/import", importRequest{createRequest: createRequest{Game: "lanrick", Opponent: "local"}, Record: body}, &imp); code != 201 {
		t.Fatalf("importing a record from a position: %d", code)
	}
	var e map[string]string
	if code := h.call("POST", "/api/games", createRequest{Game: "lanrick", Ruleset: "1893", Opponent: "local", Position: "board=9/8 to=white"}, &e); code != 400 {
		t.Fatalf("a bad position: %d %v", code, e)
	}
}

// raw sends a GET and returns the status and body as text.
func (h *harness) raw(method, path string) (int, string) {
	h.t.Helper()
	req, _ := http.NewRequest(method, h.http.URL+path, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestTakeback: against the computer without a clock, a player takes back
// his last turn and the computer's answer; with a clock, against a
// person, or for a spectator, no.
func TestTakeback(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "ai", Level: "random", Side: "attackers"}, &c)
	var v play.View
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secret, Action: "a4-a3", Ply: at(0)}, &v); code != 200 {
		t.Fatalf("move: %d", code)
	}
	v = h.waitPly(c.ID, 2)
	if v.Takeback[0] != 0 || v.Takeback[1] != -1 {
		t.Fatalf("takeback plies %v, want [0 -1]", v.Takeback)
	}
	var e map[string]string
	if code := h.call("POST", "/api/games/"+c.ID+"/takeback", secretRequest{}, &e); code != 403 {
		t.Fatalf("a spectator's takeback: %d", code)
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/takeback", secretRequest{Secret: c.Secret}, &v); code != 200 || v.Ply != 0 || len(v.History) != 0 || len(v.Legal) == 0 {
		t.Fatalf("takeback: %d ply %d %v", code, v.Ply, v.History)
	}
	// The game goes on from there, and the store has it.
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secret, Action: "a6-a7", Ply: at(0)}, &v); code != 200 {
		t.Fatalf("a move after the takeback: %d", code)
	}
	v = h.waitPly(c.ID, 2)
	if rec, err := h.st.Get(context.Background(), c.ID); err != nil || len(rec.Actions) != 2 || rec.Actions[0] != "a6-a7" {
		t.Fatalf("stored: %v %v", rec, err)
	}
	// With a clock, no takeback.
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "ai", Level: "random", Side: "attackers", Minutes: 5}, &c)
	h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secret, Action: "a4-a3", Ply: at(0)}, &v)
	h.waitPly(c.ID, 2)
	if code := h.call("POST", "/api/games/"+c.ID+"/takeback", secretRequest{Secret: c.Secret}, &e); code != 409 {
		t.Fatalf("a takeback on the clock: %d", code)
	}
}

// TestTakebackByRequest: against a person a takeback is asked for and
// the opponent accepts or declines; a move withdraws the request; with a
// clock too, the time spent so far stays spent.
func TestTakebackByRequest(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Side: "attackers", Minutes: 5}, &c)
	act := func(seat int, text string, ply int) {
		t.Helper()
		var v play.View
		if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[seat], Action: text, Ply: at(ply)}, &v); code != 200 {
			t.Fatalf("%s: %d", text, code)
		}
	}
	ask := func(seat int, what string, out any) int {
		t.Helper()
		return h.call("POST", "/api/games/"+c.ID+"/takeback", secretRequest{Secret: c.Secrets[seat], What: what}, out)
	}
	var v play.View
	var e map[string]string
	if code := ask(0, "offer", &e); code != 409 {
		t.Fatalf("a takeback before any move: %d", code)
	}
	act(0, "a4-a3", 0)
	act(1, "e3-h3", 1)
	// Accepting what nobody asked for, or an unknown request, fails.
	if code := ask(1, "accept", &e); code != 422 {
		t.Fatalf("accepting no request: %d %v", code, e)
	}
	if code := ask(1, "please", &e); code != 422 {
		t.Fatalf("an unknown request: %d %v", code, e)
	}
	// The attackers ask; the defenders decline; nothing is undone.
	if code := ask(0, "offer", &v); code != 200 || v.TakebackOffer != 0 || v.Ply != 2 {
		t.Fatalf("asking: %d offer %d ply %d", code, v.TakebackOffer, v.Ply)
	}
	if code := ask(1, "decline", &v); code != 200 || v.TakebackOffer != -1 || v.Ply != 2 {
		t.Fatalf("declining: %d offer %d ply %d", code, v.TakebackOffer, v.Ply)
	}
	// Asked again (and stored), and withdrawn by a move.
	ask(0, "offer", &v)
	if rec, err := h.st.Get(context.Background(), c.ID); err != nil || rec.TakebackOffer != 0 {
		t.Fatalf("the request is not stored: %+v %v", rec, err)
	}
	act(0, "a3-a2", 2)
	if v := h.waitPly(c.ID, 3); v.TakebackOffer != -1 {
		t.Fatalf("a move left the request standing: %d", v.TakebackOffer)
	}
	// The defenders ask and the attackers accept: back to the start of
	// the defenders' last turn, stored, the clock still running.
	ask(1, "offer", &v)
	if code := ask(0, "accept", &v); code != 200 || v.Ply != 1 || v.TakebackOffer != -1 || v.ToAct != 1 {
		t.Fatalf("accepting: %d ply %d offer %d to act %d", code, v.Ply, v.TakebackOffer, v.ToAct)
	}
	if v.Clock == nil || v.Clock.Running != 1 || v.Clock.LeftMS[0] >= 5*60000 {
		t.Fatalf("the clock after the takeback: %+v", v.Clock)
	}
	if rec, err := h.st.Get(context.Background(), c.ID); err != nil || len(rec.Actions) != 1 || rec.TakebackOffer != -1 {
		t.Fatalf("stored: %+v %v", rec, err)
	}
	act(1, "e3-g3", 1)
	// A spectator can do none of it.
	if code := h.call("POST", "/api/games/"+c.ID+"/takeback", secretRequest{What: "offer"}, &e); code != 403 {
		t.Fatalf("a spectator's request: %d", code)
	}
}
