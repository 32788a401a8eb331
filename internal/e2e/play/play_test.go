package play

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/device"
	"github.com/chromedp/chromedp/kb"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/e2e"
)

// TestTablutAgainstAgent plays a whole Tablut game against the easy agent
// by clicks: the test's own engine (alpha-beta, depth 2) chooses, the
// Browser clicks the squares, until the game is over.
func TestTablutAgainstAgent(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	e2e.NewGame(t, ctx, a, "tablut", "linnaeus", "ai", "easy", "defenders")
	// A visitor without an account is told whom he plays (issue 31, item 6).
	e2e.Poll(t, ctx, "the opponent named", `(document.querySelector(".player[data-seat='0']") || {}).textContent === "Attackers (Muscovites): Computer (easy)"`)
	for moves := 0; moves < 150; moves++ {
		v := e2e.WaitMyTurn(t, ctx, "defenders")
		if v.Status == "over" {
			break
		}
		e2e.ClickAction(t, ctx, v, e2e.Choose(t, v, "alphabeta(depth=2)"))
		e2e.WaitPast(t, ctx, v.Ply)
	}
	v := e2e.Current(t, ctx)
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
	e2e.Shot(t, ctx, "tablut-against-agent")
	t.Logf("%s after %d actions: %s", v.Result, len(v.History), strings.Join(v.History, " "))
}

// TestLanrickRendezvous plays the first 1893 rendezvous by clicks: the
// mark, moves, end of turn, until a rendezvous is won (a man converted or
// removed).
func TestLanrickRendezvous(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	e2e.NewGame(t, ctx, a, "lanrick", "1893", "ai", "random", "black")
	kinds := map[string]bool{}
	for steps := 0; steps < 600; steps++ {
		v := e2e.WaitMyTurn(t, ctx, "black")
		if v.Status == "over" || v.Men("black") != 5 || v.Men("white") != 5 {
			break
		}
		text := e2e.Choose(t, v, "mcts(iterations=300)")
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
		e2e.ClickAction(t, ctx, v, text)
		e2e.WaitPast(t, ctx, v.Ply)
	}
	v := e2e.Current(t, ctx)
	if v.Men("black") <= 5 && v.Men("white") >= 5 && v.Status != "over" {
		t.Fatalf("black did not win a rendezvous: %v", v.History)
	}
	for _, k := range []string{"mark", "move", "end"} {
		if !kinds[k] {
			t.Errorf("no %s was clicked (clicked: %v)", k, kinds)
		}
	}
	e2e.Shot(t, ctx, "lanrick-rendezvous")
	t.Logf("%d actions: %s", len(v.History), strings.Join(v.History, " "))
}

// TestTwoBrowsersAndSpectator: a friend takes the invitation in another
// Browser, a third watches; every move appears live in all three, and the
// watcher cannot move.
func TestTwoBrowsersAndSpectator(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	id := e2e.NewGame(t, ctx, a, "tablut", "linnaeus", "friend", "easy", "attackers")
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
	if err := chromedp.Do(watcher, chromedp.Navigate(a.URL("/g/"+id)), chromedp.WaitVisible(chromedp.CSS("#spectator"))); err != nil {
		t.Fatal(err)
	}
	plays := []struct {
		ctx  context.Context
		side string
		move string
	}{{ctx, "attackers", "a4-a3"}, {friend, "defenders", "e3-d3"}, {ctx, "attackers", "a3-a2"}, {friend, "defenders", "d3-c3"}}
	for i, p := range plays {
		v := e2e.WaitMyTurn(t, p.ctx, p.side)
		e2e.ClickAction(t, p.ctx, v, p.move)
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
	if n := a.Posted.Load(); n != 0 {
		t.Errorf("%d moves posted rather than sent on the socket", n)
	}
	// The watcher's clicks do nothing.
	if err := chromedp.Do(watcher, chromedp.Click(chromedp.CSS(`rect[data-sq="a2"]`)), chromedp.Click(chromedp.CSS(`rect[data-sq="a1"]`))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if v := e2e.Current(t, watcher); v.Ply != 4 {
		t.Fatalf("the watcher moved: ply %d", v.Ply)
	}
	e2e.Shot(t, watcher, "two-browsers-watcher")
}

// TestMoveOnADeadSocket: a page whose socket is open but carries nothing
// (a phone's network gone without a word: here, the browser's
// WebSocket.send made to drop what it is given) hears nothing after its
// move; it opens its socket again and posts the move, which is played.
func TestMoveOnADeadSocket(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	e2e.NewGame(t, ctx, a, "tablut", "linnaeus", "local", "easy", "attackers")
	v := e2e.WaitMyTurn(t, ctx, "attackers")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`WebSocket.prototype.send = function () {}; true`)); err != nil {
		t.Fatal(err)
	}
	e2e.ClickAction(t, ctx, v, "a4-a3")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("moves").textContent.includes("a4-a3")`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the move never appeared: %v", err)
	}
	if v := e2e.Current(t, ctx); v.Ply != 1 || a.Posted.Load() != 1 {
		t.Fatalf("ply %d, %d moves posted: want the move posted once the socket said nothing", v.Ply, a.Posted.Load())
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
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	_, v := e2e.GameUnderWay(t, ctx, a)
	if v.Ply != 2 {
		t.Fatalf("ply %d", v.Ply)
	}
	db, addr := a.DB, a.Addr
	a.Stop()
	// The page sees the connection lost, then, the server back, live again.
	e2e.Poll(t, ctx, "the connection lost", `document.body.dataset.conn === "lost"`)
	e2e.StartApp(t, db, addr)
	e2e.Poll(t, ctx, "the connection live again", `document.body.dataset.conn === "live"`)
	// The game is where it was.
	e2e.Poll(t, ctx, "the game at ply 2", `document.body.dataset.ply === "2" && document.getElementById("moves").textContent.includes("1. Defenders")`)
	v = e2e.WaitMyTurn(t, ctx, "attackers")
	if v.Ply != 2 || v.History[0] != "a4-a3" {
		t.Fatalf("after the restart: %+v", v.History)
	}
	e2e.ClickAction(t, ctx, v, e2e.Choose(t, v, "alphabeta(depth=1)"))
	v = e2e.WaitPast(t, ctx, 2)
	v = e2e.WaitMyTurn(t, ctx, "attackers")
	if v.Ply < 4 && v.Status != "over" {
		t.Fatalf("the agent did not answer after the restart: ply %d", v.Ply)
	}
	e2e.Shot(t, ctx, "restart")
}

// TestKeyboardAndTouch: the board is played with the keyboard (arrows move
// a cursor, Enter picks) and by touch.
func TestKeyboardAndTouch(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	e2e.NewGame(t, ctx, a, "tablut", "linnaeus", "local", "easy", "attackers")
	e2e.WaitMyTurn(t, ctx, "attackers")
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
	v := e2e.WaitPast(t, ctx, 0)
	if len(v.History) != 1 || v.History[0] != "a4-a3" {
		t.Fatalf("keyboard move: %v", v.History)
	}
	// Touch: the defenders tap e3, then d3.
	e2e.WaitMyTurn(t, ctx, "defenders")
	if err := chromedp.Do(ctx, chromedp.Emulate(device.IPad), chromedp.Tap(chromedp.CSS(`rect[data-sq="e3"]`)), chromedp.Tap(chromedp.CSS(`rect[data-sq="d3"]`))); err != nil {
		t.Fatal(err)
	}
	v = e2e.WaitPast(t, ctx, 1)
	if len(v.History) != 2 || v.History[1] != "e3-d3" {
		t.Fatalf("touch move: %v", v.History)
	}
	e2e.Shot(t, ctx, "keyboard-and-touch")
}

// TestRulesetFindingsLinks: on the Lanrick rules page every ruleset links
// to its section of docs/carroll.md (the correspondents' questions and what
// Muster found), and following the link by a click shows that section.
func TestRulesetFindingsLinks(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/rules/lanrick")), chromedp.WaitVisible(chromedp.CSS("a.findings"))); err != nil {
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
