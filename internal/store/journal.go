package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// The move journal (SQLite only, where a server opens it: Journal).
//
// A game's write on SQLite was a transaction of its own: at 1,000 live
// games, a quarter of the server's processor time went to SQLite's
// transactions, most of it to beginning and committing them (its locks,
// two writes of the WAL frame) rather than to the row. With the journal,
// a move's write (update, on the writer, of a game in play that stays in
// play) is appended to a file beside the database, <db>-moves (copied
// into it, mapped into memory, or in one write: journalFile), and
// answered once it is there; the rows written since the last
// time are then written to the database together, in one transaction,
// every JournalEvery, and before any other write through the store that
// names the games table (but a new game's row: touchesMoves), any
// read of a game by its id and the lists a player reads after an
// opponent's move (settle): a write of a game is ordered after every move
// answered, a game's room reads its moves, a player's games waiting for
// him count a move as soon as it is answered. Other lists of games (the
// lobby's games in play, the site's latest) read the database as it is,
// up to JournalEvery behind the moves in play. A game's end is written
// at once, as before.
//
// The file is what makes an answered move safe: a server that stops
// without writing its rows (killed, or its machine stopped) writes them
// when it next opens the journal, from the file. A write in the file is
// as safe as SQLite's own commit with synchronous=NORMAL, which writes
// its WAL without waiting for the disk either. Each transaction that
// writes the rows also writes the number of the last record it holds
// (the journal table), so that records written to the database and still
// in the file (the server stopped before it dropped them) are not written
// twice.
//
// The journal takes a game's write where it knows the row it writes on
// (journalAt): one it wrote, or saw written. A game's first write after
// the server starts, and any after another write of its row through the
// store (an abort, a rename, a rated game's end), is made at once and
// checked, as without a journal. A row changed by another program
// meanwhile (muster admin abort or rename on the file while the server
// runs) loses nothing either: the journal's columns are written over it,
// the others kept, and the game's next write is made at once, and
// refused as a conflict, as before, so that its room reads the game
// again.

// JournalEvery is how often the journal's rows are written to the
// database, at most.
const JournalEvery = time.Second

// maxJournalRecord bounds a record read back from the file.
const maxJournalRecord = 1 << 22

// journal is a store's move journal; nil where none is open.
type journal struct {
	s    *Store
	path string
	log  *slog.Logger
	// mu guards the file, pending and the maps, and orders the records.
	mu      sync.Mutex
	file    journalFile
	pending []*journalRecord
	// known is where the games' rows are, as the journal wrote them or
	// saw them written (update).
	known map[string]journalAt
	seq   int64 // the last record's number
	buf   []byte
	// waiting counts the records pending, read without mu (settle).
	waiting atomic.Int64
	// lock holds the database's file locked (lockDatabase).
	lock *os.File
	// flushMu orders the flushes.
	flushMu sync.Mutex
	stop    chan struct{}
	stopped chan struct{}
	// writes and rows count the transactions flush made, and their rows;
	// forced those of them made by settle, before a statement that reads
	// or writes the games, not by the ticker; taken the writes the
	// journal took, atOnce those it made at once (update).
	writes, rows, forced, taken, atOnce atomic.Int64
}

// journalRecord is one game's write: the columns of updateColumns in
// mask (set, in order), updated and the version written, where the game
// was at ply actions and version from (and, with playing, in play).
type journalRecord struct {
	seq     int64
	mask    uint32
	playing bool
	id      string
	updated int64
	version int64
	ply     int64
	from    int64
	set     []any // string or int64, by numColumns
}

// args are the record's statement's arguments (updateQuery's).
func (r *journalRecord) args() []any {
	return append(r.set[:len(r.set):len(r.set)], r.updated, r.version, r.id, r.ply, r.from)
}

// appendJournalRecord appends r, framed: the payload's length and CRC-32
// (Castagnoli), four bytes each, little-endian, then the payload.
func appendJournalRecord(b []byte, r *journalRecord) []byte {
	start := len(b)
	b = append(b, 0, 0, 0, 0, 0, 0, 0, 0)
	b = binary.AppendUvarint(b, uint64(r.seq))
	b = binary.AppendUvarint(b, uint64(r.mask))
	if r.playing {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = appendJournalString(b, r.id)
	b = binary.AppendVarint(b, r.updated)
	b = binary.AppendVarint(b, r.version)
	b = binary.AppendVarint(b, r.ply)
	b = binary.AppendVarint(b, r.from)
	for _, v := range r.set {
		switch v := v.(type) {
		case int64:
			b = binary.AppendVarint(b, v)
		case string:
			b = appendJournalString(b, v)
		}
	}
	payload := b[start+8:]
	binary.LittleEndian.PutUint32(b[start:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(b[start+4:], crc32.Checksum(payload, crcTable))
	return b
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

func appendJournalString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// errJournalEnd is a record cut short: the file's end, where a write was
// under way when the server stopped (never answered).
var errJournalEnd = errors.New("store: the journal ends within a record")

// readJournalRecord reads the record that b begins with, and returns it
// with the bytes after it.
func readJournalRecord(b []byte) (*journalRecord, []byte, error) {
	if len(b) < 8 {
		return nil, nil, errJournalEnd
	}
	n := binary.LittleEndian.Uint32(b)
	sum := binary.LittleEndian.Uint32(b[4:])
	if uint64(len(b)-8) < uint64(n) {
		return nil, nil, errJournalEnd
	}
	payload, rest := b[8:8+n], b[8+n:]
	if n > maxJournalRecord {
		return nil, rest, fmt.Errorf("store: a journal record of %d bytes (at most %d)", n, maxJournalRecord)
	}
	if crc32.Checksum(payload, crcTable) != sum {
		return nil, rest, errors.New("store: a journal record does not match its checksum")
	}
	d := journalDecoder{b: payload}
	r := &journalRecord{seq: int64(d.uvarint())}
	mask := d.uvarint()
	if mask >= 1<<len(updateColumns) {
		return nil, rest, fmt.Errorf("store: a journal record writes unknown columns (%#x)", mask)
	}
	r.mask = uint32(mask)
	switch d.byte() {
	case 0:
	case 1:
		r.playing = true
	default:
		d.fail()
	}
	r.id = d.string()
	r.updated, r.version, r.ply, r.from = d.varint(), d.varint(), d.varint(), d.varint()
	for i := range updateColumns {
		if r.mask&(1<<i) == 0 {
			continue
		}
		if numColumns&(1<<i) != 0 {
			r.set = append(r.set, d.varint())
		} else {
			r.set = append(r.set, d.string())
		}
	}
	if d.err || len(d.b) != 0 {
		return nil, rest, errors.New("store: a journal record is malformed")
	}
	return r, rest, nil
}

// journalDecoder reads a record's payload; err notes a field cut short
// or out of bounds (each read then gives zero).
type journalDecoder struct {
	b   []byte
	err bool
}

func (d *journalDecoder) fail() { d.err, d.b = true, nil }

func (d *journalDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *journalDecoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *journalDecoder) byte() byte {
	if len(d.b) == 0 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *journalDecoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// JournalPath is the file of the move journal of the SQLite database at
// dsn.
func JournalPath(dsn string) string { return dsn + "-moves" }

// Journal opens the store's move journal (a no-op on PostgreSQL, where
// servers share the games and each write is its own transaction): it
// writes to the database the rows of a journal that a server left
// unwritten, then keeps one for this store until Close. One server at a
// time may use an SQLite database (muster serve); other commands on it
// (muster admin) open no journal.
func (s *Store) Journal(log *slog.Logger) error {
	if s.pg || s.j != nil {
		return nil
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	lock, err := lockDatabase(s.dsn)
	if err != nil {
		return err
	}
	j := &journal{s: s, path: JournalPath(s.dsn), log: log, known: map[string]journalAt{}, lock: lock,
		stop: make(chan struct{}), stopped: make(chan struct{})}
	if err := j.recover(); err != nil {
		lock.Close()
		return err
	}
	f, err := createJournalFile(j.path, nil)
	if err != nil {
		lock.Close()
		return err
	}
	j.file = f
	s.j = j
	go j.run()
	return nil
}

// recover writes the records of the file that the database lacks.
func (j *journal) recover() error {
	if err := j.readSeq(); err != nil {
		return err
	}
	b, err := os.ReadFile(j.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: journal: %w", err)
	}
	n, err := j.replay(b)
	if err != nil {
		return err
	}
	if n > 0 {
		j.log.Info("wrote the moves the journal held", "path", j.path, "records", n)
	}
	return nil
}

// replay writes the records of b, a journal's file, that the database
// lacks (numbered after its last), and returns how many.
func (j *journal) replay(b []byte) (int, error) {
	var recs []*journalRecord
	last := j.seq // the number of the last record read, or the database's
	for len(b) > 0 && !journalEnd(b) {
		r, rest, err := readJournalRecord(b)
		if err != nil {
			next := nextJournalRecord(b, last)
			if next == nil {
				// The last record, cut short or garbled as the server
				// stopped while writing it (zeros after it in a mapped
				// file): it was never answered.
				j.log.Warn("the move journal's last record is incomplete, never answered: dropped", "path", j.path, "bytes", len(b), "err", err)
				break
			}
			// A record damaged in the middle (the disk, or another
			// program): the intact ones after it are kept. A game whose
			// move it held has its moves back with its next record, which
			// holds all of them.
			j.log.Error("the move journal holds a damaged record: skipped", "path", j.path, "bytes", len(b)-len(next), "err", err)
			b = next
			continue
		}
		if r.seq > j.seq {
			recs = append(recs, r)
		}
		last = max(last, r.seq)
		b = rest
	}
	if len(recs) == 0 {
		return 0, nil
	}
	j.pending = recs
	j.waiting.Store(int64(len(recs)))
	if err := j.flush(context.Background()); err != nil {
		return 0, err
	}
	return len(recs), nil
}

// nextJournalRecord finds the first intact record after the start of b,
// which begins with a damaged one, numbered after last and within
// journalResync of it; nil for none. A record's number is read before its
// checksum is computed, so that the search costs little at the offsets
// that hold no record.
func nextJournalRecord(b []byte, last int64) []byte {
	for i := 1; i+8 < len(b); i++ {
		seq, n := binary.Uvarint(b[i+8:])
		if n <= 0 || int64(seq) <= last || int64(seq) > last+journalResync {
			continue
		}
		if _, _, err := readJournalRecord(b[i:]); err == nil {
			return b[i:]
		}
	}
	return nil
}

// journalResync bounds how many records numbered after the last intact
// one a search past a damaged record accepts as the next.
const journalResync = 1 << 16

// replayJournal writes into the SQLite database at dsn the records of
// held, a journal's file, that it lacks (Backup's copy).
func replayJournal(dsn string, held []byte) error {
	s, err := Open(dsn)
	if err != nil {
		return err
	}
	defer s.Close()
	j := &journal{s: s, path: JournalPath(dsn), log: slog.New(slog.DiscardHandler), known: map[string]journalAt{}}
	if err := j.readSeq(); err != nil {
		return err
	}
	_, err = j.replay(held)
	return err
}

// readSeq reads the number of the last record written to the database.
func (j *journal) readSeq() error {
	err := j.s.db.QueryRow(`SELECT seq FROM journal`).Scan(&j.seq)
	if err != nil {
		return fmt.Errorf("store: journal: %w", err)
	}
	return nil
}

// journalAt is where a game's row is, as the journal knows it: its
// version and its actions.
type journalAt struct{ version, ply int64 }

// update writes a game's row: into the journal where it knows the row
// is at r's version and ply (the journal wrote it, or saw it written) and
// the write leaves the game's status as it is (a move in play), else at
// once (after the journal's rows), as a store without a journal writes
// it: a game's end (its result, the ratings and tournaments that read it)
// is in the database when it is answered. It returns the rows written: 0
// where the row was not at r's version and ply.
func (j *journal) update(ctx context.Context, st *sql.Stmt, r *journalRecord) (int64, error) {
	after := journalAt{r.version, r.ply}
	for i, n := 0, 0; i < len(updateColumns); i++ {
		if r.mask&(1<<i) == 0 {
			continue
		}
		if i == colPly {
			after.ply = r.set[n].(int64)
		}
		n++
	}
	j.mu.Lock()
	if at, ok := j.known[r.id]; ok && r.mask&^journalColumns == 0 {
		defer j.mu.Unlock()
		if at != (journalAt{r.from, r.ply}) {
			return 0, nil
		}
		if err := j.append(r); err != nil {
			return 0, err
		}
		j.known[r.id] = after
		j.taken.Add(1)
		return 1, nil
	}
	j.mu.Unlock()
	j.atOnce.Add(1)
	if err := j.s.settle(ctx); err != nil {
		return 0, err
	}
	n, err := j.s.execGrouped(ctx, st, r.args())
	if err == nil && n == 1 {
		j.note(r.id, after)
	}
	return n, err
}

// journalColumns are the columns a write in the journal may change: a
// move's (its actions, the clock, who is to act, the offers it clears).
// A write that changes any other (a seat taken or left, a name, the end)
// is made at once: so the journal never writes those over a row another
// program changed (merge), and a seat's change, a game's end, is in the
// database when answered.
const journalColumns = 1<<colActions | 1<<colPly | 1<<colDrawOffer | 1<<colClock | 1<<colTakebackOffer | 1<<colToAct | 1<<colDeadline

// note notes that a game's row is at at.
func (j *journal) note(id string, at journalAt) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.known) >= maxKnown && len(j.pending) == 0 {
		clear(j.known)
	}
	j.known[id] = at
}

// forget forgets where a game's row is (all games' with no id): its next
// write is made at once, and checked.
func (j *journal) forget(id string) {
	if j == nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if id == "" {
		clear(j.known)
	} else {
		delete(j.known, id)
	}
}

// maxKnown bounds the games whose rows the journal knows: forgetting one
// costs its next write a transaction of its own.
const maxKnown = 1 << 17

// append writes r to the file (with mu held): it returns once the record
// is there.
func (j *journal) append(r *journalRecord) error {
	if j.file == nil {
		return errors.New("store: the journal is closed")
	}
	r.seq = j.seq + int64(len(j.pending)) + 1
	j.buf = appendJournalRecord(j.buf[:0], r)
	if err := j.file.append(j.buf); err != nil {
		return err
	}
	j.pending = append(j.pending, r)
	j.waiting.Add(1)
	return nil
}

// run writes the journal's rows every JournalEvery, until Close.
func (j *journal) run() {
	defer close(j.stopped)
	t := time.NewTicker(JournalEvery)
	defer t.Stop()
	for {
		select {
		case <-j.stop:
			return
		case <-t.C:
		}
		if err := j.flush(context.Background()); err != nil {
			j.log.Error("writing the move journal's rows", "err", err)
		}
	}
}

// flush writes the rows pending in one transaction, with the number of
// the last; then the file keeps only the records that came meanwhile.
func (j *journal) flush(ctx context.Context) error {
	j.flushMu.Lock()
	defer j.flushMu.Unlock()
	j.mu.Lock()
	batch := j.pending
	j.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	merged, err := j.write(ctx, batch)
	if err != nil {
		return err
	}
	j.writes.Add(1)
	j.rows.Add(int64(len(batch)))
	j.mu.Lock()
	defer j.mu.Unlock()
	last := batch[len(batch)-1]
	j.seq = last.seq
	rest := j.pending[len(batch):]
	j.pending = append([]*journalRecord(nil), rest...)
	j.waiting.Add(-int64(len(batch)))
	for _, id := range merged {
		// Its room's next write is made at once, and refused.
		delete(j.known, id)
	}
	if j.file == nil {
		return nil // recovering: the file is opened afresh
	}
	switch {
	case len(rest) == 0:
		// Nothing pending: the file is emptied where it is (a new file
		// and a rename at each flush took 7% of the server's processor
		// time while 3,000 games were made in 20 s, each flush made by
		// a game's creation).
		if err := j.file.empty(); err != nil {
			return err
		}
	case j.file.size() > journalRewriteAt:
		return j.rewrite(rest)
	}
	// Else the file keeps the records written, numbered up to seq, which
	// a recovery skips, until a flush finds none pending or the file
	// grows past journalRewriteAt.
	return nil
}

// journalRewriteAt is the length past which a flush that leaves records
// pending writes the file anew with them alone (rewrite): one that found
// none pending empties it.
const journalRewriteAt = 256 << 10

// write writes batch's rows and its last number in one transaction; it
// returns the games whose rows another program had changed.
func (j *journal) write(ctx context.Context, batch []*journalRecord) (merged []string, err error) {
	s := j.s
	// The statements, prepared before the transaction takes the writer
	// (one connection): each once, as the moves' writes prepare them.
	stmts := make([]*sql.Stmt, len(batch))
	for i, r := range batch {
		st, err := s.prepared(ctx, s.db, s.updateQuery(r.mask, r.playing, false))
		if err != nil {
			return nil, fmt.Errorf("store: journal: %w", err)
		}
		stmts[i] = st
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("store: journal: %w", err)
	}
	defer tx.Rollback()
	// Each statement bound to the transaction once: a batch's rows share
	// a few (a move writes the same columns as the one before).
	inTx := map[*sql.Stmt]*sql.Stmt{}
	for i, r := range batch {
		st := inTx[stmts[i]]
		if st == nil {
			st = tx.StmtContext(ctx, stmts[i])
			inTx[stmts[i]] = st
		}
		n, err := rowsAffected(st.ExecContext(ctx, r.args()...))
		if err != nil {
			return nil, fmt.Errorf("store: journal: game %s: %w", r.id, err)
		}
		if n == 1 {
			continue
		}
		if n, err = j.merge(ctx, tx, r); err != nil {
			return nil, err
		}
		if n == 1 {
			merged = append(merged, r.id)
		} else {
			j.log.Warn("a move journal's game is no longer stored: its write dropped", "game", r.id, "version", r.version)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE journal SET seq = ?`, batch[len(batch)-1].seq); err != nil {
		return nil, fmt.Errorf("store: journal: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("store: journal: %w", err)
	}
	return merged, nil
}

// merge writes r's columns over a row that is not at r's version (or no
// longer in play), another program having changed it: its other columns
// are kept, and its version is one more than it was.
func (j *journal) merge(ctx context.Context, tx *sql.Tx, r *journalRecord) (int64, error) {
	q := `UPDATE games SET ` + setColumns(r.mask) + `updated = ?, version = version + 1 WHERE id = ?`
	n, err := rowsAffected(tx.ExecContext(ctx, q, append(r.set[:len(r.set):len(r.set)], r.updated, r.id)...))
	if err != nil {
		return 0, fmt.Errorf("store: journal: game %s: %w", r.id, err)
	}
	return n, nil
}

// rewrite replaces the file with one holding recs alone (written again),
// by renaming: at every moment the file holds every record pending.
func (j *journal) rewrite(recs []*journalRecord) error {
	tmp := j.path + ".next"
	b := j.buf[:0]
	for _, r := range recs {
		b = appendJournalRecord(b, r)
	}
	j.buf = b
	f, err := createJournalFile(tmp, b)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, j.path); err != nil {
		f.close()
		return fmt.Errorf("store: journal: %w", err)
	}
	j.file.close()
	j.file = f
	return nil
}

// settle writes the journal's pending rows, if any, before a statement
// that may read or write them.
func (s *Store) settle(ctx context.Context) error {
	if s.j == nil || s.j.waiting.Load() == 0 {
		return nil
	}
	s.j.forced.Add(1)
	return s.j.flush(context.WithoutCancel(ctx))
}

// settleForList is settle for a list a player reads after an opponent's
// move (the games waiting for him, his games): where the journal's rows
// cannot be written now, the list is read as the database has it.
func (s *Store) settleForList(ctx context.Context) {
	_ = s.settle(ctx)
}

// close writes the rows pending and removes the file.
func (j *journal) close() error {
	close(j.stop)
	<-j.stopped
	err := j.flush(context.Background())
	j.mu.Lock()
	defer j.mu.Unlock()
	j.file.close()
	j.file = nil
	if err == nil && len(j.pending) == 0 {
		err = os.Remove(j.path)
	}
	j.lock.Close()
	return err
}

// JournalWrites returns the transactions that wrote the journal's rows
// and the rows they wrote.
func (s *Store) JournalWrites() (writes, rows int64) {
	if s.j == nil {
		return 0, 0
	}
	return s.j.writes.Load(), s.j.rows.Load()
}

// JournalStats is what the move journal has done since it opened.
type JournalStats struct {
	// Taken counts the games' writes the journal took (answered once in
	// its file), AtOnce those written to the database at once (a game's
	// first write since the server started or since another write of its
	// row, a write of more than a move's columns, a game's end).
	Taken, AtOnce int64
	// Writes counts the transactions that wrote its rows to the
	// database, Rows the rows they wrote; Forced the flushes asked for
	// by a statement that reads or writes the games (a flush then finds
	// rows, or nothing to do) rather than by the ticker.
	Writes, Rows, Forced int64
	// Pending is the records in the file not yet in the database.
	Pending int64
}

// JournalStats reports what the move journal has done; zero where none is
// open (PostgreSQL, or a program other than the server).
func (s *Store) JournalStats() JournalStats {
	j := s.j
	if j == nil {
		return JournalStats{}
	}
	return JournalStats{Taken: j.taken.Load(), AtOnce: j.atOnce.Load(), Writes: j.writes.Load(), Rows: j.rows.Load(),
		Forced: j.forced.Load(), Pending: j.waiting.Load()}
}

// abandonJournal stops the journal without writing its rows, as a server
// killed leaves it (tests).
func (s *Store) abandonJournal() {
	j := s.j
	close(j.stop)
	<-j.stopped
	j.mu.Lock()
	j.file.close()
	j.file = nil
	j.mu.Unlock()
	j.lock.Close()
	s.j = nil
}

// begin begins a transaction on the writer, once the journal's rows are
// written.
func (s *Store) begin(ctx context.Context) (*sql.Tx, error) {
	if err := s.settle(ctx); err != nil {
		return nil, err
	}
	return s.db.BeginTx(ctx, nil)
}
