package newcomer

import (
	"testing"

	"github.com/muster-games/muster/internal/e2e"

	// The games the app serves, registered by import.
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/lanrick/ai"
	_ "github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

// TestMain runs the walk's six parts (three at each of two sizes) at
// once: most of their time is the page's pace.
func TestMain(m *testing.M) { e2e.Main(m, 6) }
