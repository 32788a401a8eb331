package play

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/engine"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

// TestEvictAgainstRematch: evicting rooms while their players ask for the
// rematch, again and again from both seats, never deadlocks (the registry
// once locked a room under its own lock, and the rematch the registry
// under a room's); the game ends with one rematch, both seats claimed.
func TestEvictAgainstRematch(t *testing.T) {
	h := newHarness(t, 2, 16)
	c := h.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	if code := h.call("POST", "/api/games/"+c.ID+"/resign", secretRequest{Secret: c.Secrets[0]}, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	const rounds = 100
	done, stop := make(chan struct{}), make(chan struct{})
	var wg, asking sync.WaitGroup
	evicted := 0
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				evicted += h.gs.Evict(0)
			}
		}
	})
	claimed := make([]int, 2)
	answers := [2]map[int]int{{}, {}}
	for seat := range 2 {
		asking.Go(func() {
			for range rounds {
				var r createResponse
				code := h.call("POST", "/api/games/"+c.ID+"/rematch", secretRequest{Secret: c.Secrets[seat]}, &r)
				answers[seat][code]++
				switch code {
				case http.StatusOK:
					claimed[seat]++
				case http.StatusConflict, http.StatusServiceUnavailable:
				default:
					t.Errorf("rematch for seat %d: %d", seat, code)
				}
			}
		})
	}
	go func() { asking.Wait(); close(stop); wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("evict and rematch deadlocked")
	}
	t.Logf("%d rooms evicted meanwhile; answers by status: %v", evicted, answers)
	// A seat refused throughout the storm (503: try again) gets its seat
	// now; a seat given is not given again.
	for seat := range 2 {
		if claimed[seat] == 0 {
			if code := h.call("POST", "/api/games/"+c.ID+"/rematch", secretRequest{Secret: c.Secrets[seat]}, nil); code == http.StatusOK {
				claimed[seat]++
			}
		}
		if code := h.call("POST", "/api/games/"+c.ID+"/rematch", secretRequest{Secret: c.Secrets[seat]}, nil); code != http.StatusConflict {
			t.Errorf("seat %d asking again once given its seat: %d, want 409", seat, code)
		}
	}
	if claimed[0] != 1 || claimed[1] != 1 {
		t.Fatalf("seats given in the rematch: %v, want one each (answers by status: %v)", claimed, answers)
	}
	v := h.view(c.ID)
	next := h.view(v.Rematch)
	if v.Rematch == "" || next.Status != "playing" || !next.Seats[0].Claimed || !next.Seats[1].Claimed {
		t.Fatalf("the rematch %q: %+v", v.Rematch, next.Seats)
	}
}

// TestReadersDoNotWaitForTheTurn: while a change holds a room's turn (a
// slow store write), its view, its WebSocket and the lobby's board are
// read from the published snapshot.
func TestReadersDoNotWaitForTheTurn(t *testing.T) {
	h := newHarness(t, 2, 16)
	c := h.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, nil); code != http.StatusOK {
		t.Fatalf("move: %d", code)
	}
	r := h.gs.loaded(c.ID)
	if err := r.lock(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer r.unlock()
	if v := h.view(c.ID); v.Ply != 1 {
		t.Fatalf("view during the change: ply %d", v.Ply)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w := newTestWatcher()
	stop, err := h.gs.Subscribe(ctx, c.ID, w.deliver, w.gone)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	var msg []byte
	select {
	case msg = <-w.views:
	case <-ctx.Done():
		t.Fatal("the watcher's first view waited for the change under way")
	}
	var v View
	if json.Unmarshal(msg, &v); v.Ply != 1 {
		t.Fatalf("watcher's view: ply %d", v.Ply)
	}
	rec, err := h.st.Get(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := h.gs.Board(rec); err != nil || len(b.Board.Pieces) == 0 {
		t.Fatalf("the lobby's board during the change: %+v %v", b, err)
	}
}

// TestFinishedGameHoldsNoAgent: a game against the computer holds its
// agent while it plays, lets it go when it ends, and a finished game
// loaded again builds none.
func TestFinishedGameHoldsNoAgent(t *testing.T) {
	h := newHarness(t, 2, 16)
	c := h.create(createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "defenders"})
	h.waitFor("the computer's first move", func() bool { return h.view(c.ID).Ply == 1 })
	if s := h.gs.Stats(); s.Agents != 1 {
		t.Fatalf("in play: %d agents, want 1", s.Agents)
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/resign", secretRequest{Secret: c.Secret}, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	r := h.gs.loaded(c.ID)
	if err := r.lock(context.Background()); err != nil {
		t.Fatal(err)
	}
	held := r.agents[0] != nil || r.agents[1] != nil
	r.unlock()
	if s := h.gs.Stats(); s.Agents != 0 || held {
		t.Fatalf("after the end: %d agents counted, agents held %v", s.Agents, held)
	}
	h.gs.Evict(0)
	if v := h.view(c.ID); v.Status != "over" {
		t.Fatalf("reloaded: %s", v.Status)
	}
	if s := h.gs.Stats(); s.Rooms != 1 || s.Agents != 0 {
		t.Fatalf("a finished game loaded again: %+v", s)
	}
}

// TestFullPoolAnswersClearly: with the engine pool's slots taken and its
// queue full, a new game against the computer is refused with a clear
// 503; a game between people is not; once a slot is free the computer
// plays.
func TestFullPoolAnswersClearly(t *testing.T) {
	h := newHarness(t, 1, 0)
	l, err := h.pool.Acquire(context.Background(), engine.Move, 1)
	if err != nil {
		t.Fatal(err)
	}
	var e struct{ Error string }
	if code := h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "defenders"}, &e); code != http.StatusServiceUnavailable || !strings.Contains(e.Error, "busy") {
		t.Fatalf("against the computer with the pool full: %d %q", code, e.Error)
	}
	h.create(createRequest{Game: "tablut", Opponent: "local"})
	l.Release()
	c := h.create(createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "defenders"})
	h.waitFor("the computer's move", func() bool { return h.view(c.ID).Ply == 1 })
}

// TestComputerWaitsForTheEnginePool: the computer's search waits in the
// pool's queue while the slots are taken, and plays once one is free.
func TestComputerWaitsForTheEnginePool(t *testing.T) {
	h := newHarness(t, 1, 4)
	l, _ := h.pool.Acquire(context.Background(), engine.Move, 1)
	c := h.create(createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "defenders"})
	h.waitFor("the computer queued", func() bool { return h.pool.Stats().Waiting == 1 })
	if v := h.view(c.ID); v.Ply != 0 || !v.Thinking {
		t.Fatalf("while queued: ply %d, thinking %v", v.Ply, v.Thinking)
	}
	l.Release()
	h.waitFor("the computer's move", func() bool { return h.view(c.ID).Ply == 1 })
	if s := h.pool.Stats(); s.Busy != 0 || s.Waiting != 0 {
		t.Fatalf("after the move: %+v", s)
	}
}

// TestResignStopsTheSearch: ending a game ends its computer's search at
// once, freeing its engine slot.
func TestResignStopsTheSearch(t *testing.T) {
	h := newHarness(t, 1, 4)
	c := h.create(createRequest{Game: "tablut", Opponent: "ai", Level: "max", Side: "defenders"})
	h.waitFor("the computer searching", func() bool { return h.pool.Stats().Busy == 1 })
	if code := h.call("POST", "/api/games/"+c.ID+"/resign", secretRequest{Secret: c.Secret}, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	// The server spends next to nothing in the second after, and the
	// search's slot is free by then (hostile finding 4: a max game
	// resigned at once burned its whole search, 5 s of a core).
	before := cpu(t)
	time.Sleep(time.Second)
	if spent := cpu(t) - before; spent > 300*time.Millisecond {
		t.Fatalf("%v of CPU in the second after the resignation", spent)
	}
	if s := h.pool.Stats(); s.Busy != 0 {
		t.Fatalf("a second after the resignation the search still holds %d slots", s.Busy)
	}
	h.waitFor("the computer no longer thinking", func() bool { return !h.view(c.ID).Thinking })
	if v := h.view(c.ID); v.Ply != 0 || v.Status != "over" {
		t.Fatalf("after resigning: ply %d, %s", v.Ply, v.Status)
	}
}

// TestPonderOnPersonsTime: the max level, whose moves have a time to
// fill, thinks on the person's time after its move, holding an engine
// slot; the person's move stops it and frees the slot; a level that
// searches to a fixed depth does not ponder.
func TestPonderOnPersonsTime(t *testing.T) {
	for _, c := range []struct {
		level  string
		ponder bool
	}{{"max", true}, {"hard", false}} {
		h := newHarness(t, 2, 16)
		cr := h.create(createRequest{Game: "tablut", Opponent: "ai", Level: c.level, Side: "defenders"})
		h.waitFor("the computer attacks first", func() bool { return h.view(cr.ID).Ply == 1 })
		r := h.gs.loaded(cr.ID)
		pondering := r.isPondering()
		if pondering != c.ponder || (h.gs.Ponders.Load() == 1) != c.ponder || (h.pool.Stats().Busy == 1) != c.ponder {
			t.Fatalf("%s: pondering %v, %d ponders, %d slots taken", c.level, pondering, h.gs.Ponders.Load(), h.pool.Stats().Busy)
		}
		v := h.view(cr.ID)
		if code := h.call("POST", "/api/games/"+cr.ID+"/act", actRequest{Secret: cr.Secret, Action: v.Legal[0].Text, Ply: at(1)}, nil); code != 200 {
			t.Fatalf("%s: move: %d", c.level, code)
		}
		if r.isPondering() {
			t.Errorf("%s: still pondering after the person's move", c.level)
		}
		h.waitFor("the computer's answer", func() bool { return h.view(cr.ID).Ply >= 3 })
	}
}

// TestPonderingYieldsToAMove (hostile finding 8: the max level's thinking
// on a person's time held engine slots for up to a minute while other
// games' computers waited): with the pool's one slot held by a game's
// pondering, another game's computer asks for it; the pondering stops at
// once and the other computer moves.
func TestPonderingYieldsToAMove(t *testing.T) {
	cfg := testConfig
	cfg.AgentTimeout = 10 * time.Minute // pondering would hold the slot that long
	h := newHarnessConfig(t, 1, 4, cfg)
	a := h.create(createRequest{Game: "tablut", Opponent: "ai", Level: "max", Side: "defenders"})
	h.waitFor("the max level's first move", func() bool { return h.view(a.ID).Ply == 1 })
	ra := h.gs.loaded(a.ID)
	if !ra.isPondering() || h.pool.Stats().BusyBy[engine.Ponder] != 1 {
		t.Fatalf("after its move the max level does not ponder: %+v", h.pool.Stats())
	}
	b := h.create(createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "defenders"})
	h.waitFor("the other game's computer move", func() bool { return h.view(b.ID).Ply == 1 })
	if ra.isPondering() {
		t.Error("the first game's computer still ponders")
	}
	if s := h.pool.Stats(); s.Preempted != 1 {
		t.Errorf("%d searches told to stop, want the one pondering", s.Preempted)
	}
	// The person's move in the first game is answered as ever.
	v := h.view(a.ID)
	if code := h.call("POST", "/api/games/"+a.ID+"/act", actRequest{Secret: a.Secret, Action: v.Legal[0].Text, Ply: at(1)}, nil); code != 200 {
		t.Fatalf("move: %d", code)
	}
	h.waitFor("the max level's answer", func() bool { return h.view(a.ID).Ply >= 3 })
}

// TestSlowWatcherGetsNewest: a watcher whose connection sends nothing
// while many changes happen (its outbox's sending not yet run) is sent,
// when it sends, the view he subscribed with and the newest, none
// between.
func TestSlowWatcherGetsNewest(t *testing.T) {
	h := newHarness(t, 2, 16)
	c := h.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	rm := h.gs.loaded(c.ID)
	var sent [][]byte
	var sending func()
	out := httpx.NewOutbox(func(b []byte) error { sent = append(sent, bytes.Clone(b)); return nil }, func(f func()) { sending = f }, func() {})
	w := &watcher{deliver: out.PostLent, gone: out.End}
	if err := rm.subscribe(w); err != nil {
		t.Fatal(err)
	}
	defer rm.unsubscribe(w)
	moves := []string{"a4-a3", "e3-d3", "a3-a4", "d3-e3", "a4-a3", "e3-d3"}
	for i, m := range moves {
		if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[i%2], Action: m, Ply: at(i)}, nil); code != 200 {
			t.Fatalf("%s: %d", m, code)
		}
	}
	if sending == nil {
		t.Fatal("the first view was not handed on to be sent")
	}
	sending()
	if len(sent) != 2 {
		t.Fatalf("the slow watcher was sent %d views, want the first and the newest", len(sent))
	}
	var first, v View
	json.Unmarshal(sent[0], &first)
	json.Unmarshal(sent[1], &v)
	if first.Ply != 0 || v.Ply != len(moves) {
		t.Fatalf("the slow watcher got plies %d and %d, want 0 and the newest %d", first.Ply, v.Ply, len(moves))
	}
}

// testWatcher is a room's watcher whose views come on a channel (each
// one: the test reads them) and whose gone closes a channel.
type testWatcher struct {
	views chan []byte
	left  chan struct{}
	*watcher
}

func newTestWatcher() *testWatcher {
	w := &testWatcher{views: make(chan []byte, 64), left: make(chan struct{})}
	w.watcher = &watcher{deliver: func(l *httpx.Lent) { w.views <- bytes.Clone(l.Bytes()) }, gone: func() { close(w.left) }}
	return w
}

// next waits up to 5 seconds for the watcher's next view.
func (w *testWatcher) next(t *testing.T) []byte {
	t.Helper()
	select {
	case msg := <-w.views:
		return msg
	case <-time.After(5 * time.Second):
		t.Fatal("no view")
		return nil
	}
}

// TestWatcherGetsAChangeMadeAsHeSubscribes: a change published between a
// new watcher's first view and his counting among the watchers reaches
// him (it was lost: he waited on the view before it, and a computer's
// first move never came).
func TestWatcherGetsAChangeMadeAsHeSubscribes(t *testing.T) {
	h := newHarness(t, 2, 16)
	c := h.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	rm := h.gs.loaded(c.ID)
	moved := false
	testHookSubscribing = func() {
		if !moved {
			moved = true
			if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, nil); code != 200 {
				t.Errorf("move: %d", code)
			}
		}
	}
	defer func() { testHookSubscribing = func() {} }()
	w := newTestWatcher()
	if err := rm.subscribe(w.watcher); err != nil {
		t.Fatal(err)
	}
	defer rm.unsubscribe(w.watcher)
	if !moved {
		t.Fatal("the hook did not run")
	}
	var v View
	json.Unmarshal(w.next(t), &v)
	if v.Ply != 1 {
		t.Fatalf("the new watcher's view is at ply %d, want 1 (the move made as he subscribed)", v.Ply)
	}
}

// TestViewShape: lists are JSON arrays, never null, from the first view
// on (the page reads their length).
func TestViewShape(t *testing.T) {
	h := newHarness(t, 2, 16)
	c := h.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	for _, path := range []string{"/api/games/" + c.ID, "/api/games/" + c.ID + "?ply=0"} {
		var raw map[string]json.RawMessage
		h.call("GET", path, nil, &raw)
		for _, k := range []string{"history", "legal", "seats", "turns"} {
			if s := string(raw[k]); !strings.HasPrefix(s, "[") {
				t.Errorf("%s: %s is %s, want an array", path, k, s)
			}
		}
	}
}

// TestEvictedRoomLetsItsWatchersGo: a watcher that subscribed as its room
// left memory is let go (its page connects again), never left on a room
// nobody changes.
func TestEvictedRoomLetsItsWatchersGo(t *testing.T) {
	h := newHarness(t, 2, 16)
	c := h.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	r := h.gs.loaded(c.ID)
	w := newTestWatcher()
	if err := r.subscribe(w.watcher); err != nil {
		t.Fatal(err)
	}
	<-w.views
	h.gs.mu.Lock()
	delete(h.gs.rooms, c.ID) // as Evict does
	h.gs.mu.Unlock()
	r.retire()
	select {
	case <-w.left:
	default:
		t.Fatal("the watcher is not let go after its room retired")
	}
	if err := r.subscribe(newTestWatcher().watcher); err != errGone {
		t.Fatalf("subscribing to a retired room: %v", err)
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, nil); code != http.StatusOK {
		t.Fatalf("a move on a game whose room retired: %d", code)
	}
}

// TestOnlyNamedLevels: a request names a level, never a search: a search
// spec, however costly, is refused with the levels listed (hostile
// finding 1: mcts with a billion iterations on 4 threads grew the server
// by 500 MB); an operator's added spec is accepted.
func TestOnlyNamedLevels(t *testing.T) {
	h := newHarness(t, 2, 16)
	for _, level := range []string{"mcts(iterations=1000000000,threads=4)", "alphabeta(time=30s)", "random", "grandmaster"} {
		var e struct{ Error string }
		if code := h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "ai", Level: level, Side: "defenders"}, &e); code != http.StatusBadRequest || !strings.Contains(e.Error, "easy, medium, hard, max") {
			t.Errorf("level %s: %d %q", level, code, e.Error)
		}
	}
	if s := h.gs.Stats(); s.Rooms != 0 {
		t.Fatalf("refused games left %d rooms", s.Rooms)
	}
	h.gs.cfg.Levels = []string{"easy", "alphabeta(depth=1)"}
	h.create(createRequest{Game: "tablut", Opponent: "ai", Level: "alphabeta(depth=1)", Side: "defenders"})
}

// TestRematchChainLimited: a chain of resignations and rematches stops at
// the games-an-hour limit of the asking address, as plain new games do
// (hostile finding 3: 80 games in 0.2 s from an address already refused).
func TestRematchChainLimited(t *testing.T) {
	h := newHarness(t, 2, 16)
	h.gs.cfg.GamesPerHour = 4
	c := h.create(createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "attackers"})
	made := 1
	for range 10 {
		if code := h.call("POST", "/api/games/"+c.ID+"/resign", secretRequest{Secret: c.Secret}, nil); code != http.StatusOK {
			t.Fatalf("resign: %d", code)
		}
		var next createResponse
		code := h.call("POST", "/api/games/"+c.ID+"/rematch", secretRequest{Secret: c.Secret}, &next)
		if code == http.StatusTooManyRequests {
			break
		}
		if code != http.StatusOK {
			t.Fatalf("rematch: %d", code)
		}
		made++
		c.ID, c.Secret = next.ID, next.Secret
	}
	if made != 4 {
		t.Fatalf("%d games made through rematches, want the limit, 4", made)
	}
	var e struct{ Error string }
	if code := h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local"}, &e); code != http.StatusTooManyRequests {
		t.Fatalf("a new game past the limit: %d %q", code, e.Error)
	}
}

// TestRatedGameEndedUnplayedIsAborted: a rated game resigned before both
// sides have moved is aborted and moves no rating (hostile finding 7:
// +253 in six requests); resigned after, it is rated.
func TestRatedGameEndedUnplayedIsAborted(t *testing.T) {
	h := newHarness(t, 2, 16)
	ctx := context.Background()
	players := [2]*store.Player{{ID: token.ID(), Address: "a"}, {ID: token.ID(), Address: "b"}}
	for _, p := range players {
		if err := h.st.CreatePlayer(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	rated := func() (string, [2]string) {
		var secrets [2]string
		rec := &store.Game{ID: token.ID(), Spec: "tablut", DrawOffer: -1, TakebackOffer: -1, Rated: true, Seats: make([]store.Seat, 2)}
		for i, p := range players {
			secrets[i] = token.New(16)
			rec.Seats[i] = store.Seat{Kind: store.SeatHuman, Player: p.ID, SecretHash: token.Hash(secrets[i])}
		}
		if err := h.gs.Start(ctx, rec); err != nil {
			t.Fatal(err)
		}
		return rec.ID, secrets
	}
	for _, moves := range [][]string{nil, {"a4-a3"}} {
		id, secrets := rated()
		for i, m := range moves {
			if code := h.call("POST", "/api/games/"+id+"/act", actRequest{Secret: secrets[i%2], Action: m, Ply: at(i)}, nil); code != http.StatusOK {
				t.Fatalf("%s: %d", m, code)
			}
		}
		var v View
		if code := h.call("POST", "/api/games/"+id+"/resign", secretRequest{Secret: secrets[1]}, &v); code != http.StatusOK {
			t.Fatalf("resign: %d", code)
		}
		if v.Result != "aborted" || v.Ending != "aborted" || v.Winner != -1 || len(v.RatingChanges) != 0 || !strings.HasPrefix(v.Prompt.Text, "Game aborted: defenders resigned before both sides had moved") {
			t.Fatalf("resigned after %d moves: %s, %q, changes %v", len(moves), v.Result, v.Prompt.Text, v.RatingChanges)
		}
		for _, p := range players {
			if rs, err := h.st.Ratings(ctx, p.ID); err != nil || len(rs) != 0 {
				t.Fatalf("a rating moved: %v %v", rs, err)
			}
		}
	}
	// Once both have moved, resigning keeps its result, but is rated only
	// after three moves each (hostile finding, low: a resignation after a
	// move each was rated).
	for _, c := range []struct {
		moves []string
		rated bool
	}{
		{[]string{"a4-a3", "e3-f3"}, false},
		{[]string{"a4-a3", "e3-d3", "a3-a4", "d3-e3", "a4-a3", "e3-d3"}, true},
	} {
		id, secrets := rated()
		for i, m := range c.moves {
			if code := h.call("POST", "/api/games/"+id+"/act", actRequest{Secret: secrets[i%2], Action: m, Ply: at(i)}, nil); code != http.StatusOK {
				t.Fatalf("%s: %d", m, code)
			}
		}
		var v View
		h.call("POST", "/api/games/"+id+"/resign", secretRequest{Secret: secrets[1]}, &v)
		if v.Result != "attackers" || (len(v.RatingChanges) == 2) != c.rated || v.Rated != c.rated {
			t.Fatalf("resigned after %d moves: %s, rated %v, changes %v, %q", len(c.moves), v.Result, v.Rated, v.RatingChanges, v.Prompt.Text)
		}
		if !c.rated && !strings.Contains(v.Prompt.Text, "not rated") {
			t.Errorf("an unrated end does not say so: %q", v.Prompt.Text)
		}
	}
}

// TestGamesAtOnceKeepTheLimit: games asked for at once from one address
// stop at its hourly limit (hostile finding 11: 61 of 60).
func TestGamesAtOnceKeepTheLimit(t *testing.T) {
	h := newHarness(t, 2, 16)
	h.gs.cfg.GamesPerHour = 5
	var wg sync.WaitGroup
	var made atomic.Int32
	for range 12 {
		wg.Go(func() {
			switch code := h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local"}, nil); code {
			case http.StatusCreated:
				made.Add(1)
			case http.StatusTooManyRequests:
			default:
				t.Errorf("create: %d", code)
			}
		})
	}
	wg.Wait()
	if n := made.Load(); n != 5 {
		t.Fatalf("%d games made at once from one address, want the limit, 5", n)
	}
}

// cpu is the CPU time this process has spent.
func cpu(t *testing.T) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		t.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// TestOffersLimited: a seat offering and withdrawing a draw again and
// again is refused after a few a minute (hostile finding, low: 100 in
// 0.1 s, each a write and a broadcast).
func TestOffersLimited(t *testing.T) {
	h := newHarness(t, 2, 16)
	c := h.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	refused := 0
	for i := range 20 {
		what := "offer"
		if i%2 == 1 {
			what = "decline"
		}
		switch code := h.call("POST", "/api/games/"+c.ID+"/draw", secretRequest{Secret: c.Secrets[0], What: what}, nil); code {
		case http.StatusOK:
		case http.StatusTooManyRequests:
			refused++
		default:
			t.Fatalf("%s: %d", what, code)
		}
	}
	if refused != 20-offersPerMinute {
		t.Fatalf("%d of 20 offers refused, want %d", refused, 20-offersPerMinute)
	}
	// The other seat may still answer.
	if code := h.call("POST", "/api/games/"+c.ID+"/takeback", secretRequest{Secret: c.Secrets[1], What: "decline"}, nil); code != http.StatusOK {
		t.Fatalf("the other seat: %d", code)
	}
}

// TestLessonBoardsInNoList: the board of a lesson step is a game of its
// own that counts in no "your turn", no list of the learner's games and
// no lobby (issue 31: after the lessons the header said "Your turn in 12
// games"); a lesson is played at one screen.
func TestLessonBoardsInNoList(t *testing.T) {
	h := newHarness(t, 2, 16)
	h.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers", Lesson: true})
	var me struct {
		YourTurn int `json:"your_turn"`
	}
	if h.call("GET", "/api/me", nil, &me); me.YourTurn != 0 {
		t.Fatalf("a lesson's board counts as a game waiting: %d", me.YourTurn)
	}
	h.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	if h.call("GET", "/api/me", nil, &me); me.YourTurn != 1 {
		t.Fatalf("a game at one screen: %d waiting, want 1", me.YourTurn)
	}
	// A puzzle's board, against the computer, is in no list either; a
	// lesson against a friend is refused.
	h.create(createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "attackers", Lesson: true})
	if h.call("GET", "/api/me", nil, &me); me.YourTurn != 1 {
		t.Fatalf("a puzzle's board counts as a game waiting: %d waiting, want 1", me.YourTurn)
	}
	var e struct{ Error string }
	if code := h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "friend", Lesson: true}, &e); code != http.StatusBadRequest {
		t.Fatalf("a lesson with a friend: %d %q", code, e.Error)
	}
}

// TestNeedAgentTold: the server is told of each game a computer player is
// made for (muster serve builds what the players need then, once, rather
// than at every start).
func TestNeedAgentTold(t *testing.T) {
	cfg := testConfig
	var told []string
	var mu sync.Mutex
	cfg.NeedAgent = func(g game.Game) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, g.Name())
	}
	h := newHarnessConfig(t, 2, 4, cfg)
	c := h.create(createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "defenders"})
	h.waitFor("the computer's move", func() bool { return h.view(c.ID).Ply == 1 })
	h.create(createRequest{Game: "tablut", Opponent: "local"})
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 1 || told[0] != "tablut" {
		t.Fatalf("told of %v, want the one game against the computer", told)
	}
}

// TestWatchersGetTheViewAsMadeAgain: what a change sends its watchers,
// the legal moves written by the game itself (Tablut writes them as JSON:
// game.LegalJSONAppender), is byte for byte the view made again and
// encoded from the snapshot's game (its legal moves described and encoded
// as any game's are), move after move of a game played to its end or
// ply 80.
func TestWatchersGetTheViewAsMadeAgain(t *testing.T) {
	h := newHarness(t, 2, 16)
	c := h.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	rm := h.gs.loaded(c.ID)
	w := newTestWatcher()
	if err := rm.subscribe(w.watcher); err != nil {
		t.Fatal(err)
	}
	defer rm.unsubscribe(w.watcher)
	rng := rand.New(rand.NewPCG(4, 4))
	msg := w.next(t)
	for ply := 0; ply < 80; ply++ {
		var v View
		if err := json.Unmarshal(msg, &v); err != nil {
			t.Fatal(err)
		}
		if v.Status != store.StatusPlaying {
			break
		}
		a := v.Legal[rng.IntN(len(v.Legal))]
		if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[v.ToAct], Action: a.Text, Ply: at(ply)}, nil); code != 200 {
			t.Fatalf("ply %d, %s: %d", ply, a.Text, code)
		}
		msg = w.next(t)
		if want := rm.snap.Load().marshalLent(h.gs, false); !bytes.Equal(msg, want) {
			t.Fatalf("ply %d: sent\n%s\nmade again\n%s", ply+1, msg, want)
		}
	}
}
