package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/e2e"
)

// TestAnalysisBoard: a game in play is not analysed; once over, its
// analysis board opens at the move shown, a move played on the board
// becomes a variation in the tree, the engine's evaluation and line come
// with the switch, and "play the computer from here" starts a game from
// the node's position.
func TestAnalysisBoard(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	id, _ := e2e.GameUnderWay(t, ctx, a)
	// In play: the board refuses.
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/analysis/"+id)), chromedp.WaitVisible(chromedp.CSS("#not-yet"))); err != nil {
		t.Fatalf("a game in play opened on the analysis board: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/g/"+id)), chromedp.WaitVisible(chromedp.CSS("#resign")),
		chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#confirm-resign")), chromedp.WaitVisible(chromedp.CSS("#analyse"))); err != nil {
		t.Fatal(err)
	}
	v := e2e.Current(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#analyse")), chromedp.WaitVisible(chromedp.CSS("#tree .node.current"))); err != nil {
		t.Fatal(err)
	}
	if n := e2e.Count(t, ctx, "#tree .node"); n != len(v.History) {
		t.Fatalf("the tree has %d nodes, the game %d actions", n, len(v.History))
	}
	// On a phone the board opens where the page begins, and the arrow
	// keys step through the moves without scrolling it (at the end of the
	// line too).
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(a.URL("/analysis/"+id)), chromedp.WaitVisible(chromedp.CSS("#tree .node.current"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the page at its top, no mouse words on a touch screen", `window.scrollY === 0 && !document.getElementById("arrows-note")`)
	for _, key := range []string{kb.ArrowRight, kb.ArrowRight, kb.ArrowLeft} {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
			t.Fatal(err)
		}
	}
	e2e.Poll(t, ctx, "a step back, the page still at its top", fmt.Sprintf(`document.querySelector("#tree .node.current").dataset.ply === "%d" && window.scrollY === 0`, len(v.History)-1))
	e2e.FullShot(t, ctx, "phone-analysis")
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800, chromedp.EmulateScale(1)), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#tree .node.current"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the right-drag told to a mouse", `!!document.getElementById("arrows-note")`)
	// Back to the first move's node, then a different reply: a variation.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#tree .node[data-ply="1"]`))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the first node", `document.querySelector("#tree .node.current").dataset.ply === "1"`)
	g, err := game.Load(v.Spec)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewState()
	if err := game.ApplyNotation(s, v.History[:1]); err != nil {
		t.Fatal(err)
	}
	var alt game.ActionInfo
	for _, info := range game.DescribeLegal(s) {
		if info.Text != v.History[1] && len(info.Squares) == 2 {
			alt = info
			break
		}
	}
	for _, sq := range alt.Squares {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`rect[data-sq="%s"]`, sq)))); err != nil {
			t.Fatal(err)
		}
	}
	e2e.Poll(t, ctx, "the variation", fmt.Sprintf(`[...document.querySelectorAll("#tree .variation .node.current")].some(e => e.title === %q)`, alt.Text))
	if n := e2e.Count(t, ctx, "#tree .node"); n != len(v.History)+1 {
		t.Fatalf("after the variation the tree has %d nodes, want %d", n, len(v.History)+1)
	}
	// The engine's evaluation of the variation's position.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#engine")), chromedp.WaitVisible(chromedp.CSS("#eval-text"))); err != nil {
		t.Fatal(err)
	}
	ev := e2e.Text(t, ctx, "#eval-text")
	if !strings.Contains(ev, "alpha-beta") && !strings.Contains(ev, "by force") {
		t.Fatalf("evaluation %q", ev)
	}
	if line := e2e.Text(t, ctx, "#eval-line"); !strings.HasPrefix(line, "Expected: ") {
		t.Fatalf("line %q", line)
	}
	e2e.Shot(t, ctx, "analysis-variation")
	// Play the computer from the variation's position.
	pos, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("position-text").value`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#play-from-here")), chromedp.WaitVisible(chromedp.CSS("#you"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the new game", `location.pathname.startsWith("/g/") && document.body.dataset.game !== undefined`)
	if got := e2e.Current(t, ctx); got.Ply != 0 || got.Pos != pos || got.Status != "playing" {
		t.Fatalf("the game from here: ply %d, status %s, position %q, want %q", got.Ply, got.Status, got.Pos, pos)
	}
	if you := e2e.Text(t, ctx, "#you"); !strings.Contains(you, "Attackers") {
		t.Errorf("from a position with the attackers to play: %q", you)
	}
}

// TestAnalysisArrowsAndGraph: from a finished game's end, "Graph of the
// game" opens the analysis board and draws the balance through the game;
// the computer's next move is an arrow on the board, and a right-drag
// draws the player's own (issue 31: arrows, the evaluation graph).
func TestAnalysisArrowsAndGraph(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	id, _ := e2e.GameUnderWay(t, ctx, a)
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/g/"+id)), chromedp.WaitVisible(chromedp.CSS("#resign")),
		chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#confirm-resign")), chromedp.WaitVisible(chromedp.CSS("#graph-link"))); err != nil {
		t.Fatal(err)
	}
	v := e2e.Current(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#graph-link"))); err != nil {
		t.Fatal(err)
	}
	// One look for the start and each action: the curve has them all.
	e2e.Poll(t, ctx, "the graph of every position", fmt.Sprintf(`!!document.querySelector("#graph svg.graph path.curve") && !document.getElementById("turning-points").textContent.startsWith("Looking")
		&& document.querySelector("#graph path.curve").getAttribute("d").split(/[ML]/).filter((p) => p.trim()).length === %d`, len(v.History)+1))
	// The moves are numbered as Tablut's records number them: by pairs.
	if got := e2e.Text(t, ctx, "#tree"); !strings.Contains(got, "1. Defenders") {
		t.Fatalf("the analysis board's moves read %q", got)
	}
	// The graph has its scale, its move numbers and a legend, and names
	// the mistakes, each against the player who made it.
	axes, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("#graph text.axis")].map((e) => e.textContent).join("|")`))
	if err != nil || !strings.Contains(axes, " better|even|") || !strings.Contains(axes, "|start|") {
		t.Fatalf("the graph's axes read %q (%v)", axes, err)
	}
	if got := e2e.Text(t, ctx, "#graph-legend"); !strings.Contains(got, "a mistake (a swing against the player who acted)") || !strings.Contains(got, "this position") {
		t.Fatalf("the graph's legend reads %q", got)
	}
	if got := e2e.Text(t, ctx, "#turning-points"); !strings.HasPrefix(got, "Mistakes: ") && !strings.HasPrefix(got, "No mistakes") {
		t.Fatalf("the graph's note reads %q", got)
	}
	// The computer's arrow, with the evaluation on.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#engine")), chromedp.WaitVisible(chromedp.CSS("#eval-text"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the computer's arrow", `!!document.querySelector(".arrow.engine[data-arrow]")`)
	// A second engine line, beginning otherwise.
	e2e.Poll(t, ctx, "the second line", `(document.getElementById("eval-second") || {textContent: ""}).textContent.startsWith("Second line: ")`)
	firstMove := func(s, prefix string) string { return strings.Split(strings.TrimPrefix(s, prefix), ",")[0] }
	if first, second := e2e.Text(t, ctx, "#eval-line"), e2e.Text(t, ctx, "#eval-second"); firstMove(first, "Expected: ") == firstMove(second, "Second line: ") {
		t.Fatalf("the lines begin alike: %q, %q", first, second)
	}
	// A right-drag from a1 to a3 draws the player's arrow.
	box := e2e.Centres(t, ctx, "a1", "a3")
	if err := chromedp.Do(ctx, chromedp.MouseEvent("mousePressed", box[0], box[1], chromedp.ButtonRight),
		chromedp.MouseEvent("mouseMoved", box[2], box[3], chromedp.ButtonRight),
		chromedp.MouseEvent("mouseReleased", box[2], box[3], chromedp.ButtonRight)); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the player's arrow", `!!document.querySelector('.arrow.mine[data-arrow="a1-a3"]')`)
	e2e.Shot(t, ctx, "analysis-arrows-graph")
}
