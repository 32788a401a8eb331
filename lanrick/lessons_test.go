package lanrick

import (
	"testing"

	"github.com/muster-games/muster/game/gametest"
)

// TestLessonsPlay: every step of "Learn Lanrick" starts from a position the
// rules accept, and its solution, played by the rules, meets the goal with
// its last action and not before.
func TestLessonsPlay(t *testing.T) { gametest.Lessons(t, Info, 6) }
