package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/bot"
	"github.com/muster-games/muster/otep"
)

// recordedGame is a game OpenTafl's own AI (0.4.8) played on a Muster
// server through muster bot --otep (testdata/opentafl-bot: the engine
// traffic, each line as the host sent (>) or read (<) it, and the game).
type recordedGame struct {
	Spec       string   `json:"spec"`
	OpenTaflAt int      `json:"opentafl_seat"`
	History    []string `json:"history"`
	Result     string   `json:"result"`
	Reason     string   `json:"reason"`
	Clock      struct {
		Minutes   float64 `json:"minutes"`
		Increment float64 `json:"increment"`
		Days      int     `json:"days"`
	} `json:"clock"`
}

// replayEngine answers a host as the recorded engine did: each line the
// recording says the host sent is checked against what it sends (a
// clock's times aside, which follow the live clock), and what the engine
// sent is sent again where it was.
func replayEngine(t *testing.T, traffic []string, in io.Reader, out io.WriteCloser) {
	defer io.Copy(io.Discard, in) // what the host says after the end (goodbye)
	defer out.Close()
	rd := bufio.NewScanner(in)
	for i, rec := range traffic {
		dir, line, _ := strings.Cut(rec, " ")
		if dir == "<" {
			fmt.Fprintln(out, line)
			continue
		}
		if !rd.Scan() {
			if line != "goodbye" {
				t.Errorf("line %d: the host stopped before %q", i+1, line)
			}
			return
		}
		got := rd.Text()
		if want := line; got != want && !(strings.HasPrefix(want, "clock ") && strings.HasPrefix(got, "clock ")) {
			t.Errorf("line %d: the host sent %q, the recording %q", i+1, got, want)
			return
		}
	}
}

// TestOpenTaflBotReplay replays the two real games OpenTafl's AI played
// through muster bot --otep — against a person (linnaeus, a day a move;
// the person won by the king's escape after 150 plies) and against
// Muster's agent (opentafl, 1 minute + 2 s; the king captured at ply 21)
// — on a server: the bot client accepts the challenge by name, the host
// tells the engine exactly what it told the real one, the engine's moves
// are taken as the server took them, and each game ends as it did.
func TestOpenTaflBotReplay(t *testing.T) {
	for _, id := range []string{"8a7bbsywc4hi", "ow1ohgcjsfhk"} {
		t.Run(id, func(t *testing.T) {
			var rg recordedGame
			b, err := os.ReadFile(filepath.Join("testdata", "opentafl-bot", id+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &rg); err != nil {
				t.Fatal(err)
			}
			tr, err := os.ReadFile(filepath.Join("testdata", "opentafl-bot", id+".traffic"))
			if err != nil {
				t.Fatal(err)
			}
			traffic := strings.Split(strings.TrimSpace(string(tr)), "\n")
			h := newHarness(t, "", testConfig())
			prog, _ := h.newBot("opentafl_ai")
			tok := strings.TrimPrefix(prog.hdr["Authorization"], "Bearer ")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c := &bot.Client{URL: h.http.URL, Token: tok, Retry: 50 * time.Millisecond,
				NewPlayer: func(_, spec string) (bot.Player, error) {
					g, err := game.Load(spec)
					if err != nil {
						return nil, err
					}
					toHost, fromHost := io.Pipe()
					fromEngine, toEngine := io.Pipe()
					go replayEngine(t, traffic, toHost, toEngine)
					return otep.NewHost(fromHost, fromEngine, g, 2*time.Second, nil)
				}}
			done := make(chan error, 1)
			go func() { done <- c.Run(ctx) }()
			// The opponent, a person, challenges it by name and plays the
			// recorded moves.
			g, err := game.Load(rg.Spec)
			if err != nil {
				t.Fatal(err)
			}
			opp := h.person()
			opp.register("opponent")
			me := 1 - rg.OpenTaflAt
			var cv challengeView
			req := challengeRequest{Game: "tablut", Ruleset: strings.TrimSuffix(strings.TrimPrefix(rg.Spec, "tablut("), ")"), Side: g.PlayerName(game.Player(me)),
				Opponent: "opentafl_ai", Minutes: rg.Clock.Minutes, Increment: rg.Clock.Increment, Days: rg.Clock.Days}
			if code := opp.call("POST", "/api/challenges", req, &cv); code != http.StatusCreated {
				t.Fatalf("challenge: %d", code)
			}
			var gameID string
			for deadline := time.Now().Add(10 * time.Second); gameID == ""; time.Sleep(20 * time.Millisecond) {
				var lv lobbyView
				opp.call("GET", "/api/lobby", nil, &lv)
				for _, s := range lv.Mine {
					gameID = s.ID
				}
				if time.Now().After(deadline) {
					t.Fatal("the bot never accepted")
				}
			}
			var v struct {
				History []string `json:"history"`
				Ply     int      `json:"ply"`
				ToAct   int      `json:"to_act"`
				Status  string   `json:"status"`
				Result  string   `json:"result"`
				Reason  string   `json:"reason"`
			}
			for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				opp.call("GET", "/api/games/"+gameID, nil, &v)
				if v.Status == "over" || time.Now().After(deadline) || t.Failed() {
					break
				}
				if v.ToAct == me && v.Ply < len(rg.History) {
					if code := opp.call("POST", "/api/games/"+gameID+"/act", actRequest{Action: rg.History[v.Ply], Ply: at(v.Ply)}, nil); code != http.StatusOK {
						t.Fatalf("the opponent's move %d %s: %d", v.Ply, rg.History[v.Ply], code)
					}
				}
			}
			if v.Status != "over" || v.Result != rg.Result || v.Reason != rg.Reason || !slices.Equal(v.History, rg.History) {
				t.Errorf("the game: %s %s %s after %d plies, want %s %s after %d", v.Status, v.Result, v.Reason, v.Ply, rg.Result, rg.Reason, len(rg.History))
			}
			cancel()
			<-done
		})
	}
}
