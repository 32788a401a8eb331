package lobby

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/device"

	"github.com/muster-games/muster/internal/e2e"
	"github.com/muster-games/muster/rating"
)

// TestChallengeAcrossBrowsers: Alice registers and offers a rated game in
// the lobby; Bob, in another browser, sees it appear live and accepts;
// both land in the game and play by clicks; Alice resigns, and the
// ending shows both ratings moved by Glicko-2, as their pages do.
func TestChallengeAcrossBrowsers(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	alice, cancelA := e2e.Browser(t)
	defer cancelA()
	bob, cancelB := e2e.Browser(t)
	defer cancelB()
	e2e.Register(t, alice, a, "alice")
	e2e.Register(t, bob, a, "bob")
	// Bob watches the lobby before the challenge exists.
	if err := chromedp.Do(bob, chromedp.Navigate(a.URL("/")), chromedp.WaitVisible(chromedp.CSS("#lobby"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, bob, "bob's lobby live", `document.getElementById("lobby-conn").dataset.state === "live"`)
	if err := chromedp.Do(alice, chromedp.Navigate(a.URL("/")), chromedp.WaitVisible(chromedp.CSS("#start"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(alice, chromedp.Evaluate[bool](`(() => { const g = document.getElementById("game"); g.value = "tablut"; g.dispatchEvent(new Event("change")); return true })()`)); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, alice, "the rulesets filled", `!!document.querySelector('#ruleset option[value="linnaeus"]')`)
	if _, err := chromedp.Run(alice, chromedp.Evaluate[bool](`(() => { document.getElementById("ruleset").value = "linnaeus"; const o = document.getElementById("opponent"); o.value = "lobby"; o.dispatchEvent(new Event("change")); document.getElementById("side").value = "attackers"; document.getElementById("minutes").value = "10"; return true })()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(alice, chromedp.WaitVisible(chromedp.CSS("#rated")), chromedp.Click(chromedp.CSS("#rated")), chromedp.Click(chromedp.CSS("#start"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, alice, "alice's challenge listed", `!!document.querySelector("#challenges tr[data-challenge] button.cancel")`)
	// It reaches Bob's open page without a reload.
	e2e.Poll(t, bob, "the challenge on bob's page", `!!document.querySelector("#challenges tr[data-challenge] button.accept")`)
	// Asked of the page as it is (the lobby redraws its rows as it hears
	// of changes): the row says who, at what rating, what, at what pace.
	for _, want := range []string{"alice", "1500?", "tablut(linnaeus)", "10+0", "rated", "Attackers"} {
		e2e.Poll(t, bob, "bob's lobby row says "+want, fmt.Sprintf(`(document.querySelector("#challenges tbody tr") || {textContent: ""}).textContent.includes(%q)`, want))
	}
	e2e.FullShot(t, bob, "lobby-challenge")
	e2e.ClickLive(t, bob, "#challenges button.accept")
	e2e.Poll(t, bob, "bob in the game", `location.pathname.startsWith("/g/") && !!document.querySelector("svg.board")`)
	e2e.Poll(t, alice, "alice taken to the game", `location.pathname.startsWith("/g/") && !!document.querySelector("svg.board")`)
	v := e2e.WaitMyTurn(t, alice, "attackers")
	if !strings.Contains(e2e.Text(t, alice, "#players"), "alice") || !strings.Contains(e2e.Text(t, alice, "#players"), "rated") {
		t.Fatalf("players line: %q", e2e.Text(t, alice, "#players"))
	}
	// Three moves each: a rated game is rated from there.
	for i, m := range []string{"a4-a3", "e3-d3", "a3-a4", "d3-e3", "a4-a3", "e3-d3"} {
		if i%2 == 0 {
			if i > 0 {
				v = e2e.WaitMyTurn(t, alice, "attackers")
			}
			e2e.ClickAction(t, alice, v, m)
		} else {
			e2e.ClickAction(t, bob, e2e.WaitMyTurn(t, bob, "defenders"), m)
		}
	}
	e2e.WaitMyTurn(t, alice, "attackers")
	e2e.FullShot(t, alice, "rated-game")
	if err := chromedp.Do(alice, chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#confirm-resign"))); err != nil {
		t.Fatal(err)
	}
	won := rating.Update(rating.New(), []rating.Result{{Opponent: rating.New(), Score: 1}}, rating.Tau)
	lost := rating.Update(rating.New(), []rating.Result{{Opponent: rating.New(), Score: 0}}, rating.Tau)
	wantBob := fmt.Sprintf("bob: 1500 → %d (+%d)", int(math.Round(won.R)), int(math.Round(won.R-1500)))
	wantAlice := fmt.Sprintf("alice: 1500 → %d (%d)", int(math.Round(lost.R)), int(math.Round(lost.R-1500)))
	for _, ctx := range []context.Context{alice, bob} {
		e2e.Poll(t, ctx, "the rating changes shown", `document.querySelectorAll("#ending .rating-change").length === 2`)
		got := e2e.Text(t, ctx, "#ending")
		if !strings.Contains(got, wantBob) || !strings.Contains(got, wantAlice) {
			t.Fatalf("ending %q, want %q and %q", got, wantBob, wantAlice)
		}
	}
	e2e.FullShot(t, bob, "rated-ending")
	// Bob's page shows his new, still provisional, rating and the game.
	if err := chromedp.Do(bob, chromedp.Navigate(a.URL("/@/bob")), chromedp.WaitVisible(chromedp.CSS("#finished"))); err != nil {
		t.Fatal(err)
	}
	if got := e2e.Text(t, bob, `tr[data-game="tablut"] .rating`); got != fmt.Sprintf("%d?", int(math.Round(won.R))) {
		t.Fatalf("bob's tablut rating %q", got)
	}
	e2e.FullShot(t, bob, "player-page")
	// Alice visits Bob's page: a challenge button names him.
	if err := chromedp.Do(alice, chromedp.Navigate(a.URL("/@/bob")), chromedp.WaitVisible(chromedp.CSS("#challenge-player"))); err != nil {
		t.Fatal(err)
	}
	// At phone size the lobby reflows without sideways scrolling.
	if err := chromedp.Do(bob, chromedp.Emulate(device.IPhone8), chromedp.Navigate(a.URL("/")), chromedp.WaitVisible(chromedp.CSS("#lobby"))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if wide, err := chromedp.Run(bob, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`)); err != nil || wide {
		t.Fatalf("the lobby scrolls sideways on a phone (%v)", err)
	}
	e2e.FullShot(t, bob, "lobby-phone")
}

// TestAnonymousGamesKeptOnRegister: a browser plays the computer without an
// account, then registers; the game is on its new page.
func TestAnonymousGamesKeptOnRegister(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	id := e2e.NewGame(t, ctx, a, "tablut", "linnaeus", "ai", "easy", "attackers")
	e2e.WaitMyTurn(t, ctx, "attackers")
	e2e.Poll(t, ctx, "your turn in the header", `((document.getElementById("your-turn") || {}).textContent || "").replace(/\u00a0/g, " ").startsWith("Your turn in 1 game")`)
	e2e.Register(t, ctx, a, "carroll")
	e2e.Poll(t, ctx, "the anonymous game on the page", fmt.Sprintf(`!!document.querySelector('#playing li[data-game=%q]')`, id))
	// The game shows its player by the name he has taken, not as
	// "Anonymous": in the list and on its page (a newcomer once found his
	// first games still anonymous).
	e2e.Poll(t, ctx, "the new name in the list", fmt.Sprintf(`document.querySelector('#playing li[data-game=%q]').textContent.includes("carroll")`, id))
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/g/"+id))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the new name on the game's page", `document.getElementById("strip-bottom").textContent.includes("carroll") && !document.querySelector(".play").textContent.includes("Anonymous")`)
}

// TestSpectatorChatHiddenFromPlayers: a spectator's chat reaches other
// spectators, never the players while the game goes on; the players'
// chat reaches everyone; lines are text, never markup.
func TestSpectatorChatHiddenFromPlayers(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	host, cancel := e2e.Browser(t)
	defer cancel()
	e2e.NewGame(t, host, a, "tablut", "linnaeus", "friend", "easy", "attackers")
	invite, err := chromedp.Run(host, chromedp.Value(chromedp.CSS("#invite-link")))
	if err != nil {
		t.Fatal(err)
	}
	gameURL := strings.SplitN(invite, "?", 2)[0]
	friend, c2 := chromedp.NewContext(host, chromedp.WithNewBrowserContext())
	defer c2()
	spectator, c3 := chromedp.NewContext(host, chromedp.WithNewBrowserContext())
	defer c3()
	if err := chromedp.Do(friend, chromedp.Navigate(invite), chromedp.WaitVisible(chromedp.CSS("#chat-input"))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(spectator, chromedp.Navigate(gameURL), chromedp.WaitVisible(chromedp.CSS("#chat-input"))); err != nil {
		t.Fatal(err)
	}
	for _, c := range []context.Context{host, friend, spectator} {
		e2e.Poll(t, c, "live", `document.getElementById("connection").dataset.state === "live"`)
	}
	if got := e2e.Text(t, spectator, "#chat-room"); !strings.Contains(got, "Spectators' chat") {
		t.Fatalf("the spectator's chat says %q", got)
	}
	e2e.Say(t, spectator, "<b>the king is trapped</b>")
	e2e.Poll(t, spectator, "the spectator's line", `[...document.querySelectorAll("#chat-lines .text")].some(e => e.textContent === "<b>the king is trapped</b>")`)
	if n, _ := chromedp.Run(spectator, chromedp.Evaluate[int](`document.querySelectorAll("#chat-lines b").length`)); n != 0 {
		t.Fatal("a chat line was read as markup")
	}
	e2e.Say(t, host, "good luck")
	for _, c := range []context.Context{host, friend, spectator} {
		e2e.Poll(t, c, "the players' line", `[...document.querySelectorAll("#chat-lines .text")].some(e => e.textContent === "good luck")`)
	}
	time.Sleep(500 * time.Millisecond)
	for _, c := range []context.Context{host, friend} {
		if got := e2e.Text(t, c, "#chat-lines"); strings.Contains(got, "trapped") {
			t.Fatalf("a player sees the spectators' chat: %q", got)
		}
	}
	// Reloading does not show it either.
	if err := chromedp.Do(friend, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#chat-lines"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, friend, "the players' line again", `[...document.querySelectorAll("#chat-lines .text")].some(e => e.textContent === "good luck")`)
	if got := e2e.Text(t, friend, "#chat-lines"); strings.Contains(got, "trapped") {
		t.Fatalf("after a reload a player sees the spectators' chat: %q", got)
	}
	e2e.FullShot(t, spectator, "chat-spectator")
	// Once the game is over the players read both rooms.
	if err := chromedp.Do(host, chromedp.Click(chromedp.CSS("#abort"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, host, "the spectators' line after the game", `[...document.querySelectorAll("#chat-lines .text")].some(e => e.textContent.includes("trapped"))`)
}

// TestCorrespondenceAcrossRestart: a game of three days a move, made in the
// lobby, goes on after the server restarts, its deadline unchanged.
func TestCorrespondenceAcrossRestart(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	host, cancel := e2e.Browser(t)
	defer cancel()
	if err := chromedp.Do(host, chromedp.Navigate(a.URL("/")), chromedp.WaitVisible(chromedp.CSS("#start"))); err != nil {
		t.Fatal(err)
	}
	guest, c2 := chromedp.NewContext(host, chromedp.WithNewBrowserContext())
	defer c2()
	if _, err := chromedp.Run(host, chromedp.Evaluate[bool](`(() => { const g = document.getElementById("game"); g.value = "tablut"; g.dispatchEvent(new Event("change")); const o = document.getElementById("opponent"); o.value = "lobby"; o.dispatchEvent(new Event("change")); document.getElementById("side").value = "attackers"; document.getElementById("days").value = "3"; return true })()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(host, chromedp.Click(chromedp.CSS("#start"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, host, "the challenge listed", `!!document.querySelector("#challenges button.cancel")`)
	if err := chromedp.Do(guest, chromedp.Navigate(a.URL("/")), chromedp.WaitVisible(chromedp.CSS("#challenges button.accept"))); err != nil {
		t.Fatal(err)
	}
	// Asked of the page as it is: the lobby redraws its rows as it hears
	// of changes, and a row read by its node may be gone by then.
	e2e.Poll(t, guest, "the challenge row says its pace", `[...document.querySelectorAll("#challenges tbody tr")].some((r) => r.textContent.includes("3 days a move"))`)
	e2e.ClickLive(t, guest, "#challenges button.accept")
	e2e.Poll(t, host, "the host taken to the game", `location.pathname.startsWith("/g/") && !!document.querySelector("svg.board")`)
	v := e2e.WaitMyTurn(t, host, "attackers")
	e2e.ClickAction(t, host, v, "a4-a3")
	e2e.WaitPast(t, host, 0)
	e2e.Poll(t, guest, "the deadline shown", `(document.getElementById("deadline") || {textContent: ""}).textContent.includes("must move by")`)
	before := e2e.Current(t, guest)
	deadline := e2e.Text(t, guest, "#deadline")
	if before.Clock == nil || before.Clock.Deadline == 0 {
		t.Fatalf("no deadline: %+v", before.Clock)
	}
	if d := time.Until(time.UnixMilli(before.Clock.Deadline)); d < 71*time.Hour || d > 72*time.Hour {
		t.Fatalf("deadline in %v, want 3 days", d)
	}
	db, addr := a.DB, a.Addr
	a.Stop()
	// The page sees the connection lost, then, the server back, live
	// again, and draws the game anew.
	e2e.Poll(t, guest, "the connection lost", `document.body.dataset.conn === "lost"`)
	e2e.StartApp(t, db, addr)
	e2e.Poll(t, guest, "reconnected", `document.body.dataset.conn === "live" && document.body.dataset.ply === "1" && !!document.getElementById("deadline")`)
	after := e2e.Current(t, guest)
	if after.Clock == nil || after.Clock.Deadline != before.Clock.Deadline || after.Ply != 1 {
		t.Fatalf("after the restart: deadline %v (was %d), ply %d", after.Clock, before.Clock.Deadline, after.Ply)
	}
	if got := e2e.Text(t, guest, "#deadline"); got != deadline {
		t.Fatalf("the page's deadline %q, was %q", got, deadline)
	}
	v = e2e.WaitMyTurn(t, guest, "defenders")
	e2e.ClickAction(t, guest, v, "e3-d3")
	e2e.WaitPast(t, guest, 1)
	e2e.FullShot(t, guest, "correspondence")
}

// TestSignOutFromTheHeader: signed in, every page's header offers Sign
// out; it signs the browser out (issue 31, item 10).
func TestSignOutFromTheHeader(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	e2e.Register(t, ctx, a, "leaver")
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/")), chromedp.WaitVisible(chromedp.CSS("#sign-out"))); err != nil {
		t.Fatal(err)
	}
	e2e.FullShot(t, ctx, "header-signed-in")
	// At a phone's width the header keeps it in view, without scrolling
	// sideways.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.WaitVisible(chromedp.CSS("#sign-out"))); err != nil {
		t.Fatal(err)
	}
	if w, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); w > 360 {
		t.Fatalf("the page is %d px wide at 360", w)
	}
	if buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("header"))); err == nil {
		e2e.Save(t, "phone-header-signed-in.png", buf)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#sign-out"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "signed out", `!!document.getElementById("sign-in") && !document.getElementById("sign-out")`)
	// A wrong password is refused, said so, and not kept in the field.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(a.URL("/account")),
		chromedp.WaitVisible(chromedp.CSS("#login-username")),
		chromedp.SendKeys(chromedp.CSS("#login-username"), "leaver"),
		chromedp.SendKeys(chromedp.CSS("#login-password"), "not the password"),
		chromedp.Click(chromedp.CSS("#login button[type=submit]")),
	); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the refusal", `document.getElementById("account-error").textContent !== "" && document.getElementById("login-password").value === "" && document.activeElement === document.getElementById("login-password") && location.pathname === "/account"`)
}
