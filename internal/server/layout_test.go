package server

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoConcreteGame: the server and its parts, the metrics, the load tool, the agents and the page
// know games only through the game contract. Their code (tests aside)
// imports no game package, and the page never names a game: a test fails
// if one does.
func TestNoConcreteGame(t *testing.T) {
	games := []string{"tablut", "lanrick"}
	for _, dir := range []string{".", "../play", "../lobby", "../chat", "../analysis", "../players", "../identity", "../engine", "../httpx", "../bus", "../token",
		"../../metrics", "../loadtest", "../store", "../../agent"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		if len(files) == 0 {
			t.Fatalf("no Go files in %s", dir)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range file.Imports {
				for _, g := range games {
					if strings.Contains(imp.Path.Value, "/muster/"+g) {
						t.Errorf("%s imports %s", f, imp.Path.Value)
					}
				}
			}
		}
	}
	name := regexp.MustCompile(`(?i)\b(tablut|lanrick)\b`)
	scripts, err := filepath.Glob("../web/static/*.js")
	if err != nil || len(scripts) < 2 {
		t.Fatalf("the page's scripts: %v %v", scripts, err)
	}
	for _, f := range scripts {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			if m := name.FindString(code); m != "" {
				t.Errorf("%s:%d names the game %q: %s", f, i+1, m, strings.TrimSpace(line))
			}
		}
	}
}
