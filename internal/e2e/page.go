package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
)

// PageView is the part of the server's view the tests read.
type PageView struct {
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

// Side is the name of the player to act, or "".
func (v PageView) Side() string {
	if v.ToAct < 0 || v.ToAct >= len(v.Traits.Players) {
		return ""
	}
	return v.Traits.Players[v.ToAct].Name
}

// Men counts the pieces of the named side.
func (v PageView) Men(side string) int {
	n := 0
	for _, p := range v.Board.Pieces {
		if p.Side < len(v.Traits.Players) && v.Traits.Players[p.Side].Name == side {
			n++
		}
	}
	return n
}

// Current reads the game the page shows, through the page's own origin.
func Current(t *testing.T, ctx context.Context) PageView {
	t.Helper()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch("/api/games/" + (document.body.dataset.game || location.pathname.slice(3))).then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var v PageView
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return v
}

// ClickAction plays an action by clicking: the squares of a move or a
// slide, the square of a mark, a removal or a swap, or the button of an
// action without squares; a choice between actions on the same squares is
// made by the buttons that appear.
func ClickAction(t *testing.T, ctx context.Context, v PageView, text string) {
	t.Helper()
	var squares []string
	kind := ""
	for _, a := range v.Legal {
		if a.Text == text {
			squares, kind = a.Squares, a.Kind
		}
	}
	if kind == "" {
		var legal []string
		for _, a := range v.Legal {
			legal = append(legal, a.Text)
		}
		t.Fatalf("%s is not among the legal actions of %s at ply %d (%s): %v", text, v.Pos, v.Ply, v.ID, legal)
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
	// 3-square rendezvous): pick the button. Actions on the same squares
	// that end alike are played without asking.
	same, after := 0, map[string]bool{}
	for _, a := range v.Legal {
		if strings.Join(a.Squares, " ") == strings.Join(squares, " ") {
			same++
			after[a.After] = true
		}
	}
	if same > 1 && len(squares) > 0 && (len(after) > 1 || after[""]) {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#choices button[data-action="%s"]`, text)))); err != nil {
			t.Fatalf("choosing %s: %v", text, err)
		}
	}
}

// WaitPast waits until the page's game has moved past ply.
func WaitPast(t *testing.T, ctx context.Context, ply int) PageView {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		v := Current(t, ctx)
		if v.Ply > ply || v.Status == "over" {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game did not move past ply %d", ply)
		}
		awaitChange(ctx, v.Ply, time.Until(deadline))
	}
}

// WaitMyTurn waits until side is to act (or the game is over).
func WaitMyTurn(t *testing.T, ctx context.Context, side string) PageView {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		v := Current(t, ctx)
		if v.Status == "over" {
			return v
		}
		if v.Side() == side && len(v.Legal) > 0 {
			// The page must have drawn this very ply as its turn (its view
			// comes by WebSocket): it says so in data-ply and data-my-turn.
			if ok, _ := Await(ctx, fmt.Sprintf(`document.body.dataset.ply === "%d" && document.body.dataset.myTurn === "yes"`, v.Ply), 2*time.Second); ok {
				return v
			}
		} else if time.Now().Before(deadline) {
			awaitChange(ctx, v.Ply, time.Until(deadline))
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never came to act: %+v", side, v)
		}
	}
}

// awaitChange waits, for at most limit, until the page's game is no
// longer at ply (a move, or a move taken back) or is over: as the page
// has drawn it (data-ply and data-status), or on a page that draws none
// as the server has it. The page itself watches, so that a wait costs one
// call to the browser; a page that has not yet drawn ply ends the wait at
// once, and the caller asks again a moment later.
func awaitChange(ctx context.Context, ply int, limit time.Duration) {
	start := time.Now()
	Await(ctx, fmt.Sprintf(`(async () => { const b = document.body.dataset;
		if (b.ply !== undefined) return +b.ply !== %[1]d || b.status === "over";
		const v = await (await fetch("/api/games/" + (b.game || location.pathname.slice(3)))).json();
		return v.ply !== %[1]d || v.status === "over"; })()`, ply), limit)
	if time.Since(start) < 50*time.Millisecond {
		time.Sleep(50 * time.Millisecond)
	}
}

// Await evaluates the JavaScript expression (which may be a promise) in
// the page until it is true or limit has passed, and says which; the page
// evaluates it again every 50 ms itself, so that a wait costs one call to
// the browser, not one a check. An error (the page navigating away, which
// ends the evaluation) returns at once with the error.
func Await(ctx context.Context, expr string, limit time.Duration) (bool, error) {
	ms := limit.Milliseconds()
	if ms < 1 {
		ms = 1
	}
	c, cancel := context.WithTimeout(ctx, limit+5*time.Second)
	defer cancel()
	return chromedp.Run(c, chromedp.Evaluate[bool](fmt.Sprintf(`new Promise((resolve) => {
		const end = Date.now() + %d;
		const check = async () => {
			let ok = false;
			try { ok = !!(await (%s)); } catch (e) {}
			if (ok || Date.now() >= end) resolve(ok); else setTimeout(check, 50);
		};
		check();
	})`, ms, expr), chromedp.EvalAwaitPromise))
}

// Choose picks the action a Muster agent would play in the page's
// position (the test decides with the engine; the browser plays by clicks).
func Choose(t *testing.T, v PageView, spec string) string {
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

// GameUnderWay starts an easy Tablut game against the computer, the page
// attacking, and plays a4-a3; it returns the game's id and the view once
// the computer has answered.
func GameUnderWay(t *testing.T, ctx context.Context, a *App) (string, PageView) {
	t.Helper()
	id := NewGame(t, ctx, a, "tablut", "linnaeus", "ai", "easy", "attackers")
	v := WaitMyTurn(t, ctx, "attackers")
	ClickAction(t, ctx, v, "a4-a3")
	// Until the page has the move, it still shows the attackers to act at
	// ply 0: wait for the move first, then for the answer.
	WaitPast(t, ctx, 0)
	return id, WaitMyTurn(t, ctx, "attackers")
}

// NewGame starts a game without clocks from the home page and returns
// its id.
func NewGame(t *testing.T, ctx context.Context, a *App, gameName, ruleset, opponent, level, side string) string {
	t.Helper()
	return NewTimedGame(t, ctx, a, gameName, ruleset, opponent, level, side, "0")
}

// NewTimedGame starts a game from the home page with minutes on each
// player's clock (0: none) and returns its id.
func NewTimedGame(t *testing.T, ctx context.Context, a *App, gameName, ruleset, opponent, level, side, minutes string) string {
	t.Helper()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(a.URL("/")),
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

// Text reads the text of the first element matching sel.
func Text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	return s
}

// Poll waits until the JavaScript expression is true in the page, for
// at most 15 s; it asks again after errors, as while the page navigates.
func Poll(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	PollFor(t, ctx, what, expr, 15*time.Second)
}

// PollFor is Poll with its limit.
func PollFor(t *testing.T, ctx context.Context, what, expr string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		ok, err := Await(ctx, expr, time.Until(deadline))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not so after %s (%v)", what, limit, err)
		}
		if err != nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// Count is the number of elements matching sel.
func Count(t *testing.T, ctx context.Context, sel string) int {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll(%q).length`, sel)))
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	return n
}

// FetchJSON reads an API answer through the page.
func FetchJSON(t *testing.T, ctx context.Context, path string, out any) {
	t.Helper()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`fetch(%q).then(r => r.text())`, path), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(raw), out); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
}

// Register makes an account on the account page, by the form.
func Register(t *testing.T, ctx context.Context, a *App, name string) {
	t.Helper()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(a.URL("/account")),
		chromedp.WaitVisible(chromedp.CSS("#register-username")),
		chromedp.SendKeys(chromedp.CSS("#register-username"), name),
		chromedp.SendKeys(chromedp.CSS("#register-password"), "correct horse "+name),
		chromedp.Click(chromedp.CSS("#register button[type=submit]")),
	); err != nil {
		t.Fatal(err)
	}
	Poll(t, ctx, name+"'s page", fmt.Sprintf(`location.pathname === "/@/%s" && !!document.querySelector("h1") && document.querySelector("h1").textContent === %q`, name, name))
}

// ClickLive clicks the element selector finds as the page is at that
// instant, once there is one: the lobby redraws its rows as it hears of
// changes, and a button found by its node before a click may be gone by
// the time of it ("Could not find node with given id").
func ClickLive(t *testing.T, ctx context.Context, selector string) {
	t.Helper()
	Poll(t, ctx, "a click on "+selector, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false; e.click(); return true })()`, selector))
}

// Say sends a chat line from the page.
func Say(t *testing.T, ctx context.Context, line string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#chat-input"), line), chromedp.Click(chromedp.CSS("#chat-send"))); err != nil {
		t.Fatal(err)
	}
}

// MustInfo is a registered game's description.
func MustInfo(t *testing.T, name string) game.Info {
	t.Helper()
	info, err := game.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// People registers the accounts, the first in first's browser, each other
// in a browser context of its own (closed with the test).
func People(t *testing.T, first context.Context, a *App, names ...string) map[string]context.Context {
	t.Helper()
	ctxs := map[string]context.Context{names[0]: first}
	Register(t, first, a, names[0])
	for _, n := range names[1:] {
		c, cancel := chromedp.NewContext(first, chromedp.WithNewBrowserContext())
		t.Cleanup(cancel)
		Register(t, c, a, n)
		ctxs[n] = c
	}
	return ctxs
}
