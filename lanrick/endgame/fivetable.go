package endgame

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/muster-games/muster/lanrick"
)

// FiveClasses returns the 4-square open rendezvous (Def. 3: a mark on any
// of the 36 field squares), one for each class under the board's eight
// symmetries: six.
func FiveClasses() []lanrick.Bitboard {
	seen := map[lanrick.Bitboard]bool{}
	var out []lanrick.Bitboard
	for m := lanrick.Square(0); m < 64; m++ {
		rdv, ok := openFour(m)
		if !ok {
			continue
		}
		if c, _ := canonical(rdv); !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// Exits are the values of Rule 8's ends of a five-man rendezvous: for
// each way the two can fill it (their men on two of its squares, the
// three's remaining two on the others; the pairs in ascending order of
// their squares), what it is worth to the two, the turn that filled it
// counting as the first. The final rendezvous follows, its mark set by the
// three's side, so the values come from the four-man tables with Rule 5;
// 1899's proviso on the setter's mark makes some of them differ from
// 1893's.
type Exits [6]Value

// fillings lists the six pairs of a rendezvous' squares in Exits' order.
func fillings(rdv lanrick.Bitboard) [6]uint64 {
	var sq [4]uint64
	i := 0
	for w := uint64(rdv); w != 0; w &= w - 1 {
		sq[i] = w & -w
		i++
	}
	var out [6]uint64
	k := 0
	for a := 0; a < 4; a++ {
		for b := a + 1; b < 4; b++ {
			out[k] = sq[a] | sq[b]
			k++
		}
	}
	return out
}

// FiveExits values the ends of a five-man rendezvous from the four-man
// tables; noOwnMan applies 1899's proviso.
func (ts *Tables) FiveExits(rdv lanrick.Bitboard, noOwnMan bool) (Exits, error) {
	var e Exits
	for i, duo := range fillings(rdv) {
		trio := uint64(rdv) &^ duo
		ms, err := ts.Marks(lanrick.Bitboard(duo), lanrick.Bitboard(trio), lanrick.White, noOwnMan)
		if err != nil {
			return e, err
		}
		c := Choose(ms)
		if !c.Found {
			return e, fmt.Errorf("endgame: no final mark after filling %s", squareNames(lanrick.Bitboard(duo)))
		}
		v := c.With.Chosen()
		if v.Outcome == 0 {
			return e, fmt.Errorf("endgame: a drawn final rendezvous after filling %s", squareNames(lanrick.Bitboard(duo)))
		}
		// The setter's value, from the filler's opening turn: to the
		// filler, one turn more.
		e[i] = Value{Outcome: -v.Outcome, Turns: v.Turns + 1}
	}
	return e, nil
}

func (e Exits) bytes() []byte {
	var b [6]byte
	for i, v := range e {
		b[i] = encodeFive(v)
	}
	return b[:]
}

func encodeFive(v Value) uint8 {
	switch v.Outcome {
	case 1:
		return uint8(v.Turns)
	case -1:
		return uint8(v.Turns) | lossBit
	}
	return 0
}

// FiveTable is the solved five-man rendezvous of 1893 and 1899 for one
// 4-square open rendezvous: three men against two (of either colour: the
// rules treat the colours alike, so a table speaks of "the three" and
// "the two"), every placing of them, either side to move, at the start of
// an ordinary turn, valued as turns to the end of the game under perfect
// play.
//
// Unlike the final rendezvous the race can turn round. When the two get
// both their men in while two or more of the three are outside, Rule 7
// converts one of those and ends the turn, and the same rendezvous goes on
// with the sides reversed (three against two again). It ends when the
// three get all theirs in (the two are left with one man, or lose the
// outlying one: Rule 9 either way), or when the two fill it with one of
// the three outside (Rule 8 removes him, and the final rendezvous, two men
// a side, begins with the three's side setting its mark: that value comes
// from the four-man tables, with Rule 5's interchange). A race that neither
// side can force goes on for ever: drawn.
//
// A turn is several man-moves, so the table is solved over man-moves:
// within a turn a node also holds the squares still to spend and the men
// already moved (Rule 3: "After once playing a man … he may not move it
// again in that turn"), 15 kinds of node for each placing. That keeps the
// work to each node's few dozen man-moves rather than its thousands of
// whole turns. Only the starts of turns are kept.
//
// A table just built holds its entries in memory; one opened from its
// file reads each entry from the file when asked (the operating system
// caches what is read), so that six of them, 168 MB each, need no memory
// of their own.
type FiveTable struct {
	Rdv   lanrick.Bitboard
	Exits Exits
	// d[2*placing + k]: k 0 the three to move, 1 the two; or the file.
	d []uint8
	f io.ReaderAt
}

func (t *FiveTable) entry(i int) (uint8, error) {
	if t.f == nil {
		return t.d[i], nil
	}
	var b [1]byte
	if _, err := t.f.ReadAt(b[:], int64(fiveHeader+i)); err != nil {
		return 0, err
	}
	return b[0], nil
}

var (
	boardIndexOnce sync.Once
	boardIndex     *fiveIndex
)

func fullIndex() *fiveIndex {
	boardIndexOnce.Do(func() { boardIndex = newFiveIndex(^uint64(0)) })
	return boardIndex
}

// BuildFive solves the five-man rendezvous rdv (4 squares, a field mark's
// diagonal ray-ends) with the given ends, on workers goroutines (0: one a
// core). progress, if set, is told each level's number of nodes.
func BuildFive(rdv lanrick.Bitboard, exits Exits, workers int, progress func(level, nodes int)) (*FiveTable, error) {
	if !isFour(rdv) {
		return nil, fmt.Errorf("endgame: %s is not a 4-square rendezvous", squareNames(rdv))
	}
	// The exits by filling, worked out once: the solver asks at every
	// man-move that fills the rendezvous.
	byFilling := map[uint64]Value{}
	for i, f := range fillings(rdv) {
		byFilling[f] = exits[i]
	}
	g := &fiveGraph{ix: fullIndex(), rdv: uint64(rdv), exit: func(duo, _ uint64) Value { return byFilling[duo] }}
	d, err := g.solve(workers, progress)
	if err != nil {
		return nil, err
	}
	placings := len(g.ix.trios) * len(g.ix.duos)
	t := &FiveTable{Rdv: rdv, Exits: exits, d: make([]uint8, 2*placings)}
	for p := 0; p < placings; p++ {
		t.d[2*p] = d.get(node(p, startTrio))
		t.d[2*p+1] = d.get(node(p, startDuo))
	}
	return t, nil
}

func isFour(rdv lanrick.Bitboard) bool {
	for m := lanrick.Square(0); m < 64; m++ {
		if r, ok := openFour(m); ok && r == rdv {
			return true
		}
	}
	return false
}

// Value returns the value, for the side to move, of three men against two
// on the table's rendezvous at the start of an ordinary turn (not the
// rendezvous' 2-square opening one).
func (t *FiveTable) Value(three, two lanrick.Bitboard, threeToMove bool) (Value, error) {
	if bits.OnesCount64(uint64(three)) != 3 || bits.OnesCount64(uint64(two)) != 2 || three&two != 0 {
		return Value{}, ErrFiveShape
	}
	var tr [3]int8
	var du [2]int8
	for i, w := 0, uint64(three); w != 0; w &= w - 1 {
		tr[i] = int8(bits.TrailingZeros64(w))
		i++
	}
	for i, w := 0, uint64(two); w != 0; w &= w - 1 {
		du[i] = int8(bits.TrailingZeros64(w))
		i++
	}
	k := 1
	if threeToMove {
		k = 0
	}
	b, err := t.entry(2*fullIndex().placing(tr, du) + k)
	return decodeFive(b), err
}

// ErrFiveShape says a position is not three men against two.
var ErrFiveShape = fmt.Errorf("endgame: not three men against two on distinct squares")

// FiveStats counts a table's positions at the start of a turn.
type FiveStats struct {
	// By the side to move: [0] the three, [1] the two.
	Wins, Losses, Draws [2]int
	Longest             int
}

// Stats counts the positions of a table built in memory (men on one
// square left out).
func (t *FiveTable) Stats() FiveStats {
	var st FiveStats
	ix := fullIndex()
	for i, b := range t.d {
		p := i / 2
		tr, du := ix.trios[p/len(ix.duos)], ix.duos[p%len(ix.duos)]
		if setOf(tr[:])&setOf(du[:]) != 0 {
			continue
		}
		k := i % 2
		switch v := decodeFive(b); v.Outcome {
		case 1:
			st.Wins[k]++
		case -1:
			st.Losses[k]++
		default:
			st.Draws[k]++
		}
		st.Longest = max(st.Longest, int(b&^lossBit))
	}
	return st
}

// FiveFileName names the file of a table: its rendezvous and its exits
// (the tables of 1893 and 1899 differ only where these do).
func FiveFileName(rdv lanrick.Bitboard, e Exits) string {
	return fmt.Sprintf("lanrick-3v2-%016x-%x.tbl", uint64(rdv), e.bytes())
}

const fiveMagic = "muster lanrick 3v2 table v1\n"

// fiveHeader is the size of a file's header: the magic line, the
// rendezvous, the exits and the CRC-32 of the entries.
const fiveHeader = len(fiveMagic) + 8 + 6 + 4

// Write writes a table built in memory: the header, then the entries, a
// byte each, uncompressed, so that a reader can read any one of them.
func (t *FiveTable) Write(w io.Writer) error {
	hdr := make([]byte, 0, fiveHeader)
	hdr = append(hdr, fiveMagic...)
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(t.Rdv))
	hdr = append(hdr, t.Exits.bytes()...)
	hdr = binary.LittleEndian.AppendUint32(hdr, crc32.ChecksumIEEE(t.d))
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	_, err := w.Write(t.d)
	return err
}

// fiveSize is the size of a table's file.
func fiveSize() int64 {
	ix := fullIndex()
	return int64(fiveHeader + 2*len(ix.trios)*len(ix.duos))
}

// OpenFive opens a table's file for reading entries from it, checking its
// header and size; check also reads every entry and checks their CRC-32.
func OpenFive(f interface {
	io.ReaderAt
	Stat() (os.FileInfo, error)
}, check bool) (*FiveTable, error) {
	hdr := make([]byte, fiveHeader)
	if _, err := f.ReadAt(hdr, 0); err != nil || string(hdr[:len(fiveMagic)]) != fiveMagic {
		return nil, ErrCorrupt
	}
	h := hdr[len(fiveMagic):]
	t := &FiveTable{Rdv: lanrick.Bitboard(binary.LittleEndian.Uint64(h)), f: f}
	for i := range t.Exits {
		t.Exits[i] = decodeFive(h[8+i])
		if t.Exits[i].Outcome == 0 {
			return nil, ErrCorrupt
		}
	}
	if !isFour(t.Rdv) {
		return nil, ErrCorrupt
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() != fiveSize() {
		return nil, fmt.Errorf("%w: %d bytes, not %d", ErrCorrupt, st.Size(), fiveSize())
	}
	if check {
		sum := crc32.NewIEEE()
		if _, err := io.Copy(sum, io.NewSectionReader(f, int64(fiveHeader), fiveSize()-int64(fiveHeader))); err != nil {
			return nil, err
		}
		if sum.Sum32() != binary.LittleEndian.Uint32(h[14:]) {
			return nil, ErrCorrupt
		}
	}
	return t, nil
}

// fiveSlot holds one five-man table, loaded once.
type fiveSlot struct {
	once sync.Once
	t    *FiveTable
	err  error
}

// FiveExitsOf returns the exits of a canonical rendezvous' table under a
// ruleset (noOwnMan for 1899), from the four-man tables, once.
func (ts *Tables) FiveExitsOf(c lanrick.Bitboard, noOwnMan bool) (Exits, error) {
	key := fiveKey{c, noOwnMan}
	ts.mu.Lock()
	if ts.exits == nil {
		ts.exits = map[fiveKey]Exits{}
	}
	e, ok := ts.exits[key]
	ts.mu.Unlock()
	if ok {
		return e, nil
	}
	e, err := ts.FiveExits(c, noOwnMan)
	if err != nil {
		return e, err
	}
	ts.mu.Lock()
	ts.exits[key] = e
	ts.mu.Unlock()
	return e, nil
}

type fiveKey struct {
	rdv      lanrick.Bitboard
	noOwnMan bool
}

// absentFor is how long a five-man class found missing is taken to be
// missing without looking again.
const absentFor = 10 * time.Second

// Five returns the five-man table holding a 4-square rendezvous (any of
// the 36) under a ruleset (noOwnMan for 1899), with the symmetry that maps
// positions on rdv into it. It only reads tables (ErrMissing where one is
// not on disk): building one takes many minutes (BuildFive).
func (ts *Tables) Five(rdv lanrick.Bitboard, noOwnMan bool) (*FiveTable, int, error) {
	c, t := canonical(rdv)
	key := fiveKey{c, noOwnMan}
	ts.mu.Lock()
	sl := ts.fives[key]
	ts.mu.Unlock()
	if sl != nil {
		sl.once.Do(func() {}) // wait for the load under way
		return sl.t, t, sl.err
	}
	if ts.Dir == "" {
		return nil, 0, ErrMissing
	}
	// No file of this rendezvous at all (the usual case): say so before
	// valuing its ends, which reads the four-man tables. Nothing is kept,
	// so a table built later is found.
	ts.mu.Lock()
	seen, was := ts.absent[c]
	ts.mu.Unlock()
	if was && time.Since(seen) < absentFor {
		return nil, 0, ErrMissing
	}
	if m, _ := filepath.Glob(filepath.Join(ts.Dir, fmt.Sprintf("lanrick-3v2-%016x-*.tbl", uint64(c)))); len(m) == 0 {
		ts.mu.Lock()
		if ts.absent == nil {
			ts.absent = map[lanrick.Bitboard]time.Time{}
		}
		ts.absent[c] = time.Now()
		ts.mu.Unlock()
		return nil, 0, ErrMissing
	}
	e, err := ts.FiveExitsOf(c, noOwnMan)
	if err != nil {
		return nil, 0, err
	}
	name := FiveFileName(c, e)
	ts.mu.Lock()
	if ts.fives == nil {
		ts.fives = map[fiveKey]*fiveSlot{}
	}
	sl = ts.fives[key]
	if sl == nil {
		sl = &fiveSlot{}
		ts.fives[key] = sl
	}
	ts.mu.Unlock()
	sl.once.Do(func() {
		f, err := os.Open(filepath.Join(ts.Dir, name))
		if errors.Is(err, os.ErrNotExist) {
			sl.err = ErrMissing
			return
		} else if err != nil {
			sl.err = err
			return
		}
		// The file stays open while the tables are in use.
		tb, err := OpenFive(f, false)
		switch {
		case err != nil:
			sl.err = fmt.Errorf("%s: %w", name, err)
		case tb.Rdv != c || tb.Exits != e:
			sl.err = fmt.Errorf("%s: %w", name, ErrCorrupt)
		default:
			sl.t = tb
		}
		if sl.err != nil {
			f.Close()
		}
	})
	return sl.t, t, sl.err
}

// FiveValue returns the value of three men against two (of either colour)
// on a 4-square rendezvous at the start of an ordinary turn, for the side
// to move, from the table on disk.
func (ts *Tables) FiveValue(three, two, rdv lanrick.Bitboard, threeToMove, noOwnMan bool) (Value, error) {
	tb, t, err := ts.Five(rdv, noOwnMan)
	if err != nil {
		return Value{}, err
	}
	return tb.Value(transform(t, three), transform(t, two), threeToMove)
}

// FiveBuilt is a five-man table written to disk: its file, its size and the
// time the build took.
type FiveBuilt struct {
	Table *FiveTable
	Path  string
	Bytes int64
	Took  time.Duration
}

// BuildFive solves the five-man rendezvous of a canonical rendezvous under
// a ruleset, writes it into Dir (through a temporary file, renamed, so a
// killed build leaves no table), reads it back and compares. A table
// already on disk is read, not built (Took is then 0).
func (ts *Tables) BuildFive(c lanrick.Bitboard, noOwnMan bool, workers int, progress func(level, nodes int)) (FiveBuilt, error) {
	e, err := ts.FiveExitsOf(c, noOwnMan)
	if err != nil {
		return FiveBuilt{}, err
	}
	path := filepath.Join(ts.Dir, FiveFileName(c, e))
	if tb, _, err := ts.Five(c, noOwnMan); err == nil {
		st, err := os.Stat(path)
		if err != nil {
			return FiveBuilt{}, err
		}
		return FiveBuilt{Table: tb, Path: path, Bytes: st.Size()}, nil
	} else if !errors.Is(err, ErrMissing) {
		return FiveBuilt{}, err
	}
	start := time.Now()
	tb, err := BuildFive(c, e, workers, progress)
	if err != nil {
		return FiveBuilt{}, err
	}
	took := time.Since(start)
	if err := os.MkdirAll(ts.Dir, 0o755); err != nil {
		return FiveBuilt{}, err
	}
	tmp, err := os.CreateTemp(ts.Dir, "tbl-*")
	if err != nil {
		return FiveBuilt{}, err
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriterSize(tmp, 1<<20)
	if err := tb.Write(bw); err != nil {
		tmp.Close()
		return FiveBuilt{}, err
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return FiveBuilt{}, err
	}
	if err := tmp.Close(); err != nil {
		return FiveBuilt{}, err
	}
	f, err := os.Open(tmp.Name())
	if err != nil {
		return FiveBuilt{}, err
	}
	back, err := OpenFive(f, true)
	if err == nil && (back.Rdv != tb.Rdv || back.Exits != tb.Exits) {
		err = ErrCorrupt
	}
	if err == nil {
		got := make([]byte, len(tb.d))
		if _, err = f.ReadAt(got, int64(fiveHeader)); err == nil && !bytes.Equal(got, tb.d) {
			err = ErrCorrupt
		}
	}
	f.Close()
	if err != nil {
		return FiveBuilt{}, fmt.Errorf("reading back %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return FiveBuilt{}, err
	}
	ts.mu.Lock()
	// Found at once from now on: neither the class's absence nor a
	// missing file of another ruleset's exits (1893's file, when 1899's
	// was asked for before it was built) stays remembered.
	delete(ts.absent, c)
	delete(ts.fives, fiveKey{c, noOwnMan})
	ts.mu.Unlock()
	st, err := os.Stat(path)
	if err != nil {
		return FiveBuilt{}, err
	}
	return FiveBuilt{Table: tb, Path: path, Bytes: st.Size(), Took: took}, nil
}

// squareNames writes a set of squares ("a1 c1").
func squareNames(b lanrick.Bitboard) string {
	out := ""
	for w := uint64(b); w != 0; w &= w - 1 {
		if out != "" {
			out += " "
		}
		out += lanrick.Square(bits.TrailingZeros64(w)).String()
	}
	return out
}
