// Package endgametest gives tests one endgame table, built once on a
// machine and shared by every package's tests: the table of the class of
// the line "d4 ne" (which holds "e5 ne" too). Each package's tests run in
// a process of their own; the first to ask builds the table into a folder
// under the system's temporary folder, the others wait for it and read
// it. The folder is named by a hash of the endgame package's source, so a
// change to how tables are built builds it anew.
package endgametest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/muster-games/muster/lanrick/endgame"
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
	dir := filepath.Join(os.TempDir(), "muster-test-endgame-"+sourceHash(t))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	// One process builds; the others wait here, then find the file.
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	ts := &endgame.Tables{Dir: dir}
	if _, _, err := ts.Table(Line(t).Squares); err != nil {
		t.Fatal(err)
	}
	return dir
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

// sourceHash hashes the endgame package's Go files (not its tests): the
// tables they build.
func sourceHash(t testing.TB) string {
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("endgametest: no source path")
	}
	src := filepath.Dir(filepath.Dir(here))
	names, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil || len(names) == 0 {
		t.Fatalf("endgametest: the endgame package's source in %s: %v", src, err)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(filepath.Base(n)))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
