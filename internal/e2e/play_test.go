package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/device"
	"github.com/chromedp/chromedp/kb"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/server"
	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/lanrick/ai"
	_ "github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

// app is a running web app on a fixed address, which can be restarted on
// the same database.
type app struct {
	t    *testing.T
	db   string
	addr string
	st   *store.Store
	srv  *server.Server
	hs   *http.Server
	// posted counts the actions posted (POST /api/games/{id}/act) rather
	// than sent on a game's WebSocket.
	posted atomic.Int64
}

func startApp(t *testing.T, db, addr string) *app {
	t.Helper()
	if db == "" {
		db = filepath.Join(t.TempDir(), "muster.db")
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.DefaultConfig
	cfg.AgentTimeout = 20 * time.Second
	// The tests' own computer beside the levels: random.
	cfg.Levels = append(slices.Clone(agent.Levels), "random")
	srv := server.New(st, cfg)
	if err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	var ln net.Listener
	for i := 0; i < 50; i++ {
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	a := &app{t: t, db: db, addr: ln.Addr().String(), st: st, srv: srv}
	a.hs = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/act") {
			a.posted.Add(1)
		}
		srv.ServeHTTP(w, r)
	})}
	go a.hs.Serve(ln)
	t.Cleanup(a.stop)
	return a
}

func (a *app) url(path string) string { return "http://" + a.addr + path }

func (a *app) stop() {
	if a.hs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	a.hs.Shutdown(ctx)
	a.hs.Close()
	a.srv.Close()
	a.st.Close()
	a.hs = nil
}

// pageView is the part of the server's view the tests read.
type pageView struct {
	ID string `json:"id"`
	// Clock is set in timed games; Deadline by correspondence.
	Clock *struct {
		Deadline int64 `json:"deadline"`
	} `json:"clock"`
	Spec    string   `json:"spec"`
	Ply     int      `json:"ply"`
	Status  string   `json:"status"`
	Result  string   `json:"result"`
	ToAct   int      `json:"to_act"`
	History []string `json:"history"`
	Pos     string   `json:"position"`
	Legal   []struct {
		Text    string   `json:"text"`
		Kind    string   `json:"kind"`
		Squares []string `json:"squares"`
		Preview []string `json:"preview"`
		After   string   `json:"after"`
	} `json:"legal"`
	Board struct {
		Pieces []struct {
			Square string `json:"square"`
			Side   int    `json:"side"`
			Kind   string `json:"kind"`
		} `json:"pieces"`
	} `json:"board"`
	Traits struct {
		Players []struct {
			Name string `json:"name"`
		} `json:"players"`
	} `json:"traits"`
	Prompt struct {
		Text    string   `json:"text"`
		Squares []string `json:"squares"`
	} `json:"prompt"`
	Events []struct {
		Kind string `json:"kind"`
		Text string `json:"text"`
	} `json:"events"`
	Seats []struct {
		Kind string `json:"kind"`
	} `json:"seats"`
	Turns []struct {
		Player  int        `json:"player"`
		Squares [][]string `json:"squares"`
	} `json:"turns"`
}

// side is the name of the player to act, or "".
func (v pageView) side() string {
	if v.ToAct < 0 || v.ToAct >= len(v.Traits.Players) {
		return ""
	}
	return v.Traits.Players[v.ToAct].Name
}

// men counts the pieces of the named side.
func (v pageView) men(side string) int {
	n := 0
	for _, p := range v.Board.Pieces {
		if p.Side < len(v.Traits.Players) && v.Traits.Players[p.Side].Name == side {
			n++
		}
	}
	return n
}

// current reads the game the page shows, through the page's own origin.
func current(t *testing.T, ctx context.Context) pageView {
	t.Helper()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch("/api/games/" + (document.body.dataset.game || location.pathname.slice(3))).then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var v pageView
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return v
}

// clickAction plays an action by clicking: the squares of a move or a
// slide, the square of a mark, a removal or a swap, or the button of an
// action without squares; a choice between actions on the same squares is
// made by the buttons that appear.
func clickAction(t *testing.T, ctx context.Context, v pageView, text string) {
	t.Helper()
	var squares []string
	kind := ""
	for _, a := range v.Legal {
		if a.Text == text {
			squares, kind = a.Squares, a.Kind
		}
	}
	if kind == "" {
		t.Fatalf("%s is not among the legal actions of %s at ply %d (%s)", text, v.Pos, v.Ply, v.ID)
	}
	var steps []chromedp.Action[chromedp.Void]
	for _, sq := range squares {
		steps = append(steps, chromedp.Click(chromedp.CSS(fmt.Sprintf(`rect[data-sq="%s"]`, sq))))
	}
	if len(squares) == 0 {
		steps = append(steps, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#choices button[data-action="%s"]`, text))))
	}
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("clicking %s: %v", text, err)
	}
	// A choice offered (a line move and a slide, or the line of a
	// 3-square rendezvous): pick the button.
	same := 0
	for _, a := range v.Legal {
		if strings.Join(a.Squares, " ") == strings.Join(squares, " ") {
			same++
		}
	}
	if same > 1 && len(squares) > 0 {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#choices button[data-action="%s"]`, text)))); err != nil {
			t.Fatalf("choosing %s: %v", text, err)
		}
	}
}

// waitPly waits until the page's game has moved past ply.
func waitPast(t *testing.T, ctx context.Context, ply int) pageView {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		v := current(t, ctx)
		if v.Ply > ply || v.Status == "over" {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game did not move past ply %d", ply)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitMyTurn waits until side is to act (or the game is over).
func waitMyTurn(t *testing.T, ctx context.Context, side string) pageView {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		v := current(t, ctx)
		if v.Status == "over" {
			return v
		}
		if v.side() == side && len(v.Legal) > 0 {
			// The page must have drawn this very ply as its turn (its view
			// comes by WebSocket): it says so in data-ply and data-my-turn.
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.body.dataset.ply === "%d" && document.body.dataset.myTurn === "yes"`, v.Ply)))
			if err == nil && ok {
				return v
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never came to act: %+v", side, v)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// choose picks the action a Muster agent would play in the page's
// position (the test decides with the engine; the browser plays by clicks).
func choose(t *testing.T, v pageView, spec string) string {
	t.Helper()
	g, err := game.Load(v.Spec)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewState()
	if err := game.ApplyNotation(s, g.SplitActions(strings.Join(v.History, " "))); err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(spec, g, uint64(v.Ply))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Act(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return s.ActionString(res.Action)
}

// gameUnderWay starts an easy Tablut game against the computer, the page
// attacking, and plays a4-a3; it returns the game's id and the view once
// the computer has answered.
func gameUnderWay(t *testing.T, ctx context.Context, a *app) (string, pageView) {
	t.Helper()
	id := newGame(t, ctx, a, "tablut", "linnaeus", "ai", "easy", "attackers")
	v := waitMyTurn(t, ctx, "attackers")
	clickAction(t, ctx, v, "a4-a3")
	// Until the page has the move, it still shows the attackers to act at
	// ply 0: wait for the move first, then for the answer.
	waitPast(t, ctx, 0)
	return id, waitMyTurn(t, ctx, "attackers")
}

func newGame(t *testing.T, ctx context.Context, a *app, gameName, ruleset, opponent, level, side string) string {
	t.Helper()
	return newTimedGame(t, ctx, a, gameName, ruleset, opponent, level, side, "0")
}

// newTimedGame starts a game from the home page with minutes on each
// player's clock (0: none) and returns its id.
func newTimedGame(t *testing.T, ctx context.Context, a *app, gameName, ruleset, opponent, level, side, minutes string) string {
	t.Helper()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(a.url("/")),
		chromedp.WaitVisible(chromedp.CSS("#start")),
		chromedp.SetValue(chromedp.CSS("#game"), gameName),
		chromedp.SetValue(chromedp.CSS("#minutes"), minutes),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("game").dispatchEvent(new Event("change"))`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#ruleset"), ruleset),
		chromedp.SetValue(chromedp.CSS("#opponent"), opponent),
	); err != nil {
		t.Fatal(err)
	}
	// A level may be one the server adds (the tests' random); add it as an
	// option if the page offers no such.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const s = document.getElementById("level"); if (![...s.options].some(o => o.value === %q)) s.add(new Option(%q, %q)); s.value = %q; document.getElementById("side").value = %q; return true })()`, level, level, level, level, side))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#start")), chromedp.WaitVisible(chromedp.CSS("#board svg.board"))); err != nil {
		t.Fatal(err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	return loc[strings.LastIndex(loc, "/")+1:]
}

// TestTablutAgainstAgent plays a whole Tablut game against the easy agent
// by clicks: the test's own engine (alpha-beta, depth 2) chooses, the
// browser clicks the squares, until the game is over.
func TestTablutAgainstAgent(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	newGame(t, ctx, a, "tablut", "linnaeus", "ai", "easy", "defenders")
	// A visitor without an account is told whom he plays (issue 31, item 6).
	poll(t, ctx, "the opponent named", `(document.querySelector(".player[data-seat='0']") || {}).textContent === "Attackers (Muscovites): Computer (easy)"`)
	for moves := 0; moves < 150; moves++ {
		v := waitMyTurn(t, ctx, "defenders")
		if v.Status == "over" {
			break
		}
		clickAction(t, ctx, v, choose(t, v, "alphabeta(depth=2)"))
		waitPast(t, ctx, v.Ply)
	}
	v := current(t, ctx)
	if v.Status != "over" {
		t.Fatalf("the game is not over after 150 moves: %+v", v.History)
	}
	// The end is told from the player's side.
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#ending .headline"))); err != nil {
		t.Fatal(err)
	}
	status, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#ending .headline")))
	want := map[string]string{"defenders": "You won — ", "attackers": "You lost — ", "draw": "Draw — "}[v.Result]
	if want == "" || !strings.HasPrefix(status, want) {
		t.Fatalf("the ending says %q after %s", status, v.Result)
	}
	shot(t, ctx, "tablut-against-agent")
	t.Logf("%s after %d actions: %s", v.Result, len(v.History), strings.Join(v.History, " "))
}

// TestLanrickRendezvous plays the first 1893 rendezvous by clicks: the
// mark, moves, end of turn, until a rendezvous is won (a man converted or
// removed).
func TestLanrickRendezvous(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	newGame(t, ctx, a, "lanrick", "1893", "ai", "random", "black")
	kinds := map[string]bool{}
	for steps := 0; steps < 600; steps++ {
		v := waitMyTurn(t, ctx, "black")
		if v.Status == "over" || v.men("black") != 5 || v.men("white") != 5 {
			break
		}
		text := choose(t, v, "mcts(iterations=300)")
		// End a turn early once, so that the button is tried.
		if !kinds["end"] {
			for _, l := range v.Legal {
				if l.Kind == "end" {
					text = "end"
				}
			}
		}
		for _, l := range v.Legal {
			if l.Text == text {
				kinds[l.Kind] = true
			}
		}
		clickAction(t, ctx, v, text)
		waitPast(t, ctx, v.Ply)
	}
	v := current(t, ctx)
	if v.men("black") <= 5 && v.men("white") >= 5 && v.Status != "over" {
		t.Fatalf("black did not win a rendezvous: %v", v.History)
	}
	for _, k := range []string{"mark", "move", "end"} {
		if !kinds[k] {
			t.Errorf("no %s was clicked (clicked: %v)", k, kinds)
		}
	}
	shot(t, ctx, "lanrick-rendezvous")
	t.Logf("%d actions: %s", len(v.History), strings.Join(v.History, " "))
}

// TestTwoBrowsersAndSpectator: a friend takes the invitation in another
// browser, a third watches; every move appears live in all three, and the
// watcher cannot move.
func TestTwoBrowsersAndSpectator(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	id := newGame(t, ctx, a, "tablut", "linnaeus", "friend", "easy", "attackers")
	// Two more browsers with their own storage: the friend and a watcher.
	friend, cancel2 := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	defer cancel2()
	watcher, cancel3 := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	defer cancel3()
	invite, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS("#invite-link")))
	if err != nil || !strings.Contains(invite, "join=") {
		t.Fatalf("invite %q %v", invite, err)
	}
	if err := chromedp.Do(friend, chromedp.Navigate(invite), chromedp.WaitVisible(chromedp.CSS("svg.board"))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(watcher, chromedp.Navigate(a.url("/g/"+id)), chromedp.WaitVisible(chromedp.CSS("#spectator"))); err != nil {
		t.Fatal(err)
	}
	plays := []struct {
		ctx  context.Context
		side string
		move string
	}{{ctx, "attackers", "a4-a3"}, {friend, "defenders", "e3-d3"}, {ctx, "attackers", "a3-a2"}, {friend, "defenders", "d3-c3"}}
	for i, p := range plays {
		v := waitMyTurn(t, p.ctx, p.side)
		clickAction(t, p.ctx, v, p.move)
		// All three pages show the move in their move lists, live.
		for _, c := range []context.Context{ctx, friend, watcher} {
			// Numbered as Tablut's records number moves: one number a pair.
			want := fmt.Sprintf("%d. %s: %s", i/2+1, map[string]string{"attackers": "Attackers (Muscovites)", "defenders": "Defenders (Swedes)"}[p.side], p.move)
			if _, err := chromedp.Run(c, chromedp.Poll[bool](fmt.Sprintf(`document.getElementById("moves").textContent.includes(%q)`, want), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
				t.Fatalf("move %s did not appear live: %v", want, err)
			}
		}
	}
	// The pages sent their moves on their games' sockets, open all along.
	if n := a.posted.Load(); n != 0 {
		t.Errorf("%d moves posted rather than sent on the socket", n)
	}
	// The watcher's clicks do nothing.
	if err := chromedp.Do(watcher, chromedp.Click(chromedp.CSS(`rect[data-sq="a2"]`)), chromedp.Click(chromedp.CSS(`rect[data-sq="a1"]`))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if v := current(t, watcher); v.Ply != 4 {
		t.Fatalf("the watcher moved: ply %d", v.Ply)
	}
	shot(t, watcher, "two-browsers-watcher")
}

// TestMoveOnADeadSocket: a page whose socket is open but carries nothing
// (a phone's network gone without a word: here, the browser's
// WebSocket.send made to drop what it is given) hears nothing after its
// move; it opens its socket again and posts the move, which is played.
func TestMoveOnADeadSocket(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	newGame(t, ctx, a, "tablut", "linnaeus", "local", "easy", "attackers")
	v := waitMyTurn(t, ctx, "attackers")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`WebSocket.prototype.send = function () {}; true`)); err != nil {
		t.Fatal(err)
	}
	clickAction(t, ctx, v, "a4-a3")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("moves").textContent.includes("a4-a3")`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the move never appeared: %v", err)
	}
	if v := current(t, ctx); v.Ply != 1 || a.posted.Load() != 1 {
		t.Fatalf("ply %d, %d moves posted: want the move posted once the socket said nothing", v.Ply, a.posted.Load())
	}
	// The page's socket was opened again: it is live.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.conn === "live"`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the socket was not opened again: %v", err)
	}
}

// TestRestartMidGame: the server stops in the middle of a game and starts
// again on the same database and address; the page reconnects and the
// game goes on.
func TestRestartMidGame(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	_, v := gameUnderWay(t, ctx, a)
	if v.Ply != 2 {
		t.Fatalf("ply %d", v.Ply)
	}
	db, addr := a.db, a.addr
	a.stop()
	// The page sees the connection lost, then, the server back, live again.
	poll(t, ctx, "the connection lost", `document.body.dataset.conn === "lost"`)
	startApp(t, db, addr)
	poll(t, ctx, "the connection live again", `document.body.dataset.conn === "live"`)
	// The game is where it was.
	poll(t, ctx, "the game at ply 2", `document.body.dataset.ply === "2" && document.getElementById("moves").textContent.includes("1. Defenders")`)
	v = waitMyTurn(t, ctx, "attackers")
	if v.Ply != 2 || v.History[0] != "a4-a3" {
		t.Fatalf("after the restart: %+v", v.History)
	}
	clickAction(t, ctx, v, choose(t, v, "alphabeta(depth=1)"))
	v = waitPast(t, ctx, 2)
	v = waitMyTurn(t, ctx, "attackers")
	if v.Ply < 4 && v.Status != "over" {
		t.Fatalf("the agent did not answer after the restart: ply %d", v.Ply)
	}
	shot(t, ctx, "restart")
}

// TestKeyboardAndTouch: the board is played with the keyboard (arrows move
// a cursor, Enter picks) and by touch.
func TestKeyboardAndTouch(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	newGame(t, ctx, a, "tablut", "linnaeus", "local", "easy", "attackers")
	waitMyTurn(t, ctx, "attackers")
	// The cursor starts on e5: four left to a5, one down to a4, Enter;
	// one down to a3, Enter: a4-a3.
	keys := []string{"ArrowLeft", "ArrowLeft", "ArrowLeft", "ArrowLeft", "ArrowDown", "Enter", "ArrowDown", "Enter"}
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("svg.board"))); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		code := map[string]string{"ArrowLeft": kb.ArrowLeft, "ArrowDown": kb.ArrowDown, "Enter": kb.Enter}[k]
		if err := chromedp.Do(ctx, chromedp.KeyEvent(code)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Millisecond)
	}
	v := waitPast(t, ctx, 0)
	if len(v.History) != 1 || v.History[0] != "a4-a3" {
		t.Fatalf("keyboard move: %v", v.History)
	}
	// Touch: the defenders tap e3, then d3.
	waitMyTurn(t, ctx, "defenders")
	if err := chromedp.Do(ctx, chromedp.Emulate(device.IPad), chromedp.Tap(chromedp.CSS(`rect[data-sq="e3"]`)), chromedp.Tap(chromedp.CSS(`rect[data-sq="d3"]`))); err != nil {
		t.Fatal(err)
	}
	v = waitPast(t, ctx, 1)
	if len(v.History) != 2 || v.History[1] != "e3-d3" {
		t.Fatalf("touch move: %v", v.History)
	}
	shot(t, ctx, "keyboard-and-touch")
}

// TestRulesetFindingsLinks: on the Lanrick rules page every ruleset links
// to its section of docs/carroll.md (the correspondents' questions and what
// Muster found), and following the link by a click shows that section.
func TestRulesetFindingsLinks(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(a.url("/rules/lanrick")), chromedp.WaitVisible(chromedp.CSS("a.findings"))); err != nil {
		t.Fatal(err)
	}
	ids, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("a.findings")].map(a => a.dataset.ruleset)`))
	if err != nil {
		t.Fatal(err)
	}
	info, _ := game.Lookup("lanrick")
	if len(ids) != len(info.Rulesets) {
		t.Fatalf("links for %v, want one for each of the %d rulesets", ids, len(info.Rulesets))
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`a.findings[data-ruleset="1893"]`)), chromedp.WaitVisible(chromedp.CSS("#ruleset-1893"))); err != nil {
		t.Fatal(err)
	}
	heading, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#ruleset-1893")))
	if err != nil || !strings.Contains(heading, "1893") {
		t.Fatalf("heading %q, %v", heading, err)
	}
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	if !strings.HasSuffix(loc, "/docs/carroll.md#ruleset-1893") {
		t.Fatalf("the link led to %s", loc)
	}
}
