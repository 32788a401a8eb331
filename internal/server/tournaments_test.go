package server

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/pgtest"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/tournaments"
)

// tick runs the tournaments' director once, as the server's sweep does.
func (h *harness) tick() {
	h.t.Helper()
	if err := h.srv.tours.Tick(context.Background()); err != nil {
		h.t.Fatalf("tick: %v", err)
	}
}

// accounts registers one person by name for each name.
func (h *harness) accounts(names ...string) map[string]*person {
	h.t.Helper()
	by := map[string]*person{}
	for _, n := range names {
		by[n] = h.person()
		by[n].register(n)
	}
	return by
}

// openTournament has the creator create a tournament from body and each
// of the others join it; it returns the tournament's id.
func (h *harness) openTournament(by map[string]*person, body map[string]any, creator string, others ...string) string {
	h.t.Helper()
	var v tournaments.View
	if code := by[creator].call("POST", "/api/tournaments", body, &v); code != http.StatusCreated {
		h.t.Fatalf("create %v: %d", body["name"], code)
	}
	for _, n := range others {
		if code := by[n].call("POST", "/api/tournaments/"+v.ID+"/join", struct{}{}, nil); code != http.StatusOK {
			h.t.Fatalf("%s joins %v: %d", n, body["name"], code)
		}
	}
	return v.ID
}

// finishRound ends every game of the round in play: in each, the player
// of the first seat resigns (so White, the first seat, loses every game).
func (h *harness) finishRound(v tournaments.View, by map[string]*person) {
	h.t.Helper()
	round := v.Games[v.Round-1]
	for _, b := range round {
		if b.Result != "*" {
			continue
		}
		if code := by[b.White].call("POST", "/api/games/"+b.Game+"/resign", secretRequest{}, nil); code != http.StatusOK {
			h.t.Fatalf("round %d: %s resigns %s: %d", v.Round, b.White, b.Game, code)
		}
	}
}

// TestRoundRobinTournament: an account creates a correspondence round
// robin, two more join; at its start the server seeds them and pairs
// Berger's rounds (three players: a bye each round), starts each round's
// games as the last ends — across a server restart — and the standings
// follow the results, with Sonneborn-Berger.
func TestRoundRobinTournament(t *testing.T) {
	db := t.TempDir() + "/muster.db"
	h := newHarness(t, db, testConfig())
	by := h.accounts("ann", "ben", "cat")
	var v tournaments.View
	if code := by["ann"].call("POST", "/api/tournaments", map[string]any{"name": "Winter round robin", "kind": "roundrobin", "game": "tablut", "days": 1, "starts_in": 0}, &v); code != http.StatusCreated || !v.In {
		t.Fatalf("create: %d %+v", code, v)
	}
	id := v.ID
	for _, n := range []string{"ben", "cat"} {
		if code := by[n].call("POST", "/api/tournaments/"+id+"/join", struct{}{}, &v); code != http.StatusOK {
			t.Fatalf("%s joins: %d", n, code)
		}
	}
	if code := h.person().call("POST", "/api/tournaments/"+id+"/join", struct{}{}, nil); code != http.StatusForbidden {
		t.Errorf("an anonymous player joined: %d", code)
	}
	h.tick() // starts it and pairs round 1
	by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
	if v.Status != "running" || v.Round != 1 || v.Rounds != 3 || len(v.Games) != 1 || len(v.Games[0]) != 2 {
		t.Fatalf("after the start: %+v", v)
	}
	late := h.person()
	late.register("dan")
	if code := late.call("POST", "/api/tournaments/"+id+"/join", struct{}{}, nil); code != http.StatusConflict {
		t.Errorf("joined after the start: %d", code)
	}
	h.finishRound(v, by)
	h.tick()
	// A restart between rounds: the next round is paired by the new
	// server from the store.
	h.close()
	h = newHarness(t, db, testConfig())
	for _, p := range by {
		p.h = h
	}
	h.tick()
	by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
	if v.Round != 2 {
		t.Fatalf("after a restart: round %d", v.Round)
	}
	h.finishRound(v, by)
	h.tick()
	by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
	h.finishRound(v, by)
	h.tick()
	by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
	if v.Status != "over" || len(v.Games) != 3 {
		t.Fatalf("at the end: %s, %d rounds", v.Status, len(v.Games))
	}
	// Everyone met everyone once, each had one bye, and the second seat
	// won every game: points follow the Black games and the bye.
	met := map[[2]string]int{}
	byes := map[string]int{}
	blacks := map[string]int{}
	for _, r := range v.Games {
		for _, b := range r {
			if b.Black == "" {
				byes[b.White]++
				continue
			}
			if b.Result != "0-1" {
				t.Errorf("a game's result %q", b.Result)
			}
			met[[2]string{min(b.White, b.Black), max(b.White, b.Black)}]++
			blacks[b.Black]++
		}
	}
	if len(met) != 3 || byes["ann"] != 1 || byes["ben"] != 1 || byes["cat"] != 1 {
		t.Errorf("pairings: met %v byes %v", met, byes)
	}
	total := 0.0
	for _, l := range v.Standings {
		if l.Points != float64(blacks[l.Name]+1) {
			t.Errorf("%s: %g points, want %d", l.Name, l.Points, blacks[l.Name]+1)
		}
		total += l.Points
	}
	if total != 6 || v.Standings[0].Rank != 1 {
		t.Errorf("standings %+v", v.Standings)
	}
}

// TestSwissTournament: a Swiss of four players over three rounds pairs no
// two players twice; creating is limited to accounts and to three a day.
func TestSwissTournament(t *testing.T) {
	h := newHarness(t, "", testConfig())
	by := h.accounts("ann", "ben", "cat", "dan")
	id := h.openTournament(by, map[string]any{"name": "Swiss", "kind": "swiss", "rounds": 3, "game": "tablut", "minutes": 10, "increment": 5, "starts_in": 0}, "ann", "ben", "cat", "dan")
	var v tournaments.View
	h.tick()
	for round := 1; round <= 3; round++ {
		by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
		if v.Round != round || len(v.Games[round-1]) != 2 {
			t.Fatalf("round %d: %+v", round, v.Games)
		}
		h.finishRound(v, by)
		h.tick()
	}
	by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
	if v.Status != "over" {
		t.Fatalf("status %s", v.Status)
	}
	met := map[[2]string]int{}
	for _, r := range v.Games {
		for _, b := range r {
			k := [2]string{min(b.White, b.Black), max(b.White, b.Black)}
			if met[k]++; met[k] > 1 {
				t.Errorf("%v met twice", k)
			}
		}
	}
	if len(met) != 6 {
		t.Errorf("pairs met: %v", met)
	}
	if code := h.person().call("POST", "/api/tournaments", map[string]any{"name": "x", "kind": "swiss", "rounds": 3, "game": "tablut", "days": 1, "starts_in": 5}, nil); code != http.StatusForbidden {
		t.Errorf("an anonymous creator: %d", code)
	}
	for i := 0; i < 3; i++ {
		code := by["ben"].call("POST", "/api/tournaments", map[string]any{"name": "more", "kind": "roundrobin", "game": "lanrick", "days": 1, "starts_in": 60}, nil)
		if want := map[bool]int{true: http.StatusCreated, false: http.StatusTooManyRequests}[i < 3]; code != want {
			t.Errorf("tournament %d: %d, want %d", i+1, code, want)
		}
	}
	if code := by["ben"].call("POST", "/api/tournaments", map[string]any{"name": "more", "kind": "roundrobin", "game": "lanrick", "days": 1, "starts_in": 60}, nil); code != http.StatusTooManyRequests {
		t.Errorf("a fourth tournament in a day: %d", code)
	}
	var list map[string][]tournaments.Summary
	h.person().call("GET", "/api/tournaments", nil, &list)
	if len(list["open"]) != 3 || len(list["over"]) != 1 {
		t.Errorf("the list: %d open, %d over", len(list["open"]), len(list["over"]))
	}
}

// TestTournamentStartNow: only the creator starts an open tournament
// early, and only with two players in; alone, at its time, it is called
// off.
func TestTournamentStartNow(t *testing.T) {
	h := newHarness(t, "", testConfig())
	ann, ben := h.person(), h.person()
	ann.register("ann")
	ben.register("ben")
	var v tournaments.View
	ann.call("POST", "/api/tournaments", map[string]any{"name": "Early", "kind": "roundrobin", "game": "tablut", "days": 2, "starts_in": 600}, &v)
	if code := ann.call("POST", "/api/tournaments/"+v.ID+"/start", struct{}{}, nil); code != http.StatusConflict {
		t.Errorf("started alone: %d", code)
	}
	ben.call("POST", "/api/tournaments/"+v.ID+"/join", struct{}{}, nil)
	if code := ben.call("POST", "/api/tournaments/"+v.ID+"/start", struct{}{}, nil); code != http.StatusForbidden {
		t.Errorf("started by another: %d", code)
	}
	if code := ann.call("POST", "/api/tournaments/"+v.ID+"/start", struct{}{}, &v); code != http.StatusOK || !v.Mine {
		t.Fatalf("start now: %d", code)
	}
	h.tick()
	ann.call("GET", "/api/tournaments/"+v.ID, nil, &v)
	if v.Status != "running" || len(v.Games) != 1 {
		t.Errorf("after the start: %s %+v", v.Status, v.Games)
	}
	var alone tournaments.View
	ann.call("POST", "/api/tournaments", map[string]any{"name": "Alone", "kind": "swiss", "rounds": 2, "game": "tablut", "days": 2, "starts_in": 0}, &alone)
	h.tick()
	ann.call("GET", "/api/tournaments/"+alone.ID, nil, &alone)
	if alone.Status != "over" || len(alone.Games) != 0 {
		t.Errorf("a tournament of one at its time: %s", alone.Status)
	}
}

// TestArenaTournament: an arena pairs the free players at once, again and
// again, never with their last opponent while another is free; a
// latecomer joins while it runs; the points follow lichess's rules (2 a
// win, doubled after two wins in a row); at its end nobody is paired and
// it finishes.
func TestArenaTournament(t *testing.T) {
	h := newHarness(t, "", testConfig())
	// The clock, moved by the test and read by the server's sweep too.
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	h.srv.tours.Now = func() time.Time { return time.Unix(0, clock.Load()) }
	by := h.accounts("ann", "ben", "cat", "dan", "eve")
	id := h.openTournament(by, map[string]any{"name": "Hourly arena", "kind": "arena", "duration": 30, "game": "tablut", "minutes": 3, "increment": 2, "starts_in": 0}, "ann", "ben", "cat", "dan")
	var v tournaments.View
	h.tick()
	by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
	if v.Status != "running" || len(v.Games) != 1 || len(v.Games[0]) != 2 {
		t.Fatalf("first wave: %s %+v", v.Status, v.Games)
	}
	// Eve joins while it runs.
	if code := by["eve"].call("POST", "/api/tournaments/"+id+"/join", struct{}{}, nil); code != http.StatusOK {
		t.Fatalf("a latecomer: %d", code)
	}
	wins := map[string][]bool{}
	last := map[string]string{}
	for wave := 0; wave < 4; wave++ {
		h.tick() // pairs eve with whoever is free (nobody, at first)
		by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
		for _, r := range v.Games {
			for _, b := range r {
				if b.Result != "*" {
					continue
				}
				if last[b.White] == b.Black && last[b.Black] == b.White {
					t.Errorf("%s and %s paired twice running", b.White, b.Black)
				}
				last[b.White], last[b.Black] = b.Black, b.White
				// The second seat wins every game.
				by[b.White].call("POST", "/api/games/"+b.Game+"/resign", secretRequest{}, nil)
				wins[b.White] = append(wins[b.White], false)
				wins[b.Black] = append(wins[b.Black], true)
			}
		}
		clock.Add(int64(time.Minute))
	}
	h.tick()
	by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
	for _, l := range v.Standings {
		want, run := 0, 0
		for _, w := range wins[l.Name] {
			pts := 0
			if w {
				pts = 2
				if run >= 2 {
					pts = 4
				}
				run++
			} else {
				run = 0
			}
			want += pts
		}
		if l.Points != float64(want) || l.Played != len(wins[l.Name]) {
			t.Errorf("%s: %g points in %d games, want %d in %d (%v)", l.Name, l.Points, l.Played, want, len(wins[l.Name]), l.Scores)
		}
	}
	if len(wins["eve"]) == 0 {
		t.Error("the latecomer was never paired")
	}
	// Its time up, the last games end it.
	clock.Add(int64(time.Hour))
	h.tick()
	for _, r := range v.Games {
		for _, b := range r {
			if b.Result == "*" {
				by[b.White].call("POST", "/api/games/"+b.Game+"/resign", secretRequest{}, nil)
			}
		}
	}
	h.tick()
	by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
	if v.Status != "over" {
		t.Errorf("after its time: %s", v.Status)
	}
}

// TestTournamentBots: a bot joins only a tournament open to bots, and
// creates none.
func TestTournamentBots(t *testing.T) {
	h := newHarness(t, "", testConfig())
	robot, _ := h.newBot("robot")
	ann := h.person()
	ann.register("ann")
	var closed, open tournaments.View
	ann.call("POST", "/api/tournaments", map[string]any{"name": "People", "kind": "swiss", "rounds": 3, "game": "tablut", "days": 1, "starts_in": 60}, &closed)
	ann.call("POST", "/api/tournaments", map[string]any{"name": "Bots welcome", "kind": "swiss", "rounds": 3, "game": "tablut", "days": 1, "starts_in": 60, "bots": true}, &open)
	if code := robot.call("POST", "/api/tournaments/"+closed.ID+"/join", struct{}{}, nil); code != http.StatusForbidden {
		t.Errorf("a bot joined a tournament closed to bots: %d", code)
	}
	if code := robot.call("POST", "/api/tournaments/"+open.ID+"/join", struct{}{}, &open); code != http.StatusOK || open.Players != 2 || !open.Bots {
		t.Errorf("a bot joins one open to bots: %d %+v", code, open.Summary)
	}
	if code := robot.call("POST", "/api/tournaments", map[string]any{"name": "Mine", "kind": "swiss", "rounds": 3, "game": "tablut", "days": 1, "starts_in": 60, "bots": true}, nil); code != http.StatusForbidden {
		t.Errorf("a bot created a tournament: %d", code)
	}
}

// TestTournamentTwoInstances: two servers on one PostgreSQL database run
// the same round robin's director at once: the round is paired once and
// its game made once; when A stops, B alone goes on to the next round.
func TestTournamentTwoInstances(t *testing.T) {
	dsn := pgtest.DSN(t)
	a := newHarness(t, dsn, testConfig())
	b := newHarness(t, dsn, testConfig())
	by := a.accounts("ann", "ben", "cat")
	id := a.openTournament(by, map[string]any{"name": "Shared", "kind": "roundrobin", "game": "tablut", "days": 1, "starts_in": 0}, "ann", "ben", "cat")
	var v tournaments.View
	// Both directors at once, several times over.
	for i := 0; i < 5; i++ {
		done := make(chan error, 2)
		for _, h := range []*harness{a, b} {
			go func() { done <- h.srv.tours.Tick(context.Background()) }()
		}
		<-done
		<-done
	}
	by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
	if v.Status != "running" || v.Round != 1 || len(v.Games) != 1 || len(v.Games[0]) != 2 {
		t.Fatalf("after both directors: %s round %d %+v", v.Status, v.Round, v.Games)
	}
	var game string
	for _, bd := range v.Games[0] {
		if bd.Black != "" {
			game = bd.Game
		}
	}
	if _, err := a.st.Get(context.Background(), game); err != nil {
		t.Fatalf("the round's game: %v", err)
	}
	a.close()
	for _, p := range by {
		p.h = b
	}
	var g play.View
	by["ann"].call("GET", "/api/games/"+game, nil, &g)
	white := g.Seats[0].Name
	if code := by[white].call("POST", "/api/games/"+game+"/resign", secretRequest{}, nil); code != http.StatusOK {
		t.Fatalf("resign through B: %d", code)
	}
	b.tick()
	by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
	if v.Round != 2 {
		t.Errorf("B alone: round %d", v.Round)
	}
}

// TestTournamentJoinsAtOnce (hostile finding 10: twelve accounts joining a
// two-player Swiss at once took eight): the checks and the entry are one
// transaction; twelve at once, two enter and ten are told it is full.
func TestTournamentJoinsAtOnce(t *testing.T) {
	cfg := testConfig()
	cfg.AccountsPerHour = 100
	h := newHarness(t, "", cfg)
	names := []string{"creator"}
	for i := range 12 {
		names = append(names, fmt.Sprintf("joiner%02d", i))
	}
	by := h.accounts(names...)
	var v tournaments.View
	if code := by["creator"].call("POST", "/api/tournaments", map[string]any{"name": "Two", "kind": "swiss", "rounds": 1, "game": "tablut", "days": 1, "starts_in": 60, "max_players": 3}, &v); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	var in, full atomic.Int32
	var wg sync.WaitGroup
	for _, n := range names[1:] {
		wg.Go(func() {
			switch code := by[n].call("POST", "/api/tournaments/"+v.ID+"/join", struct{}{}, nil); code {
			case http.StatusOK:
				in.Add(1)
			case http.StatusConflict:
				full.Add(1)
			default:
				t.Errorf("%s joins: %d", n, code)
			}
		})
	}
	wg.Wait()
	by["creator"].call("GET", "/api/tournaments/"+v.ID, nil, &v)
	if in.Load() != 2 || full.Load() != 10 || v.Players != 3 {
		t.Fatalf("%d joined, %d refused; %d players of at most 3", in.Load(), full.Load(), v.Players)
	}
}

// TestNextRoundFromTheGamesEnd (hostile finding 10, and the house's: the
// director read every game of every tournament every 2 s): a round's last
// game ending starts the next round at once, with no sweep.
func TestNextRoundFromTheGamesEnd(t *testing.T) {
	h := newHarness(t, "", testConfig())
	by := h.accounts("ann", "ben", "cat", "dan")
	id := h.openTournament(by, map[string]any{"name": "Events", "kind": "swiss", "rounds": 2, "game": "tablut", "days": 1, "starts_in": 60}, "ann", "ben", "cat", "dan")
	if code := by["ann"].call("POST", "/api/tournaments/"+id+"/start", struct{}{}, nil); code != http.StatusOK {
		t.Fatalf("start now: %d", code)
	}
	// The sweep that starts tournaments at their time, as the server's.
	if err := h.srv.tours.Due(context.Background()); err != nil {
		t.Fatal(err)
	}
	var v tournaments.View
	by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
	if v.Status != "running" || v.Round != 1 || len(v.Games) != 1 || len(v.Games[0]) != 2 {
		t.Fatalf("after the start: %s round %d %+v", v.Status, v.Round, v.Games)
	}
	h.finishRound(v, by)
	deadline := time.Now().Add(10 * time.Second)
	for v.Round < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		by["ann"].call("GET", "/api/tournaments/"+id, nil, &v)
	}
	if v.Round != 2 || len(v.Games) != 2 {
		t.Fatalf("after the first round's last game: round %d, %+v", v.Round, v.Games)
	}
}

// TestTournamentNeedsAClockAndAPlainName (hostile findings, low: a
// tournament without a clock could be stalled for ever by one player who
// stops moving; names took direction controls).
func TestTournamentNeedsAClockAndAPlainName(t *testing.T) {
	h := newHarness(t, "", testConfig())
	ann := h.accounts("ann")["ann"]
	for _, body := range []map[string]any{
		{"name": "Timeless", "kind": "swiss", "rounds": 3, "game": "tablut", "starts_in": 60},
		{"name": "Name\u202e", "kind": "swiss", "rounds": 3, "game": "tablut", "days": 1, "starts_in": 60},
	} {
		var e map[string]string
		if code := ann.call("POST", "/api/tournaments", body, &e); code != http.StatusBadRequest {
			t.Errorf("%v: %d %v, want 400", body, code, e)
		}
	}
}
