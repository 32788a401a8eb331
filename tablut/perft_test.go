package tablut

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/muster-games/muster/game/gametest"
)

// TestPerft checks the reference counts of docs/tablut-rules.md §8.3 to depth 4
// (depth 5 of ludii-linnaeus, 1,611,600,656 leaves, runs without -short).
func TestPerft(t *testing.T) {
	walker := []uint64{80, 4400, 353200, 19913864}
	table := map[string][]uint64{
		"ludii-linnaeus": {80, 4400, 353200, 19901208},
		"ludii-smith":    {80, 4400, 353200, 19901208},
		"walker":         walker,
		"opentafl":       walker,
		// Not in §8.3: linnaeus and cartier differ from walker only in
		// crossing the castle, which no move of the first four plies can.
		"linnaeus":  walker,
		"cartier":   walker,
		"ashton":    {56, 4408, 248456, 19159224},
		"foteviken": {80, 4344, 337856, 18540960},
	}
	for rs, want := range table {
		t.Run(rs, func(t *testing.T) {
			s := MustLoad(rs).Start()
			for d, w := range want {
				if got := s.Perft(d + 1); got != w {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, w)
				}
			}
		})
	}
	if testing.Short() {
		return
	}
	if got := MustLoad("ludii-linnaeus").Start().Perft(5); got != 1611600656 {
		t.Errorf("ludii-linnaeus perft(5) = %d, want 1611600656", got)
	}
}

// TestPerftBulkMatchesPlayed: counting the last ply without playing it
// gives the same number as playing every move.
func TestPerftBulkMatchesPlayed(t *testing.T) {
	for _, rs := range rulesets {
		s := MustLoad(rs).Start()
		var buf [MaxMoves]Move
		var played uint64
		for _, m := range s.LegalMoves(buf[:0]) {
			s.ApplyMove(m)
			var inner [MaxMoves]Move
			for _, m2 := range s.LegalMoves(inner[:0]) {
				s.ApplyMove(m2)
				played += uint64(len(s.LegalMoves(nil)))
				if s.over {
					played++
				}
				s.Undo()
			}
			s.Undo()
		}
		if bulk := s.Perft(3); bulk != played {
			t.Errorf("%s: bulk perft(3) %d, played %d", rs, bulk, played)
		}
	}
}

// TestConformance runs the shared suite on every ruleset.
func TestConformance(t *testing.T) {
	for i, rs := range rulesets {
		t.Run(rs, func(t *testing.T) {
			gametest.Run(t, MustLoad(rs), gametest.Options{Games: 30, Seed: uint64(i)})
		})
	}
}

// TestHashIncremental: the incremental hash equals a full recompute after
// every move, captures included, and Undo restores it.
func TestHashIncremental(t *testing.T) {
	for _, rs := range rulesets {
		s := MustLoad(rs).Start()
		seen := 0
		for i := 0; !s.over && i < 400; i++ {
			var buf [MaxMoves]Move
			moves := s.LegalMoves(buf[:0])
			h := s.pos.hash
			m := moves[(i*7919)%len(moves)]
			s.ApplyMove(m)
			if s.pos.hash != s.pos.recomputeHash() {
				t.Fatalf("%s: hash differs from recompute after %s", rs, m)
			}
			s.Undo()
			if s.pos.hash != h {
				t.Fatalf("%s: undo did not restore the hash", rs)
			}
			s.ApplyMove(m)
			seen++
		}
		if seen < 10 {
			t.Fatalf("%s: only %d moves played", rs, seen)
		}
	}
}

// TestRandomActionUniform: the random draw without listing maps the
// numbers 0…n-1 one to one onto the legal moves, so a uniform number
// gives a uniform move.
func TestRandomActionUniform(t *testing.T) {
	for _, rs := range rulesets {
		g := MustLoad(rs)
		s := g.Start()
		for ply := 0; ply < 60 && !s.over; ply++ {
			var buf [MaxMoves]Move
			legal := s.LegalMoves(buf[:0])
			want := map[Move]bool{}
			for _, m := range legal {
				want[m] = true
			}
			got := map[Move]bool{}
			r := &g.Rules
			if r.byLine {
				counts, n := r.countLines(&s.pos)
				if n != len(legal) && !(n == 0 && legal[0] == Pass) {
					t.Fatalf("%s: countLines %d, legal %d", rs, n, len(legal))
				}
				// The counts kept move by move are those counted afresh.
				fresh := s.pos
				fresh.linesOK = false
				if _, m := r.countLines(&fresh); m != n || fresh.lineN != s.pos.lineN {
					t.Fatalf("%s ply %d: counts kept %d %v, counted afresh %d %v", rs, ply, n, s.pos.lineN, m, fresh.lineN)
				}
				for x := 0; x < n; x++ {
					got[r.pickLine(&s.pos, counts, x)] = true
				}
			} else {
				n := r.CountMoves(&s.pos)
				for x := 0; x < n; x++ {
					got[r.NthMove(&s.pos, x)] = true
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%s ply %d: the draw reaches %d distinct moves, want %d", rs, ply, len(got), len(want))
			}
			for m := range got {
				if !want[m] {
					t.Fatalf("%s ply %d: the draw gives %s, not legal", rs, ply, m)
				}
			}
			s.ApplyMove(legal[(ply*31)%len(legal)])
		}
	}
}

// TestPerftTableCountsAsWithout: the table of counts by position changes
// no count: perft(5) with it equals perft(5) without it, with no
// repetition rule and under threefold repetition, in a position of few
// men (a small tree) and in the same position reached again by moves back
// and forth (a history holding it twice, where the table must stand
// aside); and where it may, it is used.
func TestPerftTableCountsAsWithout(t *testing.T) {
	for _, id := range []string{"ludii-linnaeus", "linnaeus"} {
		g := MustLoad(id)
		few, err := g.Parse("/t8/9/9/9/3TK4/9/4T4/9/7tt/ attackers")
		if err != nil {
			t.Fatal(err)
		}
		// Each side moves a man away and back: the position comes round
		// again.
		shuffle := few.Copy()
		var buf [MaxMoves]Move
		var back []Move
		for i := 0; i < 2; i++ {
			m := shuffle.LegalMoves(buf[:0])[0]
			shuffle.ApplyMove(m)
			back = append(back, NewMove(m.To(), m.From()))
		}
		for _, m := range back {
			if !shuffle.IsLegal(m) {
				t.Fatalf("%s: %s cannot go back", id, shuffle.MoveString(m))
			}
			shuffle.ApplyMove(m)
		}
		if shuffle.String() != few.String() {
			t.Fatalf("%s: back and forth reached %s, not %s", id, shuffle, few)
		}
		for name, s := range map[string]*State{"few": few, "again": shuffle} {
			table := newPerftTable(5)
			got, want := s.perft(5, table), s.perft(5, nil)
			if got != want {
				t.Errorf("%s %s: perft(5) %d with the table, %d without", id, name, got, want)
			}
			t.Logf("%s %s: perft(5) %d, %d counts from the table", id, name, got, table.hits.Load())
			if name == "few" && table.hits.Load() == 0 {
				t.Errorf("%s %s: the table was never used", id, name)
			}
		}
	}
}

// TestQuietChildLeaves: the count after a move that captures nothing,
// found without making the move, is the one found by making it, for every
// move of random games under every ruleset it serves.
func TestQuietChildLeaves(t *testing.T) {
	checked := 0
	for _, rs := range Info.Rulesets {
		g := MustLoad(rs.ID)
		if !g.Rules.byLine || g.Rules.Encirclement {
			continue
		}
		rng := rand.New(rand.NewPCG(11, uint64(len(rs.ID))))
		for game := 0; game < 20; game++ {
			s := g.Start()
			for ply := 0; ply < 120 && !s.over; ply++ {
				if !s.pos.linesOK {
					g.Rules.countAllLines(&s.pos) // quietChildLeaves' precondition
				}
				var buf [MaxMoves]Move
				for _, m := range s.LegalMoves(buf[:0]) {
					if m == Pass {
						continue
					}
					if n, ok := s.quietChildLeaves(m); ok {
						checked++
						if want := s.playedChildLeaves(m); n != want {
							t.Fatalf("%s %s after %v: %d without the move, %d with it", rs.ID, s.MoveString(m), s.actions, n, want)
						}
					}
				}
				s.ApplyMove(Move(s.RandomAction(rng)))
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d moves checked", checked)
	}
}

// TestPerftThreadsCountsAsOne: counted on several threads sharing one
// table, perft gives the counts of one thread, under every ruleset, from
// the start and from a position 6 moves in: to depth 4, where the table
// is used, under the rulesets that count by line (those of the
// benchmarks), to depth 3 under the others (the race detector makes
// depth 4 slow).
func TestPerftThreadsCountsAsOne(t *testing.T) {
	for _, rs := range Info.Rulesets {
		g := MustLoad(rs.ID)
		mid := g.Start()
		var buf [MaxMoves]Move
		for i := 0; i < 6 && !mid.IsTerminal(); i++ {
			moves := mid.LegalMoves(buf[:0])
			mid.ApplyMove(moves[(i*7)%len(moves)])
		}
		for _, s := range []*State{g.Start(), mid} {
			depth := 3
			if g.Rules.byLine && !testing.Short() {
				depth = 4
			}
			want := s.Perft(depth)
			for _, threads := range []int{2, 3} {
				if got := s.PerftThreads(depth, threads); got != want {
					t.Errorf("%s from %s: perft(%d) on %d threads %d, on one %d", rs.ID, s, depth, threads, got, want)
				}
			}
		}
	}
}

// TestPerftSymmetryCountsAsWithout: counting one move of each class that
// a position's symmetries make changes no count. Every ruleset, from the
// start (all eight symmetries), from the start without the attackers on
// e1 and e9 (four), without e1 alone (two: the files mirrored), with the
// defenders to move, and from the start come round again by moves back and
// forth (a history that a repetition rule reads: there no symmetry is
// used); each perft(4) equals the count that plays every move.
func TestPerftSymmetryCountsAsWithout(t *testing.T) {
	const start = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
	positions := []struct {
		name, text string
		syms       int
	}{
		{"start", start + " attackers", 7},
		{"no e1, e9", "/3t1t3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3t1t3/ attackers", 3},
		{"no e1", "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3t1t3/ attackers", 1},
		{"defenders to move", start + " defenders", 7},
	}
	// played counts without symmetries: every move played down to two
	// plies from the leaves, where none is used.
	var played func(s *State, depth int) uint64
	played = func(s *State, depth int) uint64 {
		if s.over {
			return 1
		}
		if depth <= 2 {
			return s.perft(depth, nil)
		}
		var n uint64
		for _, m := range s.LegalMoves(nil) {
			s.ApplyMove(m)
			n += played(s, depth-1)
			s.Undo()
		}
		return n
	}
	for _, rs := range rulesets {
		g := MustLoad(rs)
		for _, pos := range positions {
			s, err := g.Parse(pos.text)
			if err != nil {
				t.Fatalf("%s %s: %v", rs, pos.name, err)
			}
			syms := s.symmetries(nil)
			if len(syms) != pos.syms {
				t.Errorf("%s %s: %d symmetries, want %d", rs, pos.name, len(syms), pos.syms)
			}
			if pos.name == "start" && rs == "linnaeus" {
				// What docs/tablut.md and perft's help say.
				reps, sizes := orbits(s.LegalMoves(nil), syms)
				if len(reps) != 10 || slices.ContainsFunc(sizes, func(n uint64) bool { return n != 8 }) {
					t.Errorf("the start's classes of moves: %v, want 10 of 8", sizes)
				}
			}
			want := played(s, 4)
			if got := s.Perft(4); got != want {
				t.Errorf("%s %s: perft(4) %d by classes, %d played", rs, pos.name, got, want)
			}
			if got := s.PerftThreads(4, 2); got != want {
				t.Errorf("%s %s: perft(4) on 2 threads %d by classes, %d played", rs, pos.name, got, want)
			}
		}
		// Back and forth to the start again.
		s := g.Start()
		var back []Move
		for i := 0; i < 2; i++ {
			m := s.LegalMoves(nil)[0]
			s.ApplyMove(m)
			back = append(back, NewMove(m.To(), m.From()))
		}
		for _, m := range back {
			s.ApplyMove(m)
		}
		if s.pos.board != g.Start().pos.board {
			t.Fatalf("%s: back and forth did not reach the start", rs)
		}
		want := 7
		if g.Rules.Repetition != RepNone {
			want = 0
		}
		if got := len(s.symmetries(nil)); got != want {
			t.Errorf("%s again: %d symmetries, want %d", rs, got, want)
		}
		if got, want := s.Perft(4), played(s, 4); got != want {
			t.Errorf("%s again: perft(4) %d by classes, %d played", rs, got, want)
		}
	}
}
