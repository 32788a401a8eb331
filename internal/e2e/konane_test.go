package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	_ "github.com/muster-games/muster/examples/konane"
)

// TestKonaneAgainstTheComputer plays the example game of docs/new-game.md
// to its end by clicks, as Black against the computer: the lift, jumps,
// runs of jumps and the button that stops one, all from the game's own
// description; the page names no game.
func TestKonaneAgainstTheComputer(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	newGame(t, ctx, a, "konane", "suggested", "ai", "random", "black")
	runs := 0
	for moves := 0; moves < 200; moves++ {
		v := waitMyTurn(t, ctx, "black")
		if v.Status == "over" {
			break
		}
		if moves == 0 {
			if n := count(t, ctx, "#board [data-piece]"); n != 64 {
				t.Fatalf("the start shows %d stones, want 64", n)
			}
			shot(t, ctx, "konane-start")
		}
		// In a run of jumps, stop it by its button now and then.
		action := choose(t, v, "mcts(iterations=300)")
		for _, l := range v.Legal {
			if l.Text == "pass" {
				runs++
				if runs%2 == 1 {
					action = "pass"
				}
			}
		}
		clickAction(t, ctx, v, action)
		waitPast(t, ctx, v.Ply)
	}
	v := current(t, ctx)
	if v.Status != "over" {
		t.Fatalf("the game is not over: %+v", v.History)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#ending .headline"))); err != nil {
		t.Fatal(err)
	}
	shot(t, ctx, "konane-end")
	t.Logf("%s after %d actions, %d runs of jumps: %s", v.Result, len(v.History), runs, strings.Join(v.History, " "))
}

// TestLearnKonane completes Kōnane's walkthrough by clicks.
func TestLearnKonane(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	walkLessons(t, ctx, a, "konane")
}
