package desktop

import (
	"testing"

	"github.com/muster-games/muster/internal/e2e"
	"github.com/muster-games/muster/internal/e2e/newcomer"

	// The games the app serves, registered by import.
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/lanrick/ai"
	_ "github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

// TestMain runs the walk's three parts at once: most of their time is
// the page's pace.
func TestMain(m *testing.M) { e2e.Main(m, 3) }

// TestNewcomerWalk walks a newcomer's first hour at a desktop's size
// (newcomer.Walk).
func TestNewcomerWalk(t *testing.T) { newcomer.Walk(t, newcomer.Desktop) }
