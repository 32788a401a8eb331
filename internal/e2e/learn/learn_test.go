package learn

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/e2e"
)

// TestLearnLanrick completes the Lanrick walkthrough by clicks, from the
// home page's link: each step's solution is clicked on the board (or its
// buttons), the page says "Well done" and leads to the next step; a wrong
// turn is told and can be tried again; the last step starts a game against
// the computer.
func TestLearnLanrick(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	lessons := walkLessons(t, ctx, a, "lanrick")
	// The lessons' boards are in no list: home says no game waits.
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/")), chromedp.WaitVisible(chromedp.CSS("#start"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "your games: none", `document.body.textContent.includes("None in play")`)
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById("your-turn") || {}).textContent || ""`)); strings.Contains(got, "Your turn") {
		t.Fatalf("after the lessons the header says %q", got)
	}
	// A wrong turn in Carroll's first example (the squares spent
	// elsewhere): the page says so, with a way to try again.
	first := 0
	for i, l := range lessons {
		if strings.HasPrefix(l.Title, "Carroll's first example") {
			first = i + 1
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL(fmt.Sprintf("/learn/lanrick/%d", first))), chromedp.WaitVisible(chromedp.CSS("#lesson"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "Carroll's first example again", `!!document.body.dataset.game && document.body.dataset.myTurn === "yes"`)
	v := e2e.Current(t, ctx)
	e2e.ClickAction(t, ctx, v, "g5-h4")
	v = e2e.WaitPast(t, ctx, 0)
	e2e.ClickAction(t, ctx, v, "end")
	e2e.Poll(t, ctx, "the wrong turn told", `document.getElementById("lesson-result").textContent.includes("Not this time") && !!document.getElementById("try-again")`)
	// The last step leads to a first game against the computer.
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL(fmt.Sprintf("/learn/lanrick/%d", len(lessons)))), chromedp.WaitVisible(chromedp.CSS("#lesson"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the last step", `!!document.body.dataset.game && document.body.dataset.myTurn === "yes"`)
	for _, text := range lessons[len(lessons)-1].Solution {
		v = e2e.Current(t, ctx)
		e2e.ClickAction(t, ctx, v, text)
		e2e.WaitPast(t, ctx, v.Ply)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#first-game"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the first game", `location.pathname.startsWith("/g/") && !!document.querySelector("svg.board") && document.getElementById("you").textContent.startsWith("You play")`)
	v = e2e.Current(t, ctx)
	if !strings.HasPrefix(v.Spec, "lanrick(1893") {
		t.Fatalf("the first game is %s", v.Spec)
	}
}

// TestDiceShown: in a game of 1879 the page shows the die's faces as they
// are thrown, and the squares the throws fix.
func TestDiceShown(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	pos := "board=8/8/8/7w/7w/7w/7w/bbbbb2w to=chance phase=roll rdv=1 size=9 placer=black placed=10 first=black budgets=6,6"
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/")), chromedp.WaitVisible(chromedp.CSS("#start"))); err != nil {
		t.Fatal(err)
	}
	id, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({game: "lanrick", ruleset: "1879-01", opponent: "local", side: "black", position: %q})}).then(r => r.json()).then(r => {
		localStorage.setItem("muster:" + r.id, JSON.stringify({seats: {0: r.secrets[0], 1: r.secrets[1]}})); return r.id; })`, pos), chromedp.EvalAwaitPromise))
	if err != nil || id == "" {
		t.Fatalf("create: %q %v", id, err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/g/"+id)), chromedp.WaitVisible(chromedp.CSS("svg.board"))); err != nil {
		t.Fatal(err)
	}
	// The server throws the die at once; the page shows its face.
	e2e.Poll(t, ctx, "a die shown", `[...document.querySelectorAll('#events li[data-event="dice"] .die')].some(d => "⚀⚁⚂⚃⚄⚅".includes(d.textContent))`)
	// The throws open black's turn in the move list.
	e2e.Poll(t, ctx, "the throws in black's turn", `document.getElementById("moves").textContent.includes("Black: ") && !document.getElementById("moves").textContent.includes("chance")`)
	e2e.Shot(t, ctx, "dice")
}

// walkLessons opens a game's walkthrough from the home page's link and
// plays every step by clicks, checking the asked squares and the "Well
// done"; it returns the lessons.
func walkLessons(t *testing.T, ctx context.Context, a *e2e.App, name string) []game.Lesson {
	t.Helper()
	info, err := game.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	lessons := info.Lessons
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/")), chromedp.Click(chromedp.CSS("#learn-"+name)), chromedp.WaitVisible(chromedp.CSS("#lesson"))); err != nil {
		t.Fatal(err)
	}
	for i, l := range lessons {
		// The step's own page ("…: step 3 of 6"), not the step before
		// whose Next step link was just clicked, still there while the
		// browser goes to the next.
		e2e.Poll(t, ctx, fmt.Sprintf("step %d", i+1), fmt.Sprintf(`document.getElementById("lesson") && document.getElementById("lesson").textContent.includes(%q) && document.getElementById("lesson").textContent.includes("tep %d of ") && !!document.body.dataset.game`, l.Title, i+1))
		v := e2e.Current(t, ctx)
		if v.Ply != 0 || v.Status != "playing" {
			t.Fatalf("step %d starts at ply %d, %s", i+1, v.Ply, v.Status)
		}
		// The squares the page asks for are those of the legal actions.
		asked := v.Prompt.Squares
		firsts := map[string]bool{}
		for _, la := range v.Legal {
			if len(la.Squares) > 0 {
				firsts[la.Squares[0]] = true
			}
		}
		if len(asked) != len(firsts) {
			t.Errorf("step %d asks for %v; the legal actions start on %v", i+1, asked, firsts)
		}
		for _, text := range l.Solution {
			v = e2e.Current(t, ctx)
			e2e.ClickAction(t, ctx, v, text)
			e2e.WaitPast(t, ctx, v.Ply)
		}
		if l.Goal == game.GoalWatch {
			// A step to watch takes no move on the board: its moves are
			// shown one by one, each caption as its move is played.
			if got := e2e.Text(t, ctx, "#you"); !strings.Contains(got, "You watch") {
				t.Fatalf("step %d: %q", i+1, got)
			}
			for j, shown := range l.Watch {
				if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#watch-step"))); err != nil {
					t.Fatal(err)
				}
				e2e.Poll(t, ctx, fmt.Sprintf("step %d, move %d shown", i+1, j+1), fmt.Sprintf(`document.body.dataset.ply === "%d"`, j+1))
				if shown.Say != "" {
					e2e.Poll(t, ctx, fmt.Sprintf("step %d, caption %d", i+1, j+1), fmt.Sprintf(`document.getElementById("watch-say").textContent === %q`, shown.Say))
				}
			}
			e2e.Poll(t, ctx, fmt.Sprintf("step %d watched", i+1), fmt.Sprintf(`document.getElementById("lesson-result").textContent.startsWith(%q) && !!document.getElementById("next-step")`, l.Done))
		} else {
			e2e.Poll(t, ctx, fmt.Sprintf("step %d done", i+1), `document.getElementById("lesson-result").textContent.startsWith("Well done")`)
		}
		e2e.Shot(t, ctx, fmt.Sprintf("learn-%s-step-%d", name, i+1))
		if i < len(lessons)-1 {
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#next-step"))); err != nil {
				t.Fatal(err)
			}
		}
	}
	return lessons
}

// TestLearnTablut completes the Tablut walkthrough by clicks.
func TestLearnTablut(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	walkLessons(t, ctx, a, "tablut")
}

// TestRulesPages: each rules page draws every figure its game gives, as a
// picture named by its caption with the pieces the game placed, and says
// the options in words, without the rulings' codes.
func TestRulesPages(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	for _, name := range game.Names() {
		info, _ := game.Lookup(name)
		if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/rules/"+name)), chromedp.WaitVisible(chromedp.CSS("#figure-1 svg"))); err != nil {
			t.Fatal(err)
		}
		for i, f := range info.Figures {
			sel := fmt.Sprintf("#figure-%d svg.still", i+1)
			label, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-label")`, sel)))
			if err != nil || !strings.HasPrefix(label, f.Title+": ") {
				t.Errorf("%s figure %d: %q %v", name, i+1, label, err)
			}
			if n := e2e.Count(t, ctx, fmt.Sprintf("#figure-%d [data-piece]", i+1)); n == 0 {
				t.Errorf("%s figure %d shows no piece", name, i+1)
			}
		}
		opts := e2e.Text(t, ctx, "dl.options")
		for _, o := range info.Options {
			if o.Ruling != "" && strings.Contains(opts, o.Ruling) {
				t.Errorf("%s: the options show the ruling code %q", name, o.Ruling)
			}
		}
		e2e.Shot(t, ctx, "rules-"+name)
	}
}

// TestHomeForAFirstVisitor: the home page says what each game is, and a
// first visitor's computer is the easy one; the level he chooses is kept
// for his next visit (issue 31, item 12).
func TestHomeForAFirstVisitor(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/")), chromedp.WaitVisible(chromedp.CSS("#about-lanrick"))); err != nil {
		t.Fatal(err)
	}
	if got := e2e.Text(t, ctx, "#about-lanrick"); !strings.Contains(got, "Lewis Carroll's game for two players") {
		t.Fatalf("what Lanrick is: %q", got)
	}
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("level").value`)); got != "easy" {
		t.Fatalf("a first visitor's level: %q", got)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.getElementById("level"); s.value = "hard"; s.dispatchEvent(new Event("change")); return true })()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#level"))); err != nil {
		t.Fatal(err)
	}
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("level").value`)); got != "hard" {
		t.Fatalf("the level after a visit: %q, want the one chosen", got)
	}
	e2e.Shot(t, ctx, "home-first-visit")
	// A game card starts a game against the computer at once, at the
	// level kept.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#quick-tablut"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the quick game", `location.pathname.startsWith("/g/") && document.getElementById("players").textContent.includes("Computer (hard)")`)
	if v := e2e.Current(t, ctx); !strings.HasPrefix(v.Spec, "tablut(") {
		t.Fatalf("the Tablut card started %s", v.Spec)
	}
}
