package tournaments

// The games the app serves: the two of the house and the example of
// docs/new-game.md, with their computer players (registered by import,
// as a test's own; no code outside the tests names a concrete game).
import (
	_ "github.com/muster-games/muster/examples/konane"
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/lanrick/ai"
	_ "github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)
