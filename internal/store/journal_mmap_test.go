//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"path/filepath"
	"testing"
)

// Here a journal's file is mapped.
func TestJournalFileMapped(t *testing.T) {
	f, err := createJournalFile(filepath.Join(t.TempDir(), "m.db-moves"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	if _, ok := f.(*mappedFile); !ok {
		t.Fatalf("a journal file is a %T", f)
	}
}
