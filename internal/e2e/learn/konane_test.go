package learn

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/muster-games/muster/internal/e2e"
)

// TestKonaneAgainstTheComputer plays the example game of docs/new-game.md
// to its end by clicks, as Black against the computer: the lift, jumps,
// runs of jumps and the button that stops one, all from the game's own
// description; the page names no game.
func TestKonaneAgainstTheComputer(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	e2e.NewGame(t, ctx, a, "konane", "suggested", "ai", "random", "black")
	runs := 0
	for moves := 0; moves < 200; moves++ {
		v := e2e.WaitMyTurn(t, ctx, "black")
		if v.Status == "over" {
			break
		}
		if moves == 0 {
			if n := e2e.Count(t, ctx, "#board [data-piece]"); n != 64 {
				t.Fatalf("the start shows %d stones, want 64", n)
			}
			e2e.Shot(t, ctx, "konane-start")
		}
		// In a run of jumps, stop it by its button now and then.
		action := e2e.Choose(t, v, "mcts(iterations=300)")
		for _, l := range v.Legal {
			if l.Text == "pass" {
				runs++
				if runs%2 == 1 {
					action = "pass"
				}
			}
		}
		e2e.ClickAction(t, ctx, v, action)
		e2e.WaitPast(t, ctx, v.Ply)
	}
	v := e2e.Current(t, ctx)
	if v.Status != "over" {
		t.Fatalf("the game is not over: %+v", v.History)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#ending .headline"))); err != nil {
		t.Fatal(err)
	}
	e2e.Shot(t, ctx, "konane-end")
	t.Logf("%s after %d actions, %d runs of jumps: %s", v.Result, len(v.History), runs, strings.Join(v.History, " "))
}

// TestLearnKonane completes Kōnane's walkthrough by clicks.
func TestLearnKonane(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	walkLessons(t, ctx, a, "konane")
}
