package server

import (
	"bufio"
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/bot"
	"github.com/muster-games/muster/internal/bots"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/tournaments"
	"github.com/muster-games/muster/internal/watch"
)

// newBot registers an account, makes it a bot from its browser and
// returns a program signed in by one of its tokens (no cookies), and the
// owner's browser.
func (h *harness) newBot(name string) (program, owner *person) {
	h.t.Helper()
	owner = h.person()
	owner.register(name)
	if code := owner.call("POST", "/api/account/bot", struct{}{}, nil); code != http.StatusOK {
		h.t.Fatalf("become a bot: %d", code)
	}
	var tok struct{ ID, Token string }
	if code := owner.call("POST", "/api/account/tokens", struct{}{}, &tok); code != http.StatusCreated {
		h.t.Fatalf("token: %d", code)
	}
	program = &person{h: h, c: &http.Client{}, hdr: map[string]string{"Authorization": "Bearer " + tok.Token}}
	return program, owner
}

// lines opens a newline-delimited JSON stream and sends its non-empty
// lines, until the test ends.
func (p *person) lines(path string) <-chan []byte {
	p.h.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	p.h.t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", p.h.http.URL+path, nil)
	for k, v := range p.hdr {
		req.Header.Set(k, v)
	}
	res, err := p.c.Do(req)
	if err != nil {
		p.h.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/x-ndjson" {
		p.h.t.Fatalf("%s: %d %s", path, res.StatusCode, res.Header.Get("Content-Type"))
	}
	out := make(chan []byte, 64)
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<22)
		defer close(out)
		for sc.Scan() {
			if len(sc.Bytes()) > 0 {
				out <- append([]byte(nil), sc.Bytes()...)
			}
		}
	}()
	return out
}

// ends waits for a stream to end, reading what it still sends.
func ends(t *testing.T, what string, ch <-chan []byte) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return
			}
		case <-timeout:
			t.Fatalf("%s goes on", what)
		}
	}
}

// next waits for a line of a stream and decodes it.
func next(t *testing.T, ch <-chan []byte, v any) {
	t.Helper()
	select {
	case b := <-ch:
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing on the stream")
	}
}

// TestBotPlaysAChallenge: a program with its bot's token hears of a
// challenge to it on the event stream, accepts it, reads the game's
// views from its stream (the bot marked on its seat), moves, and hears of
// the game's end; it never acts for another account, and its revoked
// token is refused.
func TestBotPlaysAChallenge(t *testing.T) {
	h := newHarness(t, "", testConfig())
	bot, owner := h.newBot("robot")
	alice, carol := h.person(), h.person()
	alice.register("alice")
	carol.register("carol")
	events := bot.lines("/api/stream/event")

	var cv challengeView
	if code := alice.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "attackers", Opponent: "robot", Rated: true}, &cv); code != http.StatusCreated {
		t.Fatalf("challenge the bot: %d", code)
	}
	var ev bots.Event
	next(t, events, &ev)
	if ev.Type != bots.EventChallenge || ev.Challenge.ID != cv.ID || ev.Challenge.From != "alice" || !ev.Challenge.Rated {
		t.Fatalf("event %+v %+v", ev, ev.Challenge)
	}
	var acc struct {
		ID   string `json:"id"`
		Seat int    `json:"seat"`
	}
	if code := bot.call("POST", "/api/challenges/"+cv.ID+"/accept", struct{}{}, &acc); code != http.StatusCreated {
		t.Fatalf("accept: %d", code)
	}
	next(t, events, &ev)
	if ev.Type != bots.EventGameStart || ev.Game.ID != acc.ID || ev.Game.Seat != acc.Seat {
		t.Fatalf("event %+v %+v, want the game %s seat %d", ev, ev.Game, acc.ID, acc.Seat)
	}
	game := bot.lines("/api/games/" + acc.ID + "/stream")
	var v play.View
	next(t, game, &v)
	if !v.Seats[acc.Seat].Bot || v.Seats[1-acc.Seat].Bot || v.Seats[acc.Seat].Name != "robot" {
		t.Errorf("seats %+v", v.Seats)
	}
	// Alice (the attackers) moves; the bot sees it and answers.
	var av play.View
	alice.call("GET", "/api/games/"+acc.ID, nil, &av)
	if code := alice.call("POST", "/api/games/"+acc.ID+"/act", actRequest{Action: av.Legal[0].Text, Ply: at(0)}, &av); code != http.StatusOK {
		t.Fatalf("alice's move: %d", code)
	}
	for v.Ply < 1 {
		next(t, game, &v)
	}
	if code := bot.call("POST", "/api/games/"+acc.ID+"/act", actRequest{Action: v.Legal[0].Text, Ply: at(1)}, &v); code != http.StatusOK || v.Ply != 2 {
		t.Fatalf("the bot's move: %d ply %d", code, v.Ply)
	}
	// Not for another: alice's move is hers, and a game of others' is
	// not the bot's.
	if code := bot.call("POST", "/api/games/"+acc.ID+"/act", actRequest{Action: v.Legal[0].Text, Ply: at(2)}, nil); code < 400 || code >= 500 {
		t.Errorf("the bot moved for alice: %d", code)
	}
	var c2 challengeView
	alice.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "attackers", Opponent: "carol"}, &c2)
	var other struct{ ID string }
	carol.call("POST", "/api/challenges/"+c2.ID+"/accept", struct{}{}, &other)
	if code := bot.call("POST", "/api/games/"+other.ID+"/act", actRequest{Action: "a4-a3", Ply: at(0)}, nil); code != http.StatusForbidden {
		t.Errorf("the bot acted in a game of others: %d", code)
	}
	// The end is told.
	if code := alice.call("POST", "/api/games/"+acc.ID+"/resign", secretRequest{}, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	next(t, events, &ev)
	if ev.Type != bots.EventGameFinish || ev.Game.ID != acc.ID || ev.Game.Result == "" {
		t.Fatalf("event %+v %+v", ev, ev.Game)
	}
	// A program with the bot's token does not sign its owner out
	// (hostile finding, low).
	if code := bot.call("POST", "/api/account/logout-everywhere", struct{}{}, nil); code != http.StatusForbidden {
		t.Errorf("sign out everywhere with a token: %d", code)
	}
	var me meView
	if owner.call("GET", "/api/me", nil, &me); me.Username != "robot" {
		t.Fatalf("the owner was signed out: %+v", me)
	}
	// Revoked, the token is refused everywhere, and the streams it opened
	// end (hostile finding, low: they went on).
	var ts []struct{ ID string }
	owner.call("GET", "/api/account/tokens", nil, &ts)
	if code := owner.call("DELETE", "/api/account/tokens/"+ts[0].ID, struct{}{}, nil); code != http.StatusNoContent {
		t.Fatalf("revoke: %d", code)
	}
	for _, c := range []struct{ method, path string }{{"GET", "/api/me"}, {"GET", "/api/stream/event"}, {"POST", "/api/games/" + acc.ID + "/chat"}} {
		ends(t, "the event stream of a revoked token", events)
		ends(t, "the game stream of a revoked token", game)
		if code := bot.call(c.method, c.path, map[string]string{"text": "hi"}, nil); code != http.StatusUnauthorized {
			t.Errorf("%s %s with a revoked token: %d", c.method, c.path, code)
		}
	}
}

// TestBotNeverJoinsThePoolUnasked: a bot accepts only challenges made to
// it by name and challenges only by name: the people's lobby never
// meets one unasked. Nobody signed in gets no event stream.
func TestBotNeverJoinsThePoolUnasked(t *testing.T) {
	h := newHarness(t, "", testConfig())
	bot, _ := h.newBot("robot")
	alice := h.person()
	alice.register("alice")
	var open challengeView
	if code := alice.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "random", Rated: true}, &open); code != http.StatusCreated {
		t.Fatal(code)
	}
	if code := bot.call("POST", "/api/challenges/"+open.ID+"/accept", struct{}{}, nil); code != http.StatusForbidden {
		t.Errorf("a bot accepted an open rated challenge: %d", code)
	}
	if code := bot.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "random"}, nil); code != http.StatusForbidden {
		t.Errorf("a bot made an open challenge: %d", code)
	}
	if code := bot.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "random", Opponent: "alice"}, nil); code != http.StatusCreated {
		t.Errorf("a bot's challenge by name: %d", code)
	}
	var lv lobbyView
	alice.call("GET", "/api/lobby", nil, &lv)
	nbots := 0
	for _, c := range lv.Challenges {
		if c.CreatorBot != (c.Creator == "robot") {
			t.Errorf("challenge %+v: creator_bot %v", c, c.CreatorBot)
		}
		if c.CreatorBot {
			nbots++
		}
	}
	if len(lv.Challenges) != 2 || nbots != 1 {
		t.Errorf("alice's lobby: %+v", lv.Challenges)
	}
	if code := h.person().call("GET", "/api/stream/event", nil, nil); code != http.StatusUnauthorized {
		t.Errorf("an event stream for nobody: %d", code)
	}
}

// randomPlayer plays a legal action at random.
type randomPlayer struct{ rng *rand.Rand }

func (p randomPlayer) Act(ctx context.Context, s game.State, budget time.Duration) (string, error) {
	as := s.LegalActions(nil)
	return s.ActionString(as[p.rng.IntN(len(as))]), nil
}

// TestBotClientPlaysAGame: the bot package's client, on the bot's token,
// accepts a casual challenge by name and plays the whole game against a
// person moving through the API, and declines what its policy refuses.
func TestBotClientPlaysAGame(t *testing.T) {
	h := newHarness(t, "", testConfig())
	prog, _ := h.newBot("robot")
	tok := strings.TrimPrefix(prog.hdr["Authorization"], "Bearer ")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &bot.Client{URL: h.http.URL, Token: tok, Player: randomPlayer{rand.New(rand.NewPCG(1, 2))}, Retry: 50 * time.Millisecond,
		Accept: func(ch bot.Challenge) string {
			if ch.Rated {
				return "casual only"
			}
			return ""
		}}
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	alice := h.person()
	alice.register("alice")
	var rated challengeView
	alice.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "defenders", Opponent: "robot", Rated: true}, &rated)
	var cv challengeView
	alice.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "defenders", Opponent: "robot"}, &cv)
	// The bot accepts the casual one: the creator's lobby says so.
	var id string
	for deadline := time.Now().Add(10 * time.Second); id == ""; {
		var lv struct {
			Challenges []challengeView `json:"challenges"`
			Mine       []play.Summary  `json:"mine"`
		}
		alice.call("GET", "/api/lobby", nil, &lv)
		for _, g := range lv.Mine {
			if g.Status == "playing" {
				id = g.ID
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bot never accepted: %+v", lv)
		}
		time.Sleep(20 * time.Millisecond)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var v play.View
	for deadline := time.Now().Add(60 * time.Second); ; {
		alice.call("GET", "/api/games/"+id, nil, &v)
		if v.Status == "over" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game stalled at ply %d, to act %d", v.Ply, v.ToAct)
		}
		if v.ToAct == 1 { // alice: the defenders
			a := v.Legal[rng.IntN(len(v.Legal))].Text
			if code := alice.call("POST", "/api/games/"+id+"/act", actRequest{Action: a, Ply: at(v.Ply)}, nil); code != http.StatusOK && code != http.StatusConflict {
				t.Fatalf("alice's move %s: %d", a, code)
			}
			continue
		}
		time.Sleep(5 * time.Millisecond)
	}
	attackerMoves := 0
	for _, tn := range v.Turns.List() {
		if tn.Player == 0 {
			attackerMoves++
		}
	}
	if attackerMoves == 0 || v.Result == "" {
		t.Errorf("the game: %d plies, the bot's %d, result %q", v.Ply, attackerMoves, v.Result)
	}
	got, err := h.st.Challenge(context.Background(), rated.ID)
	if err != nil || got.Status != "cancelled" {
		t.Errorf("the rated challenge: %+v %v, want declined", got, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// TestBotOnlyWhereAsked (hostile finding 6: an account joined a
// tournament for people and then became a bot; a bot token took a
// friend's invitation seat; an open lobby challenge survived the switch;
// the bot's seats were not marked BOT). An account with an open challenge
// or a place in a tournament not over cannot become a bot; a bot takes no
// friend's invitation; a bot's seats say BOT, in tournaments and rematches
// too.
func TestBotOnlyWhereAsked(t *testing.T) {
	h := newHarness(t, "", testConfig())
	by := h.accounts("ann", "ben", "rob")
	// An open challenge, then a place in a tournament: no switch.
	var cv challengeView
	if code := by["rob"].call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "random"}, &cv); code != http.StatusCreated {
		t.Fatalf("challenge: %d", code)
	}
	var e map[string]string
	if code := by["rob"].call("POST", "/api/account/bot", struct{}{}, &e); code != http.StatusConflict || !strings.Contains(e["error"], "challenge") {
		t.Fatalf("a switch with a challenge open: %d %v", code, e)
	}
	by["rob"].call("POST", "/api/challenges/"+cv.ID+"/cancel", struct{}{}, nil)
	id := h.openTournament(by, map[string]any{"name": "People", "kind": "swiss", "rounds": 1, "game": "tablut", "minutes": 10, "increment": 5, "starts_in": 60}, "ann", "rob")
	if code := by["rob"].call("POST", "/api/account/bot", struct{}{}, nil); code != http.StatusConflict {
		t.Fatalf("a switch with a tournament place: %d", code)
	}
	by["rob"].call("POST", "/api/tournaments/"+id+"/withdraw", struct{}{}, nil)
	if code := by["rob"].call("POST", "/api/account/bot", struct{}{}, nil); code != http.StatusOK {
		t.Fatalf("a switch with nothing open: %d", code)
	}
	// A bot never takes a friend's seat.
	program, _ := h.newBot("botty")
	var c createResponse
	by["ann"].call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "friend", Side: "attackers"}, &c)
	if code := program.call("POST", "/api/games/"+c.ID+"/join", map[string]string{"token": strings.Split(c.Invite, "join=")[1]}, &e); code != http.StatusForbidden {
		t.Fatalf("a bot takes a friend's invitation: %d %v", code, e)
	}
	// A bot in a tournament for bots: its seat says BOT, and so does its
	// seat in the rematch.
	tid := h.openTournament(by, map[string]any{"name": "Bots", "kind": "swiss", "rounds": 1, "game": "tablut", "minutes": 10, "increment": 5, "starts_in": 0, "bots": true}, "ann")
	if code := program.call("POST", "/api/tournaments/"+tid+"/join", struct{}{}, nil); code != http.StatusOK {
		t.Fatalf("the bot joins a tournament for bots: %d", code)
	}
	h.tick()
	var tv tournaments.View
	by["ann"].call("GET", "/api/tournaments/"+tid, nil, &tv)
	if len(tv.Games) != 1 || len(tv.Games[0]) != 1 {
		t.Fatalf("the round: %+v", tv.Games)
	}
	gid := tv.Games[0][0].Game
	botSeat := func(id string) bool {
		var v play.View
		by["ann"].call("GET", "/api/games/"+id, nil, &v)
		for _, s := range v.Seats {
			if s.Name == "botty" {
				return s.Bot
			}
		}
		t.Fatalf("game %s: no seat of the bot in %+v", id, v.Seats)
		return false
	}
	if !botSeat(gid) {
		t.Error("the bot's tournament seat is not marked BOT")
	}
	by["ann"].call("POST", "/api/games/"+gid+"/resign", secretRequest{}, nil)
	var next struct{ ID string }
	if code := by["ann"].call("POST", "/api/games/"+gid+"/rematch", secretRequest{}, &next); code != http.StatusOK {
		t.Fatalf("rematch: %d", code)
	}
	if !botSeat(next.ID) {
		t.Error("the bot's seat in the rematch is not marked BOT")
	}
}

// TestRevokedTokenStreamsDeliverNothing (the public site's issue, item 6:
// a revoked token's streams went on for up to five seconds, delivering
// the game's views and the challenges meanwhile): the streams a token
// opened end as its revocation is answered, and deliver nothing after it,
// though the game moves and the bot is challenged again at once.
func TestRevokedTokenStreamsDeliverNothing(t *testing.T) {
	h := newHarness(t, "", testConfig())
	bot, owner := h.newBot("robot")
	alice := h.person()
	alice.register("alice")
	events := bot.lines("/api/stream/event")
	var cv challengeView
	alice.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "attackers", Opponent: "robot"}, &cv)
	var ev bots.Event
	next(t, events, &ev)
	var acc struct{ ID string }
	if code := bot.call("POST", "/api/challenges/"+cv.ID+"/accept", struct{}{}, &acc); code != http.StatusCreated {
		t.Fatalf("accept: %d", code)
	}
	next(t, events, &ev)
	game := bot.lines("/api/games/" + acc.ID + "/stream")
	var v play.View
	next(t, game, &v)
	var ts []struct{ ID string }
	owner.call("GET", "/api/account/tokens", nil, &ts)
	if code := owner.call("DELETE", "/api/account/tokens/"+ts[0].ID, struct{}{}, nil); code != http.StatusNoContent {
		t.Fatalf("revoke: %d", code)
	}
	revoked := time.Now()
	alice.call("GET", "/api/games/"+acc.ID, nil, &v)
	if code := alice.call("POST", "/api/games/"+acc.ID+"/act", actRequest{Action: v.Legal[0].Text, Ply: at(0)}, nil); code != http.StatusOK {
		t.Fatalf("alice's move: %d", code)
	}
	alice.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "attackers", Opponent: "robot"}, &cv)
	for what, ch := range map[string]<-chan []byte{"the event stream": events, "the game stream": game} {
		select {
		case line, open := <-ch:
			if open {
				t.Errorf("%s of a revoked token delivered %s", what, line)
			} else if took := time.Since(revoked); took > watch.TokenRecheck/2 {
				t.Errorf("%s of a revoked token ended %s after the revocation", what, took)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s of a revoked token goes on", what)
		}
	}
}
