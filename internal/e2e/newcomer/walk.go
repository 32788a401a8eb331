// Package newcomer is the browser test of a newcomer's first hour
// (Walk), run at a desktop's size by the package desktop below it and at
// a phone's by phone, so that each package's share of the suite stays
// short.
package newcomer

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/muster-games/muster/docs"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/e2e"
)

// Size is a screen the walk is made at.
type Size struct {
	Name          string
	Width, Height int64
	Phone         bool
}

// Desktop and Phone are the walk's two screens.
var (
	Desktop = Size{"desktop", 1280, 800, false}
	Phone   = Size{"phone", 360, 740, true}
)

// Walk is a newcomer's first hour, by clicks alone, at one size (issue
// 31): from the home page through every step of "Learn Lanrick", a whole
// first game against the easy computer from the walkthrough's last step,
// and the Tablut steps. At each step it asserts what a person must see
// without scrolling: the task beside the board, the result and Next; on a
// phone, a board from edge to edge. In the game, the computer's turn is
// shown man by man. Afterwards no lesson's board is left waiting. The
// three parts of the hour run at once, each a subtest in a browser of its
// own on an app of its own. The screenshots (of the screen, as the person
// sees it) are saved as newcomer-SIZE-PART-….png.
func Walk(t *testing.T, size Size) {
	parts := []struct {
		name string
		walk func(w *walker, a *e2e.App)
	}{
		{"lanrick", func(w *walker, a *e2e.App) {
			w.home(a)
			w.lessons("lanrick", 336, 0)
			w.t.Logf("%s: Learn Lanrick's %d steps took %d clicks", w.size, len(e2e.MustInfo(w.t, "lanrick").Lessons), w.clicks)
			w.rulesShown("lanrick-rules.md", "1893 in brief", 9)
		}},
		{"first-game", func(w *walker, a *e2e.App) {
			// The walkthrough's last step, which ends with the way to a
			// first game.
			last := len(e2e.MustInfo(w.t, "lanrick").Lessons)
			w.navigate(a.URL(fmt.Sprintf("/learn/lanrick/%d", last)))
			w.lessons("lanrick", 336, last-1)
			w.firstGame()
		}},
		{"tablut", func(w *walker, a *e2e.App) {
			w.navigate(a.URL("/learn/tablut"))
			w.lessons("tablut", 342, 0)
			w.rulesShown("tablut-rules.md", "linnaeus in brief", 7)
		}},
	}
	for _, part := range parts {
		t.Run(part.name, func(t *testing.T) {
			t.Parallel()
			a := e2e.StartApp(t, "", "")
			ctx, cancel := e2e.Browser(t)
			defer cancel()
			opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
			if size.Phone {
				opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateScale(2))
			}
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(size.Width, size.Height, opts...)); err != nil {
				t.Fatal(err)
			}
			w := &walker{t: t, ctx: ctx, size: size.Name, part: part.name, phone: size.Phone}
			part.walk(w, a)
			w.nothingLeft(a)
		})
	}
}

// walker walks one browser through the first hour, counting its clicks
// and numbering its screenshots.
type walker struct {
	t      *testing.T
	ctx    context.Context
	size   string
	part   string
	phone  bool
	shots  int
	clicks int
	// choiceShown: the first choice on the board has been photographed.
	choiceShown bool
	// played: a watch was played by Play.
	played bool
	// rules are the rules the lessons' pages have shown.
	rules []string
}

// rulesShown fails unless the lessons showed every rule of a game's
// summary in its rules doc (Lanrick's "1893 in brief" in
// docs/lanrick-rules.md, Tablut's "linnaeus in brief"), the rules a
// newcomer should be able to write down afterwards.
func (w *walker) rulesShown(doc, heading string, least int) {
	w.t.Helper()
	summary, err := docs.Numbered(doc, heading)
	if err != nil || len(summary) < least {
		w.t.Fatalf("the summary in docs/%s lists %d rules (%v)", doc, len(summary), err)
	}
	for i, rule := range summary {
		if !slices.Contains(w.rules, rule) {
			w.t.Errorf("the lessons never showed rule %d of %s's summary: %q", i+1, doc, rule)
		}
	}
	w.t.Logf("%s: the lessons showed all %d rules of %s's summary", w.size, len(summary), doc)
}

// screen saves what the screen shows now.
func (w *walker) screen(name string) {
	w.t.Helper()
	w.shots++
	buf, err := chromedp.Run(w.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		w.t.Logf("screenshot %s: %v", name, err)
		return
	}
	e2e.Save(w.t, fmt.Sprintf("newcomer-%s-%s-%02d-%s.png", w.size, w.part, w.shots, name), buf)
}

// inView fails unless the element is wholly on the screen as it is.
func (w *walker) inView(sel, what string) {
	w.t.Helper()
	ok, err := chromedp.Run(w.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false;
		const r = e.getBoundingClientRect(); return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; })()`, sel)))
	if err != nil || !ok {
		w.screen("not-in-view")
		w.t.Fatalf("%s (%s) is not in view without scrolling (%v)", what, sel, err)
	}
}

// boardUncovered opens the step's "Why?" (the lesson at its tallest),
// scrolls the board to the top of the screen as a learner does to play,
// and fails if anything lies over any part of it (25 points across it
// asked what is on top); then folds the why again.
func (w *walker) boardUncovered(step string) {
	w.t.Helper()
	// Not counted among the walk's clicks: the walk reads no why.
	why := func() {
		if err := chromedp.Do(w.ctx, chromedp.Click(chromedp.CSS("#why"))); err != nil {
			w.t.Fatal(err)
		}
	}
	why()
	covered, err := chromedp.Run(w.ctx, chromedp.Evaluate[string](`(() => {
		const b = document.querySelector(".board-box svg.board");
		b.scrollIntoView({block: "start"});
		const r = b.getBoundingClientRect();
		const bottom = Math.min(r.bottom, innerHeight);
		for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) {
			const x = r.left + (i + .5) * r.width / 5, y = r.top + (j + .5) * (bottom - r.top) / 5;
			const e = document.elementFromPoint(x, y);
			if (!e || !b.contains(e)) return (e ? (e.id || e.className.baseVal || e.className || e.tagName) : "nothing") + " at " + Math.round(x) + "," + Math.round(y);
		}
		return "";
	})()`))
	if err != nil || covered != "" {
		w.screen("board-covered")
		w.t.Fatalf("%s: with the why open and the board scrolled into view, %s lies over the board (%v)", step, covered, err)
	}
	why()
	if _, err := chromedp.Run(w.ctx, chromedp.Evaluate[bool](`scrollTo(0, 0), true`)); err != nil {
		w.t.Fatal(err)
	}
}

// click clicks an element as a person does.
func (w *walker) click(sel string) {
	w.t.Helper()
	if err := chromedp.Do(w.ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		w.t.Fatalf("clicking %s: %v", sel, err)
	}
	w.clicks++
}

// play plays an action by clicks: its squares on the board, then, where
// several actions share them, the choice laid over the board; an action
// without squares by its button.
func (w *walker) play(v e2e.PageView, text string) {
	w.t.Helper()
	var squares []string
	found := false
	for _, a := range v.Legal {
		if a.Text == text {
			squares, found = a.Squares, true
		}
	}
	if !found {
		w.t.Fatalf("%s is not legal at ply %d", text, v.Ply)
	}
	if len(squares) == 0 {
		w.click(fmt.Sprintf(`#choices button[data-action="%s"]`, text))
		return
	}
	for _, sq := range squares {
		w.click(fmt.Sprintf(`rect[data-sq="%s"]`, sq))
	}
	same, after := 0, map[string]bool{}
	for _, a := range v.Legal {
		if strings.Join(a.Squares, " ") == strings.Join(squares, " ") {
			same++
			after[a.After] = true
		}
	}
	// Actions that end alike are played without asking.
	if same > 1 && (len(after) > 1 || after[""]) {
		// The choice stands on the board, with what each way costs.
		e2e.Poll(w.t, w.ctx, "the choice on the board", `!document.getElementById("choice-pop").hidden`)
		w.inView("#choice-pop", "the choice")
		if !w.choiceShown {
			w.choiceShown = true
			w.screen("choice-" + strings.ReplaceAll(text, "~", "-"))
		}
		w.click(fmt.Sprintf(`#choice-pop button[data-choice="%s"]`, text))
	}
}

// preview points at the square of an action that makes a region (a
// mark, its rendezvous) on a desktop: the region is shown before the
// click.
func (w *walker) preview(v e2e.PageView, text string) {
	w.t.Helper()
	for _, a := range v.Legal {
		if a.Text != text || len(a.Preview) == 0 || w.phone {
			continue
		}
		box := e2e.Centres(w.t, w.ctx, a.Squares[0])
		if err := chromedp.Do(w.ctx, chromedp.MouseEvent("mouseMoved", box[0], box[1])); err != nil {
			w.t.Fatal(err)
		}
		e2e.Poll(w.t, w.ctx, "the rendezvous of "+text+" shown", fmt.Sprintf(`document.querySelectorAll("[data-preview]").length === %d`, len(a.Preview)))
		w.screen("preview-" + strings.ReplaceAll(text, " ", "-"))
	}
}

// home opens the home page as a first visitor.
func (w *walker) home(a *e2e.App) {
	w.t.Helper()
	if err := chromedp.Do(w.ctx, chromedp.Navigate(a.URL("/")), chromedp.WaitVisible(chromedp.CSS("#learn-lanrick"))); err != nil {
		w.t.Fatal(err)
	}
	if got := e2e.Text(w.t, w.ctx, "#about-lanrick"); !strings.Contains(got, "Lewis Carroll") {
		w.t.Fatalf("the home page does not say what Lanrick is: %q", got)
	}
	w.inView("#learn-lanrick", "the way to learn Lanrick")
	w.screen("home")
	w.click("#learn-lanrick")
}

// navigate opens a page.
func (w *walker) navigate(url string) {
	w.t.Helper()
	if err := chromedp.Do(w.ctx, chromedp.Navigate(url)); err != nil {
		w.t.Fatal(err)
	}
}

// lessons walks the steps of a game's walkthrough from step from+1 (as
// counted from one) to the last, starting on that step's page.
func (w *walker) lessons(name string, minBoard float64, from int) {
	w.t.Helper()
	info, err := game.Lookup(name)
	if err != nil {
		w.t.Fatal(err)
	}
	for i, l := range info.Lessons {
		if i < from {
			continue
		}
		step := fmt.Sprintf("%s step %d", name, i+1)
		ready := `document.body.dataset.myTurn === "yes"`
		if l.Goal == game.GoalWatch {
			ready = `!!document.getElementById("watch-play")`
		}
		e2e.Poll(w.t, w.ctx, step, fmt.Sprintf(`!!document.getElementById("task") && document.getElementById("lesson").textContent.includes(%q) && %s`, l.Title, ready))
		if got := e2e.Text(w.t, w.ctx, "#task"); got != l.Task {
			w.t.Fatalf("%s: the task reads %q", step, got)
		}
		w.inView("#task", step+": the task")
		if name == "lanrick" && l.Title == "Moving your men" {
			// A screen reader hears which squares are the rendezvous.
			label, err := chromedp.Run(w.ctx, chromedp.Evaluate[string](`document.querySelector('rect[data-sq="c4"]').getAttribute("aria-label")`))
			if err != nil || !strings.Contains(label, "in the rendezvous") {
				w.t.Fatalf("%s: c4, in the rendezvous, is read as %q (%v)", step, label, err)
			}
		}
		if len(l.Figures) > 0 {
			e2e.Poll(w.t, w.ctx, step+": its figures", fmt.Sprintf(`document.querySelectorAll("#lesson-figures figure svg").length === %d`, len(l.Figures)))
			w.screen(fmt.Sprintf("learn-%s-%d-figures", name, i+1))
		}
		if l.Rule != "" {
			if got := e2e.Text(w.t, w.ctx, "#rule"); got != l.Rule {
				w.t.Fatalf("%s: the rule reads %q", step, got)
			}
			w.inView("#rule", step+": the rule")
			w.rules = append(w.rules, l.Rule)
		}
		w.inView("#lesson", step+": the lesson's panel")
		// The long words are folded under "Why?".
		if open, _ := chromedp.Run(w.ctx, chromedp.Evaluate[bool](`!document.getElementById("why-text").hidden`)); open {
			w.t.Fatalf("%s: the why is unfolded", step)
		}
		if w.phone {
			w.boardUncovered(step)
			width, err := chromedp.Run(w.ctx, chromedp.Evaluate[float64](`document.querySelector(".board-box svg.board").getBoundingClientRect().width`))
			if err != nil || width < minBoard {
				w.screen("narrow-board")
				w.t.Fatalf("%s: the board is %.0f px wide on a 360 px phone, want ≥ %.0f", step, width, minBoard)
			}
			if i == 0 {
				w.t.Logf("%s: the board is %.0f px wide on a 360 px phone", name, width)
			}
		}
		for _, text := range l.Solution {
			v := e2e.Current(w.t, w.ctx)
			w.preview(v, text)
			w.play(v, text)
			e2e.WaitPast(w.t, w.ctx, v.Ply)
		}
		if l.Goal == game.GoalWatch {
			w.watch(step, l)
		} else {
			e2e.Poll(w.t, w.ctx, step+" done", `document.getElementById("lesson-result").textContent.startsWith("Well done")`)
		}
		next := "#next-step"
		if i == len(info.Lessons)-1 {
			next = "#first-game"
		}
		e2e.Poll(w.t, w.ctx, step+": its way on", fmt.Sprintf(`!!document.querySelector(%q)`, next))
		w.inView(next, step+": the way on")
		w.inView("#lesson-result .well-done", step+": the result")
		w.screen(fmt.Sprintf("learn-%s-%d", name, i+1))
		if i < len(info.Lessons)-1 {
			w.click(next)
		}
	}
}

// watch watches a step's stretch of play: on a desktop by Play, the
// page playing it all at a reading pace; on a phone a move at a time by
// Next move. Each caption is shown, on the screen with the whole board,
// as its move is played, and the step ends with its result.
func (w *walker) watch(step string, l game.Lesson) {
	w.t.Helper()
	says := 0
	// The desktop presses Play for the first game's watch; the rest are
	// stepped through, as on the phone (a walk of a few minutes).
	play := !w.phone && !w.played
	if play {
		w.played = true
		w.click("#watch-play")
	}
	for i, shown := range l.Watch {
		if !play {
			w.click("#watch-step")
		}
		// A move without a caption keeps the last caption; the page's pace
		// gives a long one time to be read, longer than poll's 15 s at most.
		want := fmt.Sprintf("Move %d of %d", i+1, len(l.Watch))
		if ok, err := e2e.Await(w.ctx, fmt.Sprintf(`document.getElementById("watch-count").textContent === %q`, want), 40*time.Second); !ok {
			w.screen("watch-stuck")
			w.t.Fatalf("%s: move %d (%s) not shown: %q %v", step, i+1, shown.Action, e2e.Text(w.t, w.ctx, "#watch-count"), err)
		}
		if v := e2e.Current(w.t, w.ctx); v.Ply != i+1 {
			w.t.Fatalf("%s: after move %d of the watch the game is at ply %d", step, i+1, v.Ply)
		}
		if shown.Say == "" {
			continue
		}
		says++
		if got := e2e.Text(w.t, w.ctx, "#watch-say"); got != shown.Say {
			w.t.Fatalf("%s: after %s the caption reads %q", step, shown.Action, got)
		}
		w.inView("#watch-say", step+": the caption")
		// At the end the result is read under the last caption.
		if i < len(l.Watch)-1 {
			w.inView(".board-box svg.board", step+": the board while watching")
		}
		if says == 1 || i == len(l.Watch)-1 {
			w.screen(fmt.Sprintf("watch-%s-%d", l.Ruleset, i+1))
		}
	}
	e2e.Poll(w.t, w.ctx, step+" watched", fmt.Sprintf(`document.getElementById("lesson-result").textContent.includes(%q)`, l.Done))
	if play {
		w.watchAgain(step, l)
	}
}

// watchAgain presses Watch again at the end of a watched stretch: it
// plays again from the start on the same page (not loaded again), and is
// then stepped through to its end.
func (w *walker) watchAgain(step string, l game.Lesson) {
	w.t.Helper()
	if got := e2e.Text(w.t, w.ctx, "#watch-play"); !strings.Contains(got, "Watch again") {
		w.t.Fatalf("%s: at the end the play button reads %q", step, got)
	}
	if _, err := chromedp.Run(w.ctx, chromedp.Evaluate[bool](`window.sameLoad = true`)); err != nil {
		w.t.Fatal(err)
	}
	w.click("#watch-play")
	e2e.Poll(w.t, w.ctx, step+" watched again", `window.sameLoad === true && document.getElementById("watch-count").textContent === "Move 1 of `+fmt.Sprint(len(l.Watch))+`"`)
	w.click("#watch-play") // pause, and go on a move at a time
	for i := 2; i <= len(l.Watch); i++ {
		want := fmt.Sprintf("Move %d of %d", i, len(l.Watch))
		// A move played by Play as the pause came counts too.
		if e2e.Text(w.t, w.ctx, "#watch-count") == want {
			continue
		}
		w.click("#watch-step")
		e2e.Poll(w.t, w.ctx, step+": "+want+" again", fmt.Sprintf(`document.getElementById("watch-count").textContent === %q`, want))
	}
	e2e.Poll(w.t, w.ctx, step+" watched again to its end", fmt.Sprintf(`window.sameLoad === true && document.getElementById("lesson-result").textContent.includes(%q)`, l.Done))
}

// firstGame plays a whole first Lanrick game against the easy computer
// from the walkthrough's last button, choosing with a stronger agent and
// playing by clicks; each time the computer has played, its turn must be
// shown man by man.
func (w *walker) firstGame() {
	w.t.Helper()
	w.click("#first-game")
	e2e.Poll(w.t, w.ctx, "the first game", `location.pathname.startsWith("/g/") && !!document.querySelector("svg.board") && document.getElementById("you").textContent.startsWith("You play")`)
	start := w.clicks
	v := e2e.Current(w.t, w.ctx)
	me := -1
	for i, s := range v.Seats {
		if s.Kind != "ai" {
			me = i
		}
	}
	if me < 0 || !strings.Contains(e2e.Text(w.t, w.ctx, "#players"), "Computer (easy)") {
		w.t.Fatalf("the first game's players: %q", e2e.Text(w.t, w.ctx, "#players"))
	}
	side := v.Traits.Players[me].Name
	seen := 0
	deadline := time.Now().Add(8 * time.Minute)
	for time.Now().Before(deadline) {
		v = e2e.WaitMyTurn(w.t, w.ctx, side)
		if v.Status == "over" {
			break
		}
		// The computer's last turn, man by man: an arrow for each man it
		// moved, his squares lit.
		if n := len(v.Turns); n > 0 && v.Turns[n-1].Player != me {
			last := v.Turns[n-1]
			moves := 0
			for _, sq := range last.Squares {
				if len(sq) == 2 && sq[0] != sq[1] {
					moves++
					e2e.Poll(w.t, w.ctx, "the computer's move "+strings.Join(sq, "-"), fmt.Sprintf(`!!document.querySelector('[data-trail="%s-%s"]') && !!document.querySelector('[data-hl-moved="%s"]')`, sq[0], sq[1], sq[1]))
				}
			}
			if moves > 1 && seen < 2 {
				seen++
				// Photographed once the men have finished moving.
				e2e.Poll(w.t, w.ctx, "the men at rest", `document.getAnimations().length === 0 && ![...document.querySelectorAll("g.man")].some((g) => g.style.transform)`)
				w.screen(fmt.Sprintf("game-computer-turn-%d", seen))
			}
		}
		// Contempt: the newcomer's stand-in plays for a win rather than a
		// shuttle (two learned agents draw by repetition otherwise).
		w.play(v, e2e.Choose(w.t, v, "mcts(iterations=1000,contempt=0.3)"))
		e2e.WaitPast(w.t, w.ctx, v.Ply)
	}
	v = e2e.Current(w.t, w.ctx)
	if v.Status != "over" {
		w.t.Fatalf("the first game is not over after 8 minutes: %v", v.History)
	}
	e2e.Poll(w.t, w.ctx, "the end told", `["You won", "You lost", "Draw"].some((s) => document.getElementById("ending").textContent.includes(s))`)
	w.screen("game-over")
	turns := 0
	for _, tu := range v.Turns {
		if tu.Player == me {
			turns++
		}
	}
	w.t.Logf("%s: the first game took %d clicks over %d turns of the newcomer's (%d actions in all): %s", w.size, w.clicks-start, turns, len(v.History), e2e.Text(w.t, w.ctx, "#ending .headline"))
}

// nothingLeft checks that the lessons left no game behind: none waits for
// the visitor, and home lists none in play.
func (w *walker) nothingLeft(a *e2e.App) {
	w.t.Helper()
	raw, err := chromedp.Run(w.ctx, chromedp.Evaluate[string](`fetch("/api/me").then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		w.t.Fatal(err)
	}
	var me struct {
		YourTurn int `json:"your_turn"`
	}
	if err := json.Unmarshal([]byte(raw), &me); err != nil || me.YourTurn != 0 {
		w.t.Fatalf("after the lessons /api/me says %s", raw)
	}
	if err := chromedp.Do(w.ctx, chromedp.Navigate(a.URL("/")), chromedp.WaitVisible(chromedp.CSS("#start"))); err != nil {
		w.t.Fatal(err)
	}
	e2e.Poll(w.t, w.ctx, "your games: none in play", `document.body.textContent.includes("None in play")`)
	w.screen("home-after")
}
