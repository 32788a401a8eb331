package endgame

import (
	"bytes"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/muster-games/muster/lanrick"
)

// fiveState is the rules package's position: the 4-square rendezvous of
// mark, three men of one side and two of the other, side to move at the
// start of an ordinary turn.
func fiveState(t *testing.T, g *lanrick.Game, black, white lanrick.Bitboard, mark lanrick.Square, side int) *lanrick.State {
	t.Helper()
	s, err := g.Build(lanrick.Setup{Black: black, White: white, ToAct: side, Phase: lanrick.PhaseMove,
		Rendezvous: 6, Setter: 1 - side, Mark: mark, Size: 4, Line: -1, Budget: 3, Opened: [2]bool{true, true}})
	if err != nil {
		t.Fatalf("%v %v mark %v side %d: %v", black, white, mark, side, err)
	}
	return s
}

// rulesFiveTurns plays every turn of the player to move by the rules
// package's legal actions: the mover's men after each turn that goes on,
// and after each man-move that ends the rendezvous' race (all his men in),
// with four men or five.
func rulesFiveTurns(s *lanrick.State) (after, in map[lanrick.Bitboard]bool) {
	after, in = map[lanrick.Bitboard]bool{}, map[lanrick.Bitboard]bool{}
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
			case c.IsTerminal() || c.Phase() == lanrick.PhaseRemove || c.Phase() == lanrick.PhaseMark:
				in[c.Men(int(mover))] = true
			case c.ToAct() != mover:
				after[c.Men(int(mover))] = true
			default:
				walk(c)
			}
		}
	}
	walk(s)
	return after, in
}

// TestFiveManMovesMatchRules checks the five-man generator (Rules 1, 3 and
// 6's border slides, and the race's end at all men in, Rules 7 and 8)
// against the rules package on random positions and rendezvous.
func TestFiveManMovesMatchRules(t *testing.T) {
	g := lanrick.MustLoad("1893")
	r := rand.New(rand.NewPCG(5, 6))
	var marks []lanrick.Square
	for m := lanrick.Square(0); m < 64; m++ {
		if _, ok := openFour(m); ok {
			marks = append(marks, m)
		}
	}
	if len(marks) != 36 {
		t.Fatalf("%d marks of a 4-square rendezvous, want 36 (the field)", len(marks))
	}
	checked, ins := 0, 0
	for n := 0; n < 400; n++ {
		mark := marks[r.IntN(len(marks))]
		rdv, _ := openFour(mark)
		sq := r.Perm(64)[:5]
		// Men near the rendezvous' border squares, often: slides matter.
		if n%2 == 0 {
			var border []int
			for s := 0; s < 64; s++ {
				if ringAt[s] >= 0 {
					border = append(border, s)
				}
			}
			p := r.Perm(len(border))
			for i := 0; i < 4; i++ {
				sq[i] = border[p[i]]
			}
			if sq[4] == sq[0] || sq[4] == sq[1] || sq[4] == sq[2] || sq[4] == sq[3] {
				continue
			}
		}
		var three, two lanrick.Bitboard
		for i, s := range sq {
			if i < 3 {
				three |= 1 << s
			} else {
				two |= 1 << s
			}
		}
		if three&^rdv == 0 || two&^rdv == 0 {
			continue
		}
		black, white := three, two
		if n%3 == 0 {
			black, white = two, three
		}
		side := r.IntN(2)
		s := fiveState(t, g, black, white, mark, side)
		wantAfter, wantIn := rulesFiveTurns(s)
		mover, other := black, white
		if side == 1 {
			mover, other = white, black
		}
		var men []int8
		for w := uint64(mover); w != 0; w &= w - 1 {
			men = append(men, int8(bits.TrailingZeros64(w)))
		}
		gotAfter, gotIn := map[lanrick.Bitboard]bool{}, map[lanrick.Bitboard]bool{}
		fiveTurn(men, uint64(other), 3, uint64(rdv), func(m []int8, in bool) {
			b := lanrick.Bitboard(setOf(m))
			if in {
				gotIn[b] = true
			} else {
				gotAfter[b] = true
			}
		})
		if err := sameSets(gotAfter, wantAfter); err != nil {
			t.Fatalf("%s: after a turn: %v", s, err)
		}
		if err := sameSets(gotIn, wantIn); err != nil {
			t.Fatalf("%s: all in: %v", s, err)
		}
		checked++
		if len(wantIn) > 0 {
			ins++
		}
	}
	if checked < 250 || ins < 20 {
		t.Fatalf("%d positions checked, %d with a turn that gets all in: too few", checked, ins)
	}
}

func sameSets(got, want map[lanrick.Bitboard]bool) error {
	for m := range want {
		if !got[m] {
			return fmt.Errorf("the rules reach %s, the generator does not", squares(m))
		}
	}
	for m := range got {
		if !want[m] {
			return fmt.Errorf("the generator reaches %s, the rules do not", squares(m))
		}
	}
	return nil
}

// testExit is a made-up value of Rule 8's end, for the two who filled the
// rendezvous: wins and losses of various lengths, to test the solver's
// handling of exits apart from the four-man tables.
func testExit(duo, trio uint64) Value {
	h := (duo*0x9e3779b97f4a7c15 ^ trio*0xc2b2ae3d27d4eb4f) >> 59
	if h%3 == 0 {
		return Value{Outcome: -1, Turns: 2 + int(h%4)}
	}
	return Value{Outcome: 1, Turns: 1 + int(h%5)}
}

// regionGraph is a five-man graph on part of the board, the other squares
// walls: small enough to solve in a test, and to check by a solver that
// knows nothing of nodes within a turn.
func regionGraph(t *testing.T, mark lanrick.Square, region []string) *fiveGraph {
	t.Helper()
	rdv, ok := openFour(mark)
	if !ok {
		t.Fatalf("no 4-square rendezvous at %v", mark)
	}
	var reg uint64
	for _, s := range region {
		q, err := lanrick.ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		reg |= 1 << uint(q)
	}
	return &fiveGraph{ix: newFiveIndex(reg), rdv: uint64(rdv), exit: testExit, stuck: true}
}

// turnLevels solves the same graph turn by turn, with the whole-turn
// generator: a position is won in L turns when one of its turns leads to a
// position lost in L-1 (or ends the race with a win in L), lost in L when
// every turn leads to a win for the other (or a losing end), the longest
// taking L. It returns the value of every start of a turn (by node; the
// zero Value for drawn ones).
func turnLevels(g *fiveGraph) map[uint32]Value {
	type option struct {
		to   uint32 // a start of a turn, by its place in starts
		exit Value
	}
	placings := len(g.ix.trios) * len(g.ix.duos)
	at := func(n uint32) uint32 { return n/kinds*2 + n%kinds/duoKinds }
	opts := make([][]option, 2*placings)
	for p := 0; p < placings; p++ {
		for _, k := range []int{startTrio, startDuo} {
			n := node(p, k)
			tr, du, _, ok := g.ix.decodeNode(n)
			if !ok {
				continue
			}
			trioMoves := k == startTrio
			men := append([]int8(nil), du[:]...)
			other := setOf(tr[:])
			if trioMoves {
				men, other = append([]int8(nil), tr[:]...), setOf(du[:])
			}
			var os []option
			fiveTurn(men, other|g.ix.block, 3, g.rdv, func(m []int8, in bool) {
				after := setOf(m)
				switch {
				case in && trioMoves:
					os = append(os, option{exit: Value{Outcome: 1, Turns: 1}})
				case in && bits.OnesCount64(other&g.rdv) == 2:
					os = append(os, option{exit: g.exit(after, other&g.rdv)})
				case in:
					for _, c := range tr {
						if g.rdv&bit(c) == 0 {
							os = append(os, option{to: at(node(g.ix.placing([3]int8{m[0], m[1], c}, others(tr[:], c)), startDuo))})
						}
					}
				case trioMoves:
					os = append(os, option{to: at(node(g.ix.placing([3]int8{m[0], m[1], m[2]}, du), startDuo))})
				default:
					os = append(os, option{to: at(node(g.ix.placing(tr, [2]int8{m[0], m[1]}), startTrio))})
				}
			})
			opts[at(n)] = os
		}
	}
	val := make([]Value, len(opts))
	for level := 1; level < 128; level++ {
		var found []int
		var vs []Value
		for n, os := range opts {
			if val[n].Outcome != 0 || len(os) == 0 {
				continue
			}
			win, loss, all := 0, 0, true
			for _, o := range os {
				v := o.exit
				if v.Outcome == 0 {
					w := val[o.to]
					if w.Outcome == 0 || w.Turns+1 > level {
						all = false
						continue
					}
					v = Value{Outcome: -w.Outcome, Turns: w.Turns + 1}
				} else if v.Turns > level {
					all = false
					continue
				}
				if v.Outcome > 0 && (win == 0 || v.Turns < win) {
					win = v.Turns
				}
				if v.Outcome < 0 && v.Turns > loss {
					loss = v.Turns
				}
			}
			switch {
			case win > 0:
				found, vs = append(found, n), append(vs, Value{Outcome: 1, Turns: win})
			case all:
				found, vs = append(found, n), append(vs, Value{Outcome: -1, Turns: loss})
			}
		}
		for i, n := range found {
			val[n] = vs[i]
		}
	}
	out := map[uint32]Value{}
	for p := 0; p < placings; p++ {
		for _, k := range []int{startTrio, startDuo} {
			n := node(p, k)
			if _, _, _, ok := g.ix.decodeNode(n); ok {
				out[n] = val[at(n)]
			}
		}
	}
	return out
}

// TestFiveSolvesLikeTurns solves small regions of the board both ways and
// compares every position at the start of a turn.
func TestFiveSolvesLikeTurns(t *testing.T) {
	for _, c := range []struct {
		mark   lanrick.Square
		region []string
	}{
		// b2's rendezvous is a1 c1 a3 h8: all four squares, so Rule 8 ends.
		{9, []string{"a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "h8", "h7", "g7"}},
		// c3's is a1 e1 a5 h8, h8 a wall: only Rule 7 and the three all in.
		{18, []string{"a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "a3", "a4", "a5", "b4"}},
	} {
		g := regionGraph(t, c.mark, c.region)
		d, err := g.solve(2, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := turnLevels(g)
		var won, lost, drawn int
		for n, w := range want {
			got := decodeFive(d.get(n))
			if got != w {
				tr, du, k, _ := g.ix.decodeNode(n)
				t.Fatalf("mark %v: three %v two %v kind %d: man-move solver %v, turn solver %v", c.mark, tr, du, k, got, w)
			}
			switch w.Outcome {
			case 1:
				won++
			case -1:
				lost++
			default:
				drawn++
			}
		}
		t.Logf("mark %v: %d won, %d lost, %d drawn", c.mark, won, lost, drawn)
		if won == 0 || lost == 0 {
			t.Fatalf("mark %v: %d won, %d lost: the test shows nothing", c.mark, won, lost)
		}
	}
}

type fiveEdge struct {
	kind int
	from uint32
}

// TestFiveEdgesReverse checks that the edges into a node, as backward
// lists them, are exactly the edges out of every node into it, as forward
// lists them, counted with their multiplicity: on the whole of a region,
// and both ways round on samples of the board.
func TestFiveEdgesReverse(t *testing.T) {
	g := regionGraph(t, 9, []string{"a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "g8", "h8", "h7", "g7"})
	into := map[uint32]map[fiveEdge]int{}
	var buf []manMove
	for n := 0; n < g.ix.nodes(); n++ {
		buf = g.forward(uint32(n), buf, func(kind int, to uint32, _ Value) {
			if kind == edgeExit {
				return
			}
			if into[to] == nil {
				into[to] = map[fiveEdge]int{}
			}
			into[to][fiveEdge{kind, uint32(n)}]++
		})
	}
	edges := 0
	for n := 0; n < g.ix.nodes(); n++ {
		got := map[fiveEdge]int{}
		buf = g.backward(uint32(n), buf, func(kind int, from uint32) { got[fiveEdge{kind, from}]++ })
		want := into[uint32(n)]
		if len(got) != len(want) {
			t.Fatalf("node %d: %d distinct edges in by backward, %d by forward", n, len(got), len(want))
		}
		for e, c := range want {
			if got[e] != c {
				t.Fatalf("node %d: edge %+v %d times by backward, %d by forward", n, e, got[e], c)
			}
			edges += c
		}
	}
	if edges < 100000 {
		t.Fatalf("%d edges: the region is too small to show anything", edges)
	}

	full := &fiveGraph{ix: newFiveIndex(^uint64(0)), exit: testExit}
	r := rand.New(rand.NewPCG(7, 8))
	for n := 0; n < 300; n++ {
		mark := lanrick.Square(9 + 8*r.IntN(6) + r.IntN(6))
		rdv, _ := openFour(mark)
		full.rdv = uint64(rdv)
		sq := r.Perm(64)
		if n%2 == 0 {
			// Near the rendezvous, where the race ends and turns round.
			var near []int
			for s := 0; s < 64; s++ {
				if ringAt[s] >= 0 {
					near = append(near, s)
				}
			}
			p := r.Perm(len(near))
			for i := range 5 {
				sq[i] = near[p[i]]
			}
		}
		p := full.ix.placing([3]int8{int8(sq[0]), int8(sq[1]), int8(sq[2])}, [2]int8{int8(sq[3]), int8(sq[4])})
		q := node(p, r.IntN(kinds))
		// Backward, then forward from each source found.
		back := map[fiveEdge]int{}
		buf = full.backward(q, buf, func(kind int, from uint32) { back[fiveEdge{kind, from}]++ })
		for e, c := range back {
			fw := 0
			buf = full.forward(e.from, buf, func(kind int, to uint32, _ Value) {
				if kind == e.kind && to == q {
					fw++
				}
			})
			if fw != c {
				t.Fatalf("mark %v node %d: %d edges from %d by backward, %d by forward", mark, q, c, e.from, fw)
			}
		}
		// Forward, then backward from each target found.
		out := map[fiveEdge]int{}
		buf = full.forward(q, buf, func(kind int, to uint32, _ Value) {
			if kind != edgeExit {
				out[fiveEdge{kind, to}]++
			}
		})
		for e, c := range out {
			bw := 0
			buf = full.backward(e.from, buf, func(kind int, from uint32) {
				if kind == e.kind && from == q {
					bw++
				}
			})
			if bw != c {
				t.Fatalf("mark %v node %d: %d edges to %d by forward, %d by backward", mark, q, c, e.from, bw)
			}
		}
	}
}

// TestFiveClasses checks the six classes of the 4-square rendezvous: every
// one of the 36 maps into one of them, and each class is the smallest of
// its images.
func TestFiveClasses(t *testing.T) {
	cs := FiveClasses()
	if len(cs) != 6 {
		t.Fatalf("%d classes, want 6", len(cs))
	}
	in := map[lanrick.Bitboard]bool{}
	for _, c := range cs {
		in[c] = true
		if !isFour(c) {
			t.Errorf("%s is not a 4-square rendezvous", squareNames(c))
		}
	}
	for m := lanrick.Square(0); m < 64; m++ {
		rdv, ok := openFour(m)
		if !ok {
			continue
		}
		c, s := canonical(rdv)
		if !in[c] || transform(s, rdv) != c {
			t.Errorf("mark %v: %s maps to %s, not a class", m, squareNames(rdv), squareNames(c))
		}
	}
}

// TestFiveFile writes a table (of made-up entries: a real one takes an
// hour to build) and opens it again, and refuses damaged files.
func TestFiveFile(t *testing.T) {
	rdv := FiveClasses()[2]
	ix := fullIndex()
	tb := &FiveTable{Rdv: rdv, d: make([]uint8, 2*len(ix.trios)*len(ix.duos))}
	for i := range tb.Exits {
		tb.Exits[i] = Value{Outcome: 1, Turns: 7 + i%2}
	}
	for i := range tb.d {
		tb.d[i] = uint8(uint32(i) * 2654435761 >> 24)
	}
	r := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	name := dir + "/" + FiveFileName(rdv, tb.Exits)
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	f, err = os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, err := OpenFive(f, true)
	if err != nil {
		t.Fatal(err)
	}
	if back.Rdv != rdv || back.Exits != tb.Exits {
		t.Fatalf("read back %s %v, wrote %s %v", squareNames(back.Rdv), back.Exits, squareNames(rdv), tb.Exits)
	}
	for n := 0; n < 1000; n++ {
		sq := r.Perm(64)[:5]
		three := lanrick.Bitboard(1)<<sq[0] | 1<<sq[1] | 1<<sq[2]
		two := lanrick.Bitboard(1)<<sq[3] | 1<<sq[4]
		toMove := n%2 == 0
		want, err := tb.Value(three, two, toMove)
		if err != nil {
			t.Fatal(err)
		}
		got, err := back.Value(three, two, toMove)
		if err != nil || got != want {
			t.Fatalf("%s against %s: read %v (%v), wrote %v", squareNames(three), squareNames(two), got, err, want)
		}
	}
	if _, err := back.Value(three(0, 1, 2), 1<<2|1<<5, true); !errors.Is(err, ErrFiveShape) {
		t.Errorf("men on one square: %v, want ErrFiveShape", err)
	}
	// A damaged entry is caught by the check; a short file at once.
	raw, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	raw[fiveHeader+12345] ^= 1
	if _, err := OpenFive(bytesFile(raw), true); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a changed entry: %v, want ErrCorrupt", err)
	}
	if _, err := OpenFive(bytesFile(raw[:len(raw)-1]), false); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a short file: %v, want ErrCorrupt", err)
	}
	// Tables finds it under its rendezvous' 36 marks, through the
	// symmetries, and says ErrMissing of the others.
	ts := &Tables{Dir: dir, NoBuild: true}
	ts.exits = map[fiveKey]Exits{{rdv, false}: tb.Exits}
	for _, c := range FiveClasses() {
		_, _, err := ts.Five(c, false)
		if c == rdv && err != nil || c != rdv && !errors.Is(err, ErrMissing) {
			t.Errorf("%s: %v", squareNames(c), err)
		}
	}
}

func three(a, b, c int) lanrick.Bitboard { return 1<<a | 1<<b | 1<<c }

// bytesFile is a file held in memory, for OpenFive.
type bytesFile []byte

func (b bytesFile) ReadAt(p []byte, off int64) (int, error) {
	return bytes.NewReader(b).ReadAt(p, off)
}

func (b bytesFile) Stat() (os.FileInfo, error) { return sizeInfo(len(b)), nil }

type sizeInfo int

func (s sizeInfo) Name() string       { return "table" }
func (s sizeInfo) Size() int64        { return int64(s) }
func (s sizeInfo) Mode() os.FileMode  { return 0 }
func (s sizeInfo) ModTime() time.Time { return time.Time{} }
func (s sizeInfo) IsDir() bool        { return false }
func (s sizeInfo) Sys() any           { return nil }

// FuzzOpenFive feeds OpenFive arbitrary bytes: it must return an error or
// a table, never panic.
func FuzzOpenFive(f *testing.F) {
	f.Add([]byte(fiveMagic + "\x00\x00\x00\x00\x00\x00\x00\x00\x07\x07\x07\x07\x07\x07\x00\x00\x00\x00"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if tb, err := OpenFive(bytesFile(data), true); err == nil && !isFour(tb.Rdv) {
			t.Fatalf("accepted a table of %x", uint64(tb.Rdv))
		}
	})
}

// TestAppliesFive checks which positions the five-man tables answer.
func TestAppliesFive(t *testing.T) {
	g := lanrick.MustLoad("1893")
	rdv := FiveClasses()[0]
	r := rand.New(rand.NewPCG(9, 9))
	three, two := randomFive(r, rdv)
	s := fiveState(t, g, three, two, markOf(rdv), 0)
	if !AppliesFive(s) || AppliesFour(s) || !Applies(s) {
		t.Fatalf("%s: AppliesFive %v AppliesFour %v", s, AppliesFive(s), AppliesFour(s))
	}
	// Four men a side is the four-man tables' (their final rendezvous),
	// and 1880-12 is no one's.
	var l Line
	for _, x := range Lines() {
		if x.Squares&(three|two) == 0 {
			l = x
			break
		}
	}
	b2, w2 := RandomPosition(r)
	if s4 := state(t, g, b2, w2, l, 0, false); AppliesFive(s4) || !AppliesFour(s4) {
		t.Errorf("%s: AppliesFive %v AppliesFour %v", s4, AppliesFive(s4), AppliesFour(s4))
	}
	if s80, err := lanrick.MustLoad("1880-12").Parse(lanrick.MustLoad("1880-12").NewState().String()); err != nil || Applies(s80) {
		t.Errorf("1880-12's start: Applies %v (%v)", err == nil && Applies(s80), err)
	}
	// Without its table on disk, Act says ErrMissing (the agents then
	// search), quickly: no file of the rendezvous, so its ends are not
	// valued.
	ts := &Tables{Dir: t.TempDir(), NoBuild: true}
	if _, _, err := ts.Act(s); !errors.Is(err, ErrMissing) {
		t.Errorf("Act without tables: %v, want ErrMissing", err)
	}
}

func markOf(rdv lanrick.Bitboard) lanrick.Square {
	for m := lanrick.Square(0); m < 64; m++ {
		if r, ok := openFour(m); ok && r == rdv {
			return m
		}
	}
	return lanrick.NoSquare
}

func randomFive(r *rand.Rand, rdv lanrick.Bitboard) (three, two lanrick.Bitboard) {
	for {
		sq := r.Perm(64)[:5]
		three, two = 1<<sq[0]|1<<sq[1]|1<<sq[2], 1<<sq[3]|1<<sq[4]
		if three&^rdv != 0 && two&^rdv != 0 {
			return three, two
		}
	}
}

// fiveTurn walks every turn of the mover's men (men, n of them; the
// other's men on other) with budget squares, in rdv: each man moved at
// most once (Rule 3), every sequence of man-moves a turn that may end
// there, and a turn that brings all the mover's men in ending at once
// (Rules 7 and 8). visit is called after every man-move with the mover's
// men (in no order) and whether they are all in; a visit that reports all
// in is not walked further.
func fiveTurn(men []int8, other uint64, budget int, rdv uint64, visit func(men []int8, allIn bool)) {
	var occ uint64
	for _, m := range men {
		occ |= bit(m)
	}
	var bufs [3][]manMove
	var walk func(moved int, occ uint64, budget int)
	walk = func(moved int, occ uint64, budget int) {
		for i := range men {
			if moved&(1<<i) != 0 {
				continue
			}
			from := men[i]
			depth := popcount(moved)
			bufs[depth] = appendManMoves(bufs[depth][:0], from, occ|other, budget, rdv, true)
			for _, mv := range bufs[depth] {
				men[i] = mv.to
				occ2 := occ&^bit(from) | bit(mv.to)
				in := occ2&^rdv == 0
				visit(men, in)
				if !in && budget > int(mv.cost) && moved|1<<i != 1<<len(men)-1 {
					walk(moved|1<<i, occ2, budget-int(mv.cost))
				}
			}
			men[i] = from
		}
	}
	walk(0, occ, budget)
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// TestFiveSolverInParallel runs the five-man solver on a small region with
// four workers sharing every level's nodes a few at a time (the test
// lowers parallel's thresholds), and finds every node valued as one worker
// values it. Under the race detector (CI runs every test with -race) it
// checks the parallel solver's sharing of its packed words: no part of the
// solver is kept out of the detector.
func TestFiveSolverInParallel(t *testing.T) {
	g := regionGraph(t, 9, []string{"a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "h8", "h7", "g7"})
	one, err := g.solve(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	minimum, grain := parallelMin, parallelGrain
	parallelMin, parallelGrain = 1, 8
	defer func() { parallelMin, parallelGrain = minimum, grain }()
	four, err := g.solve(4, nil)
	if err != nil {
		t.Fatal(err)
	}
	nodes, decided := 0, 0
	for n := range uint32(g.ix.nodes()) {
		if _, _, _, ok := g.ix.decodeNode(n); !ok {
			continue
		}
		nodes++
		if one.get(n) != four.get(n) {
			t.Fatalf("node %d: one worker %d, four %d", n, one.get(n), four.get(n))
		}
		if one.get(n) != 0 {
			decided++
		}
	}
	t.Logf("%d nodes, %d won or lost, alike on one worker and four", nodes, decided)
	if decided == 0 {
		t.Fatal("nothing decided: the region shows nothing")
	}
}
