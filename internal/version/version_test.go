package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestFromInfo: the commit, its time and a changed tree are read from the
// toolchain's record and said in one line; a build without them says so.
func TestFromInfo(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/muster-games/muster", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-26T20:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	b := FromInfo(bi)
	if b.Commit != "0123456789abcdef0123" || !b.Modified || b.Time != "2026-11-26T20:00:00Z" {
		t.Fatalf("%+v", b)
	}
	if got, want := b.String(), "muster (devel), commit 0123456789ab (2026-11-26T20:00:00Z, modified), go1.26.8"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	bare := FromInfo(&debug.BuildInfo{Main: debug.Module{Path: "m"}})
	if bare.Version != "(devel)" || !strings.Contains(bare.String(), "commit unknown") {
		t.Errorf("a build without version control: %q", bare.String())
	}
}
