package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/muster-games/muster/docs"
	"github.com/muster-games/muster/game"
)

// TestNewcomerWalk is a newcomer's first hour, by clicks alone, at a
// desktop's size and a phone's (issue 31): from the home page through
// every step of "Learn Lanrick" and a whole first game against the easy
// computer, then the Tablut steps. At each step it asserts what a person
// must see without scrolling: the task beside the board, the result and
// Next; on a phone, a board from edge to edge. In the game, the
// computer's turn is shown man by man. Afterwards no lesson's board is
// left waiting. The screenshots (of the screen, as the person sees it)
// are saved as newcomer-SIZE-….png.
func TestNewcomerWalk(t *testing.T) {
	t.Parallel()
	for _, size := range []struct {
		name          string
		width, height int64
		phone         bool
	}{{"desktop", 1280, 800, false}, {"phone", 360, 740, true}} {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			a := startApp(t, "", "")
			ctx, cancel := browser(t)
			defer cancel()
			opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
			if size.phone {
				opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateScale(2))
			}
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(size.width, size.height, opts...)); err != nil {
				t.Fatal(err)
			}
			w := &walker{t: t, ctx: ctx, size: size.name, phone: size.phone}
			w.home(a)
			w.lessons("lanrick", 336)
			t.Logf("%s: Learn Lanrick's %d steps took %d clicks", size.name, len(mustInfo(t, "lanrick").Lessons), w.clicks)
			w.rulesShown("lanrick-rules.md", "1893 in brief", 9)
			w.firstGame()
			if err := chromedp.Do(ctx, chromedp.Navigate(a.url("/learn/tablut"))); err != nil {
				t.Fatal(err)
			}
			w.lessons("tablut", 342)
			w.rulesShown("tablut-rules.md", "linnaeus in brief", 7)
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
	save(w.t, fmt.Sprintf("newcomer-%s-%02d-%s.png", w.size, w.shots, name), buf)
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
func (w *walker) play(v pageView, text string) {
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
		poll(w.t, w.ctx, "the choice on the board", `!document.getElementById("choice-pop").hidden`)
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
func (w *walker) preview(v pageView, text string) {
	w.t.Helper()
	for _, a := range v.Legal {
		if a.Text != text || len(a.Preview) == 0 || w.phone {
			continue
		}
		box := centres(w.t, w.ctx, a.Squares[0])
		if err := chromedp.Do(w.ctx, chromedp.MouseEvent("mouseMoved", box[0], box[1])); err != nil {
			w.t.Fatal(err)
		}
		poll(w.t, w.ctx, "the rendezvous of "+text+" shown", fmt.Sprintf(`document.querySelectorAll("[data-preview]").length === %d`, len(a.Preview)))
		w.screen("preview-" + strings.ReplaceAll(text, " ", "-"))
	}
}

// home opens the home page as a first visitor.
func (w *walker) home(a *app) {
	w.t.Helper()
	if err := chromedp.Do(w.ctx, chromedp.Navigate(a.url("/")), chromedp.WaitVisible(chromedp.CSS("#learn-lanrick"))); err != nil {
		w.t.Fatal(err)
	}
	if got := text(w.t, w.ctx, "#about-lanrick"); !strings.Contains(got, "Lewis Carroll") {
		w.t.Fatalf("the home page does not say what Lanrick is: %q", got)
	}
	w.inView("#learn-lanrick", "the way to learn Lanrick")
	w.screen("home")
	w.click("#learn-lanrick")
}

// lessons walks every step of a game's walkthrough from its first page.
func (w *walker) lessons(name string, minBoard float64) {
	w.t.Helper()
	info, err := game.Lookup(name)
	if err != nil {
		w.t.Fatal(err)
	}
	for i, l := range info.Lessons {
		step := fmt.Sprintf("%s step %d", name, i+1)
		ready := `document.body.dataset.myTurn === "yes"`
		if l.Goal == game.GoalWatch {
			ready = `!!document.getElementById("watch-play")`
		}
		poll(w.t, w.ctx, step, fmt.Sprintf(`!!document.getElementById("task") && document.getElementById("lesson").textContent.includes(%q) && %s`, l.Title, ready))
		if got := text(w.t, w.ctx, "#task"); got != l.Task {
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
			poll(w.t, w.ctx, step+": its figures", fmt.Sprintf(`document.querySelectorAll("#lesson-figures figure svg").length === %d`, len(l.Figures)))
			w.screen(fmt.Sprintf("learn-%s-%d-figures", name, i+1))
		}
		if l.Rule != "" {
			if got := text(w.t, w.ctx, "#rule"); got != l.Rule {
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
			v := current(w.t, w.ctx)
			w.preview(v, text)
			w.play(v, text)
			waitPast(w.t, w.ctx, v.Ply)
		}
		if l.Goal == game.GoalWatch {
			w.watch(step, l)
		} else {
			poll(w.t, w.ctx, step+" done", `document.getElementById("lesson-result").textContent.startsWith("Well done")`)
		}
		next := "#next-step"
		if i == len(info.Lessons)-1 {
			next = "#first-game"
		}
		poll(w.t, w.ctx, step+": its way on", fmt.Sprintf(`!!document.querySelector(%q)`, next))
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
		limit := time.Now().Add(40 * time.Second)
		for {
			n, err := chromedp.Run(w.ctx, chromedp.Evaluate[string](`document.getElementById("watch-count").textContent`))
			if err == nil && n == fmt.Sprintf("Move %d of %d", i+1, len(l.Watch)) {
				break
			}
			if time.Now().After(limit) {
				w.screen("watch-stuck")
				w.t.Fatalf("%s: move %d (%s) not shown: %q %v", step, i+1, shown.Action, n, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if v := current(w.t, w.ctx); v.Ply != i+1 {
			w.t.Fatalf("%s: after move %d of the watch the game is at ply %d", step, i+1, v.Ply)
		}
		if shown.Say == "" {
			continue
		}
		says++
		if got := text(w.t, w.ctx, "#watch-say"); got != shown.Say {
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
	poll(w.t, w.ctx, step+" watched", fmt.Sprintf(`document.getElementById("lesson-result").textContent.includes(%q)`, l.Done))
}

// firstGame plays a whole first Lanrick game against the easy computer
// from the walkthrough's last button, choosing with a stronger agent and
// playing by clicks; each time the computer has played, its turn must be
// shown man by man.
func (w *walker) firstGame() {
	w.t.Helper()
	w.click("#first-game")
	poll(w.t, w.ctx, "the first game", `location.pathname.startsWith("/g/") && !!document.querySelector("svg.board") && document.getElementById("you").textContent.startsWith("You play")`)
	start := w.clicks
	v := current(w.t, w.ctx)
	me := -1
	for i, s := range v.Seats {
		if s.Kind != "ai" {
			me = i
		}
	}
	if me < 0 || !strings.Contains(text(w.t, w.ctx, "#players"), "Computer (easy)") {
		w.t.Fatalf("the first game's players: %q", text(w.t, w.ctx, "#players"))
	}
	side := v.Traits.Players[me].Name
	seen := 0
	deadline := time.Now().Add(8 * time.Minute)
	for time.Now().Before(deadline) {
		v = waitMyTurn(w.t, w.ctx, side)
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
					poll(w.t, w.ctx, "the computer's move "+strings.Join(sq, "-"), fmt.Sprintf(`!!document.querySelector('[data-trail="%s-%s"]') && !!document.querySelector('[data-hl-moved="%s"]')`, sq[0], sq[1], sq[1]))
				}
			}
			if moves > 1 && seen < 2 {
				seen++
				// Photographed once the men have finished moving.
				poll(w.t, w.ctx, "the men at rest", `document.getAnimations().length === 0 && ![...document.querySelectorAll("g.man")].some((g) => g.style.transform)`)
				w.screen(fmt.Sprintf("game-computer-turn-%d", seen))
			}
		}
		// Contempt: the newcomer's stand-in plays for a win rather than a
		// shuttle (two learned agents draw by repetition otherwise).
		w.play(v, choose(w.t, v, "mcts(iterations=3000,contempt=0.3)"))
		waitPast(w.t, w.ctx, v.Ply)
	}
	v = current(w.t, w.ctx)
	if v.Status != "over" {
		w.t.Fatalf("the first game is not over after 8 minutes: %v", v.History)
	}
	poll(w.t, w.ctx, "the end told", `["You won", "You lost", "Draw"].some((s) => document.getElementById("ending").textContent.includes(s))`)
	w.screen("game-over")
	turns := 0
	for _, tu := range v.Turns {
		if tu.Player == me {
			turns++
		}
	}
	w.t.Logf("%s: the first game took %d clicks over %d turns of the newcomer's (%d actions in all): %s", w.size, w.clicks-start, turns, len(v.History), text(w.t, w.ctx, "#ending .headline"))
}

// nothingLeft checks that the lessons left no game behind: none waits for
// the visitor, and home lists none in play.
func (w *walker) nothingLeft(a *app) {
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
	if err := chromedp.Do(w.ctx, chromedp.Navigate(a.url("/")), chromedp.WaitVisible(chromedp.CSS("#start"))); err != nil {
		w.t.Fatal(err)
	}
	poll(w.t, w.ctx, "your games: none in play", `document.body.textContent.includes("None in play")`)
	w.screen("home-after")
}

// TestThemes: the header's settings turn the whole site dark and the
// board to another theme, kept on the next page; the keys step through
// the moves and turn the board (issue 31: themes, dark mode, keys).
func TestThemes(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	id, _ := gameUnderWay(t, ctx, a)
	light, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
	square, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector('rect[data-sq="a1"]')).fill`))
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#settings summary")), chromedp.WaitVisible(chromedp.CSS("#theme"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { for (const [id, v] of [["theme", "dark"], ["board-theme", "green"]]) {
		const s = document.getElementById(id); s.value = v; s.dispatchEvent(new Event("change")); } return true; })()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(a.url("/g/"+id)), chromedp.WaitVisible(chromedp.CSS("svg.board"))); err != nil {
		t.Fatal(err)
	}
	dark, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
	green, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector('rect[data-sq="a1"]')).fill`))
	if dark == light || !strings.HasPrefix(dark, "rgb(") || green == square {
		t.Fatalf("the themes did not hold: body %s → %s, a1 %s → %s", light, dark, square, green)
	}
	if th, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.dataset.theme`)); th != "dark" {
		t.Fatalf("the page's theme after a visit: %q", th)
	}
	shot(t, ctx, "theme-dark-green")
	// ← steps back a move, → forward; f turns the board.
	waitMyTurn(t, ctx, "attackers")
	before, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector('rect[data-sq="a1"]').getBoundingClientRect().y`))
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#export")), chromedp.KeyEvent("f")); err != nil {
		t.Fatal(err)
	}
	after, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector('rect[data-sq="a1"]').getBoundingClientRect().y`))
	if after >= before {
		t.Errorf("f did not turn the board: a1 at %.0f, then %.0f", before, after)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "← shows the move before", `document.getElementById("viewing").textContent.startsWith("Viewing")`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "→ comes back", `document.getElementById("viewing").textContent === ""`)
}

// TestPremove: in Tablut, while the friend thinks, the attacker chooses
// his next move by two clicks; it is played the moment his turn comes.
// A move chosen ahead that the friend's answer made illegal is dropped,
// and said so.
func TestPremove(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	newGame(t, ctx, a, "tablut", "linnaeus", "friend", "easy", "attackers")
	friend, cancel2 := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	defer cancel2()
	invite, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS("#invite-link")))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(friend, chromedp.Navigate(invite), chromedp.WaitVisible(chromedp.CSS("svg.board"))); err != nil {
		t.Fatal(err)
	}
	v := waitMyTurn(t, ctx, "attackers")
	clickAction(t, ctx, v, "a4-a3")
	waitPast(t, ctx, 0)
	// The friend to play: a3 to a2, chosen ahead.
	poll(t, ctx, "the friend's turn shown", `document.body.dataset.ply === "1" && document.body.dataset.myTurn === "no"`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`rect[data-sq="a3"]`)), chromedp.Click(chromedp.CSS(`rect[data-sq="a2"]`))); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the move chosen ahead shown", `!!document.querySelector('[data-premove-arrow="a3-a2"]') && document.getElementById("status").textContent.includes("chosen ahead")`)
	shot(t, ctx, "premove")
	fv := waitMyTurn(t, friend, "defenders")
	clickAction(t, friend, fv, "e3-d3")
	// No click of the attacker's: his move is played at once.
	deadline := time.Now().Add(10 * time.Second)
	for v = current(t, ctx); v.Ply < 3 && time.Now().Before(deadline); v = current(t, ctx) {
		time.Sleep(50 * time.Millisecond)
	}
	if v.Ply != 3 || v.History[2] != "a3-a2" {
		t.Fatalf("the move chosen ahead was not played: %v", v.History)
	}
	// Chosen ahead again: d1 to d2, which the friend's d3-d2 then makes
	// illegal.
	poll(t, ctx, "the friend's turn again", `document.body.dataset.ply === "3" && document.body.dataset.myTurn === "no"`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`rect[data-sq="d1"]`)), chromedp.Click(chromedp.CSS(`rect[data-sq="d2"]`))); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the second move chosen ahead", `!!document.querySelector('[data-premove-arrow="d1-d2"]')`)
	fv = waitMyTurn(t, friend, "defenders")
	clickAction(t, friend, fv, "d3-d2")
	poll(t, ctx, "the dropped move told", `document.getElementById("error").textContent.includes("not legal now") && document.body.dataset.myTurn === "yes"`)
}

// TestImportFile: a record exported from a game is imported from its
// file on the home page, whatever game the form shows; a bad file is
// told beside the button; the analysis board opens the same file with
// its moves (issue 31, item 9).
func TestImportFile(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	id, _ := gameUnderWay(t, ctx, a)
	rec, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`fetch("/api/games/%s/record").then(r => r.text())`, id), chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(rec, "tablut") {
		t.Fatalf("the record: %q %v", rec, err)
	}
	dir := t.TempDir()
	good, bad := dir+"/game.txt", dir+"/bad.txt"
	if err := os.WriteFile(good, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(bad, []byte("[muster-game:nonsense]\n1. z9-z10\n"), 0o644)
	if err := chromedp.Do(ctx, chromedp.Navigate(a.url("/")), chromedp.WaitVisible(chromedp.CSS("#record-file"))); err != nil {
		t.Fatal(err)
	}
	// The form says Lanrick; the record is Tablut's.
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("game").value`)); got != "lanrick" {
		t.Fatalf("the form shows %q", got)
	}
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.CSS("#record-file"), []string{bad})); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the bad file read", `document.getElementById("record").value.includes("nonsense")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#import"))); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the error beside the button", `document.getElementById("record-error").textContent.length > 0`)
	// Beside the button: on the same row, in view with it.
	same, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const b = document.getElementById("import").getBoundingClientRect(), e = document.getElementById("record-error").getBoundingClientRect();
		return Math.abs(b.top - e.top) < 60 || (e.top >= b.bottom && e.top - b.bottom < 60); })()`))
	if !same {
		t.Error("the import error is not beside the button")
	}
	shot(t, ctx, "import-error")
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.CSS("#record-file"), []string{good})); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the good file read", `document.getElementById("record").value.includes("tablut")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#import"))); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the imported game", fmt.Sprintf(`location.pathname.startsWith("/g/") && location.pathname !== "/g/%s" && document.body.dataset.ply === "2"`, id))
	if v := current(t, ctx); !strings.HasPrefix(v.Spec, "tablut(") {
		t.Fatalf("imported as %s", v.Spec)
	}
	// The analysis board opens the file too, its moves as the main line.
	if err := chromedp.Do(ctx, chromedp.Navigate(a.url("/analysis")), chromedp.WaitVisible(chromedp.CSS("#analysis-record-file")),
		chromedp.SetUploadFiles(chromedp.CSS("#analysis-record-file"), []string{good})); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the file read on the analysis board", `document.getElementById("analysis-record").value.includes("tablut")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#analysis-open-record"))); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the record's moves on the board", `document.querySelectorAll("#tree .node").length === 2 && document.getElementById("analysis-spec").textContent.startsWith("tablut(")`)
}

// TestDragAndTouchPreview: a man dragged to a square moves there; on a
// touch screen a first tap on a mark's square shows its rendezvous and
// a second sets the mark.
func TestDragAndTouchPreview(t *testing.T) {
	t.Parallel()
	a := startApp(t, "", "")
	ctx, cancel := browser(t)
	defer cancel()
	newGame(t, ctx, a, "tablut", "linnaeus", "ai", "easy", "attackers")
	v := waitMyTurn(t, ctx, "attackers")
	box := centres(t, ctx, "a4", "a2")
	steps := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent("mousePressed", box[0], box[1], chromedp.ButtonLeft)}
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		steps = append(steps, chromedp.MouseEvent("mouseMoved", box[0]+(box[2]-box[0])*f, box[1]+(box[3]-box[1])*f, chromedp.ButtonLeft))
	}
	steps = append(steps, chromedp.MouseEvent("mouseReleased", box[2], box[3], chromedp.ButtonLeft))
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
	if v = waitPast(t, ctx, v.Ply); v.History[0] != "a4-a2" {
		t.Fatalf("the drag played %v", v.History)
	}
	// Lanrick's first mark, by taps: the first shows, the second sets.
	info, _ := game.Lookup("lanrick")
	step := 0
	for i, l := range info.Lessons {
		if strings.HasPrefix(l.Title, "The game begins") {
			step = i + 1
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(a.url(fmt.Sprintf("/learn/lanrick/%d", step)))); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the first mark's step", `document.body.dataset.myTurn === "yes" && !!document.querySelector('rect[data-sq="e4"]')`)
	tap := `document.querySelector('rect[data-sq="e4"]').dispatchEvent(new PointerEvent("click", { pointerType: "touch", bubbles: true }))`
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](tap)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the rendezvous of e4 shown", `document.querySelectorAll("[data-preview]").length === 9 && document.getElementById("status").textContent.includes("tap e4 again")`)
	// The way to set it is a tap away, over the board but clear of the
	// rendezvous shown.
	poll(t, ctx, "the mark's button", `!document.getElementById("choice-pop").hidden && !!document.querySelector('#choice-pop button[data-choice="mark e4"]')`)
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("rect[data-preview]")].filter((r) => {
		const b = r.getBoundingClientRect(); const e = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
		return !e || e.closest("#choice-pop");
	}).map((r) => r.dataset.preview).join(" ")`))
	if err != nil || hidden != "" {
		t.Fatalf("the mark's button hides the rendezvous squares %q (%v)", hidden, err)
	}
	shot(t, ctx, "touch-mark-confirm")
	if v := current(t, ctx); v.Ply != 0 {
		t.Fatalf("the first tap set the mark: ply %d", v.Ply)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](tap)); err != nil {
		t.Fatal(err)
	}
	if v := waitPast(t, ctx, 0); v.History[0] != "mark e4" {
		t.Fatalf("the second tap played %v", v.History)
	}
}

// mustInfo is a registered game's description.
func mustInfo(t *testing.T, name string) game.Info {
	t.Helper()
	info, err := game.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return info
}
