package board

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/muster-games/muster/internal/e2e"
)

// TestFriendClockResignAndRematch: a friend game's clock stands still
// until the friend has come and the first move is made; a takeback is
// asked for and accepted; resigning asks to confirm; the end is told from each player's side; the rematch swaps the
// sides for both.
func TestFriendClockResignAndRematch(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	id := e2e.NewTimedGame(t, ctx, a, "tablut", "linnaeus", "friend", "easy", "attackers", "1")
	friend, cancel2 := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	defer cancel2()
	if err := chromedp.Do(friend, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the clocks", `document.querySelectorAll(".strip .clock[data-seat]").length === 2`)
	before := clocksText(t, ctx)
	if !strings.Contains(before, "1:00") || !strings.Contains(before, "start after the first move") {
		t.Fatalf("clocks before the game: %q", before)
	}
	// The creator moves; the friend has not come: the clocks stand.
	v := e2e.WaitMyTurn(t, ctx, "attackers")
	e2e.ClickAction(t, ctx, v, "a4-a3")
	time.Sleep(1500 * time.Millisecond)
	if got := clocksText(t, ctx); strings.Count(got, "1:00") != 2 || strings.Contains(got, "0:59") {
		t.Fatalf("the clock ran without the friend: %q", got)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".strip .clock.running").length`)); n != 0 {
		t.Fatalf("%d clocks running before the friend came", n)
	}
	invite, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS("#invite-link")))
	if err != nil {
		t.Fatal(err)
	}
	fctx, fcancel := context.WithTimeout(friend, 15*time.Second)
	defer fcancel()
	if err := chromedp.Do(fctx, chromedp.Navigate(invite), chromedp.WaitVisible(chromedp.CSS("svg.board"))); err != nil {
		body, _ := chromedp.Run(friend, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("the friend's page %s: %v\n%s", invite, err, body)
	}
	// Now the friend's clock runs, on both pages.
	for _, c := range []context.Context{ctx, friend} {
		e2e.Poll(t, c, "the friend's clock runs", `(() => { const r = document.querySelector(".strip .clock.running"); return !!r && r.dataset.seat === "1" && !r.textContent.includes("1:00"); })()`)
	}
	if you := e2e.Text(t, friend, "#you"); !strings.Contains(you, "Defenders") {
		t.Fatalf("the friend's page says %q", you)
	}
	// Before the friend's first move the game may still be aborted; after
	// it, resigning asks first.
	if err := chromedp.Do(friend, chromedp.WaitVisible(chromedp.CSS("#abort"))); err != nil {
		t.Fatal(err)
	}
	v = e2e.WaitMyTurn(t, friend, "defenders")
	e2e.ClickAction(t, friend, v, "e3-d3")
	e2e.WaitMyTurn(t, ctx, "attackers")
	// The friend asks to take the move back; the creator reads it in
	// words and accepts; the friend plays another.
	if err := chromedp.Do(friend, chromedp.Click(chromedp.CSS("#takeback"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the takeback request", `(document.getElementById("takeback-asked") || {}).textContent === "Your opponent asks to take back their last move. "`)
	e2e.Shot(t, ctx, "takeback-asked")
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	e2e.FullShot(t, ctx, "phone-takeback-asked")
	if err := chromedp.Do(ctx, chromedp.EmulateReset()); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#accept-takeback"))); err != nil {
		t.Fatal(err)
	}
	v = e2e.WaitMyTurn(t, friend, "defenders")
	if v.Ply != 1 {
		t.Fatalf("after the takeback: ply %d", v.Ply)
	}
	e2e.ClickAction(t, friend, v, "e3-f3")
	e2e.WaitMyTurn(t, ctx, "attackers")
	if err := chromedp.Do(friend, chromedp.Click(chromedp.CSS("#resign")), chromedp.WaitVisible(chromedp.CSS("#confirm-resign"))); err != nil {
		t.Fatal(err)
	}
	if v := e2e.Current(t, friend); v.Status != "playing" {
		t.Fatalf("one click resigned: %s", v.Status)
	}
	// The header's "your turn" follows the game: shown to the player to
	// act, and to nobody once it is over.
	for _, c := range []context.Context{ctx, friend} {
		e2e.Poll(t, c, "your turn in the header as in the game", `(document.body.dataset.myTurn === "yes") === !!document.getElementById("your-turn")`)
	}
	if err := chromedp.Do(friend, chromedp.Click(chromedp.CSS("#confirm-resign"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the winner's panel", `document.getElementById("ending").textContent.includes("You won")`)
	e2e.Poll(t, friend, "the loser's panel", `document.getElementById("ending").textContent.includes("You lost")`)
	for _, c := range []context.Context{ctx, friend} {
		e2e.Poll(t, c, "no 'your turn' after the end", `!document.getElementById("your-turn")`)
	}
	if got := e2e.Text(t, ctx, "#ending"); !strings.Contains(got, "defenders resigned") {
		t.Fatalf("the winner reads %q", got)
	}
	e2e.Poll(t, ctx, "no clock running after the end", `document.querySelectorAll(".strip .clock.running").length === 0`)
	e2e.Shot(t, ctx, "game-over-panel")
	// The winner asks for the rematch and now defends; the friend joins it
	// and now attacks.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#rematch"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the rematch page", fmt.Sprintf(`location.pathname !== "/g/%s" && !!document.querySelector("svg.board") && document.getElementById("you").textContent.includes("Defenders")`, id))
	e2e.Poll(t, friend, "the friend's rematch button", `document.getElementById("rematch") && document.getElementById("rematch").textContent.includes("Join the rematch")`)
	if err := chromedp.Do(friend, chromedp.Click(chromedp.CSS("#rematch"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, friend, "the friend in the rematch", `location.pathname !== "/g/`+id+`" && document.getElementById("you").textContent.includes("Attackers")`)
	v = e2e.WaitMyTurn(t, friend, "attackers")
	e2e.ClickAction(t, friend, v, "a4-a3")
	e2e.WaitMyTurn(t, ctx, "defenders")
	e2e.Shot(t, friend, "rematch")
}

// TestViewingBannerAndAbort: stepping back shows a banner with the way
// back; a game not yet begun is aborted, not resigned.
func TestViewingBannerAndAbort(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	e2e.NewGame(t, ctx, a, "tablut", "linnaeus", "ai", "easy", "attackers")
	v := e2e.WaitMyTurn(t, ctx, "attackers")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#abort"))); err != nil {
		t.Fatal(err)
	}
	e2e.ClickAction(t, ctx, v, "a4-a3")
	e2e.WaitPast(t, ctx, v.Ply)
	e2e.WaitMyTurn(t, ctx, "attackers")
	e2e.Poll(t, ctx, "resign replaces abort", `!!document.getElementById("resign") && !document.getElementById("abort")`)
	// The move list steps by keyboard: focus it, press the left arrow.
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#moves")), chromedp.KeyEvent(kb.ArrowLeft), chromedp.WaitVisible(chromedp.CSS("#back-to-game"))); err != nil {
		t.Fatal(err)
	}
	if got := e2e.Text(t, ctx, "#viewing"); !strings.Contains(got, "Viewing turn 1; the game has 2 turns") {
		t.Fatalf("banner %q", got)
	}
	e2e.Shot(t, ctx, "viewing-banner")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#back-to-game"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "back at the game", `document.getElementById("viewing").textContent === "" && document.body.dataset.myTurn === "yes"`)
	// Against the computer without a clock, the move can be taken back.
	e2e.Shot(t, ctx, "takeback-offered")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#takeback"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the takeback", `document.body.dataset.ply === "0" && document.getElementById("moves").children.length === 0 && document.body.dataset.myTurn === "yes"`)
	if v := e2e.Current(t, ctx); v.Ply != 0 {
		t.Fatalf("after the takeback: ply %d", v.Ply)
	}
	v = e2e.WaitMyTurn(t, ctx, "attackers")
	e2e.ClickAction(t, ctx, v, "a6-a7")
	e2e.WaitPast(t, ctx, v.Ply)
	e2e.WaitMyTurn(t, ctx, "attackers")
	// A new game, aborted before it began.
	e2e.NewGame(t, ctx, a, "tablut", "linnaeus", "ai", "easy", "attackers")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#abort"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the aborted panel", `document.getElementById("ending").textContent.includes("Game aborted")`)
}

// TestPhoneWidth: at 360×740 no page scrolls sideways, and every button
// is a touch target at least 44 pixels high.
func TestPhoneWidth(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	id := e2e.NewGame(t, ctx, a, "lanrick", "1893", "ai", "easy", "white")
	// White sits at rank 1 (Carroll's diagrams): the board is not turned.
	below, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('rect[data-sq="a1"]').getBoundingClientRect().y > document.querySelector('rect[data-sq="a8"]').getBoundingClientRect().y`))
	if err != nil || !below {
		t.Fatalf("playing white, rank 1 is not at the bottom (%v)", err)
	}
	pages := []struct{ name, path, ready string }{
		{"home", "/", "#start"},
		{"game", "/g/" + id, "svg.board"},
		{"rules-lanrick", "/rules/lanrick", "h1"},
		{"rules-tablut", "/rules/tablut", "h1"},
		{"learn-lanrick", "/learn/lanrick/2", "#lesson"},
		{"analysis", "/analysis?spec=lanrick(1893)", "#tree"},
		{"analysis-setup", "/analysis", "#setup-open"},
		{"puzzles", "/puzzles", "h1"},
	}
	for _, p := range pages {
		if err := chromedp.Do(ctx, chromedp.Navigate(a.URL(p.path)), chromedp.WaitVisible(chromedp.CSS(p.ready))); err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		time.Sleep(200 * time.Millisecond)
		w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
		if err != nil {
			t.Fatal(err)
		}
		if w > 360 {
			wide, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > 361).slice(0, 5).map(e => e.tagName + "#" + e.id + "." + e.className).join(" ")`))
			t.Errorf("%s is %d pixels wide at 360: %s", p.name, w, wide)
		}
		// Touch targets: every button and choice at least 44 pixels high.
		small, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("button, select, a.button")].filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44).map(e => e.tagName + "#" + e.id + " " + e.textContent.slice(0, 20))`))
		if err != nil || len(small) > 0 {
			t.Errorf("%s: touch targets under 44 pixels: %v %v", p.name, small, err)
		}
		if p.name == "home" && strings.Contains(e2e.Text(t, ctx, "#app"), "null") {
			t.Error("the home page shows a stray null")
		}
		e2e.FullShot(t, ctx, "phone-"+p.name)
	}
}

// TestContrast: every text on the home, game and rules pages meets WCAG AA
// (4.5:1) against the background it is drawn on.
func TestContrast(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	id, _ := e2e.GameUnderWay(t, ctx, a)
	for _, path := range []string{"/", "/g/" + id, "/rules/tablut", "/learn/lanrick/1"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(a.URL(path)), chromedp.WaitVisible(chromedp.CSS("#app > *"))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](contrastJS))
		if err != nil {
			t.Fatal(err)
		}
		if len(bad) > 0 {
			t.Errorf("%s: text below 4.5:1: %s", path, strings.Join(bad, "; "))
		}
	}
}

// contrastJS lists the elements whose own text has less than 4.5:1
// contrast with the first opaque background behind them.
const contrastJS = `(() => {
  const rgb = (s) => (s.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const bg = (e) => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.length === 3 || c[3] > 0.5) return c.slice(0, 3); } return [255, 255, 255]; };
  const out = [];
  for (const e of document.querySelectorAll("#app *, header *")) {
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || e.closest("svg") || !e.getClientRects().length) continue;
    const a = lum(rgb(getComputedStyle(e).color)), b = lum(bg(e));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) out.push(e.tagName + (e.id ? "#" + e.id : "") + " " + JSON.stringify(e.textContent.trim().slice(0, 30)) + " " + ratio.toFixed(2));
  }
  return out;
})()`

// clocksText is the text of both clocks at the board's edges and the
// notes on the clocks under them.
func clocksText(t *testing.T, ctx context.Context) string {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll(".strip .clock[data-seat]")].map((c) => c.textContent).join(" ") + " " + document.getElementById("clock").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	return got
}
