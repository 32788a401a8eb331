package otep

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/alphabeta"
	"github.com/muster-games/muster/tablut"
)

// TestNoSecondOccurrenceWhenAhead replays a real game (OpenTafl 0.4.8's
// AI as the attackers, Muster the defenders, 2026-11-24: the rules line
// OpenTafl sent and the moves of both sides) up to Muster's last move,
// Kd7-d5, played far ahead and bringing a position back for the second
// time: OpenTafl over the network declared the game drawn there, though
// its rules say a third occurrence draws. Muster now scores a repetition
// below the root a draw, and plays on for the win; the same search blind
// to repetitions (the position without its Repeater, as before the fix)
// plays Kd7-d5 again, so the test tells the two apart.
//
// The search is the engine's at depth 8 without threat extensions, as in
// the build that played the game, one player (one table) for the game.
// What the table holds decides it: from a fresh table both searches avoid
// Kd7-d5, and after the defenders' last two turns searched (as here) the
// blind one plays it, as it does after every turn of the game searched
// (which took 17 s, and 260 s under the race detector).
func TestNoSecondOccurrenceWhenAhead(t *testing.T) {
	const searched = 2 // the defenders' turns searched before the last
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
	p, err := agent.New("alphabeta(depth=8,extend=no)", g, 1)
	if err != nil {
		t.Fatal(err)
	}
	blindTable := alphabeta.NewTable(1 << 20)
	blind := func() search.Result {
		return alphabeta.SearchWith(context.Background(), blindPosition{tablut.NewSearchPosition(s, nil)}, search.Limits{Depth: 8}, blindTable, alphabeta.Options{NoExtend: true})
	}
	for i, m := range moves[:len(moves)-1] {
		if s.ToAct() == game.Player(tablut.Defenders) && i >= len(moves)-1-2*searched {
			if _, err := p.Act(context.Background(), s); err != nil {
				t.Fatal(err)
			}
			blind()
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
	if b := s.ActionString(blind().Action); b != last {
		t.Fatalf("blind to repetitions the search plays %s, not the game's %s: the test no longer tells the fix apart", b, last)
	}
}

// blindPosition is a search position that hides its history (and so its
// repetitions) from the search, as positions did before the fix: it
// forwards alphabeta.Position's methods alone.
type blindPosition struct{ p *tablut.SearchPosition }

func (b blindPosition) Moves(dst []game.Action) []game.Action { return b.p.Moves(dst) }
func (b blindPosition) Make(a game.Action)                    { b.p.Make(a) }
func (b blindPosition) Unmake()                               { b.p.Unmake() }
func (b blindPosition) Over() (bool, int)                     { return b.p.Over() }
func (b blindPosition) Evaluate() int                         { return b.p.Evaluate() }
func (b blindPosition) Hash() uint64                          { return b.p.Hash() }
func (b blindPosition) Noisy(a game.Action) bool              { return b.p.Noisy(a) }
func (b blindPosition) Side() int                             { return b.p.Side() }
func (b blindPosition) Clone() alphabeta.Position             { return blindPosition{b.p.Clone()} }
