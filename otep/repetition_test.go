package otep

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/tablut"
)

// TestNoSecondOccurrenceWhenAhead replays a real game (OpenTafl 0.4.8's
// AI as the attackers, Muster the defenders, 2026-11-24: the rules line
// OpenTafl sent and the moves of both sides) up to Muster's last move,
// Kd7-d5, played far ahead and bringing a position back for the second
// time: OpenTafl over the network declared the game drawn there, though
// its rules say a third occurrence draws. Muster now scores a repetition
// below the root a draw, and plays on for the win.
//
// The search has no threat extensions here, as in the build that played
// the game; with them the replay takes half as long again, too long
// under the race detector.
func TestNoSecondOccurrenceWhenAhead(t *testing.T) {
	const spec = "alphabeta(depth=8,extend=no)"
	data, err := os.ReadFile("testdata/opentafl-0.4.8-second-occurrence.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	g, s, err := tablut.ReadOTNRules(strings.TrimPrefix(lines[0], "rules "))
	if err != nil {
		t.Fatal(err)
	}
	moves := strings.Fields(lines[1])
	last := moves[len(moves)-1]
	p, err := agent.New(spec, g, 1)
	if err != nil {
		t.Fatal(err)
	}
	// One player for the game, as the engine keeps: it searches each of
	// the defenders' turns (its table filling as it did), and the moves
	// played are the real game's.
	for _, m := range moves[:len(moves)-1] {
		if s.ToAct() == game.Player(tablut.Defenders) {
			if _, err := p.Act(context.Background(), s); err != nil {
				t.Fatal(err)
			}
		}
		if err := game.ApplyNotation(s, []string{m}); err != nil {
			t.Fatal(err)
		}
	}
	// The move played does bring a position back.
	again := s.Clone()
	if err := game.ApplyNotation(again, []string{last}); err != nil {
		t.Fatal(err)
	}
	if again.IsTerminal() {
		t.Fatal("by Muster's threefold rule the position's second occurrence ends nothing: the test needs it so")
	}
	res, err := p.Act(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	got := s.ActionString(res.Action)
	if got == last {
		t.Fatalf("Muster played %s again (value %+.2f), bringing the position back a second time", got, res.Value)
	}
	t.Logf("Muster plays %s (value %+.2f) where it had played %s", got, res.Value, last)
}
