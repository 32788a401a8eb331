package analysis

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/e2e"
	"github.com/muster-games/muster/lanrick/ai"
	"github.com/muster-games/muster/lanrick/endgame/endgametest"
)

// TestPuzzleSolvedByClicks: with an endgame table on disk, /puzzles lists
// Lanrick puzzles; the easiest is solved by clicks (the tables choose the
// moves, the browser clicks them) against the computer's perfect defence,
// each turn checked; a spoiling turn in another is told at once; and the
// analysis board says a puzzle's position exactly (issue 25, item 5).
func TestPuzzleSolvedByClicks(t *testing.T) {
	ai.SetEndgameDir(endgametest.Dir(t))
	a := e2e.StartApp(t, "", "")
	ctx, cancel := e2e.Browser(t)
	defer cancel()
	// From the home page's Lanrick card.
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/")), chromedp.Click(chromedp.CSS("#puzzles-lanrick")), chromedp.WaitVisible(chromedp.CSS(`#puzzles button[data-puzzle="0"]`))); err != nil {
		t.Fatal(err)
	}
	var list struct {
		Puzzles []agent.Puzzle `json:"puzzles"`
	}
	e2e.FetchJSON(t, ctx, "/api/puzzles", &list)
	e2e.Shot(t, ctx, "puzzles")
	solve := func(i int, spoil bool) {
		t.Helper()
		p := list.Puzzles[i]
		if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/puzzles")), chromedp.Click(chromedp.CSS(fmt.Sprintf(`#puzzles button[data-puzzle="%d"]`, i)))); err != nil {
			t.Fatal(err)
		}
		e2e.Poll(t, ctx, "the puzzle's game", `location.pathname.startsWith("/g/") && !!document.getElementById("puzzle") && document.getElementById("task").textContent !== ""`)
		deadline := time.Now().Add(time.Minute)
		spoiled := false
		for time.Now().Before(deadline) {
			if failed, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.getElementById("puzzle-failed")`)); failed {
				break
			}
			v := e2e.WaitMyTurn(t, ctx, p.Side)
			if v.Status == "over" {
				break
			}
			g, _ := game.Load(v.Spec)
			s, err := g.ParseState(v.Pos)
			if err != nil {
				t.Fatal(err)
			}
			res, ok := agent.Verdict(s)
			text := ""
			if ok && res.Action != 0 || ok && len(res.PV) > 0 {
				text = s.ActionString(res.Action)
			} else {
				text = v.Legal[0].Text // Rule 7's conversion: any
			}
			if spoil && !spoiled {
				// A first action that lets the win go, then the rest of
				// the turn as the tables would play it.
				for _, b := range s.LegalActions(nil) {
					c := s.Clone()
					c.Apply(b)
					if w, ok := agent.Verdict(c); ok && c.ToAct() == s.ToAct() && w.Proven != 1 {
						text, spoiled = s.ActionString(b), true
						break
					}
				}
			}
			e2e.ClickAction(t, ctx, v, text)
			e2e.WaitPast(t, ctx, v.Ply)
		}
		if spoil {
			// Told once the spoilt turn is over (the game may go on).
			e2e.Poll(t, ctx, "the spoiling turn told", `!!document.getElementById("puzzle-failed")`)
			return
		}
		if ok, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.getElementById("puzzle-failed")`)); ok {
			e2e.Shot(t, ctx, fmt.Sprintf("puzzle-%d-failed", i))
			t.Fatalf("puzzle %s (%s): %s", p.ID, p.Position, e2e.Text(t, ctx, "#puzzle"))
		}
		e2e.Poll(t, ctx, "the puzzle solved", `!!document.getElementById("puzzle-solved")`)
		// The server read the solve from the game: the rating rises.
		e2e.Poll(t, ctx, "the puzzle rating moved", `/Puzzle rating \d+ → \d+\?? \(\+\d+\)/.test(document.getElementById("puzzle-rated").textContent)`)
		e2e.Shot(t, ctx, fmt.Sprintf("puzzle-%d-solved", i))
		// Stepping back to the start, the end panel gives the tables'
		// verdict of the position shown.
		e2e.Poll(t, ctx, "the end panel", `document.body.dataset.status === "over" && !!document.getElementById("rematch")`)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#first"))); err != nil {
			t.Fatal(err)
		}
		e2e.Poll(t, ctx, "the tables' verdict at the start", `((document.getElementById("verdict") || {}).textContent || "").includes("with best play")`)
		e2e.Shot(t, ctx, "puzzle-verdict")
	}
	solve(0, false)
	// A Tablut puzzle, from a game of Muster's, proved by the search.
	tablutAt := -1
	for i, p := range list.Puzzles {
		if strings.HasPrefix(p.Spec, "tablut") && tablutAt < 0 {
			tablutAt = i
		}
	}
	if tablutAt < 0 {
		t.Fatal("no Tablut puzzle listed")
	}
	solve(tablutAt, false)
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/puzzles")), chromedp.WaitVisible(chromedp.CSS("#puzzles"))); err != nil {
		t.Fatal(err)
	}
	if got := e2e.Text(t, ctx, "#puzzles li"); !strings.Contains(got, "Solved.") {
		t.Fatalf("the first puzzle after solving it: %q", got)
	}
	if got := e2e.Text(t, ctx, "#puzzle-rating"); !strings.Contains(got, "Your puzzle rating: 1") || !strings.Contains(got, "2 tried") {
		t.Fatalf("the puzzles page says %q", got)
	}
	// The stream: the next puzzle at once, one not tried.
	before, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#puzzles-stream"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the stream's puzzle", fmt.Sprintf(`location.pathname.startsWith("/g/") && location.pathname !== %q && !!document.getElementById("puzzle")`, before))
	id, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.parse(sessionStorage.getItem("muster-puzzle:" + location.pathname.slice(3))).id`))
	if id == "" || id == list.Puzzles[0].ID {
		t.Fatalf("the stream gave puzzle %q again", id)
	}
	e2e.Shot(t, ctx, "puzzle-stream")
	// A theme's stream: a puzzle of that theme, and the next one offered
	// in it.
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/puzzles")), chromedp.Click(chromedp.CSS(`#puzzle-themes button[data-theme="king capture"]`))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the theme's puzzle", `location.pathname.startsWith("/g/") && !!document.getElementById("puzzle") &&
		JSON.parse(sessionStorage.getItem("muster-puzzle:" + location.pathname.slice(3))).themes.includes("king capture")`)
	// A spoiling first action in a puzzle that has one.
	for i, p := range list.Puzzles {
		g, _ := game.Load(p.Spec)
		s, _ := g.ParseState(p.Position)
		has := false
		for _, b := range s.LegalActions(nil) {
			c := s.Clone()
			c.Apply(b)
			if w, ok := agent.Verdict(c); ok && c.ToAct() == s.ToAct() && w.Proven != 1 {
				has = true
			}
		}
		if has {
			solve(i, true)
			e2e.Shot(t, ctx, "puzzle-failed")
			break
		}
	}
	// The analysis board says a puzzle's position exactly.
	p := list.Puzzles[0]
	if err := chromedp.Do(ctx, chromedp.Navigate(a.URL("/analysis?spec="+p.Spec+"&position="+strings.ReplaceAll(p.Position, " ", "%20"))), chromedp.WaitVisible(chromedp.CSS("#engine"))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#engine")), chromedp.WaitVisible(chromedp.CSS("#eval-text"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ctx, "the tables' verdict", `document.getElementById("eval-text").textContent.includes("with best play")`)
}
