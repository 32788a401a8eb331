package endgame

import (
	"context"
	"github.com/muster-games/muster/search/solve"
	"math/bits"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/muster-games/muster/lanrick"
)

// boardText writes men as the position format's board field.
func boardText(black, white lanrick.Bitboard) string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			s := uint(r*8 + f)
			c := byte(0)
			switch {
			case black&(1<<s) != 0:
				c = 'b'
			case white&(1<<s) != 0:
				c = 'w'
			}
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// state returns the rules package's position: the final rendezvous on
// line, side to move at the start of a turn (an opening turn if asked).
func state(t *testing.T, g *lanrick.Game, black, white lanrick.Bitboard, l Line, side int, opening bool) *lanrick.State {
	t.Helper()
	to, setter := "black", "white"
	if side == 1 {
		to, setter = "white", "black"
	}
	budget, opened, open := "3", "bw", "no"
	if opening {
		budget, opened, open = "2", "-"+to[:1], "yes"
		if side == 0 {
			opened = "b-"
		}
	}
	text := "board=" + boardText(black, white) + " to=" + to + " phase=move rdv=5 size=3 mark=" + l.Mark.String() +
		" line=" + strings.Fields(l.String())[1] + " setter=" + setter + " budget=" + budget + " opening=" + open +
		" opened=" + opened
	s, err := g.Parse(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return s
}

// randomPosition places two men a side at random.
func randomPosition(r *rand.Rand) (black, white lanrick.Bitboard) {
	for bits.OnesCount64(uint64(black)) < 2 {
		black |= 1 << uint(r.IntN(64))
	}
	for bits.OnesCount64(uint64(white)) < 2 {
		if s := lanrick.Bitboard(1) << uint(r.IntN(64)); s&black == 0 {
			white |= s
		}
	}
	return black, white
}

// rulesTurns plays every turn of the player to move by the rules
// package's legal actions and returns the mover's men after each turn
// that does not win, and whether some turn wins.
func rulesTurns(s *lanrick.State) (after map[lanrick.Bitboard]bool, won bool) {
	after = map[lanrick.Bitboard]bool{}
	mover := s.ToAct()
	var walk func(s *lanrick.State)
	walk = func(s *lanrick.State) {
		for _, a := range s.LegalActions(nil) {
			c := s.Copy()
			if s.ActionString(a) == "end" {
				after[c.Men(int(mover))] = true
				continue
			}
			c.Apply(a)
			switch {
			case c.IsTerminal() || c.Phase() == lanrick.PhaseRemove:
				won = true
			case c.ToAct() != mover:
				after[c.Men(int(mover))] = true
			default:
				walk(c)
			}
		}
	}
	walk(s)
	return after, won
}

// TestTurnsMatchRules checks the solver's turn generator against the
// rules package (Rules 1 and 3 with two men a side, 7–9 for the win) on
// random positions and lines, for ordinary and opening turns.
func TestTurnsMatchRules(t *testing.T) {
	g := lanrick.MustLoad("1893")
	r := rand.New(rand.NewPCG(1, 2))
	lines := Lines()
	for n := 0; n < 400; n++ {
		black, white := randomPosition(r)
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
		l, _ := canonical(mustLine(t, "d4 ne").Squares)
		sharedTable, sharedErr = Build(l)
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
		black, white := randomPosition(r)
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
// proof: exhaustive search over the rules package's own actions.
func TestTableAgreesWithSearch(t *testing.T) {
	tb := built(t)
	g := lanrick.MustLoad("1893")
	var line Line
	for _, l := range Lines() {
		if l.Squares == tb.Line {
			line = l
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	seen := map[int]int{}
	for tries := 0; tries < 200000 && (seen[1] < 6 || seen[2] < 4 || seen[3] < 1 || seen[-3] < 1); tries++ {
		black, white := randomPosition(r)
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
		if v.Turns > 3 || seen[key] >= 6 || v.Turns == 3 && seen[key] >= 1 {
			continue
		}
		seen[key]++
		s := state(t, g, black, white, line, side, opening)
		// A turn is at most three actions (two man-moves and end), and a
		// win may need one more (Rule 7's choice of the man converted).
		res, err := solve.Solve(context.Background(), s, solve.Limits{Depth: 3*v.Turns + 1})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Proved || int(res.Lo) != v.Outcome {
			t.Fatalf("%s: table %v, search %v", s, v, res)
		}
	}
	t.Logf("checked (turns: positions; negative for opening turns): %v", seen)
}
