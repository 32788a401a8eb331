package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
)

// at is the same browser (its cookies) talking to another server.
func (p *person) at(h *harness) *person { return &person{h: h, c: p.c, hdr: p.hdr} }

// together runs fs at once and waits for them.
func together(fs ...func()) {
	var start, done sync.WaitGroup
	start.Add(1)
	for _, f := range fs {
		done.Go(func() {
			start.Wait()
			f()
		})
	}
	start.Done()
	done.Wait()
}

// TestTwoServersKeepEveryChange (hostile finding 3: a friend joining
// through server B while the creator moved through server A lost the
// join in 2 of 4 tries, A having written its stale copy of the game over
// B's change). Every write of a game is conditional on the version it
// read; a write that finds the game changed reads it again and is made
// on it. Each race below runs through two servers sharing PostgreSQL, the
// two requests sent at once, and every change acknowledged is in the
// game afterwards, on both servers.
func TestTwoServersKeepEveryChange(t *testing.T) {
	cfg := testConfig()
	cfg.GamesPerHour = 1000
	a, b := twoServers(t, cfg)
	ctx := context.Background()
	// newGame makes a game for a friend on A, its creator attacking.
	newGame := func(t *testing.T, creator *person) (createResponse, string) {
		var c createResponse
		if code := creator.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "friend", Side: "attackers"}, &c); code != http.StatusCreated {
			t.Fatalf("create: %d", code)
		}
		return c, strings.Split(c.Invite, "join=")[1]
	}
	// stored reads the game as the database has it.
	stored := func(t *testing.T, id string) *store.Game {
		g, err := a.st.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	// sameOnBoth checks that both servers show the stored game.
	sameOnBoth := func(t *testing.T, id string, want *store.Game) {
		for _, h := range []*harness{a, b} {
			deadline := time.Now().Add(10 * time.Second)
			for {
				var v struct {
					Ply    int
					Status string
				}
				h.call("GET", "/api/games/"+id, nil, &v)
				if v.Ply == len(want.Actions) && v.Status == string(want.Status) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("a server shows ply %d %s, the database %d %s", v.Ply, v.Status, len(want.Actions), want.Status)
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
	}

	t.Run("join and move", func(t *testing.T) {
		for try := range 100 {
			creator, friend := a.person(), b.person()
			c, invite := newGame(t, creator)
			var joinCode, moveCode int
			var joined struct{ Seat int }
			together(
				func() {
					joinCode = friend.call("POST", "/api/games/"+c.ID+"/join", map[string]string{"token": invite}, &joined)
				},
				func() {
					moveCode = creator.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secret, Action: "a4-a3", Ply: at(0)}, nil)
				})
			g := stored(t, c.ID)
			if joinCode != http.StatusOK || moveCode != http.StatusOK {
				t.Fatalf("try %d: join %d, move %d", try, joinCode, moveCode)
			}
			if g.Seats[1].Player == "" || g.Seats[1].JoinHash != "" || len(g.Actions) != 1 {
				t.Fatalf("try %d: a change was lost: seats %+v, actions %v", try, g.Seats, g.Actions)
			}
			// The friend plays on, through either server.
			if code := friend.at(a).call("POST", "/api/games/"+c.ID+"/act", actRequest{Action: "e3-d3", Ply: at(1)}, nil); code != http.StatusOK {
				t.Fatalf("try %d: the friend's move through A: %d", try, code)
			}
			sameOnBoth(t, c.ID, stored(t, c.ID))
		}
	})

	// joinedGame is a game whose friend has joined through B.
	joinedGame := func(t *testing.T) (creator, friend *person, c createResponse) {
		creator, friend = a.person(), b.person()
		c, invite := newGame(t, creator)
		if code := friend.call("POST", "/api/games/"+c.ID+"/join", map[string]string{"token": invite}, nil); code != http.StatusOK {
			t.Fatalf("join: %d", code)
		}
		return creator, friend, c
	}

	t.Run("draw offer and move", func(t *testing.T) {
		for try := range 20 {
			creator, friend, c := joinedGame(t)
			var offerCode, moveCode int
			together(
				func() {
					offerCode = friend.call("POST", "/api/games/"+c.ID+"/draw", secretRequest{What: "offer"}, nil)
				},
				func() {
					moveCode = creator.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secret, Action: "a4-a3", Ply: at(0)}, nil)
				})
			g := stored(t, c.ID)
			if offerCode != http.StatusOK || moveCode != http.StatusOK || len(g.Actions) != 1 {
				t.Fatalf("try %d: offer %d, move %d, actions %v", try, offerCode, moveCode, g.Actions)
			}
			sameOnBoth(t, c.ID, g)
		}
	})

	t.Run("resignation and move", func(t *testing.T) {
		for try := range 20 {
			creator, friend, c := joinedGame(t)
			var resignCode, moveCode int
			together(
				func() {
					resignCode = friend.call("POST", "/api/games/"+c.ID+"/resign", secretRequest{}, nil)
				},
				func() {
					moveCode = creator.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secret, Action: "a4-a3", Ply: at(0)}, nil)
				})
			g := stored(t, c.ID)
			moved := moveCode == http.StatusOK
			if resignCode != http.StatusOK || g.Status != store.StatusOver || !strings.Contains(g.Reason, "resigned") || (len(g.Actions) == 1) != moved {
				t.Fatalf("try %d: resign %d, move %d; stored %s %q after %v", try, resignCode, moveCode, g.Status, g.Reason, g.Actions)
			}
			if !moved && moveCode != http.StatusConflict {
				t.Fatalf("try %d: the move after the resignation: %d, want 409", try, moveCode)
			}
			sameOnBoth(t, c.ID, g)
		}
	})

	t.Run("chat and move", func(t *testing.T) {
		for try := range 10 {
			creator, friend, c := joinedGame(t)
			var chatCode, moveCode int
			together(
				func() {
					chatCode = friend.call("POST", "/api/games/"+c.ID+"/chat", chatRequest{Text: "good luck"}, nil)
				},
				func() {
					moveCode = creator.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secret, Action: "a4-a3", Ply: at(0)}, nil)
				})
			g := stored(t, c.ID)
			ms, err := a.st.Messages(ctx, c.ID, []string{store.ChatPlayers}, 10)
			if chatCode != http.StatusCreated || moveCode != http.StatusOK || len(g.Actions) != 1 || len(ms) != 1 {
				t.Fatalf("try %d: chat %d, move %d, actions %v, lines %d %v", try, chatCode, moveCode, g.Actions, len(ms), err)
			}
		}
	})
}

// TestTwoServersReadTheirWrites: a change answered by one server is in
// the game as the other shows it at once, before the other has been told
// of it (the load client, playing each game's moves on server B's
// socket and reading the game from server A at its end, found the last
// move missing from A's answer in 491 games of 500). Each move here is
// made through B and the game read from A at once: its view, its record,
// and a socket opened on A.
func TestTwoServersReadTheirWrites(t *testing.T) {
	a, b := twoServers(t, testConfig())
	p := a.person()
	var c createResponse
	if code := p.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Side: "attackers"}, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	for ply := range 20 {
		var v play.View
		if code := p.call("GET", "/api/games/"+c.ID, nil, &v); code != http.StatusOK || v.Ply != ply {
			t.Fatalf("A shows ply %d (%d) after %d moves made through B", v.Ply, code, ply)
		}
		if len(v.Legal) == 0 {
			t.Fatalf("ply %d: no legal action (%s %s)", ply, v.Status, v.Result)
		}
		// The moves spread over the legal ones, so that the game runs on.
		move := v.Legal[ply*7%len(v.Legal)].Text
		if code := p.at(b).call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[v.ToAct], Action: move, Ply: at(ply)}, nil); code != http.StatusOK {
			t.Fatalf("ply %d: the move through B: %d", ply, code)
		}
		switch ply % 5 {
		case 2:
			// The record, read at once.
			res, err := p.c.Get(a.http.URL + "/api/games/" + c.ID + "/record")
			if err != nil {
				t.Fatal(err)
			}
			rec, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if !strings.Contains(string(rec), move) {
				t.Fatalf("ply %d: A's record lacks %s, just played through B:\n%s", ply, move, rec)
			}
		case 4:
			// A socket's first view.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			ws := dialGame(t, ctx, a, c.ID, nil)
			w := ws.read()
			ws.conn.CloseNow()
			cancel()
			if w.Ply != ply+1 {
				t.Fatalf("a socket opened on A shows ply %d after %d moves made through B", w.Ply, ply+1)
			}
		}
	}
}

// TestLobbyDrawsGamesPlayedElsewhere: a watcher of server A's lobby is
// sent the board of a game between two people as it is after a move made
// through server B, though A, which holds the game in memory and nobody
// watches there, does not read the game again at each change (A's lobby
// is told, and draws the game from the store). The friend joined through
// B: A's own copy does not know that the game is between two people (the
// first way of telling the lobby asked that copy, and A's lobby never
// showed the move).
func TestLobbyDrawsGamesPlayedElsewhere(t *testing.T) {
	cfg := testConfig()
	a, b := twoServers(t, cfg)
	creator, friend := a.person(), b.person()
	var c createResponse
	if code := creator.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "friend", Side: "attackers"}, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if code := friend.call("POST", "/api/games/"+c.ID+"/join", map[string]string{"token": strings.Split(c.Invite, "join=")[1]}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(a.http.URL, "http")+"/ws/lobby", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 20)
	// next reads A's lobby until it lists the game, and tells whether a
	// piece stands on a4 and on a3.
	next := func() (a4, a3 bool) {
		for {
			_, msg, err := conn.Read(ctx)
			if err != nil {
				t.Fatalf("A's lobby: %v", err)
			}
			var lv lobbyView
			if json.Unmarshal(msg, &lv) != nil {
				continue
			}
			for _, g := range lv.Live {
				if g.ID != c.ID {
					continue
				}
				for _, p := range g.Board.Board.Pieces {
					a4 = a4 || p.Square == "a4"
					a3 = a3 || p.Square == "a3"
				}
				return a4, a3
			}
		}
	}
	if a4, a3 := next(); !a4 || a3 {
		t.Fatalf("A's lobby before the move: a4 %v, a3 %v", a4, a3)
	}
	if code := creator.at(b).call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secret, Action: "a4-a3", Ply: at(0)}, nil); code != http.StatusOK {
		t.Fatalf("the move through B: %d", code)
	}
	for {
		if a4, a3 := next(); !a4 && a3 {
			return
		}
	}
}
