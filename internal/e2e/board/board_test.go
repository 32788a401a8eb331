package board

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/e2e"
)

// TestThemes: the header's settings turn the whole site dark and the
// board to another theme, kept on the next page; the keys step through
// the moves and turn the board (issue 31: themes, dark mode, keys).
func TestThemes(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	id, _ := e2e.GameUnderWay(t, ctx, a)
	light, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
	square, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector('rect[data-sq="a1"]')).fill`))
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#settings summary")), chromedp.WaitVisible(chromedp.CSS("#theme"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { for (const [id, v] of [["theme", "dark"], ["board-theme", "green"]]) {
		const s = document.getElementById(id); s.value = v; s.dispatchEvent(new Event("change")); } return true; })()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/g/"+id)), chromedp.WaitVisible(chromedp.CSS("svg.board"))); err != nil {
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
	e2e.Shot(t, ctx, "theme-dark-green")
	// ← steps back a move, → forward; f turns the board.
	e2e.WaitMyTurn(t, ctx, "attackers")
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
	e2e.Poll(t, ctx, "← shows the move before", `document.getElementById("viewing").textContent.startsWith("Viewing")`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "→ comes back", `document.getElementById("viewing").textContent === ""`)
}

// TestPremove: in Tablut, while the friend thinks, the attacker chooses
// his next move by two clicks; it is played the moment his turn comes.
// A move chosen ahead that the friend's answer made illegal is dropped,
// and said so.
func TestPremove(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	e2e.NewGame(t, ctx, a, "tablut", "linnaeus", "friend", "easy", "attackers")
	friend, cancel2 := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	defer cancel2()
	invite, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS("#invite-link")))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(friend, chromedp.Navigate(invite), chromedp.WaitVisible(chromedp.CSS("svg.board"))); err != nil {
		t.Fatal(err)
	}
	v := e2e.WaitMyTurn(t, ctx, "attackers")
	e2e.ClickAction(t, ctx, v, "a4-a3")
	e2e.WaitPast(t, ctx, 0)
	// The friend to play: a3 to a2, chosen ahead.
	e2e.Poll(t, ctx, "the friend's turn shown", `document.body.dataset.ply === "1" && document.body.dataset.myTurn === "no"`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`rect[data-sq="a3"]`)), chromedp.Click(chromedp.CSS(`rect[data-sq="a2"]`))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the move chosen ahead shown", `!!document.querySelector('[data-premove-arrow="a3-a2"]') && document.getElementById("status").textContent.includes("chosen ahead")`)
	e2e.Shot(t, ctx, "premove")
	fv := e2e.WaitMyTurn(t, friend, "defenders")
	e2e.ClickAction(t, friend, fv, "e3-d3")
	// No click of the attacker's: his move is played at once.
	v = e2e.WaitPast(t, ctx, 2)
	if v.Ply != 3 || v.History[2] != "a3-a2" {
		t.Fatalf("the move chosen ahead was not played: %v", v.History)
	}
	// Chosen ahead again: d1 to d2, which the friend's d3-d2 then makes
	// illegal.
	e2e.Poll(t, ctx, "the friend's turn again", `document.body.dataset.ply === "3" && document.body.dataset.myTurn === "no"`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`rect[data-sq="d1"]`)), chromedp.Click(chromedp.CSS(`rect[data-sq="d2"]`))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the second move chosen ahead", `!!document.querySelector('[data-premove-arrow="d1-d2"]')`)
	fv = e2e.WaitMyTurn(t, friend, "defenders")
	e2e.ClickAction(t, friend, fv, "d3-d2")
	e2e.Poll(t, ctx, "the dropped move told", `document.getElementById("error").textContent.includes("not legal now") && document.body.dataset.myTurn === "yes"`)
}

// TestImportFile: a record exported from a game is imported from its
// file on the home page, whatever game the form shows; a bad file is
// told beside the button; the analysis board opens the same file with
// its moves (issue 31, item 9).
func TestImportFile(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	id, _ := e2e.GameUnderWay(t, ctx, a)
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
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/")), chromedp.WaitVisible(chromedp.CSS("#record-file"))); err != nil {
		t.Fatal(err)
	}
	// The form says Lanrick; the record is Tablut's.
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("game").value`)); got != "lanrick" {
		t.Fatalf("the form shows %q", got)
	}
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.CSS("#record-file"), []string{bad})); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the bad file read", `document.getElementById("record").value.includes("nonsense")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#import"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the error beside the button", `document.getElementById("record-error").textContent.length > 0`)
	// Beside the button: on the same row, in view with it.
	same, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const b = document.getElementById("import").getBoundingClientRect(), e = document.getElementById("record-error").getBoundingClientRect();
		return Math.abs(b.top - e.top) < 60 || (e.top >= b.bottom && e.top - b.bottom < 60); })()`))
	if !same {
		t.Error("the import error is not beside the button")
	}
	e2e.Shot(t, ctx, "import-error")
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.CSS("#record-file"), []string{good})); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the good file read", `document.getElementById("record").value.includes("tablut")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#import"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the imported game", fmt.Sprintf(`location.pathname.startsWith("/g/") && location.pathname !== "/g/%s" && document.body.dataset.ply === "2"`, id))
	if v := e2e.Current(t, ctx); !strings.HasPrefix(v.Spec, "tablut(") {
		t.Fatalf("imported as %s", v.Spec)
	}
	// The analysis board opens the file too, its moves as the main line.
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/analysis")), chromedp.WaitVisible(chromedp.CSS("#analysis-record-file")),
		chromedp.SetUploadFiles(chromedp.CSS("#analysis-record-file"), []string{good})); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the file read on the analysis board", `document.getElementById("analysis-record").value.includes("tablut")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#analysis-open-record"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the record's moves on the board", `document.querySelectorAll("#tree .node").length === 2 && document.getElementById("analysis-spec").textContent.startsWith("tablut(")`)
}

// TestDragAndTouchPreview: a man dragged to a square moves there; on a
// touch screen a first tap on a mark's square shows its rendezvous and
// a second sets the mark.
func TestDragAndTouchPreview(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	e2e.NewGame(t, ctx, a, "tablut", "linnaeus", "ai", "easy", "attackers")
	v := e2e.WaitMyTurn(t, ctx, "attackers")
	box := e2e.Centres(t, ctx, "a4", "a2")
	steps := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent("mousePressed", box[0], box[1], chromedp.ButtonLeft)}
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		steps = append(steps, chromedp.MouseEvent("mouseMoved", box[0]+(box[2]-box[0])*f, box[1]+(box[3]-box[1])*f, chromedp.ButtonLeft))
	}
	steps = append(steps, chromedp.MouseEvent("mouseReleased", box[2], box[3], chromedp.ButtonLeft))
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
	if v = e2e.WaitPast(t, ctx, v.Ply); v.History[0] != "a4-a2" {
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
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL(fmt.Sprintf("/learn/lanrick/%d", step)))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the first mark's step", `document.body.dataset.myTurn === "yes" && !!document.querySelector('rect[data-sq="e4"]')`)
	tap := `document.querySelector('rect[data-sq="e4"]').dispatchEvent(new PointerEvent("click", { pointerType: "touch", bubbles: true }))`
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](tap)); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the rendezvous of e4 shown", `document.querySelectorAll("[data-preview]").length === 9 && document.getElementById("status").textContent.includes("tap e4 again")`)
	// The way to set it is a tap away, over the board but clear of the
	// rendezvous shown.
	e2e.Poll(t, ctx, "the mark's button", `!document.getElementById("choice-pop").hidden && !!document.querySelector('#choice-pop button[data-choice="mark e4"]')`)
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("rect[data-preview]")].filter((r) => {
		const b = r.getBoundingClientRect(); const e = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
		return !e || e.closest("#choice-pop");
	}).map((r) => r.dataset.preview).join(" ")`))
	if err != nil || hidden != "" {
		t.Fatalf("the mark's button hides the rendezvous squares %q (%v)", hidden, err)
	}
	e2e.Shot(t, ctx, "touch-mark-confirm")
	if v := e2e.Current(t, ctx); v.Ply != 0 {
		t.Fatalf("the first tap set the mark: ply %d", v.Ply)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](tap)); err != nil {
		t.Fatal(err)
	}
	if v := e2e.WaitPast(t, ctx, 0); v.History[0] != "mark e4" {
		t.Fatalf("the second tap played %v", v.History)
	}
}
