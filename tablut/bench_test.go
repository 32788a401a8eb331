package tablut

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/muster-games/muster/game"
)

// BenchmarkPlayout plays uniformly random ludii-linnaeus games from the
// start on one core and reports games and actions per second. Ludii plays
// about 1,060 such games per second per core; the target is 159,000
// (150 times as many).
func BenchmarkPlayout(b *testing.B) {
	for _, rs := range []string{"ludii-linnaeus", "linnaeus", "ashton"} {
		b.Run(rs, func(b *testing.B) {
			start := MustLoad(rs).Start()
			rng := rand.New(rand.NewPCG(1, 2))
			buf := make([]game.Action, 0, MaxMoves)
			s := start.Copy()
			actions := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Reset(start)
				var n int
				n, buf = game.Playout(s, rng, 1<<20, buf)
				actions += n
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/sec, "games/s")
			b.ReportMetric(float64(actions)/sec, "actions/s")
			b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
		})
	}
}

// BenchmarkPerft5 is ludii-linnaeus perft(5) from the start:
// 1,611,600,656 leaves, one first move of each of the start's 10 classes
// counted (symmetries).
func BenchmarkPerft5(b *testing.B) {
	s := MustLoad("ludii-linnaeus").Start()
	b.ReportAllocs()
	var n uint64
	for i := 0; i < b.N; i++ {
		n = s.Perft(5)
	}
	if n != 1611600656 {
		b.Fatalf("perft(5) = %d", n)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkPerft5EveryMove is BenchmarkPerft5 with each of the 80 first
// moves played and counted below, as perft(5) counted before it used the
// start's symmetries: the speed of the counting itself (no position below
// the first ply is symmetric).
func BenchmarkPerft5EveryMove(b *testing.B) {
	s := MustLoad("ludii-linnaeus").Start()
	b.ReportAllocs()
	var n uint64
	for i := 0; i < b.N; i++ {
		n = 0
		t := newPerftTable(5)
		for _, m := range s.LegalMoves(nil) {
			s.ApplyMove(m)
			n += s.perft(4, t)
			s.Undo()
		}
	}
	if n != 1611600656 {
		b.Fatalf("perft(5) = %d", n)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkGenMoves generates the moves of the start position.
func BenchmarkGenMoves(b *testing.B) {
	g := MustLoad("ludii-linnaeus")
	p := g.Start().pos
	var buf [MaxMoves]Move
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if n := len(g.Rules.GenMoves(&p, buf[:0])); n != 80 {
			b.Fatal(n)
		}
	}
}

// BenchmarkApply plays and takes back a move with the full state
// bookkeeping (history, repetition, end of game).
func BenchmarkApply(b *testing.B) {
	s := MustLoad("linnaeus").Start()
	m := NewMove(sq(0, 3), sq(0, 2))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.ApplyMove(m)
		s.Undo()
	}
}

// TestNoAllocations: move generation, counting, apply and undo allocate
// nothing once the state's history has room.
func TestNoAllocations(t *testing.T) {
	g := MustLoad("linnaeus")
	s := g.Start()
	var buf [MaxMoves]Move
	m := NewMove(sq(0, 3), sq(0, 2))
	s.ApplyMove(m)
	s.Undo()
	allocs := testing.AllocsPerRun(100, func() {
		_ = g.Rules.GenMoves(&s.pos, buf[:0])
		_ = g.Rules.CountMoves(&s.pos)
		_ = s.LegalMoves(buf[:0])
		s.ApplyMove(m)
		s.Undo()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per run, want 0", allocs)
	}
}

// TestPlayoutAsRandomActions: a playout plays, for the same random
// numbers, the moves RandomAction and ApplyMove play one by one, and ends
// as they do (the winner, the reason, the position), under every ruleset,
// cut off at any number of actions too; from the start, and, under the
// rulesets without camps, from a board crowded so that each side has a
// move or two into one empty square and positions come back often (under
// linnaeus, two playouts of five from it end by repetition), so that
// playouts end by the ruleset's rule of repetition too.
func TestPlayoutAsRandomActions(t *testing.T) {
	const crowded = "/1TTTTTTTT/TTTTTTTTT/TTTTTTTTT/TTTTTTTTT/ttttKtttt/ttttttttt/ttttttttt/ttttttttt/tttttttt1/ attackers"
	for _, rs := range Info.Rulesets {
		g := MustLoad(rs.ID)
		ended, repeated := 0, 0
		seeds := uint64(40)
		if g.Rules.byLine {
			seeds = 400 // playByLine's own path
		}
		runs := 2 * seeds
		if _, err := g.Parse(crowded); err != nil {
			runs = seeds // men may not stand on its camps
		}
		for seed := uint64(0); seed < runs; seed++ {
			limit := 1 << 20
			if seed%4 == 3 {
				limit = int(seed * 7)
			}
			start := g.Start
			if seed >= seeds {
				start = func() *State {
					s, _ := g.Parse(crowded)
					return s
				}
			}
			fast, slow := start(), start()
			n := fast.Playout(rand.New(rand.NewPCG(seed, 9)), limit)
			rng := rand.New(rand.NewPCG(seed, 9))
			m := 0
			for ; !slow.IsTerminal() && m < limit; m++ {
				slow.ApplyMove(Move(slow.RandomAction(rng)))
			}
			if n != m || fast.String() != slow.String() || fast.over != slow.over || fast.result.Reason != slow.result.Reason ||
				fast.result.Winner != slow.result.Winner || fast.result.History != slow.result.History || len(fast.actions) != len(slow.actions) {
				t.Fatalf("%s seed %d: the playout played %d (%v %+v), the moves one by one %d (%v %+v)", rs.ID, seed, n, fast.over, fast.result, m, slow.over, slow.result)
			}
			f, w := fast.pos, slow.pos
			if f.board != w.board || f.ranks != w.ranks || f.files != w.files || f.sideRanks != w.sideRanks || f.sideFiles != w.sideFiles ||
				f.men != w.men || f.king != w.king || f.toMove != w.toMove || f.hash != w.hash || !slices.Equal(fast.hashes, slow.hashes) ||
				fast.lastIrrev != slow.lastIrrev || fast.passes != slow.passes || !slices.Equal(fast.actions, slow.actions) {
				t.Fatalf("%s seed %d: the playout left another position or history than the moves one by one:\n%+v\n%+v", rs.ID, seed, f, w)
			}
			if f.linesOK {
				c := f
				g.Rules.countAllLines(&c)
				if c.lineN != f.lineN || c.moveN != f.moveN {
					t.Fatalf("%s seed %d: the playout left line counts %v %v, counted afresh %v %v", rs.ID, seed, f.lineN, f.moveN, c.lineN, c.moveN)
				}
			}
			if fast.over {
				ended++
			}
			if fast.result.History && g.Rules.TurnLimit == 0 {
				repeated++
			}
		}
		if ended == 0 {
			t.Errorf("%s: no playout ended", rs.ID)
		}
		if (g.Rules.Repetition == RepFirst || g.Rules.Repetition == RepThird) && runs > seeds && repeated == 0 {
			t.Errorf("%s: no playout ended by repetition", rs.ID)
		}
	}
}
