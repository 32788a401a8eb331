// Package endgametest gives tests one endgame table, built once on a
// machine and shared by every package's tests: the table of the class of
// the line "d4 ne" (which holds "e5 ne" too). Each package's tests run in
// a process of their own; the first to ask builds the table into a folder
// under the system's temporary folder, the others wait for it and read
// it (internal/testcache, which the endgame package's own tests share).
package endgametest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/muster-games/muster/lanrick/endgame"
	"github.com/muster-games/muster/lanrick/endgame/internal/testcache"
)

// LineName is the line whose class the shared table holds.
const LineName = "d4 ne"

// Line returns the line "d4 ne".
func Line(t testing.TB) endgame.Line {
	t.Helper()
	for _, l := range endgame.Lines() {
		if l.String() == LineName {
			return l
		}
	}
	t.Fatalf("no line %q", LineName)
	return endgame.Line{}
}

// Dir returns a folder holding the shared table, building it there first
// if no test has yet; tests read it and write nothing there.
func Dir(t testing.TB) string {
	t.Helper()
	squares := Line(t).Squares
	return testcache.Ensure(t, endgame.FileName(endgame.ClassOf(squares)), func(dir string) error {
		_, _, err := (&endgame.Tables{Dir: dir}).Table(squares)
		return err
	})
}

// Table returns the shared table.
func Table(t testing.TB) *endgame.Table {
	t.Helper()
	ts := &endgame.Tables{Dir: Dir(t), NoBuild: true}
	tb, _, err := ts.Table(Line(t).Squares)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// Seed copies the shared table into dir, as if it had been built there.
func Seed(t testing.TB, dir string) {
	t.Helper()
	name := endgame.FileName(endgame.ClassOf(Line(t).Squares))
	b, err := os.ReadFile(filepath.Join(Dir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
