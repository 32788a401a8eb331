package ai

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/lanrick/endgame"
	"github.com/muster-games/muster/lanrick/endgame/endgametest"
)

var (
	buildTableOnce = buildTable
	buildFiveOnce  = buildFive
)

// TestEndgameTables: with endgame=yes an agent plays the final rendezvous
// from the tables where they are on disk — the tables' own best action,
// proved — and searches as usual where they are not.
func TestEndgameTables(t *testing.T) {
	g := lanrick.MustLoad("1893")
	// White to move wins in 3 turns (the tables say; it is checked below).
	s, err := g.Parse("board=8/8/8/8/1w6/8/1w4b1/b7 to=white phase=move rdv=5 size=3 mark=e5 line=ne setter=black budget=3 opening=no opened=bw")
	if err != nil {
		t.Fatal(err)
	}
	EndgameDir = t.TempDir()
	a, err := agent.New("mcts(iterations=50,endgame=yes)", g, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Act(context.Background(), s)
	if err != nil || !s.IsLegal(res.Action) {
		t.Fatalf("without tables: %v %v", res, err)
	}
	// Prepare (as muster serve does in the background) builds the line's
	// table into a new folder, logs it, and points the agents there.
	line := endgame.ClassOf(s.RendezvousSquares())
	if line != endgame.ClassOf(endgametest.Line(t).Squares) {
		t.Fatalf("the position's line is not of the shared test table's class %q", endgametest.LineName)
	}
	prepareClasses = func() []lanrick.Bitboard { return []lanrick.Bitboard{line} }
	// The build is the shared test table's, copied (endgame's tests
	// build tables; here it is Prepare that is tested).
	buildTable = func(ts *endgame.Tables, c lanrick.Bitboard) error {
		endgametest.Seed(t, ts.Dir)
		return nil
	}
	defer func() { prepareClasses, buildTable = endgame.Classes, buildTableOnce }()
	dir := t.TempDir()
	var logged []string
	logf := func(f string, args ...any) { logged = append(logged, fmt.Sprintf(f, args...)) }
	if err := agent.Prepare(context.Background(), dir, false, logf); err != nil {
		t.Fatal(err)
	}
	if EndgameDir != filepath.Join(dir, "lanrick-endgame") || len(logged) != 1 || !strings.Contains(logged[0], "table 1 of 1 built") {
		t.Fatalf("prepare: dir %s, log %q", EndgameDir, logged)
	}
	if err := agent.Prepare(context.Background(), dir, false, logf); err != nil || !strings.Contains(logged[1], "tables are in") {
		t.Fatalf("prepare again: %v, log %q", err, logged)
	}
	// Only when asked (serve --prepare-five) does it go on to the five-man
	// tables: each class for 1893, then for 1899 (which shares most).
	var five []string
	buildFive = func(ts *endgame.Tables, c lanrick.Bitboard, noOwnMan bool) (time.Duration, error) {
		five = append(five, fmt.Sprintf("%x %v", uint64(c), noOwnMan))
		return time.Second, nil
	}
	defer func() { buildFive = buildFiveOnce }()
	if err := agent.Prepare(context.Background(), dir, true, logf); err != nil || len(five) != 12 || five[0] == five[6] ||
		!strings.Contains(logged[len(logged)-2], "five-man table 6 of 6 built") || !strings.Contains(logged[len(logged)-1], "five-man tables are in") {
		t.Fatalf("prepare the five-man tables: %v, built %q, log %q", err, five, logged)
	}
	ts := &endgame.Tables{Dir: EndgameDir, NoBuild: true}
	best, v, err := ts.Act(s)
	if err != nil {
		t.Fatal(err)
	}
	res, err = a.Act(context.Background(), s)
	if err != nil || res.Action != best || res.Proven != v.Outcome || v != (endgame.Value{Outcome: 1, Turns: 3}) {
		t.Fatalf("with tables: %s, proven %d; the tables: %s, %v (err %v)", s.ActionString(res.Action), res.Proven, s.ActionString(best), v, err)
	}
	t.Logf("%s: %s, %v", s, s.ActionString(best), v)
}

// TestEvalSetting: eval= chooses the evaluation MCTS reads: the fitted one
// by default, the hand-weighed one with eval=hand; seeded searches of one
// thread agree with themselves and differ between the two.
func TestEvalSetting(t *testing.T) {
	g := lanrick.MustLoad("1893")
	s := g.Start()
	for _, a := range []string{"mark d5", "no-interchange", "a1-c3"} {
		if err := game.ApplyNotation(s, []string{a}); err != nil {
			t.Fatal(err)
		}
	}
	value := func(spec string) float64 {
		a, err := agent.New(spec, g, 7)
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Act(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		return res.Value
	}
	def, fitted, hand := value("mcts(iterations=400)"), value("mcts(iterations=400,eval=fitted)"), value("mcts(iterations=400,eval=hand)")
	if def != fitted || fitted == hand {
		t.Errorf("root values: default %v, fitted %v, hand %v", def, fitted, hand)
	}
}

// TestTurnsSetting: with turns=N an agent plays a forced win of the final
// rendezvous that the race search finds within N turns, with no tables;
// where it finds none, its own search plays.
func TestTurnsSetting(t *testing.T) {
	g := lanrick.MustLoad("1893")
	// The line d4–f4: black's c5-d4 and g3-f4 get both men in at once.
	won := "board=8/8/8/2b5/8/6b1/w7/w7 to=black phase=move rdv=6 size=3 mark=e4 line=e setter=white budget=3 opening=no opened=bw"
	s, err := g.Parse(won)
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New("mcts(iterations=1,turns=2)", g, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Act(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if res.Proven != 1 {
		t.Fatalf("%s: turns=2 did not find the forced win: %+v", won, res)
	}
	// The win is real: played on by the same agent against any defence
	// (here the first legal action each time), black gets both men in.
	for i := 0; i < 40 && !s.IsTerminal(); i++ {
		if s.ToAct() == lanrick.Black {
			res, err := a.Act(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			s.Apply(res.Action)
			continue
		}
		s.Apply(s.LegalActions(nil)[0])
	}
	if !s.IsTerminal() || s.Result().Winner != lanrick.Black {
		t.Fatalf("black did not win: %s", s)
	}
	// At the start of the game nothing applies: the inner search plays.
	res, err = a.Act(context.Background(), g.Start())
	if err != nil || res.Proven != 0 || res.Iterations == 0 {
		t.Errorf("the start: %+v, %v", res, err)
	}
}
