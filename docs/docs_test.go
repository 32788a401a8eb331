package docs

import (
	"io/fs"
	"os"
	"strings"
	"testing"
)

// TestNoSharedLinks: a reader of the repository has no ../shared folder;
// the documents and the README must not send him there.
func TestNoSharedLinks(t *testing.T) {
	names, _ := fs.Glob(Files, "*.md")
	if len(names) == 0 {
		t.Fatal("no documents")
	}
	texts := map[string][]byte{}
	for _, n := range names {
		texts[n], _ = Files.ReadFile(n)
	}
	texts["README.md"], _ = os.ReadFile("../README.md")
	for n, b := range texts {
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "../shared") || strings.Contains(line, "shared/rules") || strings.Contains(line, "shared/sources") {
				t.Errorf("%s:%d points outside the repository: %s", n, i+1, line)
			}
		}
	}
}
