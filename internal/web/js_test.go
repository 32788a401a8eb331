package web

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestJavaScript runs the page's unit tests (jstest/*.test.js) with
// node --test: the pure modules (the patching of the page, the clicks'
// meaning, the turns shown, the clock's words) tested without a browser.
// Without node the test skips, unless MUSTER_REQUIRE_NODE is set (CI sets
// it, and installs Debian's nodejs).
func TestJavaScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("MUSTER_REQUIRE_NODE") != "" {
			t.Fatal("no node installed, and MUSTER_REQUIRE_NODE is set")
		}
		t.Skip("no node installed (set MUSTER_REQUIRE_NODE to fail instead)")
	}
	files, err := filepath.Glob("jstest/*.test.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no JavaScript tests found: %v", err)
	}
	cmd := exec.Command(node, append([]string{"--test"}, files...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test %v: %v\n%s", files, err, out)
	}
	t.Logf("%s", out[max(0, len(out)-400):])
}
