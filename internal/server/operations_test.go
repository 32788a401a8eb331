package server

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/version"
)

// get fetches a path and returns its status and body.
func (h *harness) get(path string) (int, string) {
	h.t.Helper()
	res, err := http.Get(h.http.URL + path)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestHealthReadyVersion: /healthz answers while the process lives,
// /readyz while the database answers and the server is not draining, and
// /api/version names the build.
func TestHealthReadyVersion(t *testing.T) {
	h := newHarness(t, "", testConfig())
	if code, body := h.get("/healthz"); code != http.StatusOK || body != "ok\n" {
		t.Errorf("healthz: %d %q", code, body)
	}
	if code, body := h.get("/readyz"); code != http.StatusOK || !strings.Contains(body, "ready") {
		t.Errorf("readyz: %d %q", code, body)
	}
	var b version.Build
	if code := h.call("GET", "/api/version", nil, &b); code != http.StatusOK || b.Module == "" || b.Go == "" {
		t.Errorf("version: %d %+v", code, b)
	}
	h.st.Close() // the database goes away
	if code, body := h.get("/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "database") {
		t.Errorf("readyz without a database: %d %q", code, body)
	}
	if code, _ := h.get("/healthz"); code != http.StatusOK {
		t.Errorf("healthz without a database: %d", code)
	}
}

// TestMetrics: /metrics answers in Prometheus' text format with the
// requests by route and status, a latency histogram, the games, the
// engine pool and the database, on the site only where the operator
// asks (issue 71: by default they are off it), and limited there.
func TestMetrics(t *testing.T) {
	limited := testConfig()
	limited.GamesPerHour = 1
	limited.MetricsPerMinute = 40
	h := newHarness(t, "", limited)
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local"}, &c)
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local"}, nil) // past the limit
	h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, nil)
	// Methods of a client's own making count as one, "other": no client
	// adds series at will.
	h.call("BREW", "/api/games", nil, nil)
	h.call("STEEP", "/api/games", nil, nil)
	// A request is counted once its answer has gone (its length given, the
	// client may have read it all before): the last one may be counted, in
	// its counter and then its histogram, a moment after the client has
	// read it.
	var code int
	var body string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		code, body = h.get("/metrics")
		if strings.Contains(body, `route="POST /api/games/{id}/act",status="200"} 1`) && strings.Contains(body, `muster_http_request_duration_seconds_count{route="POST /api/games/{id}/act"} 1`) || time.Now().After(deadline) {
			break
		}
	}
	if code != http.StatusOK {
		t.Fatalf("metrics: %d", code)
	}
	for _, want := range []string{
		`muster_http_requests_total{method="POST",route="POST /api/games",status="201"} 1`,
		`muster_http_requests_total{method="POST",route="POST /api/games/{id}/act",status="200"} 1`,
		`muster_http_request_duration_seconds_bucket{route="POST /api/games/{id}/act",le="+Inf"} 1`,
		"muster_games_live 1",
		"muster_actions_total 1",
		"muster_engine_slots ",
		"muster_db_writes_total ",
		"muster_db_write_groups_total 0",
		"muster_db_grouped_writes_total 0",
		"muster_ready 1",
		`muster_limits_refused_total{route="POST /api/games"} 1`,
		`muster_http_requests_total{method="other",route="none",status="405"} 2`,
		"muster_build_info{",
		"go_goroutines ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if strings.Contains(body, "BREW") || strings.Contains(body, "STEEP") {
		t.Error("metrics name a client's own methods")
	}
	// The dashboard and the alerts in deploy/ ask only for metrics the
	// server has.
	for _, file := range []string{"../../deploy/grafana-dashboard.json", "../../deploy/prometheus-alerts.yml"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range regexp.MustCompile(`\b(muster|process|go)_[a-z_]+`).FindAllString(string(b), -1) {
			if !strings.Contains(body, "\n"+name+" ") && !strings.Contains(body, "\n"+name+"{") {
				t.Errorf("%s asks for %s, which /metrics lacks", filepath.Base(file), name)
			}
		}
	}
	// An address past the limit is refused, and so counted.
	refused := 0
	for range limited.MetricsPerMinute {
		if code, _ := h.get("/metrics"); code == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused == 0 {
		t.Errorf("%d more requests for the metrics from one address were all answered", limited.MetricsPerMinute)
	}
	if code, body := h.get("/metrics"); code != http.StatusTooManyRequests || strings.Contains(body, "muster_ready") {
		t.Errorf("metrics answered past the limit: %d", code)
	}
	cfg := testConfig()
	cfg.MetricsOnSite = false
	other := newHarness(t, "", cfg)
	if code, body := other.get("/metrics"); code != http.StatusNotFound || strings.Contains(body, "muster_") {
		t.Errorf("metrics answered on the site by default: %d %.100q", code, body)
	}
}

// TestDrain: a server told to stop answers not ready at once, then ends
// its WebSockets with "going away" (browsers and bots connect again, to
// another server where there are several); its games keep every move.
func TestDrain(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var c createResponse
	h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local"}, &c)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(h.http.URL, "http")+"/ws/games/"+c.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	if _, _, err := conn.Read(ctx); err != nil {
		t.Fatal(err)
	}
	drained := make(chan struct{})
	go func() {
		h.srv.Drain(context.Background(), 300*time.Millisecond)
		close(drained)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		code, body := h.get("/readyz")
		if code == http.StatusServiceUnavailable && strings.Contains(body, "draining") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("readyz while draining: %d %q", code, body)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Requests are still answered while the balancer notices.
	if code := h.call("POST", "/api/games/"+c.ID+"/act", actRequest{Secret: c.Secrets[0], Action: "a4-a3", Ply: at(0)}, nil); code != http.StatusOK {
		t.Fatalf("a move while draining: %d", code)
	}
	<-drained
	for {
		_, _, err := conn.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) != websocket.StatusGoingAway {
				t.Fatalf("the WebSocket ended with %v, want going away", err)
			}
			break
		}
	}
	var v struct{ Ply int }
	if code := h.call("GET", "/api/games/"+c.ID, nil, &v); code != http.StatusOK || v.Ply != 1 {
		t.Fatalf("the game after draining: %d ply %d", code, v.Ply)
	}
}

// TestBackupWhileServing: muster backup's copy of a live SQLite database,
// taken while moves are being played, is a database of its own; a server
// started on it (the restore) has every game, each at least as far as it
// was when the copy began.
func TestBackupWhileServing(t *testing.T) {
	h := newHarness(t, "", testConfig())
	var ids []string
	var secrets [][]string
	for range 5 {
		var c createResponse
		h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "local"}, &c)
		ids, secrets = append(ids, c.ID), append(secrets, c.Secrets)
	}
	moves := []string{"a4-a3", "e3-d3", "a3-a4", "d3-e3", "a4-a3", "e3-d3", "a3-a4", "d3-e3"}
	play := func(g, i int) {
		if code := h.call("POST", "/api/games/"+ids[g]+"/act", actRequest{Secret: secrets[g][i%2], Action: moves[i], Ply: at(i)}, nil); code != http.StatusOK {
			t.Errorf("game %d move %d: %d", g, i, code)
		}
	}
	for g := range ids {
		for i := range 4 {
			play(g, i)
		}
	}
	// The copy is taken while the games go on.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 4; i < len(moves); i++ {
			for g := range ids {
				play(g, i)
			}
		}
	}()
	copyPath := filepath.Join(t.TempDir(), "backup.db")
	games, err := store.Backup(context.Background(), h.db, copyPath)
	<-done
	if err != nil || games != 5 {
		t.Fatalf("backup: %d games, %v", games, err)
	}
	restored := newHarness(t, copyPath, testConfig())
	for g, id := range ids {
		var v struct{ Ply int }
		if code := restored.call("GET", "/api/games/"+id, nil, &v); code != http.StatusOK || v.Ply < 4 || v.Ply > len(moves) {
			t.Fatalf("game %d restored: %d, ply %d", g, code, v.Ply)
		}
	}
	if _, err := store.Backup(context.Background(), h.db, copyPath); err == nil {
		t.Error("a backup over an existing file")
	}
}

// TestOtherHostMisdirected: a server that names its hosts answers a
// request for another Host 421 (issue 71: against DNS rebinding, where a
// name of another's resolves to the server), whatever the method; its
// own names answer, with any port, case or final dot, and the operator's
// probes answer any Host.
func TestOtherHostMisdirected(t *testing.T) {
	cfg := testConfig()
	cfg.Hosts = []string{"muster.example", "[::1]"}
	h := newHarness(t, "", cfg)
	for _, c := range []struct {
		method, path, host string
		want               int
	}{
		{"GET", "/", "attacker.example", http.StatusMisdirectedRequest},
		{"GET", "/api/games", "attacker.example:8080", http.StatusMisdirectedRequest},
		{"POST", "/api/games", "127.0.0.1", http.StatusMisdirectedRequest},
		{"GET", "/", "muster.example", http.StatusOK},
		{"GET", "/api/games", "Muster.Example.:443", http.StatusOK},
		{"GET", "/", "[::1]:8080", http.StatusOK},
		{"GET", "/healthz", "attacker.example", http.StatusOK},
		{"GET", "/readyz", "10.0.0.1:8080", http.StatusOK},
	} {
		req, err := http.NewRequest(c.method, h.http.URL+c.path, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = c.host
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.want {
			t.Errorf("%s %s for Host %s: %d %.100s, want %d", c.method, c.path, c.host, res.StatusCode, body, c.want)
		}
	}
	// Without names, any Host is served, as on localhost.
	open := newHarness(t, "", testConfig())
	req, _ := http.NewRequest("GET", open.http.URL+"/", nil)
	req.Host = "anything.example"
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("a server that names no host refused one: %v %v", res, err)
	} else {
		res.Body.Close()
	}
}
