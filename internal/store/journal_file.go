package store

import (
	"fmt"
	"os"
)

// journalFile is the file a journal's records are appended to. A record
// appended is in the operating system's hands (its page cache) when
// append returns: a server killed then loses nothing; a machine that
// stops may, as SQLite's own commit with synchronous=NORMAL may.
type journalFile interface {
	// append writes b past the records written.
	append(b []byte) error
	// empty drops every record, where the file is.
	empty() error
	// size is the length of the records written.
	size() int64
	// close closes the file, leaving its records in it.
	close() error
}

// writtenFile is a journal's file that each record is written to, by a
// write of its own.
type writtenFile struct {
	f *os.File
	n int64
}

// createWrittenFile creates (or empties) the file at path, holding b.
func createWrittenFile(path string, b []byte) (*writtenFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: journal: %w", err)
	}
	w := &writtenFile{f: f}
	if err := w.append(b); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

func (w *writtenFile) append(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if _, err := w.f.Write(b); err != nil {
		return fmt.Errorf("store: journal: %w", err)
	}
	w.n += int64(len(b))
	return nil
}

func (w *writtenFile) empty() error {
	if err := w.f.Truncate(0); err != nil {
		return fmt.Errorf("store: journal: %w", err)
	}
	w.n = 0
	return nil
}

func (w *writtenFile) size() int64  { return w.n }
func (w *writtenFile) close() error { return w.f.Close() }

// journalEnd reports whether b, what a journal's file holds from a
// record's start, holds no more records: its next length and checksum
// are zeros (a mapped file's room not yet written; no record is empty).
func journalEnd(b []byte) bool {
	return len(b) >= 8 && isZeros(b[:8])
}

// isZeros reports whether b holds zeros alone.
func isZeros(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
