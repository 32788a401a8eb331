package cli

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// browser is one person's client of a server: its own cookies.
type browser struct {
	t      *testing.T
	base   string
	client *http.Client
}

func newBrowser(t *testing.T, base string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: "http://" + base, client: &http.Client{Jar: jar}}
}

// call sends body as JSON and decodes the answer into out; it returns the
// status.
func (b *browser) call(method, path string, body, out any) int {
	b.t.Helper()
	var rd *bytes.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		rd = bytes.NewReader(j)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, b.base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	res, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

// friendsGame is a game of Tablut between two browsers.
type friendsGame struct {
	id      string
	players [2]*browser
	actions []string
}

func newFriendsGame(t *testing.T, base string) *friendsGame {
	t.Helper()
	g := &friendsGame{players: [2]*browser{newBrowser(t, base), newBrowser(t, base)}}
	var c struct{ ID, Invite string }
	if code := g.players[0].call("POST", "/api/games", map[string]string{"game": "tablut", "opponent": "friend", "side": "attackers"}, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	_, token, _ := strings.Cut(c.Invite, "join=")
	if code := g.players[1].call("POST", "/api/games/"+c.ID+"/join", map[string]string{"token": token}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	g.id = c.ID
	return g
}

// tablutMoves are legal moves of a game of Tablut from its start, in turn.
var tablutMoves = []string{"a4-a3", "e3-d3", "a3-a2", "d3-d2", "a2-b2", "d2-c2"}

// move plays the game's next move, answered.
func (g *friendsGame) move(t *testing.T) {
	t.Helper()
	ply := len(g.actions)
	a := tablutMoves[ply]
	if code := g.players[ply%2].call("POST", "/api/games/"+g.id+"/act", map[string]any{"action": a, "ply": ply}, nil); code != http.StatusOK {
		t.Fatalf("game %s: %s: %d", g.id, a, code)
	}
	g.actions = append(g.actions, a)
}

// journalRecords returns the byte offsets at which the records of a
// move journal's file begin (docs/operating.md: each is its payload's
// length and checksum, four bytes each, then the payload; zeros end them).
func journalRecords(b []byte) []int {
	var at []int
	for off := 0; off+8 <= len(b) && !slices.Equal(b[off:off+8], make([]byte, 8)); {
		at = append(at, off)
		off += 8 + int(binary.LittleEndian.Uint32(b[off:]))
	}
	return at
}

// TestJournalAfterSIGKILL (issue 71: a load run never saw a record in
// <db>-moves, at any sample or any of five kills): a real server process
// is killed (SIGKILL) while the moves just answered are in its journal's
// file and not yet in the database, and started again: every answered
// move is back. Then again with a record in the middle of the file
// damaged: the intact records are written, and the damaged record's game
// has its moves back with its next record. The server answers a move
// once it is in the file and writes the moves to the database every
// second, so a kill within the second finds them in the file; a run whose
// kill came just after a write is made again.
func TestJournalAfterSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs server processes: not with -short")
	}
	for _, damage := range []bool{false, true} {
		t.Run(map[bool]string{false: "intact", true: "a record damaged"}[damage], func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "muster.db")
			var games []*friendsGame
			var file []byte
			var at []int
			for try := 0; ; try++ {
				srv := startServe(t, nil, "MUSTER_DB="+db)
				a, b := newFriendsGame(t, srv.addr), newFriendsGame(t, srv.addr)
				for _, g := range []*friendsGame{a, b, a, b, a} {
					g.move(t)
				}
				srv.kill()
				var err error
				if file, err = os.ReadFile(db + "-moves"); err != nil {
					t.Fatal(err)
				}
				if at = journalRecords(file); len(at) == 5 {
					games = []*friendsGame{a, b}
					break
				}
				if try == 4 {
					t.Fatalf("five kills found %v records in the journal, never the five moves just answered", at)
				}
				t.Logf("the kill came after a write of the moves: %d records in the file; again", len(at))
			}
			want := 5
			if damage {
				// A byte of the third record's payload (the first game's
				// second move): its checksum no longer matches.
				file[at[2]+12] ^= 0xff
				if err := os.WriteFile(db+"-moves", file, 0o600); err != nil {
					t.Fatal(err)
				}
				want = 4
			}
			srv := startServe(t, nil, "MUSTER_DB="+db)
			defer srv.kill()
			logs := srv.logs.String()
			if !strings.Contains(logs, "wrote the moves the journal held") || !strings.Contains(logs, fmt.Sprintf("records=%d", want)) {
				t.Errorf("the restarted server's log, want %d records written: %s", want, logs)
			}
			if damage && !strings.Contains(logs, "damaged record: skipped") {
				t.Errorf("the damaged record is not told of: %s", logs)
			}
			for _, g := range games {
				for _, p := range g.players {
					p.base = "http://" + srv.addr // the cookies hold for the host, whatever its port
				}
				var v struct {
					Ply     int
					History []string
				}
				if code := g.players[0].call("GET", "/api/games/"+g.id, nil, &v); code != http.StatusOK || v.Ply != len(g.actions) {
					t.Errorf("game %s after the restart: %d, ply %d, want %d", g.id, code, v.Ply, len(g.actions))
				}
				if !slices.Equal(v.History, g.actions) {
					t.Errorf("game %s after the restart: %v, want %v", g.id, v.History, g.actions)
				}
			}
			// The game goes on from there.
			games[1].move(t)
		})
	}
}
