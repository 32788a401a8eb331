package endgame

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/muster-games/muster/lanrick"
)

// Tables is the set of the 24 tables, loaded from a directory and built
// there when missing. It is safe for concurrent use; tables of different
// lines load or build in parallel.
type Tables struct {
	// Dir holds one file per class of lines; empty keeps tables in memory
	// only.
	Dir string
	// Progress, if set, is told before a table is built.
	Progress func(line lanrick.Bitboard)
	// NoBuild reads tables from Dir only: a missing one is ErrMissing.
	NoBuild bool

	mu     sync.Mutex
	tables map[lanrick.Bitboard]*slot
	fives  map[fiveKey]*fiveSlot
	exits  map[fiveKey]Exits
	// absent remembers when a five-man class was last found missing, so
	// that a search asking at every move looks at the folder at most once
	// every absentFor (a table built meanwhile is found after that).
	absent map[lanrick.Bitboard]time.Time
}

type slot struct {
	once sync.Once
	t    *Table
	err  error
}

// FileName names the file of the table of a canonical line.
func FileName(line lanrick.Bitboard) string {
	return fmt.Sprintf("lanrick-2v2-%016x.tbl", uint64(line))
}

// Table returns the table holding a line (any of the 168), with the
// symmetry that maps positions on line into it, loading or building it.
func (ts *Tables) Table(line lanrick.Bitboard) (*Table, int, error) {
	c, t := canonical(line)
	ts.mu.Lock()
	if ts.tables == nil {
		ts.tables = map[lanrick.Bitboard]*slot{}
	}
	sl := ts.tables[c]
	if sl == nil {
		sl = &slot{}
		ts.tables[c] = sl
	}
	ts.mu.Unlock()
	sl.once.Do(func() { sl.t, sl.err = ts.load(c) })
	return sl.t, t, sl.err
}

// load reads the table of a canonical line from its file or builds it.
func (ts *Tables) load(c lanrick.Bitboard) (*Table, error) {
	if ts.Dir != "" {
		f, err := os.Open(filepath.Join(ts.Dir, FileName(c)))
		if err == nil {
			tb, err := Read(f)
			f.Close()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", FileName(c), err)
			}
			if tb.Line != c {
				return nil, fmt.Errorf("endgame: %s holds line %016x", FileName(c), uint64(tb.Line))
			}
			return tb, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	if ts.NoBuild {
		return nil, ErrMissing
	}
	if ts.Progress != nil {
		ts.Progress(c)
	}
	tb, err := Build(c)
	if err != nil {
		return nil, err
	}
	if ts.Dir != "" {
		if err := ts.save(tb); err != nil {
			return nil, err
		}
	}
	return tb, nil
}

// save writes a table to its file (through a temporary file, renamed).
func (ts *Tables) save(tb *Table) error {
	if err := os.MkdirAll(ts.Dir, 0o755); err != nil {
		return err
	}
	name := filepath.Join(ts.Dir, FileName(tb.Line))
	tmp, err := os.CreateTemp(ts.Dir, "tbl-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tb.Write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// Value returns the value of a position at the start of an ordinary turn
// (not the 2-square opening turn) on any 3-square line.
func (ts *Tables) Value(black, white, line lanrick.Bitboard, side int) (Value, error) {
	tb, t, err := ts.Table(line)
	if err != nil {
		return Value{}, err
	}
	return tb.Value(transform(t, black), transform(t, white), side)
}

// Opening returns the value of a position at the start of a rendezvous,
// the player to move having his 2-square opening turn (Rule 3).
func (ts *Tables) Opening(black, white, line lanrick.Bitboard, side int) (Value, error) {
	tb, t, err := ts.Table(line)
	if err != nil {
		return Value{}, err
	}
	return tb.Opening(transform(t, black), transform(t, white), side)
}

// Opening returns the value of a position on the table's line at the
// start of a rendezvous, the player to move having his 2-square opening
// turn.
func (t *Table) Opening(black, white lanrick.Bitboard, side int) (Value, error) {
	if bits.OnesCount64(uint64(black)) != 2 || bits.OnesCount64(uint64(white)) != 2 || black&white != 0 || side&^1 != 0 {
		return Value{}, ErrShape
	}
	v, _ := t.bestTurn(uint64(black), uint64(white), side, openingBudget)
	return v, nil
}

// bestTurn returns the value of the best turn with the given budget and
// the men after it.
func (t *Table) bestTurn(black, white uint64, side, budget int) (Value, [2]int8) {
	mover, other := black, white
	if side == 1 {
		mover, other = white, black
	}
	m0, m1 := int8(bits.TrailingZeros64(mover)), int8(63-bits.LeadingZeros64(mover))
	rdv := uint64(t.Line)
	var best Value
	var after [2]int8
	found := false
	for _, m := range appendTurns(nil, m0, m1, mover|other, budget) {
		men := bit(m[0]) | bit(m[1])
		if men&^rdv == 0 {
			return Value{Outcome: 1, Turns: 1}, m
		}
		b, w := men, other
		if side == 1 {
			b, w = other, men
		}
		v := decode(t.d[index(1-side, b, w)]).after()
		if !found || v.better(best) {
			best, after, found = v, m, true
		}
	}
	return best, after
}

// Best returns the best turn from a position at the start of a turn,
// opening or not: the men of the player to move after it and its value.
func (ts *Tables) Best(black, white, line lanrick.Bitboard, side int, opening bool) (Value, lanrick.Bitboard, error) {
	tb, t, err := ts.Table(line)
	if err != nil {
		return Value{}, 0, err
	}
	b, w := transform(t, black), transform(t, white)
	if bits.OnesCount64(uint64(b)) != 2 || bits.OnesCount64(uint64(w)) != 2 || b&w != 0 || side&^1 != 0 {
		return Value{}, 0, ErrShape
	}
	budget := turnBudget
	if opening {
		budget = openingBudget
	}
	v, m := tb.bestTurn(uint64(b), uint64(w), side, budget)
	inv := inverse(t)
	return v, transform(inv, lanrick.Bitboard(bit(m[0])|bit(m[1]))), nil
}

// inverse returns the symmetry undoing symmetry t.
func inverse(t int) int {
next:
	for u := 0; u < 8; u++ {
		for s := 0; s < 64; s++ {
			if sym[u][sym[t][s]] != int8(s) {
				continue next
			}
		}
		return u
	}
	panic("endgame: a symmetry without inverse")
}

// The file of a table: a magic line, the line's squares, the CRC-32 of the
// entries, then the entries, a byte each, compressed with gzip at its
// default level (most positions are won or lost within a few turns, so the
// bytes repeat and a table of 8.1 million entries takes about 1.3 MB: the
// table of "d4 ne" 1,282,435 bytes in 0.55 s, against 1,228,354 bytes in
// 4.0 s at the best compression).
const magic = "muster lanrick 2v2 table v2\n"

// Write writes the table compactly.
func (t *Table) Write(w io.Writer) error {
	var hdr [12]byte
	binary.LittleEndian.PutUint64(hdr[:8], uint64(t.Line))
	binary.LittleEndian.PutUint32(hdr[8:], crc32.ChecksumIEEE(t.d))
	if _, err := io.WriteString(w, magic); err != nil {
		return err
	}
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(t.d); err != nil {
		return err
	}
	return zw.Close()
}

// ErrCorrupt says a table file is damaged or not a table.
var ErrCorrupt = errors.New("endgame: corrupt table file")

// Read reads a table written by Write, checking it.
func Read(r io.Reader) (*Table, error) {
	hdr := make([]byte, len(magic)+12)
	if _, err := io.ReadFull(r, hdr); err != nil || string(hdr[:len(magic)]) != magic {
		return nil, ErrCorrupt
	}
	line := lanrick.Bitboard(binary.LittleEndian.Uint64(hdr[len(magic):]))
	sum := binary.LittleEndian.Uint32(hdr[len(magic)+8:])
	if bits.OnesCount64(uint64(line)) != 3 {
		return nil, ErrCorrupt
	}
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	t := &Table{Line: line, d: make([]uint8, 2*stride)}
	if _, err := io.ReadFull(zr, t.d); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if n, _ := zr.Read(make([]byte, 1)); n != 0 || crc32.ChecksumIEEE(t.d) != sum {
		return nil, ErrCorrupt
	}
	return t, nil
}

// Equal reports whether two tables hold the same line and entries.
func (t *Table) Equal(u *Table) bool { return t.Line == u.Line && bytes.Equal(t.d, u.d) }

// Setup is the start of a turn of side's in the final rendezvous on line
// (the fifth rendezvous of 1893: three squares), an opening turn if asked
// (the other player then set the mark), for lanrick's Game.Build.
func (l Line) Setup(black, white lanrick.Bitboard, side int, opening bool) lanrick.Setup {
	u := lanrick.Setup{Black: black, White: white, ToAct: side, Phase: lanrick.PhaseMove, Rendezvous: 5,
		Setter: 1 - side, Mark: l.Mark, Size: 3, Line: l.Dir, Budget: 3, Opened: [2]bool{true, true}}
	if opening {
		u.Budget, u.Opening = 2, true
		u.Opened = [2]bool{}
		u.Opened[side] = true
	}
	return u
}

// RandomPosition places two men a side at random.
func RandomPosition(r *rand.Rand) (black, white lanrick.Bitboard) {
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

// Stats counts a table's positions by value for the player to move.
type Stats struct {
	Wins, Losses, Draws int
	// Longest is the most turns to the end of a won or lost position.
	Longest int
}

// Stats counts the table's positions (two men on one square left out).
func (t *Table) Stats() Stats {
	var st Stats
	for i, n := range t.d {
		switch {
		case n == 0:
			rest := i % stride
			a, b := pairSquares[rest/pairs], pairSquares[rest%pairs]
			if (bit(a[0])|bit(a[1]))&(bit(b[0])|bit(b[1])) == 0 {
				st.Draws++
			}
		case n%2 == 1:
			st.Wins++
		default:
			st.Losses++
		}
		st.Longest = max(st.Longest, int(n))
	}
	return st
}
