//go:build unix

package store

import (
	"fmt"
	"os"
	"syscall"
)

// lockDatabase holds an exclusive lock on the SQLite database's file for
// as long as the file returned stays open, or fails where another
// process holds it: one server at a time writes a database's move
// journal. The lock (flock) is apart from SQLite's own (fcntl), which it
// leaves alone: other commands (muster admin, backup) open the database
// as before.
func lockDatabase(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("store: journal: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: %s is in use by another server (one server at a time on an SQLite database; several share PostgreSQL): %w", path, err)
	}
	return f, nil
}
