package lobby

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/e2e"
)

// answerPrompts answers every prompt the page opens with text.
func answerPrompts(ctx context.Context, text string) {
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for _, err := range dialogs {
			if err != nil {
				return
			}
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true, PromptText: text})
		}
	}()
}

// TestReportAndBan: a player reports another from his page (the Report
// button, a reason typed into the prompt); an administrator, made from
// the command line (here the store), sees the report at /reports and bans
// the player by its button; the banned player's account page says so.
func TestReportAndBan(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	first, cancel := e2e.Browser(t)
	defer cancel()
	ctxs := e2e.People(t, first, a, "alice", "mallory", "judge")
	alice, mallory, judge := ctxs["alice"], ctxs["mallory"], ctxs["judge"]
	if err := a.Store.SetAdmin(context.Background(), auth.UsernameKey("judge"), true); err != nil {
		t.Fatal(err)
	}
	answerPrompts(alice, "stalls every lost game")
	if err := chromedp.Do(alice, chromedp.Navigate(a.URL("/@/mallory")), chromedp.WaitVisible(chromedp.CSS("#report-player")), chromedp.Click(chromedp.CSS("#report-player"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, alice, "the report said", `document.getElementById("report-note").textContent.includes("Reported")`)
	if err := chromedp.Do(judge, chromedp.Navigate(a.URL("/reports")), chromedp.WaitVisible(chromedp.CSS("#reports li[data-report]"))); err != nil {
		t.Fatal(err)
	}
	if got := e2e.Text(t, judge, "#reports"); !strings.Contains(got, "mallory") || !strings.Contains(got, "stalls every lost game") || !strings.Contains(got, "reported by alice") {
		t.Fatalf("the reports page: %q", got)
	}
	e2e.FullShot(t, judge, "reports")
	if err := chromedp.Do(judge, chromedp.Click(chromedp.CSS(`#reports button[data-resolution="banned"]`))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, judge, "the report closed", `document.querySelectorAll("#reports li[data-report]").length === 0`)
	if err := chromedp.Do(mallory, chromedp.Navigate(a.URL("/account")), chromedp.WaitVisible(chromedp.CSS("#banned"))); err != nil {
		t.Fatal(err)
	}
	// Someone not an administrator sees no report.
	if err := chromedp.Do(alice, chromedp.Navigate(a.URL("/reports")), chromedp.WaitVisible(chromedp.CSS(".error"))); err != nil {
		t.Fatal(err)
	}
	if got := e2e.Text(t, alice, ".error"); !strings.Contains(got, "administrator") {
		t.Fatalf("alice at /reports: %q", got)
	}
}
