//go:build !unix

package cli

import "time"

// cpuTime cannot read the processor time here.
func cpuTime() (time.Duration, bool) { return 0, false }
