package cli

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestServeHelper is muster serve run as a process of its own by
// TestSocketsUnderTheFileLimit; it does nothing in a run of the tests.
func TestServeHelper(t *testing.T) {
	if os.Getenv("MUSTER_SERVE_HELPER") == "" {
		return
	}
	os.Exit(Run([]string{"serve"}, os.Stdout, os.Stderr))
}

// served is a muster serve process of its own (TestServeHelper).
type served struct {
	cmd  *exec.Cmd
	addr string // host:port
	logs *lockedBuffer
}

// startServe runs muster serve as a process of its own, on an address
// of its choosing, under the command wrap (as prlimit … runs it: none for
// the process itself), with env added to the test's; it returns once the
// server says where it runs.
func startServe(t *testing.T, wrap []string, env ...string) *served {
	t.Helper()
	args := append(append([]string(nil), wrap...), os.Args[0], "-test.run=^TestServeHelper$")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(append(os.Environ(), "MUSTER_SERVE_HELPER=1", "MUSTER_ADDR=127.0.0.1:0", "MUSTER_ENGINES=1"), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &served{cmd: cmd, logs: &lockedBuffer{}}
	cmd.Stderr = s.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		running := regexp.MustCompile(`running at http://(127\.0\.0\.1:\d+)/`)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := running.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case s.addr = <-addr:
	case <-time.After(60 * time.Second):
		s.kill()
		t.Fatalf("the server did not start: %s", s.logs.String())
	}
	return s
}

// kill ends the process at once (SIGKILL), as a machine's failure or the
// kernel's out-of-memory killer does, and waits for it.
func (s *served) kill() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

// TestSocketsUnderTheFileLimit: a real server process under a limit of
// 1,024 open files (prlimit), its lobby watched by 35 addresses with 32
// WebSockets each, more than the limit, still answers a visitor at once
// and lets him play (issue 71: before, the watchers took every
// descriptor and the site stopped answering): the spectators are held
// to half of what the limit leaves, the rest refused (503).
func TestSocketsUnderTheFileLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a server process with 1,120 WebSockets: not with -short")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatalf("no prlimit (util-linux): %v", err)
	}
	srv := startServe(t, []string{prlimit, "--nofile=1024"}, "MUSTER_DB="+filepath.Join(t.TempDir(), "muster.db"))
	defer srv.kill()
	base, logs := srv.addr, srv.logs
	from := func(ip string) *http.Client {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
		return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var mu sync.Mutex
	var conns []*websocket.Conn
	refused := map[int]int{}
	var wg sync.WaitGroup
	for a := 2; a < 37; a++ {
		wg.Go(func() {
			client := from(fmt.Sprintf("127.0.0.%d", a))
			for range 32 {
				c, res, err := websocket.Dial(ctx, "ws://"+base+"/ws/lobby", &websocket.DialOptions{HTTPClient: client})
				mu.Lock()
				if err == nil {
					conns = append(conns, c)
				} else if res != nil {
					refused[res.StatusCode]++
				} else {
					refused[0]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	defer func() {
		for _, c := range conns {
			c.CloseNow()
		}
	}()
	t.Logf("lobby WebSockets: %d open, refused by status %v", len(conns), refused)
	if len(conns) == 0 || len(conns) > 1024/2 || refused[http.StatusServiceUnavailable] == 0 {
		t.Errorf("%d lobby WebSockets open, refused %v: want at most half the limit open and the rest refused 503", len(conns), refused)
	}
	visitor := from("127.0.0.100")
	for _, path := range []string{"/healthz", "/api/lobby", "/"} {
		start := time.Now()
		res, err := visitor.Get("http://" + base + path)
		if err != nil {
			t.Fatalf("a visitor's %s: %v (%s)", path, err, logs.String())
		}
		res.Body.Close()
		if took := time.Since(start); res.StatusCode != http.StatusOK || took > time.Second {
			t.Errorf("a visitor's %s: %d in %s", path, res.StatusCode, took)
		}
	}
	req, _ := http.NewRequest("POST", "http://"+base+"/api/games", strings.NewReader(`{"game":"tablut","opponent":"local"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := visitor.Do(req)
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("a visitor's new game: %v %v", res, err)
	}
	res.Body.Close()
	if strings.Contains(logs.String(), "too many open files") {
		t.Errorf("the server ran out of descriptors: %s", logs.String())
	}
}
