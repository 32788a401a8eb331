//go:build unix

package cli

import "syscall"

// openFileLimit is the process's limit on open descriptors (its soft
// limit, which the Go runtime raised to the hard one as the process
// started), and whether there is one to read.
func openFileLimit() (int, bool) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil || l.Cur > 1<<30 { // unlimited, or as good as
		return 0, false
	}
	return int(l.Cur), true
}
