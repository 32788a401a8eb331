//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package store

// createJournalFile creates (or empties) a journal's file at path,
// holding b: where files are not mapped here, each record is written.
func createJournalFile(path string, b []byte) (journalFile, error) {
	return createWrittenFile(path, b)
}
