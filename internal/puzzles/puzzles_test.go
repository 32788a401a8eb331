package puzzles

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/lanrick/ai"
	"github.com/muster-games/muster/lanrick/endgame/endgametest"
	_ "github.com/muster-games/muster/tablut/ai"
)

func call(t *testing.T, url, method string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	json.NewDecoder(res.Body).Decode(out)
	return res.StatusCode
}

// TestPuzzlesServed: with no table on disk the list is empty and says
// why; with the shared test table it offers Lanrick puzzles, and the
// verdict of a puzzle's position is the win it promises; a finished game
// says its result; a bad position is a clear 400.
func TestPuzzlesServed(t *testing.T) {
	api := &httpx.API{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 16}
	mux := http.NewServeMux()
	b := New(api)
	b.Routes(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	saved := ai.EndgameDir
	defer ai.SetEndgameDir(saved)
	ai.SetEndgameDir(t.TempDir())
	var l listing
	if code := call(t, srv.URL+"/api/puzzles", "GET", nil, &l); code != 200 || len(l.Puzzles) != 0 || l.Note == "" {
		t.Fatalf("without tables: %d %+v", code, l)
	}
	ai.SetEndgameDir(endgametest.Dir(t))
	if code := call(t, srv.URL+"/api/puzzles", "GET", nil, &l); code != 200 || len(l.Puzzles) < 10 {
		t.Fatalf("with the test table: %d, %d puzzles", code, len(l.Puzzles))
	}
	p := l.Puzzles[0]
	var v verdictAnswer
	if code := call(t, srv.URL+"/api/puzzles/verdict", "POST", verdictRequest{Spec: p.Spec, Position: p.Position}, &v); code != 200 ||
		!v.Decided || v.Outcome != "win" || (v.Turns+1)/2 != p.Turns {
		t.Fatalf("the verdict of %+v: %d %+v", p, code, v)
	}
	// Played out by the tables, the game ends with the solver's win.
	g, _ := game.Load(p.Spec)
	s, _ := g.ParseState(p.Position)
	for steps := 0; !s.IsTerminal() && steps < 100; steps++ {
		res, ok := agent.Verdict(s)
		if !ok {
			s.Apply(s.LegalActions(nil)[0])
			continue
		}
		s.Apply(res.Action)
	}
	if code := call(t, srv.URL+"/api/puzzles/verdict", "POST", verdictRequest{Spec: p.Spec, Position: s.String()}, &v); code != 200 || !v.Over || v.Result != p.Side {
		t.Fatalf("the end: %d %+v, want %s's win", code, v, p.Side)
	}
	if code := call(t, srv.URL+"/api/puzzles/verdict", "POST", verdictRequest{Spec: p.Spec, Position: "board=nonsense"}, &v); code != 400 {
		t.Fatalf("a bad position: %d", code)
	}
}
