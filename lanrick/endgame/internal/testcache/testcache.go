// Package testcache is the folder where the tests of every package keep
// the endgame tables they share, one build a machine: under the system's
// temporary folder, named by a hash of the endgame package's source (a
// change to how tables are built makes a new folder), and a lock, so
// that of the test processes running at once one builds and the others
// wait and read.
package testcache

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// Acquire returns the folder, locked for this process until release.
func Acquire(t testing.TB) (dir string, release func()) {
	t.Helper()
	dir = filepath.Join(os.TempDir(), "muster-test-endgame-"+sourceHash(t))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		lock.Close()
		t.Fatal(err)
	}
	return dir, func() {
		syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
		lock.Close()
	}
}

// sourceHash hashes the endgame package's Go files, not its tests.
func sourceHash(t testing.TB) string {
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testcache: no source path")
	}
	src := filepath.Join(filepath.Dir(here), "..", "..")
	names, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil || len(names) == 0 {
		t.Fatalf("testcache: the endgame package's source in %s: %v", src, err)
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

// Ensure returns the folder holding file, which build makes there if no
// test has yet. A test binary built with the race detector (CI builds
// them all so) does not build it itself: the table's build runs on one
// goroutine over arrays of its own, where the detector has nothing to
// find, and instrumented it takes ten times as long (four minutes for the
// one table the tests share). It runs the endgame package's
// TestTableConsistent without the detector instead, which builds the
// table into the same folder, and then reads it.
func Ensure(t testing.TB, file string, build func(dir string) error) string {
	t.Helper()
	dir, release := Acquire(t)
	if _, err := os.Stat(filepath.Join(dir, file)); err == nil {
		release()
		return dir
	}
	if race && os.Getenv("MUSTER_TESTCACHE_BUILDING") == "" {
		release()
		goBin, err := exec.LookPath("go")
		if err != nil {
			t.Fatalf("testcache: no go command to build the shared table with: %v", err)
		}
		cmd := exec.Command(goBin, "test", "-count=1", "-run", "^TestTableConsistent$", "github.com/muster-games/muster/lanrick/endgame")
		cmd.Env = append(os.Environ(), "MUSTER_TESTCACHE_BUILDING=1")
		cmd.Dir = filepath.Dir(sourceDir(t))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("testcache: building the shared table without the race detector: %v: %s", err, out)
		}
		dir, release = Acquire(t)
		defer release()
		if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
			t.Fatalf("testcache: the build left no %s: %v", file, err)
		}
		return dir
	}
	defer release()
	if err := build(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// sourceDir is the endgame package's folder.
func sourceDir(t testing.TB) string {
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testcache: no source path")
	}
	return filepath.Join(filepath.Dir(here), "..", "..")
}
