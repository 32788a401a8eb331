package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/assist"
	"github.com/muster-games/muster/internal/engine"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/lanrick/ai"
	"github.com/muster-games/muster/search"
	_ "github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

// nobody is the identity of requests signed in as nobody.
type nobody struct{}

func (nobody) Me(*http.Request) (*store.Player, error) { return nil, nil }

// harness is an analysis board behind a test server.
type harness struct {
	t    *testing.T
	pool *engine.Pool
	url  string
}

func newHarness(t *testing.T, think time.Duration) *harness {
	api := &httpx.API{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 20}
	pool := engine.New(engine.Config{Slots: 2})
	mux := http.NewServeMux()
	New(api, pool, nobody{}, Config{Think: think}).Routes(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &harness{t: t, pool: pool, url: srv.URL}
}

// call posts body (JSON text, or a value to encode) and decodes the answer into out.
func (h *harness) call(method, path string, body, out any) int {
	h.t.Helper()
	b, ok := body.([]byte)
	if s, isText := body.(string); isText {
		b, ok = []byte(s), true
	}
	if !ok {
		b, _ = json.Marshal(body)
	}
	req, _ := http.NewRequest(method, h.url+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	json.NewDecoder(res.Body).Decode(out)
	return res.StatusCode
}

// TestAnalysisBoard: a node is the root and the actions from it; its view
// offers the legal actions, and the actions played come back described;
// bad nodes get clear errors.
func TestAnalysisBoard(t *testing.T) {
	h := newHarness(t, time.Second)
	var root analysisView
	if code := h.call("POST", "/api/analysis", analysisRequest{Spec: "tablut(linnaeus)"}, &root); code != http.StatusOK {
		t.Fatalf("root: %d", code)
	}
	if root.Over || len(root.Legal) == 0 || len(root.Path) != 0 || root.Position == "" {
		t.Fatalf("root: %+v", root)
	}
	first, second := root.Legal[0].Text, ""
	var next analysisView
	h.call("POST", "/api/analysis", analysisRequest{Spec: root.Spec, Actions: []string{first}}, &next)
	if len(next.Path) != 1 || next.Path[0].Text != first || next.ToAct == root.ToAct || next.Position == root.Position {
		t.Fatalf("after %s: path %+v, to act %d", first, next.Path, next.ToAct)
	}
	second = next.Legal[0].Text
	// The same node from the position reached: the play.View is the same.
	var again analysisView
	h.call("POST", "/api/analysis", analysisRequest{Spec: root.Spec, Position: next.Position, Actions: []string{second}}, &again)
	var long analysisView
	h.call("POST", "/api/analysis", analysisRequest{Spec: root.Spec, Actions: []string{first, second}}, &long)
	if again.Position != long.Position {
		t.Fatalf("from the position %q, from the start %q", again.Position, long.Position)
	}
	bad := []struct {
		req  any
		code int
		want string
	}{
		{analysisRequest{Spec: "chess"}, http.StatusBadRequest, "tablut"},
		{analysisRequest{Spec: "tablut(linnaeus)", Actions: []string{first, first}}, http.StatusUnprocessableEntity, "action 2"},
		{analysisRequest{Spec: "tablut(linnaeus)", Position: "nonsense"}, http.StatusBadRequest, ""},
		{analysisRequest{Spec: "tablut(linnaeus)", Actions: make([]string, maxAnalysisActions+1)}, http.StatusRequestEntityTooLarge, "at most"},
		{`{"spec":"tablut","actions":[],"extra":1}`, http.StatusBadRequest, "unknown field"},
	}
	for _, c := range bad {
		var e struct{ Error string }
		if code := h.call("POST", "/api/analysis", c.req, &e); code != c.code || !strings.Contains(e.Error, c.want) {
			t.Errorf("%v: %d %q, want %d with %q", c.req, code, e.Error, c.code, c.want)
		}
	}
}

// TestAnalysisEvaluation: the engine's evaluation says who is better in
// words, with a legal line from the node, for both games; a finished game
// says its result, chance says so, and a busy engine says so.
func TestAnalysisEvaluation(t *testing.T) {
	h := newHarness(t, 3*time.Second)
	for _, spec := range []string{"tablut(linnaeus)", "lanrick(1893)"} {
		var ev evaluation
		if code := h.call("POST", "/api/analysis/eval", analysisRequest{Spec: spec}, &ev); code != http.StatusOK {
			t.Fatalf("%s: %d %+v", spec, code, ev)
		}
		if ev.Text == "" || len(ev.Line) == 0 || len(ev.Line) != len(ev.LineTexts) || len(ev.Line) != len(ev.LineSquares) || ev.Bar < -1 || ev.Bar > 1 || ev.Agent == "" {
			t.Fatalf("%s: %+v", spec, ev)
		}
		// A second line, beginning otherwise, legal too.
		if ev.Second == nil || len(ev.Second.LineTexts) == 0 || ev.Second.LineTexts[0] == ev.LineTexts[0] || ev.Second.Text == "" {
			t.Fatalf("%s: the second line %+v beside %v", spec, ev.Second, ev.LineTexts)
		}
		var alt analysisView
		if code := h.call("POST", "/api/analysis", analysisRequest{Spec: spec, Actions: ev.Second.LineTexts}, &alt); code != http.StatusOK {
			t.Errorf("%s: the second line %v is not legal: %d", spec, ev.Second.LineTexts, code)
		}
		// The line is legal from the node.
		var end analysisView
		if code := h.call("POST", "/api/analysis", analysisRequest{Spec: spec, Actions: ev.LineTexts}, &end); code != http.StatusOK {
			t.Errorf("%s: the line %v is not legal: %d", spec, ev.LineTexts, code)
		}
	}
	// Five attackers short, with the defenders to move and no capture or
	// escape at hand: the defenders are better by whole men (alpha-beta's
	// value is in men), not "about even".
	var ahead evaluation
	if code := h.call("POST", "/api/analysis/eval", analysisRequest{Spec: "tablut(ashton)", Position: "/9/9/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/4t4/ defenders"}, &ahead); code != http.StatusOK {
		t.Fatalf("five men ahead: %d %+v", code, ahead)
	}
	var by float64
	_, after, _ := strings.Cut(ahead.Text, "a lead worth ")
	if _, err := fmt.Sscanf(after, "%f", &by); !strings.HasPrefix(ahead.Text, "Defenders") || err != nil || by < 1 {
		t.Errorf("five men ahead: %q", ahead.Text)
	}
	// Said as a chance to win too (issue 31, item 7), better than even.
	var pct int
	if _, err := fmt.Sscanf(strings.SplitN(ahead.Text, "about ", 2)[1], "%d%% to win", &pct); err != nil || pct <= 50 || pct > 100 {
		t.Errorf("five men ahead, as a chance: %q", ahead.Text)
	}
	// A quick look (a graph's) answers too.
	var quick evaluation
	if code := h.call("POST", "/api/analysis/eval", analysisRequest{Spec: "tablut(ashton)", Position: "/9/9/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/4t4/ defenders", MS: 60}, &quick); code != http.StatusOK || quick.Text == "" {
		t.Errorf("a quick look: %d %+v", code, quick)
	}
	// The king escapes in the Tablut lesson: the game is over and the
	// evaluation says the defenders won.
	info, err := game.Lookup("tablut")
	if err != nil {
		t.Fatal(err)
	}
	var escape game.Lesson
	for _, l := range info.Lessons {
		if l.Goal == "king-escaped" {
			escape = l
		}
	}
	if escape.Position == "" {
		t.Fatal("no lesson of the king's escape")
	}
	var ev evaluation
	h.call("POST", "/api/analysis/eval", analysisRequest{Spec: "tablut(" + escape.Ruleset + ")", Position: escape.Position, Actions: escape.Solution}, &ev)
	if !strings.Contains(strings.ToLower(ev.Text), "defenders") || ev.Bar != -1 && ev.Bar != 1 {
		t.Errorf("after the escape: %+v", ev)
	}
	// 1879: when the dice are to be thrown, the evaluation says so.
	var node analysisView
	req := analysisRequest{Spec: "lanrick(1879-01)", Actions: []string{}}
	for h.call("POST", "/api/analysis", req, &node); node.ToAct >= 0 && len(req.Actions) < 200; h.call("POST", "/api/analysis", req, &node) {
		req.Actions = append(req.Actions, node.Legal[0].Text)
	}
	ev = evaluation{}
	h.call("POST", "/api/analysis/eval", req, &ev)
	if node.ToAct != game.Chance || !strings.Contains(ev.Text, "Chance") {
		t.Errorf("1879 at the start: %+v", ev)
	}
	// The user throws the dice himself: every outcome is offered and
	// plays.
	if len(node.Legal) == 0 {
		t.Fatal("no dice offered")
	}
	for _, o := range node.Legal {
		var after analysisView
		if code := h.call("POST", "/api/analysis", analysisRequest{Spec: req.Spec, Actions: append(req.Actions[:len(req.Actions):len(req.Actions)], o.Text)}, &after); code != http.StatusOK || len(after.Path) != len(req.Actions)+1 {
			t.Fatalf("the throw %q: %d, path %d", o.Text, code, len(after.Path))
		}
	}
	// A busy engine answers 503 and says so.
	l, _ := h.pool.Acquire(context.Background(), engine.Move, 0)
	var e struct{ Error string }
	if code := h.call("POST", "/api/analysis/eval", analysisRequest{Spec: "tablut"}, &e); code != http.StatusServiceUnavailable || !strings.Contains(e.Error, "busy") {
		t.Errorf("busy: %d %q", code, e.Error)
	}
	l.Release()
}

// TestRecordOpened: a record of either game, as the game page exports it,
// opens on the board with its own game and its actions as the game writes
// them; a bad record is told, not crashed on (issue 31, item 9).
func TestRecordOpened(t *testing.T) {
	h := newHarness(t, time.Second)
	for spec, moves := range map[string]string{"tablut(linnaeus)": "a4-a3 e3-b3", "lanrick(1893)": "mark d5 no-interchange a7-b6 h5-g5"} {
		g, err := game.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		s := g.NewState()
		if err := game.ApplyNotation(s, g.SplitActions(moves)); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := g.(game.Recorder).WriteRecord(&buf, game.NewRecord("", s)); err != nil {
			t.Fatal(err)
		}
		var got recordAnswer
		if code := h.call("POST", "/api/analysis/record", recordRequest{Record: buf.String()}, &got); code != http.StatusOK {
			t.Fatalf("%s: %d", spec, code)
		}
		if got.Spec != g.Spec() || strings.Join(got.Actions, " ") != moves {
			t.Errorf("%s opened as %+v", spec, got)
		}
	}
	var bad struct {
		Error string `json:"error"`
	}
	if code := h.call("POST", "/api/analysis/record", recordRequest{Record: "[not a record"}, &bad); code != http.StatusUnprocessableEntity || bad.Error == "" {
		t.Errorf("a bad record: %d %q", code, bad.Error)
	}
}

// TestVerdictFromTables: a value read from Lanrick's endgame tables is
// said exactly, with the turns to the end (issue 25, item 5, in part).
func TestVerdictFromTables(t *testing.T) {
	players := []game.PlayerTraits{{Name: "black", Title: "Black"}, {Name: "white", Title: "White"}}
	table := func(proven, turns int) search.Result {
		return search.Result{Kind: search.Verdict, Proven: proven, Turns: turns, Exact: true, Source: "the endgame tables",
			Note: "neither side can force his men in, and each can stop the other"}
	}
	ev := judge(table(-1, 4), 0, players)
	if ev.Text != "White: a win in 4 turns with best play (both sides' turns; the endgame tables)." || ev.Bar != -1 {
		t.Errorf("a table's loss for Black: %+v", ev)
	}
	if ev := judge(search.Result{Kind: search.Proof, Proven: 1}, 1, players); ev.Text != "White: a win by force." {
		t.Errorf("a proof without tables: %+v", ev)
	}
	// Three men against two can be drawn: the tables say so exactly.
	if ev := judge(table(0, 0), 0, players); ev.Text != "A draw with best play: neither side can force his men in, and each can stop the other (the endgame tables)." || ev.Bar != 0 {
		t.Errorf("a table's draw: %+v", ev)
	}
	if ev := judge(search.Result{Iterations: 100}, 0, players); strings.HasPrefix(ev.Text, "A draw") {
		t.Errorf("MCTS's even position said as a draw: %+v", ev)
	}
}

// TestEvaluationIsHelp: each evaluation is noted as help to its address
// (and player), so that a puzzle tried meanwhile is not rated
// (internal/puzzles); the nodes' views, which evaluate nothing, are not.
func TestEvaluationIsHelp(t *testing.T) {
	api := &httpx.API{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 20}
	help := assist.New(time.Hour, 100)
	mux := http.NewServeMux()
	New(api, engine.New(engine.Config{Slots: 1}), nobody{}, Config{Think: 100 * time.Millisecond, Assist: help}).Routes(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	h := &harness{t: t, url: srv.URL}
	before := time.Now()
	var v analysisView
	if code := h.call("POST", "/api/analysis", analysisRequest{Spec: "tablut"}, &v); code != http.StatusOK {
		t.Fatalf("view: %d", code)
	}
	if help.During(before, time.Now(), "addr 127.0.0.1") {
		t.Fatal("a node's view noted as help")
	}
	var ev evaluation
	if code := h.call("POST", "/api/analysis/eval", analysisRequest{Spec: "tablut"}, &ev); code != http.StatusOK {
		t.Fatalf("eval: %d", code)
	}
	if !help.During(before, time.Now(), "addr 127.0.0.1") {
		t.Fatal("an evaluation not noted as help")
	}
}
