package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestTournamentInBrowser: a player creates a round robin with the
// tournaments page's form; two more join on its page; the creator starts
// it early; the server pairs the first round, and every page shows its
// game and the bye, with the game opening on a click.
func TestTournamentInBrowser(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ann, cancel := browser(t)
	defer cancel()
	register(t, ann, a, "ann")
	ben, c2 := chromedp.NewContext(ann, chromedp.WithNewBrowserContext())
	defer c2()
	register(t, ben, a, "ben")
	cat, c3 := chromedp.NewContext(ann, chromedp.WithNewBrowserContext())
	defer c3()
	register(t, cat, a, "cat")
	if err := chromedp.Do(ann, chromedp.Navigate(a.url("/tournaments")), chromedp.WaitVisible(chromedp.CSS("#new-tournament")),
		chromedp.SendKeys(chromedp.CSS("#t-name"), "Friday round robin"), chromedp.SetValue(chromedp.CSS("#t-clock"), "d1"),
		chromedp.Click(chromedp.CSS(`#new-tournament button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS("#standings"))); err != nil {
		t.Fatal(err)
	}
	url, err := chromedp.Run(ann, chromedp.Evaluate[string](`location.href`))
	if err != nil || !strings.Contains(url, "/t/") {
		t.Fatalf("after creating: %q %v", url, err)
	}
	for _, c := range []context.Context{ben, cat} {
		if err := chromedp.Do(c, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#t-join")), chromedp.Click(chromedp.CSS("#t-join")), chromedp.WaitVisible(chromedp.CSS("#t-withdraw"))); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ann, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#t-start")), chromedp.Click(chromedp.CSS("#t-start"))); err != nil {
		t.Fatal(err)
	}
	// The sweep (every 2 s) starts it; the page refreshes every 5 s.
	for _, c := range []context.Context{ann, ben, cat} {
		poll(t, c, "the first round", `document.querySelector('.round[data-round="1"]') !== null && document.getElementById("t-status").textContent.includes("Round 1 of 3")`)
	}
	got := text(t, ben, ".round")
	if !strings.Contains(got, "has the bye") || !strings.Contains(got, "playing") {
		t.Fatalf("round 1: %q", got)
	}
	fullShot(t, ben, "tournament")
	if err := chromedp.Do(ben, chromedp.Click(chromedp.CSS(`.round a[href^="/g/"]`)), chromedp.WaitVisible(chromedp.CSS("#board"))); err != nil {
		t.Fatal(err)
	}
}

// TestArenaInBrowser: four players in four browsers; an arena made with
// the form, joined on its page, started early by its creator; the server
// pairs them two games at a time; the first seat of each game resigns on
// the game page, and the standings give each winner 2 points and show the
// scores game by game, then pair the four again.
func TestArenaInBrowser(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	first, cancel := browser(t)
	defer cancel()
	names := []string{"ann", "ben", "cat", "dan"}
	ctxs := map[string]context.Context{"ann": first}
	register(t, first, a, "ann")
	for _, n := range names[1:] {
		c, cc := chromedp.NewContext(first, chromedp.WithNewBrowserContext())
		defer cc()
		register(t, c, a, n)
		ctxs[n] = c
	}
	ann := ctxs["ann"]
	if err := chromedp.Do(ann, chromedp.Navigate(a.url("/tournaments")), chromedp.WaitVisible(chromedp.CSS("#new-tournament")),
		chromedp.SendKeys(chromedp.CSS("#t-name"), "Evening arena"), chromedp.SetValue(chromedp.CSS("#t-kind"), "arena"),
		chromedp.SetValue(chromedp.CSS("#t-clock"), "10+5"),
		chromedp.Click(chromedp.CSS(`#new-tournament button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS("#standings"))); err != nil {
		t.Fatal(err)
	}
	url, _ := chromedp.Run(ann, chromedp.Evaluate[string](`location.href`))
	for _, n := range names[1:] {
		if err := chromedp.Do(ctxs[n], chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#t-join")), chromedp.Click(chromedp.CSS("#t-join")), chromedp.WaitVisible(chromedp.CSS("#t-withdraw"))); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ann, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#t-start")), chromedp.Click(chromedp.CSS("#t-start"))); err != nil {
		t.Fatal(err)
	}
	poll(t, ann, "the first pairing", `document.querySelectorAll('.round[data-round="1"] li').length === 2`)
	// Each game's first seat resigns, from his browser (before a move the
	// game page offers Abort, which an arena scores as nothing).
	games, err := chromedp.Run(ann, chromedp.Evaluate[[][]string](`[...document.querySelectorAll('.round[data-round="1"] li')].map(li => [li.textContent.split(" – ")[0], li.querySelector("a").getAttribute("href")])`))
	if err != nil || len(games) != 2 {
		t.Fatalf("the games: %v %v", games, err)
	}
	winners := map[string]bool{}
	for _, g := range games {
		c := ctxs[g[0]]
		if err := chromedp.Do(c, chromedp.Navigate(a.url(g[1])), chromedp.WaitVisible(chromedp.CSS("#board"))); err != nil {
			t.Fatal(err)
		}
		code, err := chromedp.Run(c, chromedp.Evaluate[float64](`fetch("/api/games/`+strings.TrimPrefix(g[1], "/g/")+`/resign", {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"}).then(r => r.status)`, chromedp.EvalAwaitPromise))
		if err != nil || code != 200 {
			t.Fatalf("%s resigns: %v %v", g[0], code, err)
		}
	}
	if err := chromedp.Do(ann, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#standings"))); err != nil {
		t.Fatal(err)
	}
	poll(t, ann, "the second pairing", `document.querySelectorAll('.round[data-round="2"] li').length === 2`)
	rows, err := chromedp.Run(ann, chromedp.Evaluate[[][]string](`[...document.querySelectorAll("#standings tr")].slice(1).map(tr => [...tr.children].map(td => td.textContent.trim()))`))
	if err != nil || len(rows) != 4 {
		t.Fatalf("standings: %v %v", rows, err)
	}
	for _, r := range rows {
		if r[2] == "2" && r[3] == "2" {
			winners[r[1]] = true
		} else if r[2] != "0" || r[3] != "0" {
			t.Errorf("a standings row %v", r)
		}
	}
	if len(winners) != 2 {
		t.Errorf("winners %v in %v", winners, rows)
	}
	fullShot(t, ann, "arena")
}
