// Package version names the build a program runs: the module's version
// and the commit it was built from, as the Go toolchain recorded them
// (runtime/debug.ReadBuildInfo). A binary built from a git checkout
// carries its commit and whether the tree had changes; one built by "go
// run" or a test carries less, and says so.
package version

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Build is what a binary knows of its build.
type Build struct {
	// Module is the main module's path, Version its version ("(devel)"
	// for a build from a checkout).
	Module  string `json:"module"`
	Version string `json:"version"`
	// Commit is the VCS revision, Time its time (RFC 3339), Modified
	// whether the tree had uncommitted changes; empty where unknown.
	Commit   string `json:"commit,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Go is the toolchain's version.
	Go string `json:"go"`
}

// commit is the commit, where the build sets it by the linker instead of
// version control (-ldflags "-X
// github.com/muster-games/muster/internal/version.commit=…"), as a
// container build without the repository's history does.
var commit string

// Read returns the running binary's build.
func Read() Build {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Build{Module: "muster", Version: "unknown", Commit: commit}
	}
	b := FromInfo(bi)
	if b.Commit == "" {
		b.Commit = commit
	}
	return b
}

// FromInfo reads a build from the toolchain's record.
func FromInfo(bi *debug.BuildInfo) Build {
	b := Build{Module: bi.Main.Path, Version: bi.Main.Version, Go: bi.GoVersion}
	if b.Version == "" {
		b.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// String says the build in one line, such as "muster (devel), commit
// 0123456789ab (2026-11-26T20:00:00Z, modified), go1.26.8".
func (b Build) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "muster %s", b.Version)
	switch {
	case b.Commit != "":
		fmt.Fprintf(&s, ", commit %s", short(b.Commit))
		var notes []string
		if b.Time != "" {
			notes = append(notes, b.Time)
		}
		if b.Modified {
			notes = append(notes, "modified")
		}
		if len(notes) > 0 {
			fmt.Fprintf(&s, " (%s)", strings.Join(notes, ", "))
		}
	default:
		s.WriteString(", commit unknown (built without version control: go build -buildvcs=true in a git checkout records it)")
	}
	if b.Go != "" {
		fmt.Fprintf(&s, ", %s", b.Go)
	}
	return s.String()
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
