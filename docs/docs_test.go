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

// TestNumbered: a section's numbered items, without their numbers; a
// section or a document that is not there is an error.
func TestNumbered(t *testing.T) {
	items, err := Numbered("lanrick-rules.md", "1893 in brief")
	if err != nil || len(items) < 9 || !strings.HasPrefix(items[0], "The aim: ") {
		t.Fatalf("%d items, the first %q: %v", len(items), items, err)
	}
	if _, err := Numbered("lanrick-rules.md", "No such section"); err == nil {
		t.Fatal("a missing section: no error")
	}
	if _, err := Numbered("nosuch.md", "x"); err == nil {
		t.Fatal("a missing document: no error")
	}
}
