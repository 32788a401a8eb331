package store

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
)

// writeGroup gathers the moves' writes on SQLite, whose one connection
// writes one transaction at a time, into transactions of as many as are
// waiting. Each write once waited for the connection on its own: with
// thousands of games playing on two cores, the writer holding it was
// often put aside by the scheduler, and every other game's move waited
// behind it (5,000 live games: 30 ms a write on average, the moves' p99
// over a third of a second). Now the first write to come runs at once, as
// before; those that come while it runs wait, and are then run together,
// in one transaction, by one goroutine: one commit and one wait for the
// connection for all of them. Each is answered once its transaction is
// committed, so an answered move is stored as before.
type writeGroup struct {
	mu      sync.Mutex
	waiting []*groupedWrite
	running bool
	// groups and grouped count the transactions run for waiting writes
	// and their writes.
	groups, grouped atomic.Int64
}

// groupedWrite is one write of a group and, once done is closed, what it
// did.
type groupedWrite struct {
	st   *sql.Stmt
	args []any
	res  sql.Result
	err  error
	done chan struct{}
}

// Grouped returns the transactions run for writes that waited (on SQLite;
// 0 on PostgreSQL) and the writes in them.
func (s *Store) Grouped() (groups, writes int64) {
	return s.group.groups.Load(), s.group.grouped.Load()
}

// maxGroup bounds the writes of one transaction.
const maxGroup = 256

// execGrouped runs st with args in a group of writes and returns the rows
// it changed. The write runs to its end whatever becomes of the request
// (it may share its transaction with others, and a move's write is one
// row): a write that runs alone is given no context that ends, as a
// group's is not, so that the driver does not start a goroutine for each
// to watch it (modernc.org/sqlite's interruptOnDone, with its progress
// handler: 1.6% of the server's CPU profile at 1,000 live games; three
// allocations a write).
func (s *Store) execGrouped(ctx context.Context, st *sql.Stmt, args []any) (int64, error) {
	return rowsAffected(s.write(ctx, st, args, true))
}

// execAside is execGrouped for any other write (exec): it runs on the
// goroutine that runs the groups, never on the caller's, so that the
// many goroutines of a server's connections do not grow their stacks in
// SQLite (a goroutine that writes grows its stack to 16 KB and keeps it
// until the collector shrinks it, one that reads to 8 KB: one second
// into 1,000 games made at once, the server's stacks were 14.5 of the
// 57.6 MB it took from the system). The writer is one connection:
// nothing is lost in parallel.
func (s *Store) execAside(ctx context.Context, st *sql.Stmt, args []any) (sql.Result, error) {
	return s.write(ctx, st, args, false)
}

// write runs st with args: at once on this goroutine where inline and
// nobody writes, else with the writes that wait, on the groups'
// goroutine (started if none runs).
func (s *Store) write(ctx context.Context, st *sql.Stmt, args []any, inline bool) (sql.Result, error) {
	g := &s.group
	g.mu.Lock()
	if !g.running && inline {
		// Nobody writes: this one runs alone, now, on this goroutine.
		g.running = true
		g.mu.Unlock()
		defer s.nextGroup()
		return st.ExecContext(context.WithoutCancel(ctx), args...)
	}
	w := &groupedWrite{st: st, args: args, done: make(chan struct{})}
	g.waiting = append(g.waiting, w)
	if !g.running {
		g.running = true
		go s.runGroups()
	}
	g.mu.Unlock()
	<-w.done
	return w.res, w.err
}

// nextGroup runs the writes that came meanwhile, on a goroutine of their
// own, or notes that none writes.
func (s *Store) nextGroup() {
	g := &s.group
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.waiting) == 0 {
		g.running = false
		return
	}
	go s.runGroups()
}

// runGroups runs the waiting writes, a transaction at a time, until none
// waits.
func (s *Store) runGroups() {
	g := &s.group
	for {
		g.mu.Lock()
		n := min(len(g.waiting), maxGroup)
		if n == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		batch := g.waiting[:n:n]
		g.waiting = g.waiting[n:]
		if len(g.waiting) == 0 {
			g.waiting = nil // the array is let go with its last batch
		}
		g.mu.Unlock()
		s.runGroup(batch)
	}
}

// runGroup runs writes in one transaction and answers each. A write that
// fails is answered with its error, the others are not held back by it;
// if the transaction fails, every write is answered with its error.
func (s *Store) runGroup(batch []*groupedWrite) {
	defer func() {
		for _, w := range batch {
			close(w.done)
		}
	}()
	ctx := context.Background()
	if len(batch) == 1 {
		// Alone: no transaction of its own to begin and commit.
		w := batch[0]
		w.res, w.err = w.st.ExecContext(ctx, w.args...)
		return
	}
	s.group.groups.Add(1)
	s.group.grouped.Add(int64(len(batch)))
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		for _, w := range batch {
			w.err = err
		}
		return
	}
	for _, w := range batch {
		w.res, w.err = tx.StmtContext(ctx, w.st).ExecContext(ctx, w.args...)
	}
	if err := tx.Commit(); err != nil {
		for _, w := range batch {
			w.res, w.err = nil, err
		}
	}
}
