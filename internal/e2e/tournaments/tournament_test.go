package tournaments

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/bot"
	"github.com/muster-games/muster/internal/e2e"
)

// joinAt joins the tournament at url from the browser ctx.
func joinAt(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#t-join")), chromedp.Click(chromedp.CSS("#t-join")), chromedp.WaitVisible(chromedp.CSS("#t-withdraw"))); err != nil {
		t.Fatal(err)
	}
}

// resignFrom resigns the game (its path, /g/ID) from the browser ctx of
// one of its players, through the API (before a move the game page offers
// Abort instead).
func resignFrom(t *testing.T, ctx context.Context, game string) {
	t.Helper()
	code, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`fetch("/api/games/`+strings.TrimPrefix(game, "/g/")+`/resign", {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"}).then(r => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || code != 200 {
		t.Fatalf("resigning %s: %v %v", game, code, err)
	}
}

// randomPlayer is a bot's player: a legal action at random.
type randomPlayer struct{ rng *rand.Rand }

func (p randomPlayer) Act(ctx context.Context, s game.State, budget time.Duration) (string, error) {
	as := s.LegalActions(nil)
	return s.ActionString(as[p.rng.IntN(len(as))]), nil
}

// TestTournamentInBrowser: a player creates a correspondence round robin
// with the tournaments page's form; two more join on its page; the
// creator starts it early; the server pairs the first round, and every
// page shows its game and the bye, with the game opening on a click; the
// server restarts, the game ends, and the new server pairs round 2.
func TestTournamentInBrowser(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	first, cancel := e2e.Browser(t)
	defer cancel()
	ctxs := e2e.People(t, first, a, "ann", "ben", "cat")
	ann, ben, cat := ctxs["ann"], ctxs["ben"], ctxs["cat"]
	if err := chromedp.Do(ann, chromedp.Navigate(a.URL("/tournaments")), chromedp.WaitVisible(chromedp.CSS("#new-tournament")),
		chromedp.SendKeys(chromedp.CSS("#t-name"), "Friday round robin"), chromedp.SetValue(chromedp.CSS("#t-clock"), "d1"),
		chromedp.Click(chromedp.CSS(`#new-tournament button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS("#standings"))); err != nil {
		t.Fatal(err)
	}
	url, err := chromedp.Run(ann, chromedp.Evaluate[string](`location.href`))
	if err != nil || !strings.Contains(url, "/t/") {
		t.Fatalf("after creating: %q %v", url, err)
	}
	for _, c := range []context.Context{ben, cat} {
		joinAt(t, c, url)
	}
	if err := chromedp.Do(ann, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#t-start")), chromedp.Click(chromedp.CSS("#t-start"))); err != nil {
		t.Fatal(err)
	}
	// The sweep (every 2 s) starts it; the page refreshes every 5 s.
	for _, c := range []context.Context{ann, ben, cat} {
		e2e.Poll(t, c, "the first round", `document.querySelector('.round[data-round="1"]') !== null && document.getElementById("t-status").textContent.includes("Round 1 of 3")`)
	}
	got := e2e.Text(t, ben, ".round")
	if !strings.Contains(got, "has the bye") || !strings.Contains(got, "playing") {
		t.Fatalf("round 1: %q", got)
	}
	e2e.FullShot(t, ben, "tournament")
	if err := chromedp.Do(ben, chromedp.Click(chromedp.CSS(`.round a[href^="/g/"]`)), chromedp.WaitVisible(chromedp.CSS("#board"))); err != nil {
		t.Fatal(err)
	}
	// The server restarts; the round's game ends (its first seat resigns
	// from his browser) and the new server pairs round 2.
	db, addr := a.DB, a.Addr
	a.Stop()
	e2e.StartApp(t, db, addr)
	pair, err := chromedp.Run(ben, chromedp.Evaluate[[]string](`fetch(location.pathname.replace("/g/", "/api/games/")).then(r => r.json()).then(v => [v.id, v.seats[0].name])`, chromedp.EvalAwaitPromise))
	if err != nil || len(pair) != 2 {
		t.Fatalf("the game after the restart: %v %v", pair, err)
	}
	resignFrom(t, ctxs[pair[1]], "/g/"+pair[0])
	if err := chromedp.Do(ann, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#standings"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ann, "round 2 after the restart", `document.getElementById("t-status").textContent.includes("Round 2 of 3")`)
	if got := e2e.Text(t, ann, "#standings"); !strings.Contains(got, "2") {
		t.Fatalf("standings after round 1: %q", got)
	}
	// The crosstable has the game: the winner's 1 against the loser's 0.
	cells, err := chromedp.Run(ann, chromedp.Evaluate[string](`[...document.querySelectorAll("#crosstable td")].map(td => td.textContent).join(",")`))
	if err != nil || !strings.Contains(cells, "1") || !strings.Contains(cells, "0") || strings.Count(cells, "×") != 3 {
		t.Fatalf("the crosstable: %q %v", cells, err)
	}
}

// TestArenaInBrowser: three players in three browsers and a bot; an arena
// open to bots made with the form, joined on its page (the bot through the
// API with its token, played by the bot client), started early by its
// creator; the server pairs them two games at a time; a person in each
// game resigns, and the standings give each winner 2 points and show the
// scores game by game, then pair the four again.
func TestArenaInBrowser(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	first, cancel := e2e.Browser(t)
	defer cancel()
	names := []string{"ann", "ben", "cat"}
	ctxs := e2e.People(t, first, a, names...)
	// The fourth player is a bot: an account made a bot in its browser,
	// played by the bot client with random moves.
	robot, rc := chromedp.NewContext(first, chromedp.WithNewBrowserContext())
	defer rc()
	e2e.Register(t, robot, a, "robot")
	tok, err := chromedp.Run(robot, chromedp.Evaluate[string](`fetch("/api/account/bot", {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"})
		.then(() => fetch("/api/account/tokens", {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"})).then(r => r.json()).then(j => j.token)`, chromedp.EvalAwaitPromise))
	if err != nil || tok == "" {
		t.Fatalf("the bot's token: %v", err)
	}
	bctx, stopBot := context.WithCancel(context.Background())
	defer stopBot()
	go (&bot.Client{URL: "http://" + a.Addr, Token: tok, Player: randomPlayer{rand.New(rand.NewPCG(1, 2))}, Retry: 100 * time.Millisecond}).Run(bctx)
	ann := ctxs["ann"]
	if err := chromedp.Do(ann, chromedp.Navigate(a.URL("/tournaments")), chromedp.WaitVisible(chromedp.CSS("#new-tournament")),
		chromedp.SendKeys(chromedp.CSS("#t-name"), "Evening arena"), chromedp.SetValue(chromedp.CSS("#t-kind"), "arena"),
		chromedp.SetValue(chromedp.CSS("#t-clock"), "10+5"), chromedp.Click(chromedp.CSS("#t-bots")),
		chromedp.Click(chromedp.CSS(`#new-tournament button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS("#standings"))); err != nil {
		t.Fatal(err)
	}
	url, _ := chromedp.Run(ann, chromedp.Evaluate[string](`location.href`))
	for _, n := range names[1:] {
		joinAt(t, ctxs[n], url)
	}
	id := url[strings.LastIndex(url, "/t/")+3:]
	req, _ := http.NewRequest("POST", "http://"+a.Addr+"/api/tournaments/"+id+"/join", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the bot joins: %v %v", res, err)
	}
	if err := chromedp.Do(ann, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#t-start")), chromedp.Click(chromedp.CSS("#t-start"))); err != nil {
		t.Fatal(err)
	}
	e2e.Poll(t, ann, "the first pairing", `document.querySelectorAll('.round[data-round="1"] li').length === 2`)
	// Each game's first seat resigns, from his browser (before a move the
	// game page offers Abort, which an arena scores as nothing).
	games, err := chromedp.Run(ann, chromedp.Evaluate[[][]string](`[...document.querySelectorAll('.round[data-round="1"] li')].map(li => [...li.textContent.split(" ")[0].split(" – "), li.textContent.split(" – ")[1].split(" ")[0], li.querySelector("a").getAttribute("href")])`))
	if err != nil || len(games) != 2 {
		t.Fatalf("the games: %v %v", games, err)
	}
	winners := map[string]bool{}
	for _, g := range games {
		// The person of the first seat resigns; against the bot's first
		// seat, the person of the second.
		who := g[0]
		if who == "robot" {
			who = g[1]
		}
		g = []string{who, g[2]}
		c := ctxs[g[0]]
		if err := chromedp.Do(c, chromedp.Navigate(a.URL(g[1])), chromedp.WaitVisible(chromedp.CSS("#board"))); err != nil {
			t.Fatal(err)
		}
		resignFrom(t, c, g[1])
	}
	if err := chromedp.Do(ann, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#standings"))); err != nil {
		t.Fatal(err)
	}
	// The games end one after the other, so the next pairings may come in
	// one wave or two: two games in all, neither a rematch.
	e2e.Poll(t, ann, "the next pairings", `document.querySelectorAll('.round:not([data-round="1"]) li').length === 2`)
	again, err := chromedp.Run(ann, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.round li')].map(li => li.textContent.split(" ").slice(0, 3).filter(w => w !== "–").sort().join("-"))`))
	if err != nil || len(again) != 4 || again[0] == again[2] || again[0] == again[3] || again[1] == again[2] || again[1] == again[3] {
		t.Fatalf("a rematch: %v %v", again, err)
	}
	rows, err := chromedp.Run(ann, chromedp.Evaluate[[][]string](`[...document.querySelectorAll("#standings tr")].slice(1).map(tr => [...tr.children].map(td => td.textContent.trim()))`))
	if err != nil || len(rows) != 4 {
		t.Fatalf("standings: %v %v", rows, err)
	}
	for _, r := range rows {
		if r[2] == "2" && r[3] == "2" {
			winners[r[1]] = true
		} else if r[2] != "0" || r[3] != "0" {
			t.Errorf("a standings row %v", r)
		}
	}
	if len(winners) != 2 {
		t.Errorf("winners %v in %v", winners, rows)
	}
	e2e.FullShot(t, ann, "arena")
}

// TestSwissInBrowser: four players in four browsers play a Swiss of three
// rounds made with the form; in each round the first seat of every game
// resigns from his browser; the pages pair each round as the last ends,
// and no two players meet twice.
func TestSwissInBrowser(t *testing.T) {
	t.Parallel()
	a := e2e.StartApp(t, "", "")
	first, cancel := e2e.Browser(t)
	defer cancel()
	ctxs := e2e.People(t, first, a, "ann", "ben", "cat", "dan")
	ann := ctxs["ann"]
	if err := chromedp.Do(ann, chromedp.Navigate(a.URL("/tournaments")), chromedp.WaitVisible(chromedp.CSS("#new-tournament")),
		chromedp.SendKeys(chromedp.CSS("#t-name"), "Swiss of three rounds"), chromedp.SetValue(chromedp.CSS("#t-kind"), "swiss"),
		chromedp.SetValue(chromedp.CSS("#t-rounds"), "3"), chromedp.SetValue(chromedp.CSS("#t-clock"), "d3"),
		chromedp.Click(chromedp.CSS(`#new-tournament button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS("#standings"))); err != nil {
		t.Fatal(err)
	}
	url, _ := chromedp.Run(ann, chromedp.Evaluate[string](`location.href`))
	for _, n := range []string{"ben", "cat", "dan"} {
		joinAt(t, ctxs[n], url)
	}
	if err := chromedp.Do(ann, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#t-start")), chromedp.Click(chromedp.CSS("#t-start"))); err != nil {
		t.Fatal(err)
	}
	met := map[string]bool{}
	for round := 1; round <= 3; round++ {
		sel := fmt.Sprintf(`.round[data-round="%d"] li`, round)
		e2e.Poll(t, ann, fmt.Sprintf("round %d", round), `document.querySelectorAll('`+sel+`').length === 2`)
		games, err := chromedp.Run(ann, chromedp.Evaluate[[][]string](`[...document.querySelectorAll('`+sel+`')].map(li => [li.textContent.split(" – ")[0], li.textContent.split(" – ")[1].split(" ")[0], li.querySelector("a").getAttribute("href")])`))
		if err != nil || len(games) != 2 {
			t.Fatalf("round %d: %v %v", round, games, err)
		}
		for _, g := range games {
			k := min(g[0], g[1]) + "-" + max(g[0], g[1])
			if met[k] {
				t.Fatalf("round %d: %s meet again", round, k)
			}
			met[k] = true
			resignFrom(t, ctxs[g[0]], g[2])
		}
		if err := chromedp.Do(ann, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#standings"))); err != nil {
			t.Fatal(err)
		}
	}
	e2e.Poll(t, ann, "the end", `document.getElementById("t-status").textContent.includes("Finished")`)
	if len(met) != 6 {
		t.Errorf("pairs met: %v", met)
	}
	e2e.FullShot(t, ann, "swiss")
}
