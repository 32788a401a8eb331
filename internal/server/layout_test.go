package server

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// genericPackages are the folders of the module's packages that know
// games only through the game contract: every one but the games (tablut,
// lanrick and below), the commands that put them together (cmd,
// internal/cli), the protocols made for Tablut (otep, tablutchallenge)
// and the small games of examples. It walks the tree, so that a package
// added later is checked too.
func genericPackages(t *testing.T) []string {
	t.Helper()
	root := "../.."
	skip := map[string]bool{"cmd": true, "internal/cli": true, "otep": true, "tablutchallenge": true, "tablut": true, "lanrick": true, "examples": true, "docs": true, "deploy": true}
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || skip[filepath.ToSlash(rel)] {
			return filepath.SkipDir
		}
		if files, _ := filepath.Glob(filepath.Join(p, "*.go")); len(files) > 0 {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestNoConcreteGame: the server and its parts, the metrics, the load tool, the agents and the page
// know games only through the game contract. Their code (tests aside)
// imports no game package, and the page never names a game: a test fails
// if one does.
func TestNoConcreteGame(t *testing.T) {
	games := gamePackages(t)
	for _, must := range []string{"tablut", "lanrick", "examples/konane"} {
		if !slices.Contains(games, must) {
			t.Fatalf("the game packages found, %v, miss %s", games, must)
		}
	}
	dirs := genericPackages(t)
	for _, must := range []string{"internal/server", "internal/play", "internal/watch", "metrics", "agent", "search/mcts"} {
		if !slices.ContainsFunc(dirs, func(d string) bool { return strings.HasSuffix(filepath.ToSlash(d), must) }) {
			t.Fatalf("the walk missed %s: %v", must, dirs)
		}
	}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
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
					if p := strings.Trim(imp.Path.Value, `"`); p == "github.com/muster-games/muster/"+g || strings.HasPrefix(p, "github.com/muster-games/muster/"+g+"/") {
						t.Errorf("%s imports %s", f, imp.Path.Value)
					}
				}
			}
		}
	}
	var names []string
	for _, g := range games {
		names = append(names, filepath.Base(g))
	}
	name := regexp.MustCompile(`(?i)\b(` + strings.Join(names, "|") + `)\b`)
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

// gamePackages are the folders (from the module's root) of the packages
// that register a game, found by their call of game.Register; a game is
// named after its folder.
func gamePackages(t *testing.T) []string {
	t.Helper()
	root := "../.."
	var games []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != root || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(src, []byte("game.Register(")) {
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			if rel = filepath.ToSlash(rel); !slices.Contains(games, rel) && rel != "game" {
				games = append(games, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return games
}
