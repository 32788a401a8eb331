package alphabeta_test

import (
	"context"
	"testing"

	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/alphabeta"
	"github.com/muster-games/muster/tablut"
)

func searchFrom(t *testing.T, position string, lim search.Limits) (*tablut.State, search.Result) {
	t.Helper()
	s, err := tablut.MustLoad("linnaeus").Parse(position)
	if err != nil {
		t.Fatal(err)
	}
	return s, alphabeta.Search(context.Background(), pos(s), lim, nil)
}

// TestEscapeInOne: the king on an open line escapes (rule 4: the battle is
// over), and the search says it is won.
func TestEscapeInOne(t *testing.T) {
	s, res := searchFrom(t, "/9/9/2t6/9/9/4K4/9/6t2/9/ defenders", search.Limits{Depth: 3})
	s.Apply(res.Action)
	if !s.IsTerminal() || res.Proven != 1 {
		t.Fatalf("played %v (proven %d): not the escape", res.Action, res.Proven)
	}
}

// TestExclude: with the escape left out at the root, the search finds the
// best line that begins otherwise — the king's other escape, on the other
// open line — and never the move left out.
func TestExclude(t *testing.T) {
	s, first := searchFrom(t, "/9/9/2t6/9/9/4K4/9/6t2/9/ defenders", search.Limits{Depth: 3})
	second := alphabeta.SearchWith(context.Background(), pos(s), search.Limits{Depth: 3}, nil, alphabeta.Options{Exclude: first.Action})
	if second.Action == 0 || second.Action == first.Action {
		t.Fatalf("the second line begins with %v, the first with %v", second.Action, first.Action)
	}
	for _, a := range second.PV[:1] {
		if a == first.Action {
			t.Fatal("the second line's PV begins with the move left out")
		}
	}
	c := s.Copy()
	c.Apply(second.Action)
	if !c.IsTerminal() || second.Proven != 1 {
		t.Fatalf("the second line %v (proven %d) is not the other escape", s.ActionString(second.Action), second.Proven)
	}
}

// TestCaptureKing: the attackers take the king by two when they can.
func TestCaptureKing(t *testing.T) {
	s, res := searchFrom(t, "/9/9/2t6/9/9/9/2K6/2t6/4t4/ attackers", search.Limits{Depth: 2})
	// The attacker on c3 goes to c6 and the king on c7 is between c6 and
	// c8 (rule 9: two suffice away from the castle).
	s.Apply(res.Action)
	if !s.IsTerminal() || s.Result().Winner != 0 {
		t.Fatalf("played %v: the king is not taken (%s)", res.Action, s)
	}
}

// TestBlockTheRoute: with one open line for the king, every attacker move
// that does not block it loses at once; the search blocks.
func TestBlockTheRoute(t *testing.T) {
	// The king on e6: e7–e9 open, the castle below, defenders beside him.
	s, res := searchFrom(t, "/4T4/9/9/9/9/t2TKT3/9/9/t8/ attackers", search.Limits{Depth: 3})
	s.Apply(res.Action)
	if s.IsTerminal() {
		t.Fatalf("the attackers lost at once after %v", res.Action)
	}
	if r := s.Position(); r.At(mustSq(t, "e7")) == tablut.Empty && r.At(mustSq(t, "e8")) == tablut.Empty && r.At(mustSq(t, "e9")) == tablut.Empty {
		t.Fatalf("%v does not block the king's line e7–e9", res.Action)
	}
}

func mustSq(t *testing.T, n string) tablut.Square {
	q, err := tablut.ParseSquare(n)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestLimits: a node limit and a time limit stop the search.
func TestLimits(t *testing.T) {
	g := tablut.MustLoad("linnaeus")
	res := alphabeta.Search(context.Background(), pos(g.Start()), search.Limits{Nodes: 20000}, nil)
	if res.Nodes > 40000 || res.Depth < 1 {
		t.Fatalf("node limit: %d nodes, depth %d", res.Nodes, res.Depth)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res = alphabeta.Search(ctx, pos(g.Start()), search.Limits{}, nil)
	if res.Action == 0 {
		t.Fatal("a cancelled search still returns a legal move")
	}
}

// pos adapts a Tablut state (the agent package does the same).
func pos(s *tablut.State) alphabeta.Position { return tpos{tablut.NewSearchPosition(s, nil)} }

type tpos struct{ *tablut.SearchPosition }

func (p tpos) Clone() alphabeta.Position { return tpos{p.SearchPosition.Clone()} }

// TestTablePacking: scores of both signs, depths and flags survive the
// table's packing.
func TestTablePacking(t *testing.T) {
	tt := alphabeta.NewTable(16)
	for _, c := range []struct {
		score, depth int
		flag         uint8
	}{{-1 << 20, 5, 1}, {1<<20 - 3, 63, 2}, {-1, 0, 3}, {12345, 9, 1}} {
		key := uint64(c.score*7919+c.depth) | 1<<40
		alphabeta.StoreForTest(tt, key, 77, c.score, c.depth, c.flag)
		move, score, depth, flag, ok := alphabeta.ProbeForTest(tt, key)
		if !ok || move != 77 || score != c.score || depth != c.depth || flag != c.flag {
			t.Errorf("%+v came back as %d %d %d %d %v", c, move, score, depth, flag, ok)
		}
	}
}

// nullCounter counts the null moves the search makes.
type nullCounter struct {
	tpos
	n *int
}

func (c nullCounter) MakeNull()                 { *c.n++; c.tpos.MakeNull() }
func (c nullCounter) Clone() alphabeta.Position { return nullCounter{c.tpos.Clone().(tpos), c.n} }

// TestNullMove: a position that can pass gets null moves, and the search
// with them still proves the king's escape in one.
func TestNullMove(t *testing.T) {
	g := tablut.MustLoad("ashton")
	n := 0
	res := alphabeta.Search(context.Background(), nullCounter{tpos{tablut.NewSearchPosition(g.Start(), nil)}, &n}, search.Limits{Depth: 5}, nil)
	if n == 0 || res.Action == 0 {
		t.Fatalf("no null move in a depth-5 search (%d), move %v", n, res.Action)
	}
	s, err := tablut.MustLoad("linnaeus").Parse("/9/9/2t6/9/9/4K4/9/6t2/9/ defenders")
	if err != nil {
		t.Fatal(err)
	}
	n = 0
	res = alphabeta.Search(context.Background(), nullCounter{tpos{tablut.NewSearchPosition(s, nil)}, &n}, search.Limits{Depth: 5}, nil)
	if res.Proven != 1 {
		t.Errorf("with null moves the won position is not proven won: %+v", res)
	}
}

// TestThreatExtension: the king on d6, his lines closed, moves to a square
// with two open lines (tuichu, rule 4: he escapes next move whatever the
// attackers do). At depth 1 the extension of the threatened position sees
// every answer of the attackers and proves the win; without it the depth-1
// search stops at the attackers' move and only weighs the lines.
func TestThreatExtension(t *testing.T) {
	g := tablut.MustLoad("linnaeus")
	s, err := g.Parse("/3t5/9/9/9/9/t2K4t/9/9/3t5/ defenders")
	if err != nil {
		t.Fatal(err)
	}
	res := alphabeta.Search(context.Background(), pos(s), search.Limits{Depth: 1}, nil)
	if res.Proven != 1 {
		t.Errorf("with extensions, depth 1 does not prove the fork won: %+v", res)
	}
	after := s.Clone().(*tablut.State)
	after.Apply(res.Action)
	if p := after.Position(); g.Rules.EscapeRoutes(&p) < 2 {
		t.Errorf("the move played, %v, opens %d lines, not two", res.Action, g.Rules.EscapeRoutes(&p))
	}
	res = alphabeta.SearchWith(context.Background(), pos(s), search.Limits{Depth: 1}, nil, alphabeta.Options{NoExtend: true})
	if res.Proven != 0 {
		t.Errorf("without extensions, depth 1 proves %d: the option does not turn them off", res.Proven)
	}
}

// TestNoNull: Options.NoNull makes no null move in a position that can pass.
func TestNoNull(t *testing.T) {
	n := 0
	res := alphabeta.SearchWith(context.Background(), nullCounter{tpos{tablut.NewSearchPosition(tablut.MustLoad("ashton").Start(), nil)}, &n}, search.Limits{Depth: 5}, nil, alphabeta.Options{NoNull: true})
	if n != 0 || res.Action == 0 {
		t.Fatalf("%d null moves with NoNull, move %v", n, res.Action)
	}
}
