// Package e2e is the harness of the browser tests, which drive the web
// app in a real browser (Debian's chromium, headless, through chromedp):
// an app on its own database and address, which can be restarted; a
// browser for each person; what the page shows read back through its own
// origin; actions played by clicks; screenshots, written to
// $MUSTER_SCREENSHOTS or the system's temporary folder. The tests live in
// the packages below it, by what they walk through (newcomer/desktop and
// newcomer/phone, learn, play, board, lobby, tournaments, analysis), so
// that each package's share of the suite stays short.
package e2e

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Browser starts a headless chromium; the test is skipped under -short
// (a quick run while working), or when no chromium is installed and
// MUSTER_REQUIRE_BROWSER is not set (CI sets it).
func Browser(t *testing.T) (context.Context, context.CancelFunc) {
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
	ctx, cancel3 := context.WithTimeout(ctx, 5*time.Minute)
	return ctx, func() { cancel3(); cancel2(); cancel1() }
}

// Shot saves a screenshot of the page's app.
func Shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#app")))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	Save(t, name+".png", buf)
}

// Save writes a screenshot to $MUSTER_SCREENSHOTS or the temporary folder.
func Save(t *testing.T, name string, buf []byte) {
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

// FullShot saves a screenshot of the whole page.
func FullShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	Save(t, name+".png", buf)
}

// Centres are the page coordinates of the centres of the squares named,
// x then y for each, for mouse events on the board.
func Centres(t *testing.T, ctx context.Context, squares ...string) []float64 {
	t.Helper()
	js, _ := json.Marshal(squares)
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`%s.flatMap((q) => {
		const r = document.querySelector('rect[data-sq="' + q + '"]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })`, js)))
	if err != nil || len(out) != 2*len(squares) {
		t.Fatalf("the centres of %v: %v %v", squares, out, err)
	}
	return out
}

// Main runs a package's browser tests with parallel of them at once
// where the command line does not say how many (go test's -parallel, by
// default the processors' count): a test that mostly waits on the page's
// own pace (a walkthrough's replay at a reading pace, a computer's turn
// shown man by man) leaves the processors to the others.
func Main(m *testing.M, parallel int) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(parallel))
	}
	os.Exit(m.Run())
}
