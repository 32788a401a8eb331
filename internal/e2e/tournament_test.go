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
