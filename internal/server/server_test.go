package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/lanrick/ai"
	_ "github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

type harness struct {
	t    *testing.T
	db   string
	st   *store.Store
	srv  *Server
	http *httptest.Server
}

func newHarness(t *testing.T, db string, cfg Config) *harness {
	t.Helper()
	if db == "" {
		db = filepath.Join(t.TempDir(), "muster.db")
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	// With the move journal, as muster serve opens it (SQLite).
	if err := st.Journal(nil); err != nil {
		t.Fatal(err)
	}
	srv := New(st, cfg)
	if err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, db: db, st: st, srv: srv, http: httptest.NewServer(srv)}
	t.Cleanup(h.close)
	return h
}

func (h *harness) close() {
	if h.http == nil {
		return
	}
	h.http.Close()
	h.srv.Close()
	h.st.Close()
	h.http = nil
}

// call sends a JSON request and decodes the answer into out.
func (h *harness) call(method, path string, body any, out any) int {
	h.t.Helper()
	var rd *bytes.Reader
	if s, ok := body.(string); ok {
		rd = bytes.NewReader([]byte(s))
	} else {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, h.http.URL+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

// at points to a ply, as an act request needs.
func at(ply int) *int { return &ply }

func testConfig() Config {
	c := DefaultConfig
	c.AgentTimeout = 10 * time.Second
	// The tests' own computers: random, and one that thinks long enough
	// for a server to die meanwhile.
	c.Levels = append(slices.Clone(agent.Levels), "random", "alphabeta(time=3s)")
	// The tests read the metrics on the site, as often as they poll.
	c.MetricsOnSite, c.MetricsPerMinute = true, 100000
	return c
}

// waitPly polls until the game has reached ply actions.
func (h *harness) waitPly(id string, ply int) play.View {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var v play.View
		h.call("GET", "/api/games/"+id, nil, &v)
		if v.Ply >= ply || time.Now().After(deadline) {
			if v.Ply < ply {
				h.t.Fatalf("game %s stuck at ply %d, want %d", id, v.Ply, ply)
			}
			return v
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPlayAgainstAgent: a person plays a move, the agent answers; every
// bad request gets a clear error and changes nothing.
func TestPlayAgainstAgent(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var c createResponse
	if code := h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "attackers"}, &c); code != http.StatusCreated || c.Seat != 0 || len(c.Secret) != 32 {
		t.Fatalf("create: %d %+v", code, c)
	}
	var v play.View
	h.call("GET", "/api/games/"+c.ID, nil, &v)
	if v.Ply != 0 || v.ToAct != 0 || len(v.Legal) != 80 || v.Game != "tablut" {
		t.Fatalf("view %+v", v)
	}
	var e map[string]string
	for _, bad := range []struct {
		body any
		code int
		says string
	}{
		{actRequest{Secret: "nope", Action: "a4-a3", Ply: at(0)}, 403, "secret"},
		{actRequest{Secret: c.Secret, Action: "a4-a9", Ply: at(0)}, 422, "blocked"},
		{actRequest{Secret: c.Secret, Action: "zz", Ply: at(0)}, 422, "bad move"},
		{actRequest{Secret: c.Secret, Action: "a4-a3", Ply: at(5)}, 409, "moved on"},
		{`{"secret": "x", "action": "a4-a3", "extra": 1}`, 400, "unknown field"},
		{`{"secret": `, 400, "bad request"},
		{`{"action": "` + strings.Repeat("a", 70<<10) + `"}`, 413, "larger than"},
		{actRequest{Secret: c.Secret, Action: strings.Repeat("a", 65), Ply: at(0)}, 400, "64 characters"},
	} {
		e = nil
		if code := h.call("POST", "/api/games/"+c.ID+"/act", bad.body, &e); code != bad.code || !strings.Contains(e["error"], bad.says) {
			t.Errorf("%.100v: %d %q, want %d %q", bad.body, code, e["error"], bad.code, bad.says)
		}
	}
	h.call("GET", "/api/games/"+c.ID, nil, &v)
	if v.Ply != 0 {
		t.Fatal("a refused request changed the game")
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secret, Action: "a4-a3", Ply: at(0)}, &v); code != 200 {
		t.Fatalf("legal move: %d", code)
	}
	v = h.waitPly(c.ID, 2)
	if v.History[0] != "a4-a3" || v.ToAct != 0 {
		t.Fatalf("after the agent: %+v", v)
	}
	if code := h.call("GET", "/api/games/zzzzzzzzzzzz", nil, &e); code != 404 {
		t.Fatalf("unknown game: %d", code)
	}
	if code := h.call("GET", "/api/games/../../etc", nil, &e); code != 404 && code != 400 {
		t.Fatalf("odd id: %d", code)
	}
	// The record exports.
	res, _ := http.Get(h.http.URL + "/api/games/" + c.ID + "/record")
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	res.Body.Close()
	if !strings.Contains(b.String(), "1. a4-a3") || !strings.Contains(b.String(), "[defenders:Muster easy]") {
		t.Fatalf("record:\n%s", b.String())
	}
	// Stepping back: the play.View at ply 1.
	var at play.View
	h.call("GET", "/api/games/"+c.ID+"?ply=1", nil, &at)
	if at.Ply != 1 || len(at.Legal) != 0 || len(at.History) != 1 {
		t.Fatalf("view at ply 1: %+v", at)
	}
}

// TestFriendAndSpectator: the invitation gives the other seat once; a
// spectator can watch but not move; nobody moves for someone else.
func TestFriendAndSpectator(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "lanrick", Ruleset: "1893", Opponent: "friend", Side: "white"}, &c)
	if c.Invite == "" || c.Seat != 1 {
		t.Fatalf("create: %+v", c)
	}
	token := c.Invite[strings.Index(c.Invite, "join=")+5:]
	var j struct {
		Seat   int    `json:"seat"`
		Secret string `json:"secret"`
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/join", joinRequest{Token: token}, &j); code != 200 || j.Seat != 0 {
		t.Fatalf("join: %d %+v", code, j)
	}
	var e map[string]string
	if code := h.call("POST", "/api/games/"+c.ID+"/join", joinRequest{Token: token}, &e); code != 403 {
		t.Fatalf("second join: %d", code)
	}
	// Black sets the mark; white (the creator) may not do it for him.
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secret, Action: "mark d5", Ply: at(0)}, &e); code != 422 || !strings.Contains(e["error"], "not your turn") {
		t.Fatalf("white acting for black: %d %v", code, e)
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Action: "mark d5", Ply: at(0)}, &e); code != 403 {
		t.Fatalf("spectator: %d", code)
	}
	var v play.View
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: j.Secret, Action: "mark d5", Ply: at(0)}, &v); code != 200 || v.Ply != 1 {
		t.Fatalf("black's mark: %d", code)
	}
	// Draws: white offers, black accepts.
	h.call("POST", "/api/games/"+c.ID+"/draw", secretRequest{Secret: c.Secret, What: "offer"}, &v)
	if v.DrawOffer != 1 {
		t.Fatalf("offer: %+v", v.DrawOffer)
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/draw", secretRequest{Secret: c.Secret, What: "accept"}, &e); code != 422 {
		t.Fatalf("accepting one's own offer: %d", code)
	}
	h.call("POST", "/api/games/"+c.ID+"/draw", secretRequest{Secret: j.Secret, What: "accept"}, &v)
	if v.Status != "over" || v.Result != "draw" {
		t.Fatalf("after accepting: %s %s", v.Status, v.Result)
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secret, Action: "no-interchange", Ply: at(1)}, &e); code != 409 {
		t.Fatalf("a move after the end: %d", code)
	}
}

// TestRestart: stop the server in the middle of a game and start another
// on the same database: the game goes on where it was, and the agent whose
// turn it was plays.
func TestRestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "muster.db")
	h := newHarness(t, db, testConfig())
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "lanrick", Opponent: "local", Side: "black"}, &c)
	var v play.View
	for i, a := range []string{"mark d5", "no-interchange", "a7-a5"} {
		p := map[int]int{0: 0, 1: 1, 2: 1}[i]
		if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[p], Action: a, Ply: at(i)}, &v); code != 200 {
			t.Fatalf("%s: %d", a, code)
		}
	}
	var ai createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "ai", Level: "easy", Side: "attackers"}, &ai)
	pos := v.Position
	h.close()
	// The agent's game: the person moves while the server is down? No —
	// the person moves on the new server, and the agent answers there.
	h2 := newHarness(t, db, testConfig())
	h2.call("GET", "/api/games/"+c.ID, nil, &v)
	if v.Ply != 3 || v.Position != pos || v.ToAct != 0 {
		t.Fatalf("after the restart: ply %d, %s", v.Ply, v.Position)
	}
	if code := h2.call("POST", "/api/games/"+ai.ID+"/act", actRequest{Secret: ai.Secret, Action: "a4-a3", Ply: at(0)}, &v); code != 200 {
		t.Fatalf("move after restart: %d", code)
	}
	h2.waitPly(ai.ID, 2)
}

// TestWebSocket: a watcher gets the play.View at once and every change; a
// foreign Origin is refused.
func TestWebSocket(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Side: "attackers"}, &c)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(h.http.URL, "http") + "/ws/games/" + c.ID
	conn, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	read := func() play.View {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var v play.View
		json.Unmarshal(data, &v)
		return v
	}
	if v := read(); v.Ply != 0 {
		t.Fatalf("first play.View ply %d", v.Ply)
	}
	h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, nil)
	if v := read(); v.Ply != 1 || v.History[0] != "a4-a3" {
		t.Fatalf("pushed play.View %+v", v)
	}
	_, res, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://evil.example"}}})
	if err == nil || res == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("foreign origin: %v %v", err, res)
	}
}

// gameSocket is a test's WebSocket of a game.
type gameSocket struct {
	t    *testing.T
	ctx  context.Context
	conn *websocket.Conn
}

// socketAnswer is what a game's socket sends: a view, or an error
// answering an action.
type socketAnswer struct {
	play.View
	Error string `json:"error"`
	Code  int    `json:"code"`
}

// dialGame opens game id's WebSocket on h (with opts, which may be nil),
// closed when the test ends.
func dialGame(t *testing.T, ctx context.Context, h *harness, id string, opts *websocket.DialOptions) *gameSocket {
	t.Helper()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(h.http.URL, "http")+"/ws/games/"+id, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return &gameSocket{t, ctx, conn}
}

// read reads the socket's next message.
func (s *gameSocket) read() socketAnswer {
	s.t.Helper()
	_, data, err := s.conn.Read(s.ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	var a socketAnswer
	if err := json.Unmarshal(data, &a); err != nil {
		s.t.Fatal(err)
	}
	return a
}

// until reads views until one reaches ply.
func (s *gameSocket) until(ply int) socketAnswer {
	s.t.Helper()
	for {
		if a := s.read(); a.Ply >= ply {
			return a
		}
	}
}

// act sends an action on the socket, as the game page does.
func (s *gameSocket) act(secret, action string, ply int) {
	s.t.Helper()
	b, _ := json.Marshal(map[string]any{"act": map[string]any{"secret": secret, "action": action, "ply": ply}})
	if err := s.conn.Write(s.ctx, websocket.MessageText, b); err != nil {
		s.t.Fatal(err)
	}
}

// TestActionsOnTheWebSocket: a page plays its moves on the game's
// WebSocket: the move is played for the seat whose secret it gives, and
// its view comes back on the socket (to every watcher of the game, the
// one who moved among them); a move with a wrong secret, on a stale ply
// or an illegal one is answered on the socket with the status POST
// answers with, and the game is unchanged; the limit of changes from an
// address holds for moves sent so as for moves posted.
func TestActionsOnTheWebSocket(t *testing.T) {
	cfg := testConfig()
	cfg.ChangesPerMinute = 5
	h := newHarness(t, "", cfg)
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Side: "attackers"}, &c)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, spectator := dialGame(t, ctx, h, c.ID, nil), dialGame(t, ctx, h, c.ID, nil)
	if a, b := conn.read(), spectator.read(); a.Ply != 0 || b.Ply != 0 {
		t.Fatalf("first views at plies %d, %d", a.Ply, b.Ply)
	}
	conn.act(c.Secrets[0], "a4-a3", 0)
	for _, w := range []*gameSocket{conn, spectator} {
		if a := w.read(); a.Ply != 1 || a.History[0] != "a4-a3" || a.Error != "" {
			t.Fatalf("view after the move sent on the socket: %+v", a)
		}
	}
	for _, bad := range []struct {
		secret, action string
		ply, status    int
	}{
		{c.Secrets[0], "e3-e2", 1, http.StatusUnprocessableEntity}, // the defenders' turn, the attackers' secret
		{c.Secrets[1], "e3-e2", 0, http.StatusConflict},            // a stale view
		{c.Secrets[1], "e3-e1", 1, http.StatusUnprocessableEntity}, // illegal
		{"", "e3-e2", 1, http.StatusForbidden},                     // a spectator's
	} {
		conn.act(bad.secret, bad.action, bad.ply)
		if a := conn.read(); a.Code != bad.status || a.Error == "" {
			t.Errorf("%+v: answered %d %q", bad, a.Code, a.Error)
		}
	}
	var v play.View
	if h.call("GET", "/api/games/"+c.ID, nil, &v); v.Ply != 1 {
		t.Fatalf("after the refused moves the game is at ply %d", v.Ply)
	}
	// Five changes a minute from this address: the move and the four
	// refused ones were asked; a sixth, legal, is refused.
	conn.act(c.Secrets[1], "e3-e2", 1)
	if a := conn.read(); a.Code != http.StatusTooManyRequests {
		t.Fatalf("a move past the limit of changes: %+v", a)
	}
	if h.call("GET", "/api/games/"+c.ID, nil, &v); v.Ply != 1 {
		t.Fatalf("a move past the limit was played: ply %d", v.Ply)
	}
	// The metrics count the socket's messages as requests: the move
	// played, the refusals by status, the one past the limit among the
	// refused for a limit.
	want := []string{
		`muster_http_requests_total{method="WS",route="GET /ws/games/{id} act",status="200"} 1`,
		`muster_http_requests_total{method="WS",route="GET /ws/games/{id} act",status="422"} 2`,
		`muster_http_requests_total{method="WS",route="GET /ws/games/{id} act",status="429"} 1`,
		`muster_http_request_duration_seconds_count{route="GET /ws/games/{id} act"} 6`,
		`muster_limits_refused_total{route="GET /ws/games/{id} act"} 1`,
	}
	var body string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, body = h.get("/metrics"); !slices.ContainsFunc(want, func(w string) bool { return !strings.Contains(body, w) }) {
			return
		}
	}
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("metrics lack %s", w)
		}
	}
}

// TestLimits: games per client an hour and connections per client.
func TestLimits(t *testing.T) {
	cfg := testConfig()
	cfg.GamesPerHour = 2
	cfg.ConnsPerClient = 1
	h := newHarness(t, "", cfg)
	var c createResponse
	for i := 0; i < 2; i++ {
		if code := h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local"}, &c); code != 201 {
			t.Fatalf("game %d: %d", i, code)
		}
	}
	var e map[string]string
	if code := h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local"}, &e); code != 429 {
		t.Fatalf("third game: %d", code)
	}
	for _, bad := range []createRequest{{Game: "chess"}, {Game: "tablut", Ruleset: "nope"}, {Game: "tablut", Opponent: "robot"}, {Game: "tablut", Side: "swedes"}, {Game: "tablut", Level: "grandmaster"}} {
		if code := h.call("POST", "/api/games", bad, &e); code != 400 && code != 429 {
			t.Errorf("%+v: %d", bad, code)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(h.http.URL, "http") + "/ws/games/" + c.ID
	first, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer first.CloseNow()
	if _, res, err := websocket.Dial(ctx, url, nil); err == nil || res.StatusCode != 429 {
		t.Fatalf("second connection: %v", err)
	}
}

// TestImport: a record is replayed into a new game.
func TestImport(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var c createResponse
	rec := "[game:lanrick(1893)]\n\n1. black: mark d5\n2. white: no-interchange a7-a5\n"
	if code := h.call("POST", "/api/import", importRequest{createRequest: createRequest{Game: "lanrick", Opponent: "local"}, Record: rec}, &c); code != 201 {
		t.Fatalf("import: %d", code)
	}
	var v play.View
	h.call("GET", "/api/games/"+c.ID, nil, &v)
	if v.Ply != 3 || v.Spec != "lanrick(1893)" {
		t.Fatalf("imported: %+v", v)
	}
	var e map[string]string
	if code := h.call("POST", "/api/import", importRequest{createRequest: createRequest{Game: "lanrick", Opponent: "local"}, Record: "1. black: mark a1"}, &e); code != 400 || !strings.Contains(e["error"], "first mark") {
		t.Fatalf("bad record: %d %v", code, e)
	}
	// A game OpenTafl saved (.otg) imports as OpenTafl's Tablut, finished.
	otg, err := os.ReadFile("../../tablut/testdata/opentafl-0.4.8-r03.otg")
	if err != nil {
		t.Fatal(err)
	}
	if code := h.call("POST", "/api/import", importRequest{createRequest: createRequest{Game: "tablut", Opponent: "local"}, Record: string(otg)}, &c); code != 201 {
		t.Fatalf("import of an .otg: %d", code)
	}
	h.call("GET", "/api/games/"+c.ID, nil, &v)
	if v.Ply != 16 || v.Spec != "tablut(opentafl)" || v.Status != store.StatusOver || v.Result != "defenders" {
		t.Fatalf("the imported .otg: ply %d, %s, %s, %s", v.Ply, v.Spec, v.Status, v.Result)
	}
	// A record says its own game: the Tablut game above imports though
	// the form says Lanrick, and a Lanrick record with no game named
	// (issue 31, item 9).
	for _, c2 := range []struct{ game, record, spec string }{{"lanrick", string(otg), "tablut(opentafl)"}, {"", rec, "lanrick(1893)"}} {
		if code := h.call("POST", "/api/import", importRequest{createRequest: createRequest{Game: c2.game, Opponent: "local"}, Record: c2.record}, &c); code != 201 {
			t.Fatalf("import of a %s record as %q: %d", c2.spec, c2.game, code)
		}
		h.call("GET", "/api/games/"+c.ID, nil, &v)
		if v.Spec != c2.spec {
			t.Fatalf("imported as %q: %s, want %s", c2.game, v.Spec, c2.spec)
		}
	}
	// OpenTafl's king capture ("a5-a3xKb3") imports to the attackers' win
	// (issue 26, item 4).
	kc, err := os.ReadFile("../../tablut/testdata/opentafl-0.4.8-king-captured.otg")
	if err != nil {
		t.Fatal(err)
	}
	if code := h.call("POST", "/api/import", importRequest{createRequest: createRequest{Opponent: "local"}, Record: string(kc)}, &c); code != 201 {
		t.Fatalf("import of OpenTafl's king capture: %d", code)
	}
	h.call("GET", "/api/games/"+c.ID, nil, &v)
	if v.Status != store.StatusOver || v.Result != "attackers" {
		t.Fatalf("OpenTafl's king capture imported as %s, %s", v.Status, v.Result)
	}
}

func TestPages(t *testing.T) {
	h := newHarness(t, "", testConfig())
	for _, p := range []string{"/", "/g/abcdefabcdef", "/rules/lanrick", "/learn/lanrick", "/learn/lanrick/3", "/static/app.js", "/static/board.js",
		"/static/sound.js", "/static/style.css", "/static/favicon.svg"} {
		res, err := http.Get(h.http.URL + p)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("%s: %v %v", p, err, res)
		}
		if p == "/static/favicon.svg" && res.Header.Get("Content-Type") != "image/svg+xml" {
			t.Errorf("the icon is served as %q", res.Header.Get("Content-Type"))
		}
		res.Body.Close()
	}
}

// FuzzRequests sends arbitrary bodies to every endpoint that parses one:
// the answer is a 2xx or 4xx, never a server error or a crash.
func FuzzRequests(f *testing.F) {
	f.Add("act", `{"secret":"x","action":"a4-a3","ply":0}`)
	f.Add("games", `{"game":"lanrick","ruleset":"1893","opponent":"ai","level":"easy","side":"black"}`)
	f.Add("join", `{"token":"abc"}`)
	f.Add("draw", `{"secret":"x","what":"offer"}`)
	f.Add("import", `{"game":"tablut","record":"1. a4-a3"}`)
	f.Add("analysis", `{"spec":"lanrick(1893)","position":"","actions":["@a1"]}`)
	f.Add("eval", `{"spec":"tablut","actions":["d9-d3"]}`)
	st, err := store.Open(filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	srv := New(st, testConfig())
	defer srv.Close()
	var c createResponse
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"game":"tablut","opponent":"local"}`)))
	json.Unmarshal(rec.Body.Bytes(), &c)
	f.Fuzz(func(t *testing.T, endpoint, body string) {
		paths := map[string]string{"act": "/api/games/" + c.ID + "/act", "games": "/api/games", "join": "/api/games/" + c.ID + "/join",
			"draw": "/api/games/" + c.ID + "/draw", "import": "/api/import", "resign": "/api/games/" + c.ID + "/resign",
			"analysis": "/api/analysis", "eval": "/api/analysis/eval"}
		path, ok := paths[endpoint]
		if !ok {
			path = "/api/games/" + c.ID + "/act"
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("POST", path, strings.NewReader(body)))
		if rec.Code >= 500 {
			t.Fatalf("%s %q: %d %s", path, body, rec.Code, rec.Body.String())
		}
	})
}

// TestClock: a player out of time loses, by the server's timer; the
// increment is added when a turn ends.
func TestClock(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Side: "attackers", Minutes: 1, Increment: 2}, &c)
	var v play.View
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, &v); code != 200 {
		t.Fatalf("move: %d", code)
	}
	// The first move starts the clock: nothing is charged, nothing added.
	if v.Clock == nil || v.Clock.Running != 1 || v.Clock.LeftMS[0] != 60000 {
		t.Fatalf("clock after the first move: %+v", v.Clock)
	}
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[1], Action: "e3-f3", Ply: at(1)}, &v); code != 200 {
		t.Fatalf("move: %d", code)
	}
	if v.Clock.Running != 0 || v.Clock.LeftMS[1] < 61000 || v.Clock.LeftMS[1] > 62000 {
		t.Fatalf("clock after a quick second move with a 2 s increment: %+v", v.Clock)
	}
	// A clock of 0.3 s runs out once the first move (black's mark) is made.
	h.call("POST", "/api/games", createRequest{Game: "lanrick", Opponent: "local", Side: "black", Minutes: 0.005}, &c)
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "mark d5", Ply: at(0)}, &v); code != 200 {
		t.Fatalf("mark: %d", code)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		h.call("GET", "/api/games/"+c.ID, nil, &v)
		if v.Status == "over" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if v.Status != "over" || v.Result != "black" || !strings.Contains(v.Reason, "white lost on time") {
		t.Fatalf("out of time: %s %s %s", v.Status, v.Result, v.Reason)
	}
	var e map[string]string
	if code := h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Minutes: -1}, &e); code != 400 {
		t.Fatalf("negative clock: %d", code)
	}
}

// TestEvict: idle rooms leave memory and come back from the store intact.
func TestEvict(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local", Side: "attackers"}, &c)
	h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, nil)
	if n := h.srv.games.Evict(0); n != 1 {
		t.Fatalf("evicted %d rooms, want 1", n)
	}
	var v play.View
	h.call("GET", "/api/games/"+c.ID, nil, &v)
	if v.Ply != 1 || v.History[0] != "a4-a3" {
		t.Fatalf("reloaded: %+v", v)
	}
}

// TestReports: a folder of reports is served under /reports/, and nothing
// outside it.
func TestReports(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "report.html"), []byte("<h1>Self-play report</h1>"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.Reports = dir
	h := newHarness(t, "", cfg)
	res, err := http.Get(h.http.URL + "/reports/report.html")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("%v %v", err, res)
	}
	res.Body.Close()
	res, _ = http.Get(h.http.URL + "/reports/../muster.db")
	if res.StatusCode == 200 {
		t.Fatal("a file outside the reports folder was served")
	}
	res.Body.Close()
}

// TestDocs: the documents are shown, rendered from Markdown with their
// text escaped; unknown names are 404.
func TestDocs(t *testing.T) {
	h := newHarness(t, "", testConfig())
	res, err := http.Get(h.http.URL + "/docs/carroll.md")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("%v %v", err, res)
	}
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	res.Body.Close()
	if !strings.Contains(b.String(), "Q6") || strings.Contains(b.String(), "<script") {
		t.Fatal("the document is not shown, or not escaped")
	}
	// Each Lanrick ruleset's page links to its section of the findings.
	info, _ := game.Lookup("lanrick")
	for _, r := range info.Rulesets {
		if !strings.Contains(b.String(), `id="ruleset-`+r.ID+`"`) {
			t.Errorf("carroll.md has no section for ruleset %s", r.ID)
		}
	}
	// Every link within the page leads to a heading of it.
	links := regexp.MustCompile(`href="#([^"]+)"`).FindAllStringSubmatch(b.String(), -1)
	if len(links) < 12 {
		t.Errorf("%d links within carroll.md: want one per question at least", len(links))
	}
	for _, m := range links {
		if !strings.Contains(b.String(), `id="`+m[1]+`"`) {
			t.Errorf("carroll.md links to #%s, which is not there", m[1])
		}
	}
	for _, p := range []string{"/docs/nope.md", "/docs/..%2Fgo.mod", "/docs/docs.go"} {
		res, _ := http.Get(h.http.URL + p)
		if res.StatusCode != 404 {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
		res.Body.Close()
	}
}

// TestSocketMovesAreTheSessionsOfNow: a seat held by its player's session
// alone (a challenge's, in the lobby) is played from his page's socket,
// opened with his session, without a secret; once he has signed out, the
// same socket's moves are refused, as his posted ones would be: each
// message is its sender's as he is when he sends it.
func TestSocketMovesAreTheSessionsOfNow(t *testing.T) {
	h := newHarness(t, "", testConfig())
	alice, carol := h.person(), h.person()
	alice.register("alice")
	carol.register("carol")
	var cv challengeView
	if code := alice.call("POST", "/api/challenges", challengeRequest{Game: "tablut", Side: "attackers", Opponent: "carol"}, &cv); code != http.StatusCreated {
		t.Fatalf("challenge: %d", code)
	}
	var acc struct{ ID string }
	if code := carol.call("POST", "/api/challenges/"+cv.ID+"/accept", struct{}{}, &acc); code != http.StatusCreated {
		t.Fatalf("accept: %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn := dialGame(t, ctx, h, acc.ID, &websocket.DialOptions{HTTPClient: alice.c})
	if a := conn.read(); a.Ply != 0 {
		t.Fatalf("first view %+v", a)
	}
	// Her seat is held by her session: no secret.
	conn.act("", "a4-a3", 0)
	if a := conn.read(); a.Ply != 1 || a.Error != "" {
		t.Fatalf("alice's move on her socket: %+v", a)
	}
	var v play.View
	if code := carol.call("POST", "/api/games/"+acc.ID+"/act", actRequest{Action: "e3-d3", Ply: at(1)}, &v); code != http.StatusOK {
		t.Fatalf("carol's move: %d", code)
	}
	if a := conn.read(); a.Ply != 2 {
		t.Fatalf("carol's move on alice's socket: %+v", a)
	}
	if code := alice.call("POST", "/api/account/logout", struct{}{}, nil); code != http.StatusOK {
		t.Fatalf("sign out: %d", code)
	}
	conn.act("", "a3-a2", 2)
	if a := conn.read(); a.Code != http.StatusForbidden {
		t.Fatalf("a move on the socket of a session ended since: %+v", a)
	}
	if h.call("GET", "/api/games/"+acc.ID, nil, &v); v.Ply != 2 {
		t.Fatalf("the signed-out move was played: ply %d", v.Ply)
	}
}
