// Package e2e drives the web app in a real browser (Debian's chromium,
// headless, through chromedp): games played by clicks, two browsers and a
// spectator, a restart in the middle of a game. Screenshots of the boards
// are written to $MUSTER_SCREENSHOTS or the system's temporary folder.
package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browser starts a headless chromium; the test is skipped under -short
// (a quick run while working), or when no chromium is installed and
// MUSTER_REQUIRE_BROWSER is not set (CI sets it).
func browser(t *testing.T) (context.Context, context.CancelFunc) {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test: left out under -short")
	}
	path := ""
	for _, p := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if found, err := exec.LookPath(p); err == nil {
			path = found
			break
		}
	}
	if path == "" {
		if os.Getenv("MUSTER_REQUIRE_BROWSER") != "" {
			t.Fatal("no chromium installed, and MUSTER_REQUIRE_BROWSER is set")
		}
		t.Skip("no chromium installed (set MUSTER_REQUIRE_BROWSER to fail instead)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1200, 900),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancel1 := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel2 := chromedp.NewContext(actx)
	ctx, cancel3 := context.WithTimeout(ctx, 3*time.Minute)
	return ctx, func() { cancel3(); cancel2(); cancel1() }
}

// shot saves a screenshot of the page's app.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#app")))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	save(t, name+".png", buf)
}

// save writes a screenshot to $MUSTER_SCREENSHOTS or the temporary folder.
func save(t *testing.T, name string, buf []byte) {
	t.Helper()
	dir := os.Getenv("MUSTER_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "muster-screenshots")
	}
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf, 0o644); err == nil {
		t.Logf("screenshot: %s", path)
	}
}

// centres are the page coordinates of the centres of the squares named,
// x then y for each, for mouse events on the board.
func centres(t *testing.T, ctx context.Context, squares ...string) []float64 {
	t.Helper()
	js, _ := json.Marshal(squares)
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`%s.flatMap((q) => {
		const r = document.querySelector('rect[data-sq="' + q + '"]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })`, js)))
	if err != nil || len(out) != 2*len(squares) {
		t.Fatalf("the centres of %v: %v %v", squares, out, err)
	}
	return out
}
