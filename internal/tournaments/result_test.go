package tournaments

import (
	"testing"

	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/tournament"
)

// A game's result counts for the seat that won it, whatever words the
// store keeps: Lanrick of March 1879 ends on marks ("black 5, white 2"),
// once counted a draw because the words were not a side's name.
func TestResultsCountForTheWinner(t *testing.T) {
	for _, c := range []struct {
		spec, result string
		want         tournament.Result
	}{
		{"lanrick(1879-03)", "black 5, white 2", tournament.WhiteWin},
		{"lanrick(1879-03)", "black 1, white 5", tournament.BlackWin},
		{"lanrick(1893)", "white", tournament.BlackWin},
		{"tablut(linnaeus)", "attackers", tournament.WhiteWin},
		{"tablut(linnaeus)", "draw", tournament.Draw},
		{"tablut(linnaeus)", "aborted", tournament.Draw},
	} {
		got, err := resultOf(&store.Game{Spec: c.spec, Status: store.StatusOver, Result: c.result})
		if err != nil || got != c.want {
			t.Errorf("%s %q: %v %v, want %v", c.spec, c.result, got, err, c.want)
		}
	}
	if got, _ := resultOf(&store.Game{Spec: "tablut(linnaeus)", Status: store.StatusPlaying}); got != tournament.Pending {
		t.Errorf("a game in play: %v", got)
	}
	if _, err := resultOf(&store.Game{Spec: "tablut(linnaeus)", Status: store.StatusOver, Result: "swedes"}); err == nil {
		t.Error("an unknown result read without an error")
	}
}
