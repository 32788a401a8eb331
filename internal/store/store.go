// Package store keeps the web app's games, players and their ratings, in
// SQLite (modernc.org/sqlite, pure Go, in WAL mode) by default or in
// PostgreSQL (pgx) for several servers sharing one database. Every action
// is written as it is played, so a restarted server finds every game where
// it was.
//
// The files: store.go opening either database and its migrations;
// games.go the games; players.go players, sessions and ratings.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver "pgx"
	_ "modernc.org/sqlite"             // the database/sql driver "sqlite"
)

// Store is the database.
type Store struct {
	// db writes; rdb reads. On SQLite they are apart: one connection
	// writes (SQLite writes one at a time) while others read (WAL lets
	// them), so a write waiting for the database never holds up a read.
	// On PostgreSQL both are the one pool.
	db, rdb *sql.DB
	// pg is true on PostgreSQL, false on SQLite.
	pg  bool
	dsn string
	// timing counts the statements run and their time, writes and reads.
	timing [2]struct{ n, ns atomic.Int64 }
	// stmts are the statements prepared, by database and text (prepared).
	stmtMu sync.Mutex
	stmts  map[stmtKey]*sql.Stmt
	// updates are the texts of the games' updates, by the columns they
	// write (updateQuery).
	updates sync.Map
	// group gathers the moves' writes on SQLite (group.go).
	group writeGroup
	// j is the move journal, where a server opened it (journal.go).
	j *journal
}

// prepared is query prepared on db (the writer or the readers), once: a
// statement run again, a move's write above all, is then not parsed and
// planned again each time (SQLite's prepare was a fifth of the game-making
// handler's time in a CPU profile).
func (s *Store) prepared(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	k := stmtKey{db, query}
	s.stmtMu.Lock()
	defer s.stmtMu.Unlock()
	if st, ok := s.stmts[k]; ok {
		return st, nil
	}
	if len(s.stmts) >= maxPrepared {
		return nil, errTooManyPrepared
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if s.stmts == nil {
		s.stmts = map[stmtKey]*sql.Stmt{}
	}
	s.stmts[k] = st
	return st, nil
}

// stmtKey is a prepared statement's database and text.
type stmtKey struct {
	db    *sql.DB
	query string
}

// maxPrepared bounds the statements prepared and kept: the store's
// queries are a few score texts, a game's update names the columns it
// changes (a few sets of them in practice), and a list of n ids makes a
// text of its own for each n.
const maxPrepared = 256

// pgConns is the most connections a server holds to PostgreSQL.
const pgConns = 20

var errTooManyPrepared = errors.New("store: enough statements prepared")

// Statement kinds, for Timing.
const (
	Writes = 0
	Reads  = 1
)

// Timing returns the statements of a kind (Writes, Reads) run so far and
// the time they took in all (a read's until its rows came, not its
// reading).
func (s *Store) Timing(kind int) (n int64, took time.Duration) {
	return s.timing[kind].n.Load(), time.Duration(s.timing[kind].ns.Load())
}

// took counts a statement of kind that began at began.
func (s *Store) took(kind int, began time.Time) {
	s.timing[kind].n.Add(1)
	s.timing[kind].ns.Add(int64(time.Since(began)))
}

// IsPostgres reports whether a database address names PostgreSQL
// (postgres:// or postgresql://) rather than an SQLite file.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open opens (or creates) the database, a PostgreSQL address or an SQLite
// file, and brings its schema up to date.
func Open(dsn string) (*Store, error) {
	s := &Store{pg: IsPostgres(dsn), dsn: dsn}
	var err error
	const pragmas = "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)"
	if s.pg {
		s.db, err = sql.Open("pgx", dsn)
		if err == nil {
			// Every connection opened is kept while it is used at least
			// every few minutes: one closed when a burst ended was opened
			// again at the next (PostgreSQL forks a process for each and
			// authenticates it, with a password hashed thousands of times
			// under scram-sha-256). With 10 kept of 20, two servers at 1,000
			// live games opened 319 connections in 80 s; now 28.
			s.db.SetMaxOpenConns(pgConns)
			s.db.SetMaxIdleConns(pgConns)
			s.db.SetConnMaxIdleTime(5 * time.Minute)
		}
		s.rdb = s.db
	} else {
		s.db, err = sql.Open("sqlite", "file:"+dsn+pragmas)
		if err == nil {
			s.db.SetMaxOpenConns(1) // SQLite writes one at a time; one connection avoids busy errors
		}
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", where(dsn), err)
	}
	if err := s.migrate(); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("store: open %s: %w", where(dsn), err)
	}
	if !s.pg {
		// Opened after the migrations, which set WAL mode in the file.
		if s.rdb, err = sql.Open("sqlite", "file:"+dsn+pragmas+"&_pragma=query_only(1)"); err != nil {
			s.db.Close()
			return nil, err
		}
		s.rdb.SetMaxOpenConns(4)
	}
	return s, nil
}

// where names a database for messages: an SQLite file's path, or a
// PostgreSQL address without its password.
func where(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	if u, err := url.Parse(dsn); err == nil {
		return u.Redacted()
	}
	return "the PostgreSQL database"
}

// Close closes the database, once the move journal's rows are written.
func (s *Store) Close() error {
	var jerr error
	if s.j != nil {
		jerr = s.j.close()
		s.j = nil
	}
	s.stmtMu.Lock()
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmts = nil
	s.stmtMu.Unlock()
	if s.rdb != s.db {
		s.rdb.Close()
	}
	return errors.Join(jerr, s.db.Close())
}

// Ping checks that the database answers a query, to write and to read.
func (s *Store) Ping(ctx context.Context) error {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT 1`).Scan(&n); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := s.rdb.QueryRowContext(ctx, `SELECT 1`).Scan(&n); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// Postgres reports whether the store is on PostgreSQL.
func (s *Store) Postgres() bool { return s.pg }

// q rewrites a query written with ? placeholders for the database:
// PostgreSQL numbers them ($1, $2, ...). No query here has a ? in a
// string literal.
func (s *Store) q(query string) string {
	if !s.pg {
		return query
	}
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// exec writes. On SQLite the statement is prepared once (prepared) and
// runs to its end whatever becomes of the request: a write there is one
// short statement, and a context that can end would have the driver start
// a goroutine for each to watch it (see execGrouped). PostgreSQL's driver
// keeps its prepared statements itself.
func (s *Store) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	defer s.took(Writes, time.Now())
	if touchesMoves(query) {
		if err := s.settle(ctx); err != nil {
			return nil, err
		}
	}
	if !s.pg {
		ctx = context.WithoutCancel(ctx)
		if st, err := s.prepared(ctx, s.db, query); err == nil {
			return s.execAside(ctx, st, args)
		}
	}
	return s.db.ExecContext(ctx, s.q(query), args...)
}

// touchesMoves reports whether a statement may read or write what the
// move journal's records write (settle): any that names the games
// table, but a new game's row, which no record knows. A player's or a
// session's row, a challenge's, a lease's are written at once, ordered
// after no move: settling before each (a new visitor's player, his
// session) wrote the journal's rows at every game made, one transaction
// each, and took a seventh of the server's processor time while 3,000
// games were made in 20 s.
func touchesMoves(query string) bool {
	return strings.Contains(query, "games") && !strings.HasPrefix(query, "INSERT INTO games ")
}

// query and queryRow read (through the readers on SQLite, with their
// statements prepared once; queryRow's, one row, runs to its end as
// exec's does).
func (s *Store) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	defer s.took(Reads, time.Now())
	if !s.pg {
		if st, err := s.prepared(ctx, s.rdb, query); err == nil {
			return st.QueryContext(ctx, args...)
		}
	}
	return s.rdb.QueryContext(ctx, s.q(query), args...)
}

func (s *Store) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	defer s.took(Reads, time.Now())
	if !s.pg {
		ctx = context.WithoutCancel(ctx)
		if st, err := s.prepared(ctx, s.rdb, query); err == nil {
			return st.QueryRowContext(ctx, args...)
		}
	}
	return s.rdb.QueryRowContext(ctx, s.q(query), args...)
}

// migration is one step of the schema: the same statement for both
// databases, or one for each where they differ.
type migration struct {
	both, sqlite, postgres string
}

func (m migration) text(pg bool) string {
	switch {
	case m.both != "":
		return m.both
	case pg:
		return m.postgres
	}
	return m.sqlite
}

// migrations are applied in order; the database records how many ran.
// Times are Unix milliseconds (BIGINT: PostgreSQL's INTEGER has 32 bits).
var migrations = []migration{
	{sqlite: `CREATE TABLE games (
		id TEXT PRIMARY KEY,
		spec TEXT NOT NULL,
		created INTEGER NOT NULL,
		updated INTEGER NOT NULL,
		actions TEXT NOT NULL,
		seats TEXT NOT NULL,
		status TEXT NOT NULL,
		result TEXT NOT NULL DEFAULT '',
		reason TEXT NOT NULL DEFAULT '',
		owner TEXT NOT NULL DEFAULT '',
		ply INTEGER NOT NULL DEFAULT 0
	)`, postgres: `CREATE TABLE games (
		id TEXT PRIMARY KEY,
		spec TEXT NOT NULL,
		created BIGINT NOT NULL,
		updated BIGINT NOT NULL,
		actions TEXT NOT NULL,
		seats TEXT NOT NULL,
		status TEXT NOT NULL,
		result TEXT NOT NULL DEFAULT '',
		reason TEXT NOT NULL DEFAULT '',
		owner TEXT NOT NULL DEFAULT '',
		ply INTEGER NOT NULL DEFAULT 0
	)`},
	{both: `CREATE INDEX games_owner ON games(owner, created)`},
	{both: `ALTER TABLE games ADD COLUMN draw_offer INTEGER NOT NULL DEFAULT -1`},
	{both: `ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT ''`},
	{both: `ALTER TABLE games ADD COLUMN rematch TEXT NOT NULL DEFAULT ''`},
	{both: `ALTER TABLE games ADD COLUMN start TEXT NOT NULL DEFAULT ''`},
	{both: `ALTER TABLE games ADD COLUMN takeback_offer INTEGER NOT NULL DEFAULT -1`},
	// Players: an anonymous identity kept by a browser, or an account
	// (username_key is the username folded to lower case; NULL while
	// anonymous, and UNIQUE allows any number of NULLs in both).
	{both: `CREATE TABLE players (
		id TEXT PRIMARY KEY,
		username TEXT,
		username_key TEXT UNIQUE,
		password_hash TEXT NOT NULL DEFAULT '',
		created BIGINT NOT NULL,
		registered BIGINT NOT NULL DEFAULT 0,
		address TEXT NOT NULL DEFAULT ''
	)`},
	{both: `CREATE INDEX players_address ON players(address, registered)`},
	{both: `CREATE TABLE sessions (
		token_hash TEXT PRIMARY KEY,
		player_id TEXT NOT NULL REFERENCES players(id),
		created BIGINT NOT NULL,
		seen BIGINT NOT NULL
	)`},
	{both: `CREATE INDEX sessions_player ON sessions(player_id)`},
	{both: `CREATE TABLE ratings (
		player_id TEXT NOT NULL REFERENCES players(id),
		game TEXT NOT NULL,
		rating DOUBLE PRECISION NOT NULL,
		rd DOUBLE PRECISION NOT NULL,
		vol DOUBLE PRECISION NOT NULL,
		games INTEGER NOT NULL DEFAULT 0,
		updated BIGINT NOT NULL,
		PRIMARY KEY (player_id, game)
	)`},
	// The players holding each seat, for a player's games, and whether the
	// game counts for ratings (with the rating changes once it is over).
	{both: `ALTER TABLE games ADD COLUMN player0 TEXT NOT NULL DEFAULT ''`},
	{both: `ALTER TABLE games ADD COLUMN player1 TEXT NOT NULL DEFAULT ''`},
	{both: `CREATE INDEX games_player0 ON games(player0, updated)`},
	{both: `CREATE INDEX games_player1 ON games(player1, updated)`},
	{both: `ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0`},
	{both: `ALTER TABLE games ADD COLUMN rating_change TEXT NOT NULL DEFAULT ''`},
	{both: `CREATE INDEX games_status ON games(status, updated)`},
	{both: `ALTER TABLE games ADD COLUMN to_act TEXT NOT NULL DEFAULT ''`},
	{both: `CREATE INDEX games_to_act ON games(to_act)`},
	{both: `ALTER TABLE games ADD COLUMN deadline BIGINT NOT NULL DEFAULT 0`},
	{both: `CREATE INDEX games_deadline ON games(deadline)`},
	{both: `CREATE TABLE challenges (
		id TEXT PRIMARY KEY,
		creator TEXT NOT NULL,
		creator_name TEXT NOT NULL DEFAULT '',
		spec TEXT NOT NULL,
		minutes DOUBLE PRECISION NOT NULL DEFAULT 0,
		increment DOUBLE PRECISION NOT NULL DEFAULT 0,
		days INTEGER NOT NULL DEFAULT 0,
		rated INTEGER NOT NULL DEFAULT 0,
		side TEXT NOT NULL,
		target TEXT NOT NULL DEFAULT '',
		target_name TEXT NOT NULL DEFAULT '',
		created BIGINT NOT NULL,
		status TEXT NOT NULL,
		game TEXT NOT NULL DEFAULT '',
		address TEXT NOT NULL DEFAULT ''
	)`},
	{both: `CREATE INDEX challenges_open ON challenges(status, created)`},
	{both: `CREATE INDEX challenges_creator ON challenges(creator, created)`},
	{both: `ALTER TABLE challenges ADD COLUMN closed BIGINT NOT NULL DEFAULT 0`},
	{sqlite: `CREATE TABLE chat (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		game TEXT NOT NULL,
		room TEXT NOT NULL,
		player TEXT NOT NULL DEFAULT '',
		name TEXT NOT NULL,
		text TEXT NOT NULL,
		created BIGINT NOT NULL
	)`, postgres: `CREATE TABLE chat (
		id BIGSERIAL PRIMARY KEY,
		game TEXT NOT NULL,
		room TEXT NOT NULL,
		player TEXT NOT NULL DEFAULT '',
		name TEXT NOT NULL,
		text TEXT NOT NULL,
		created BIGINT NOT NULL
	)`},
	{both: `CREATE INDEX chat_game ON chat(game, id)`},
	{both: `CREATE TABLE leases (
		game TEXT PRIMARY KEY,
		owner TEXT NOT NULL,
		expires BIGINT NOT NULL
	)`},
	{both: `CREATE INDEX leases_owner ON leases(owner)`},
	{both: `ALTER TABLE games ADD COLUMN has_agent INTEGER NOT NULL DEFAULT 0`},
	// Games of lesson steps, kept out of every list.
	{both: `ALTER TABLE games ADD COLUMN lesson INTEGER NOT NULL DEFAULT 0`},
	// The hourly sweep's lookups: sessions unused, anonymous players and
	// whether anything is theirs.
	{both: `CREATE INDEX sessions_seen ON sessions(seen)`},
	{both: `CREATE INDEX players_created ON players(created)`},
	{both: `CREATE INDEX challenges_target ON challenges(target)`},
	{both: `CREATE INDEX chat_player ON chat(player)`},
	// Bots: accounts played by programs, signed in by tokens (their
	// hashes kept), each revocable on its own.
	{both: `ALTER TABLE players ADD COLUMN bot INTEGER NOT NULL DEFAULT 0`},
	{both: `CREATE TABLE bot_tokens (
		id TEXT PRIMARY KEY,
		token_hash TEXT NOT NULL UNIQUE,
		player_id TEXT NOT NULL REFERENCES players(id),
		created BIGINT NOT NULL,
		used BIGINT NOT NULL DEFAULT 0
	)`},
	{both: `CREATE INDEX bot_tokens_player ON bot_tokens(player_id)`},
	// Moderation: administrators (marked from the command line), muted
	// and banned players, and the reports of players and chat lines.
	{both: `ALTER TABLE players ADD COLUMN admin INTEGER NOT NULL DEFAULT 0`},
	{both: `ALTER TABLE players ADD COLUMN muted INTEGER NOT NULL DEFAULT 0`},
	{both: `ALTER TABLE players ADD COLUMN banned INTEGER NOT NULL DEFAULT 0`},
	{both: `CREATE TABLE reports (
		id TEXT PRIMARY KEY,
		reporter TEXT NOT NULL,
		target TEXT NOT NULL,
		game TEXT NOT NULL DEFAULT '',
		line BIGINT NOT NULL DEFAULT 0,
		quoted TEXT NOT NULL DEFAULT '',
		reason TEXT NOT NULL,
		created BIGINT NOT NULL,
		status TEXT NOT NULL DEFAULT 'open',
		resolution TEXT NOT NULL DEFAULT '',
		closed_by TEXT NOT NULL DEFAULT ''
	)`},
	{both: `CREATE INDEX reports_status ON reports(status, created)`},
	{both: `CREATE INDEX reports_reporter ON reports(reporter, created)`},
	// Tournaments: round robins and Swiss events, their players and the
	// games of their rounds (results read from the games).
	{both: `CREATE TABLE tournaments (
		id TEXT PRIMARY KEY,
		name TEXT NOT NULL,
		kind TEXT NOT NULL,
		spec TEXT NOT NULL,
		minutes DOUBLE PRECISION NOT NULL DEFAULT 0,
		increment DOUBLE PRECISION NOT NULL DEFAULT 0,
		days INTEGER NOT NULL DEFAULT 0,
		rated INTEGER NOT NULL DEFAULT 0,
		rounds INTEGER NOT NULL DEFAULT 0,
		max_players INTEGER NOT NULL,
		creator TEXT NOT NULL,
		creator_name TEXT NOT NULL,
		created BIGINT NOT NULL,
		starts BIGINT NOT NULL,
		status TEXT NOT NULL DEFAULT 'open',
		round INTEGER NOT NULL DEFAULT 0
	)`},
	{both: `CREATE INDEX tournaments_status ON tournaments(status, starts)`},
	{both: `CREATE TABLE tournament_players (
		tournament TEXT NOT NULL,
		player TEXT NOT NULL,
		name TEXT NOT NULL,
		seed INTEGER NOT NULL,
		withdrawn INTEGER NOT NULL DEFAULT 0,
		joined BIGINT NOT NULL,
		PRIMARY KEY (tournament, player)
	)`},
	{both: `CREATE TABLE tournament_games (
		tournament TEXT NOT NULL,
		round INTEGER NOT NULL,
		white INTEGER NOT NULL,
		black INTEGER NOT NULL,
		game TEXT NOT NULL DEFAULT '',
		PRIMARY KEY (tournament, round, white)
	)`},
	// An arena's latecomers take the next seed: one each.
	{both: `CREATE UNIQUE INDEX tournament_seeds ON tournament_players(tournament, seed) WHERE seed >= 0`},
	// Whether bot accounts may join.
	{both: `ALTER TABLE tournaments ADD COLUMN bots INTEGER NOT NULL DEFAULT 0`},
	// Each write of a game is conditional on the version it read, so that
	// servers sharing the database never write over each other's change.
	{both: `ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0`},
	// A game's end finds its tournament.
	{both: `CREATE INDEX tournament_games_game ON tournament_games(game)`},
	// Each player's first try at each puzzle (the only one that moves his
	// puzzle rating, kept in ratings under the game "puzzles").
	{both: `CREATE TABLE puzzle_attempts (
		player_id TEXT NOT NULL REFERENCES players(id),
		puzzle TEXT NOT NULL,
		solved INTEGER NOT NULL,
		rating_before DOUBLE PRECISION NOT NULL,
		rating_after DOUBLE PRECISION NOT NULL,
		at BIGINT NOT NULL,
		PRIMARY KEY (player_id, puzzle)
	)`},
	// Every move changes updated: indexes over it were rewritten by every
	// move (three of them), for lists that sort a player's games or the
	// games of a status, few enough to sort as they are read. Without it
	// a move's write leaves them alone (BenchmarkUpdate: 79 → 28 µs).
	{both: `DROP INDEX games_player0`},
	{both: `CREATE INDEX games_player0 ON games(player0)`},
	{both: `DROP INDEX games_player1`},
	{both: `CREATE INDEX games_player1 ON games(player1)`},
	{both: `DROP INDEX games_status`},
	{both: `CREATE INDEX games_status ON games(status)`},
	// Each server's heartbeat, by which its leases hold (leases.go).
	{both: `CREATE TABLE servers (
		instance TEXT PRIMARY KEY,
		expires BIGINT NOT NULL
	)`},
	// The number of the move journal's last record written (journal.go).
	{both: `CREATE TABLE journal (seq BIGINT NOT NULL)`},
	{both: `INSERT INTO journal (seq) VALUES (0)`},
	// The usernames of deleted accounts, which nobody may take again
	// (admin.go's DeleteAccount).
	{both: `CREATE TABLE held_names (
		username_key TEXT PRIMARY KEY,
		held BIGINT NOT NULL
	)`},
}

// migrate brings the schema up to date; on PostgreSQL under an advisory
// lock, so that servers starting together migrate once.
func (s *Store) migrate() error {
	ctx := context.Background()
	if !s.pg {
		if _, err := s.db.Exec(`CREATE TABLE IF NOT EXISTS schema_version (n INTEGER NOT NULL)`); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	if s.pg {
		if _, err := tx.Exec(`SELECT pg_advisory_xact_lock(7151289)`); err != nil {
			return fmt.Errorf("store: %w", err)
		}
		if _, err := tx.Exec(`CREATE TABLE IF NOT EXISTS schema_version (n INTEGER NOT NULL)`); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	var n int
	err = tx.QueryRow(`SELECT n FROM schema_version`).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := tx.Exec(`INSERT INTO schema_version (n) VALUES (0)`); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if n > len(migrations) {
		return fmt.Errorf("store: the database has schema version %d, newer than this program's %d", n, len(migrations))
	}
	for ; n < len(migrations); n++ {
		if _, err := tx.Exec(migrations[n].text(s.pg)); err != nil {
			return fmt.Errorf("store: migration %d: %w", n+1, err)
		}
		if _, err := tx.Exec(s.q(`UPDATE schema_version SET n = ?`), n+1); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	return tx.Commit()
}

// ErrBackupPostgres answers a backup asked of a PostgreSQL database:
// PostgreSQL's own tools make it (docs/operating.md).
var ErrBackupPostgres = errors.New("store: a PostgreSQL database is backed up with its own tools: pg_dump --format=custom (docs/operating.md)")

// Backup writes a consistent copy of the SQLite database at dsn to the
// new file to, while servers go on using the database: SQLite's VACUUM
// INTO, which reads the database as it is at one moment (a write under
// way is in the copy whole, or not at all) through a read-only
// connection, and writes a compact file that opens as a database of its
// own; the moves that the server's journal held as the copy began and
// the database did not are then written into the copy. It neither migrates the database nor changes it. It returns the
// games the copy holds, counted in the copy.
func Backup(ctx context.Context, dsn, to string) (games int, err error) {
	if IsPostgres(dsn) {
		return 0, ErrBackupPostgres
	}
	if _, err := os.Stat(dsn); err != nil {
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	if _, err := os.Stat(to); err == nil {
		return 0, fmt.Errorf("store: backup: %s exists: name a new file", to)
	}
	// The server's move journal, read before the copy: each move it
	// holds is then in the copy, or written into it below.
	held, err := os.ReadFile(JournalPath(dsn))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	src, err := sql.Open("sqlite", "file:"+dsn+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	defer src.Close()
	if _, err := src.ExecContext(ctx, `VACUUM INTO ?`, to); err != nil {
		os.Remove(to)
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	if len(held) > 0 {
		if err := replayJournal(to, held); err != nil {
			os.Remove(to)
			return 0, fmt.Errorf("store: backup: the move journal: %w", err)
		}
	}
	dst, err := sql.Open("sqlite", "file:"+to+"?mode=ro")
	if err != nil {
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	defer dst.Close()
	var check string
	if err := dst.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		return 0, fmt.Errorf("store: backup: the copy does not check: %q %v", check, err)
	}
	if err := dst.QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&games); err != nil {
		return 0, fmt.Errorf("store: backup: the copy: %w", err)
	}
	return games, nil
}

// SchemaVersion reads how many of the migrations a database has had,
// without changing it (0 for a new or empty one), and how many this
// program has.
func SchemaVersion(ctx context.Context, dsn string) (applied, known int, err error) {
	driver, src := "pgx", dsn
	if !IsPostgres(dsn) {
		if _, err := os.Stat(dsn); err != nil {
			return 0, len(migrations), nil // not made yet
		}
		driver, src = "sqlite", "file:"+dsn+"?mode=ro&_pragma=busy_timeout(10000)"
	}
	db, err := sql.Open(driver, src)
	if err != nil {
		return 0, 0, fmt.Errorf("store: %s: %w", where(dsn), err)
	}
	defer db.Close()
	var exists int
	q := `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'`
	if IsPostgres(dsn) {
		q = `SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'schema_version'`
	}
	if err := db.QueryRowContext(ctx, q).Scan(&exists); err != nil {
		return 0, 0, fmt.Errorf("store: %s: %w", where(dsn), err)
	}
	if exists == 0 {
		return 0, len(migrations), nil
	}
	err = db.QueryRowContext(ctx, `SELECT n FROM schema_version`).Scan(&applied)
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("store: %s: %w", where(dsn), err)
	}
	return applied, len(migrations), nil
}

// Migration is the statement of migration n (1 first) for a database.
func Migration(n int, postgres bool) string { return migrations[n-1].text(postgres) }
