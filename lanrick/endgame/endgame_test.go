package endgame

import (
	"bytes"
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/lanrick/endgame/internal/testcache"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/solve"
)

// state returns the rules package's position: the final rendezvous on
// line, side to move at the start of a turn (an opening turn if asked).
func state(t *testing.T, g *lanrick.Game, black, white lanrick.Bitboard, l Line, side int, opening bool) *lanrick.State {
	t.Helper()
	s, err := g.Build(l.Setup(black, white, side, opening))
	if err != nil {
		t.Fatalf("%v %v %s side %d: %v", black, white, l, side, err)
	}
	return s
}

// rulesTurns plays every turn of the player to move by the rules
// package's legal actions and returns the mover's men after each turn
// that does not win, and whether some turn wins.
func rulesTurns(s *lanrick.State) (after map[lanrick.Bitboard]bool, won bool) {
	after, in := rulesFiveTurns(s)
	return after, len(in) > 0
}

// TestTurnsMatchRules checks the solver's turn generator against the
// rules package (Rules 1 and 3 with two men a side, 7–9 for the win) on
// random positions and lines, for ordinary and opening turns.
func TestTurnsMatchRules(t *testing.T) {
	g := lanrick.MustLoad("1893")
	r := rand.New(rand.NewPCG(1, 2))
	lines := Lines()
	for n := 0; n < 400; n++ {
		black, white := RandomPosition(r)
		l := lines[r.IntN(len(lines))]
		side := r.IntN(2)
		opening := n%4 == 0
		s := state(t, g, black, white, l, side, opening)
		want, wantWon := rulesTurns(s)
		mover, other := black, white
		if side == 1 {
			mover, other = white, black
		}
		m0, m1 := int8(bits.TrailingZeros64(uint64(mover))), int8(63-bits.LeadingZeros64(uint64(mover)))
		budget := turnBudget
		if opening {
			budget = openingBudget
		}
		got, gotWon := map[lanrick.Bitboard]bool{}, false
		for _, m := range appendTurns(nil, m0, m1, uint64(mover|other), budget) {
			men := lanrick.Bitboard(bit(m[0]) | bit(m[1]))
			if men&^l.Squares == 0 {
				gotWon = true
			}
			got[men] = true
		}
		n, cw := countTurns(m0, m1, uint64(mover|other), budget, uint64(l.Squares))
		if cw != gotWon || !cw && n != len(appendTurns(nil, m0, m1, uint64(mover|other), budget)) {
			t.Fatalf("%s: countTurns %d %v disagrees with appendTurns", s, n, cw)
		}
		if gotWon != wantWon {
			t.Fatalf("%s: generator wins %v, rules %v", s, gotWon, wantWon)
		}
		if wantWon {
			continue
		}
		if len(got) != len(want) {
			t.Fatalf("%s: generator reaches %d positions, rules %d", s, len(got), len(want))
		}
		for m := range want {
			if !got[m] {
				t.Fatalf("%s: rules reach %s, the generator does not", s, squares(m))
			}
		}
	}
}

func squares(b lanrick.Bitboard) string {
	var out []string
	for w := uint64(b); w != 0; w &= w - 1 {
		out = append(out, lanrick.Square(bits.TrailingZeros64(w)).String())
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func TestClasses(t *testing.T) {
	if n := len(Lines()); n != 168 {
		t.Errorf("%d lines, want 168 (36 field squares × 4 + 24 border squares × 1)", n)
	}
	if n := len(Classes()); n != 24 {
		t.Errorf("%d classes of lines, want 24", n)
	}
	for _, l := range Lines() {
		c, s := canonical(l.Squares)
		if transform(s, l.Squares) != c || transform(inverse(s), c) != l.Squares {
			t.Fatalf("line %s: symmetry %d does not map it to its class", l, s)
		}
	}
}

var (
	sharedOnce  sync.Once
	sharedTable *Table
	sharedErr   error
)

// built returns one solved table, built once for all the tests.
func built(t *testing.T) *Table {
	t.Helper()
	sharedOnce.Do(func() {
		// The table every package's tests share (built here, or by
		// another package's tests with this same code).
		squares := mustLine(t, "d4 ne").Squares
		dir := testcache.Ensure(t, FileName(ClassOf(squares)), func(dir string) error {
			_, _, err := (&Tables{Dir: dir}).Table(squares)
			return err
		})
		ts := &Tables{Dir: dir, NoBuild: true}
		sharedTable, _, sharedErr = ts.Table(squares)
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedTable
}

func mustLine(t *testing.T, s string) Line {
	for _, l := range Lines() {
		if l.String() == s {
			return l
		}
	}
	t.Fatalf("no line %q", s)
	return Line{}
}

// TestTableConsistent checks solved values against their definition: a
// position's value is that of its best turn.
func TestTableConsistent(t *testing.T) {
	tb := built(t)
	r := rand.New(rand.NewPCG(3, 4))
	outcomes := map[int]int{}
	for n := 0; n < 20000; n++ {
		black, white := RandomPosition(r)
		side := r.IntN(2)
		v, err := tb.Value(black, white, side)
		if err != nil {
			t.Fatal(err)
		}
		best, _ := tb.bestTurn(uint64(black), uint64(white), side, turnBudget)
		if v != best {
			t.Fatalf("black %s white %s side %d: table %v, best turn %v", squares(black), squares(white), side, v, best)
		}
		outcomes[v.Outcome]++
	}
	if outcomes[1] == 0 || outcomes[-1] == 0 {
		t.Errorf("outcomes %v: want both wins and losses", outcomes)
	}
}

// TestTableAgreesWithSearch checks solved values against an independent
// proof: exhaustive search over the rules package's own actions. With
// -short it leaves out the wins in three turns, whose proofs take most of
// its time.
func TestTableAgreesWithSearch(t *testing.T) {
	tb := built(t)
	threes := 1 // positions won in three turns, and opening ones
	if testing.Short() {
		threes = 0
	}
	g := lanrick.MustLoad("1893")
	var line Line
	for _, l := range Lines() {
		if l.Squares == tb.Line {
			line = l
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	seen := map[int]int{}
	for tries := 0; tries < 200000 && (seen[1] < 6 || seen[2] < 4 || seen[3] < threes || seen[-3] < threes); tries++ {
		black, white := RandomPosition(r)
		side := r.IntN(2)
		opening := tries%3 == 0
		v, _ := tb.Value(black, white, side)
		if opening {
			v, _ = tb.Opening(black, white, side)
		}
		key := v.Turns
		if opening {
			key = -v.Turns
		}
		if v.Turns > 3 || seen[key] >= 6 || v.Turns == 3 && seen[key] >= threes {
			continue
		}
		s := state(t, g, black, white, line, side, opening)
		// A turn is at most three actions (two man-moves and end), and a
		// win may need one more (Rule 7's choice of the man converted).
		// Proofs of wins in 3 turns take from 0.1 to 4.5 million positions;
		// the test keeps to those of at most 400,000 (about half), so as to
		// run in seconds, and tries other positions until it has them.
		lim := search.Limits{Depth: 3*v.Turns + 1}
		if v.Turns == 3 {
			lim.Nodes = 400_000
		}
		res, err := solve.Solve(context.Background(), s, lim)
		if err != nil {
			t.Fatal(err)
		}
		if res.Stopped {
			continue
		}
		seen[key]++
		if !res.Proved() || int(res.Lo) != v.Outcome {
			t.Fatalf("%s: table %v, search %v", s, v, res)
		}
	}
	if seen[1] < 6 || seen[2] < 4 || seen[3] < threes || seen[-3] < threes {
		t.Fatalf("checked %v: too few positions of each kind", seen)
	}
	t.Logf("checked (turns: positions; negative for opening turns): %v", seen)
}

// TestFileRoundTrip writes a table, reads it back, and refuses damaged
// files.
func TestFileRoundTrip(t *testing.T) {
	tb := built(t)
	var buf bytes.Buffer
	if err := tb.Write(&buf); err != nil {
		t.Fatal(err)
	}
	t.Logf("table of %d positions in %d bytes", len(tb.d), buf.Len())
	back, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(tb) {
		t.Fatal("the table read back differs")
	}
	data := buf.Bytes()
	for _, bad := range [][]byte{nil, data[:10], data[:len(data)/2], append([]byte("x"), data...)} {
		if _, err := Read(bytes.NewReader(bad)); err == nil {
			t.Errorf("a damaged file of %d bytes was accepted", len(bad))
		}
	}
	// Entries that do not match the checksum are caught: here the
	// checksum changed, the entries as they were (writing a second table
	// with an entry changed took 40 s under the race detector).
	raw := append([]byte(nil), data...)
	raw[len(magic)+8] ^= 1
	if _, err := Read(bytes.NewReader(raw)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("entries under another checksum: %v, want ErrCorrupt", err)
	}
}

// FuzzRead feeds Read arbitrary bytes: it must return an error or a
// table, never panic.
func FuzzRead(f *testing.F) {
	f.Add([]byte(magic + "\x07\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if tb, err := Read(bytes.NewReader(data)); err == nil && bits.OnesCount64(uint64(tb.Line)) != 3 {
			t.Fatalf("accepted a table of line %x", uint64(tb.Line))
		}
	})
}

// TestStartsAndMarks checks the positions where the final rendezvous
// begins and the marks offered to the setter.
func TestStartsAndMarks(t *testing.T) {
	starts := Arising()
	for _, s := range starts {
		all := s.Black | s.White
		if bits.OnesCount64(uint64(s.Black)) != 2 || bits.OnesCount64(uint64(s.White)) != 2 || all&^lanrick.Border != 0 {
			t.Fatalf("start %s / %s: want two men a side on border squares (the ray-ends of Def. 3)", squares(s.Black), squares(s.White))
		}
	}
	// 4-square rendezvous: the marks on the 36 field squares give distinct
	// sets except where two marks share their four ray-ends.
	if len(starts) == 0 || len(starts)%12 != 0 {
		t.Fatalf("%d starts: want 12 (6 ways to colour four squares × 2 setters) per rendezvous", len(starts))
	}
	// 1899's proviso: "provided that he, who sets it, has no man in the
	// Rendezvous". Men on d4 and e5 rule out every line through either.
	mine := bitsOf(t, "d4 e5")
	all, allowed := MarkLines(mine, false), MarkLines(mine, true)
	if len(all) != 168 {
		t.Fatalf("1893: %d lines, want all 168", len(all))
	}
	through := 0
	for _, l := range all {
		if l.Squares&mine != 0 {
			through++
		}
	}
	if through == 0 || len(allowed) != 168-through {
		t.Fatalf("1899: %d lines allowed, want %d", len(allowed), 168-through)
	}
	// The non-setter interchanges when that is better for him, and the
	// setter takes the mark best for him after that.
	win := func(n int) Value { return Value{Outcome: 1, Turns: n} }
	loss := func(n int) Value { return Value{Outcome: -1, Turns: n} }
	ms := []MarkValue{
		{Kept: win(3), Interchanged: loss(4)},
		{Kept: win(5), Interchanged: win(7)},
		{Kept: loss(2), Interchanged: loss(6)},
	}
	c := Choose(ms)
	if c.Without.Kept != win(3) || c.With.Chosen() != win(7) {
		t.Errorf("choice %+v: want the quickest kept win and, with Rule 5, the mark winning either way", c)
	}
}

func bitsOf(t *testing.T, s string) lanrick.Bitboard {
	var b lanrick.Bitboard
	for _, f := range strings.Fields(s) {
		q, err := lanrick.ParseSquare(f)
		if err != nil {
			t.Fatal(err)
		}
		b |= 1 << uint(q)
	}
	return b
}
