package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/muster-games/muster/internal/store"
)

// lockedBuffer is a buffer written by one goroutine and read by another.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeFromTheEnvironmentAndStop: muster serve takes its flags from
// MUSTER_* variables (the address from MUSTER_ADDR alone), answers the
// operator's endpoints, logs JSON with a request id on each line; told to
// stop (SIGTERM), it turns not ready, ends its WebSockets going away and
// keeps every move it acknowledged.
func TestServeFromTheEnvironmentAndStop(t *testing.T) {
	db := filepath.Join(t.TempDir(), "muster.db")
	ctx, sigterm := context.WithCancel(context.Background())
	defer sigterm()
	out, errs := &lockedBuffer{}, &lockedBuffer{}
	env := &Env{Stdout: out, Stderr: errs, Context: ctx, Environ: map[string]string{
		"MUSTER_ADDR": "127.0.0.1:0", "MUSTER_DB": db, "MUSTER_DRAIN": "300ms", "MUSTER_LOG_FORMAT": "json", "MUSTER_ENGINES": "1",
		"MUSTER_DEBUG_ADDR": "127.0.0.1:0", "MUSTER_HOST": "muster.example,127.0.0.1",
	}}
	done := make(chan error, 1)
	go func() { done <- runServe(env, nil) }()
	running := regexp.MustCompile(`running at (http://127\.0\.0\.1:\d+)/`)
	var base string
	for deadline := time.Now().Add(20 * time.Second); base == ""; time.Sleep(10 * time.Millisecond) {
		if m := running.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no address printed: %q %q", out.String(), errs.String())
		}
	}
	get := func(path string) (int, string) {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, c := range []struct{ path, want string }{{"/healthz", "ok"}, {"/readyz", "ready"}, {"/api/version", `"module"`}} {
		if code, body := get(c.path); code != http.StatusOK || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d %.200q", c.path, code, body)
		}
	}
	// The site answers its own names alone (MUSTER_HOST).
	req, _ := http.NewRequest("GET", base+"/", nil)
	req.Host = "attacker.example"
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a request for another host: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	// The metrics are off the site unless the operator asks (issue 71).
	if code, body := get("/metrics"); code != http.StatusNotFound || strings.Contains(body, "muster_") {
		t.Errorf("the site serves the metrics by default: %d %.200q", code, body)
	}
	// Go's profiles on the debug address alone, never on the site.
	profiles := regexp.MustCompile(`Go's profiles at (http://127\.0\.0\.1:\d+)/debug/pprof/`).FindStringSubmatch(errs.String())
	if profiles == nil {
		t.Fatalf("no debug address logged: %q", errs.String())
	}
	if res, err := http.Get(profiles[1] + "/debug/pprof/"); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("the profiles on the debug address: %v %v", res, err)
	} else {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(b), "goroutine") {
			t.Errorf("the profiles' index: %.200q", b)
		}
	}
	if code, _ := get("/debug/pprof/"); code == http.StatusOK {
		t.Errorf("the site serves the profiles: %d", code)
	}
	post := func(path, body string, out any) int {
		res, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if out != nil {
			json.NewDecoder(res.Body).Decode(out)
		}
		return res.StatusCode
	}
	var g struct {
		ID      string
		Secrets []string
	}
	if code := post("/api/games", `{"game":"tablut","opponent":"local"}`, &g); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	wctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(wctx, "ws"+strings.TrimPrefix(base, "http")+"/ws/games/"+g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	moves := []string{"a4-a3", "e3-d3", "a3-a4", "d3-e3"}
	for i, m := range moves {
		if code := post("/api/games/"+g.ID+"/act", `{"secret":"`+g.Secrets[i%2]+`","action":"`+m+`","ply":`+string(rune('0'+i))+`}`, nil); code != http.StatusOK {
			t.Fatalf("%s: %d", m, code)
		}
	}
	sigterm()
	for {
		if _, _, err := conn.Read(wctx); err != nil {
			if websocket.CloseStatus(err) != websocket.StatusGoingAway {
				t.Fatalf("the WebSocket ended with %v, want going away", err)
			}
			break
		}
	}
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec, err := st.Get(context.Background(), g.ID)
	if err != nil || strings.Join(rec.Actions, " ") != strings.Join(moves, " ") {
		t.Fatalf("after the stop the game has %v (%v), want %v", rec.Actions, err, moves)
	}
	// The log: JSON lines, each request's with its id.
	sawRequest := false
	sc := bufio.NewScanner(strings.NewReader(errs.String()))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "{") {
			continue // the plain lines of muster serve itself
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("a log line that is not JSON: %q", line)
		}
		if rec["msg"] == "request" && rec["path"] == "/api/games" && rec["request"] != "" && rec["status"] == float64(201) {
			sawRequest = true
		}
	}
	if !sawRequest {
		t.Errorf("no access line of the game's creation in %q", errs.String())
	}
}

// TestFlagsFromTheEnvironment: a flag comes from its variable unless the
// command line gives it; a repeatable one splits; a bad value is a usage
// error naming the variable.
func TestFlagsFromTheEnvironment(t *testing.T) {
	parse := func(environ map[string]string, args ...string) (addr string, n int, levels []string, err error) {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		a := fs.String("addr", "default", "")
		c := fs.Int("conns-per-address", 128, "")
		fs.Func("level", "", func(s string) error { levels = append(levels, s); return nil })
		if _, err := flags(fs, args); err != nil {
			return "", 0, nil, err
		}
		err = fromEnv(&Env{Environ: environ}, fs, map[string]string{"level": ";"})
		return *a, *c, levels, err
	}
	env := map[string]string{"MUSTER_ADDR": "0.0.0.0:80", "MUSTER_CONNS_PER_ADDRESS": "9", "MUSTER_LEVEL": "alphabeta(time=1s, hash=2); mcts(iterations=5)"}
	addr, n, levels, err := parse(env)
	if err != nil || addr != "0.0.0.0:80" || n != 9 || len(levels) != 2 || levels[0] != "alphabeta(time=1s, hash=2)" {
		t.Fatalf("from the environment: %q %d %q %v", addr, n, levels, err)
	}
	if addr, n, _, _ := parse(env, "--addr", "127.0.0.1:1"); addr != "127.0.0.1:1" || n != 9 {
		t.Fatalf("the command line does not win: %q %d", addr, n)
	}
	if _, _, _, err := parse(map[string]string{"MUSTER_CONNS_PER_ADDRESS": "many"}); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "MUSTER_CONNS_PER_ADDRESS") {
		t.Fatalf("a bad value: %v", err)
	}
	if addr, _, _, _ := parse(map[string]string{}); addr != "default" {
		t.Fatalf("no variable: %q", addr)
	}
}

// serveFor runs muster serve with environ until the test ends and
// returns what it printed, once the line matching ready has.
func serveFor(t *testing.T, environ map[string]string, ready *regexp.Regexp) (out, errs *lockedBuffer, m []string) {
	t.Helper()
	ctx, sigterm := context.WithCancel(context.Background())
	out, errs = &lockedBuffer{}, &lockedBuffer{}
	done := make(chan error, 1)
	go func() { done <- runServe(&Env{Stdout: out, Stderr: errs, Context: ctx, Environ: environ}, nil) }()
	t.Cleanup(func() {
		sigterm()
		<-done
	})
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if m = ready.FindStringSubmatch(out.String() + errs.String()); m != nil {
			return out, errs, m
		}
		if time.Now().After(deadline) {
			t.Fatalf("never %s: %q %q", ready, out.String(), errs.String())
		}
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key.
func selfSigned(t *testing.T) (certFile, keyFile string) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "muster test"}, NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	return certFile, keyFile
}

// TestServeTLS: with a certificate and its key, muster serve answers over
// HTTPS and its session cookie is Secure; with --acme-domain it answers
// Let's Encrypt's challenges on its own address and sends plain HTTP
// there to HTTPS (the certificate itself comes from Let's Encrypt, which
// this machine cannot reach).
func TestServeTLS(t *testing.T) {
	certFile, keyFile := selfSigned(t)
	_, _, m := serveFor(t, map[string]string{"MUSTER_ADDR": "127.0.0.1:0", "MUSTER_DB": filepath.Join(t.TempDir(), "m.db"),
		"MUSTER_TLS_CERT": certFile, "MUSTER_TLS_KEY": keyFile, "MUSTER_DRAIN": "0s"}, regexp.MustCompile(`running at (https://127\.0\.0\.1:\d+)/`))
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	res, err := c.Post(m[1]+"/api/games", "application/json", strings.NewReader(`{"game":"tablut","opponent":"local"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated || res.TLS == nil || len(res.Cookies()) != 1 || !res.Cookies()[0].Secure {
		t.Fatalf("over TLS: %d, cookies %v", res.StatusCode, res.Cookies())
	}
	_, _, m = serveFor(t, map[string]string{"MUSTER_ADDR": "127.0.0.1:0", "MUSTER_DB": filepath.Join(t.TempDir(), "a.db"), "MUSTER_DRAIN": "0s",
		"MUSTER_ACME_DOMAIN": "muster.example", "MUSTER_ACME_HTTP_ADDR": "127.0.0.1:0", "MUSTER_DATA": t.TempDir()}, regexp.MustCompile(`challenges answered, and plain HTTP sent to HTTPS, at (http://127\.0\.0\.1:\d+)/`))
	req, _ := http.NewRequest("GET", m[1]+"/games", nil)
	req.Host = "muster.example"
	res, err = (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusFound || loc != "https://muster.example/games" {
		t.Fatalf("plain HTTP: %d to %q", res.StatusCode, loc)
	}
}

// TestBackupAndMigrateCommands: muster migrate --dry-run says what would
// run and changes nothing; muster migrate runs it; muster backup copies
// the database and says how many games the checked copy holds, and points
// a PostgreSQL database to pg_dump.
func TestBackupAndMigrateCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "muster.db")
	out, _, code := run(t, "migrate", "--db", db, "--dry-run")
	if code != 0 || !strings.Contains(out, "at schema version 0 of") || !strings.Contains(out, "1. CREATE TABLE games") {
		t.Fatalf("dry run: %d %q", code, out)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("the dry run made the database")
	}
	if out, _, code := run(t, "migrate", "--db", db); code != 0 || !strings.Contains(out, "migrated the database from schema version 0") {
		t.Fatalf("migrate: %d %q", code, out)
	}
	if out, _, code := run(t, "migrate", "--db", db, "--dry-run"); code != 0 || !strings.Contains(out, "up to date") {
		t.Fatalf("dry run after: %d %q", code, out)
	}
	copyPath := filepath.Join(dir, "copy.db")
	if out, _, code := run(t, "backup", "--db", db, "--out", copyPath); code != 0 || !strings.Contains(out, "0 games, checked") {
		t.Fatalf("backup: %d %q", code, out)
	}
	if _, errOut, code := run(t, "backup", "--db", "postgres://muster@db/muster"); code != 1 || !strings.Contains(errOut, "pg_dump --format=custom") {
		t.Fatalf("a PostgreSQL backup: %d %q", code, errOut)
	}
}
