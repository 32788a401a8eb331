// Package store keeps the web app's games in SQLite (modernc.org/sqlite,
// pure Go), in WAL mode: every action is written as it is played, so a
// restarted server finds every game where it was.
package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// SeatKind says who holds a seat.
type SeatKind string

// The kinds of seats.
const (
	SeatHuman SeatKind = "human"
	SeatAI    SeatKind = "ai"
)

// Status says whether a game goes on.
type Status string

// The statuses of a game.
const (
	StatusPlaying Status = "playing"
	StatusOver    Status = "over"
)

// Seat is one side of a game.
type Seat struct {
	// Kind is a person or an agent.
	Kind SeatKind `json:"kind"`
	// Agent is the agent spec or level of an AI seat.
	Agent string `json:"agent,omitempty"`
	// SecretHash is the SHA-256 of the seat's secret, hex; empty until a
	// person holds the seat.
	SecretHash string `json:"secret_hash,omitempty"`
	// JoinHash is the SHA-256 of the one-time invitation token of a seat
	// left for a friend; cleared when claimed.
	JoinHash string `json:"join_hash,omitempty"`
	// Name is a display name.
	Name string `json:"name,omitempty"`
}

// Game is a stored game.
type Game struct {
	ID      string
	Spec    string
	Created time.Time
	Updated time.Time
	Actions []string
	Seats   []Seat
	Status  Status
	Result  string
	Reason  string
	// Owner is the client that created the game (for per-client limits).
	Owner string
	// DrawOffer is the seat that offers a draw, or -1; TakebackOffer the
	// seat that asks its opponent to take back its last turn, or -1.
	DrawOffer, TakebackOffer int
	// Clock is the time control, nil for none.
	Clock *Clock
	// Rematch is the id of the game that follows this one with the sides
	// swapped, once a player has asked for it.
	Rematch string
	// Start is the position the game began from, in the game's position
	// text; empty for the game's own start.
	Start string
}

// Clock is a time control: each player's time left, with an increment
// added when his turn ends.
type Clock struct {
	BaseMS int64    `json:"base_ms"`
	IncMS  int64    `json:"inc_ms"`
	LeftMS [2]int64 `json:"left_ms"`
	// SinceMS is when the player to act began thinking (Unix ms).
	SinceMS int64 `json:"since_ms"`
}

// Charged returns the clock with the time since SinceMS taken from player
// p (never below zero) and SinceMS moved to now.
func (c Clock) Charged(p int, now int64) Clock {
	c.LeftMS[p] = max(0, c.LeftMS[p]-(now-c.SinceMS))
	c.SinceMS = now
	return c
}

// ErrNotFound is returned for an unknown game id.
var ErrNotFound = errors.New("store: no such game")

// ErrConflict is returned when an action is stored on a game that has
// moved on since it was read.
var ErrConflict = errors.New("store: the game has changed")

// Store is the database.
type Store struct {
	db *sql.DB
}

// migrations are applied in order; the database records how many ran.
var migrations = []string{
	`CREATE TABLE games (
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
	)`,
	`CREATE INDEX games_owner ON games(owner, created)`,
	`ALTER TABLE games ADD COLUMN draw_offer INTEGER NOT NULL DEFAULT -1`,
	`ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT ''`,
	`ALTER TABLE games ADD COLUMN rematch TEXT NOT NULL DEFAULT ''`,
	`ALTER TABLE games ADD COLUMN start TEXT NOT NULL DEFAULT ''`,
	`ALTER TABLE games ADD COLUMN takeback_offer INTEGER NOT NULL DEFAULT -1`,
}

// Open opens (or creates) the database at path and brings its schema up
// to date.
func Open(path string) (*Store, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // SQLite writes one at a time; one connection avoids busy errors
	s := &Store{db: db}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) migrate() error {
	if _, err := s.db.Exec(`CREATE TABLE IF NOT EXISTS schema_version (n INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	var n int
	err := s.db.QueryRow(`SELECT n FROM schema_version`).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := s.db.Exec(`INSERT INTO schema_version (n) VALUES (0)`); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	for ; n < len(migrations); n++ {
		tx, err := s.db.Begin()
		if err != nil {
			return err
		}
		if _, err := tx.Exec(migrations[n]); err != nil {
			tx.Rollback()
			return fmt.Errorf("store: migration %d: %w", n+1, err)
		}
		if _, err := tx.Exec(`UPDATE schema_version SET n = ?`, n+1); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// Create stores a new game.
func (s *Store) Create(ctx context.Context, g *Game) error {
	actions, _ := json.Marshal(nonNil(g.Actions))
	seats, _ := json.Marshal(g.Seats)
	now := time.Now()
	g.Created, g.Updated = now, now
	if g.Status == "" {
		g.Status = StatusPlaying
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO games (id, spec, created, updated, actions, seats, status, result, reason, owner, ply, draw_offer, clock, rematch, start, takeback_offer)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.Spec, now.UnixMilli(), now.UnixMilli(), string(actions), string(seats), g.Status, g.Result, g.Reason, g.Owner, len(g.Actions), g.DrawOffer, clockText(g.Clock), g.Rematch, g.Start, g.TakebackOffer)
	if err != nil {
		return fmt.Errorf("store: create %s: %w", g.ID, err)
	}
	return nil
}

func clockText(c *Clock) string {
	if c == nil {
		return ""
	}
	b, _ := json.Marshal(c)
	return string(b)
}

func nonNil(a []string) []string {
	if a == nil {
		return []string{}
	}
	return a
}

// Get reads a game.
func (s *Store) Get(ctx context.Context, id string) (*Game, error) {
	row := s.db.QueryRowContext(ctx, `SELECT id, spec, created, updated, actions, seats, status, result, reason, owner, draw_offer, clock, rematch, start, takeback_offer FROM games WHERE id = ?`, id)
	return scan(row)
}

type scanner interface{ Scan(dest ...any) error }

func scan(row scanner) (*Game, error) {
	var g Game
	var created, updated int64
	var actions, seats, clock string
	err := row.Scan(&g.ID, &g.Spec, &created, &updated, &actions, &seats, &g.Status, &g.Result, &g.Reason, &g.Owner, &g.DrawOffer, &clock, &g.Rematch, &g.Start, &g.TakebackOffer)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	g.Created, g.Updated = time.UnixMilli(created), time.UnixMilli(updated)
	if err := json.Unmarshal([]byte(actions), &g.Actions); err != nil {
		return nil, fmt.Errorf("store: game %s: actions: %w", g.ID, err)
	}
	if err := json.Unmarshal([]byte(seats), &g.Seats); err != nil {
		return nil, fmt.Errorf("store: game %s: seats: %w", g.ID, err)
	}
	if clock != "" {
		g.Clock = &Clock{}
		if err := json.Unmarshal([]byte(clock), g.Clock); err != nil {
			return nil, fmt.Errorf("store: game %s: clock: %w", g.ID, err)
		}
	}
	return &g, nil
}

// Update writes the game's actions, seats, status and result, provided
// the stored game still has ply actions (optimistic concurrency); it
// returns ErrConflict otherwise.
func (s *Store) Update(ctx context.Context, g *Game, ply int) error {
	actions, _ := json.Marshal(nonNil(g.Actions))
	seats, _ := json.Marshal(g.Seats)
	old := g.Updated
	// Updated grows by at least a millisecond with every change, so that
	// clients can order the views of a game by it.
	g.Updated = time.UnixMilli(max(time.Now().UnixMilli(), old.UnixMilli()+1))
	res, err := s.db.ExecContext(ctx, `UPDATE games SET actions = ?, seats = ?, status = ?, result = ?, reason = ?, updated = ?, ply = ?, draw_offer = ?, clock = ?, rematch = ?,
		takeback_offer = ? WHERE id = ? AND ply = ?`,
		string(actions), string(seats), g.Status, g.Result, g.Reason, g.Updated.UnixMilli(), len(g.Actions), g.DrawOffer, clockText(g.Clock), g.Rematch,
		g.TakebackOffer, g.ID, ply)
	if err != nil {
		g.Updated = old
		return fmt.Errorf("store: update %s: %w", g.ID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		g.Updated = old
		if _, err := s.Get(ctx, g.ID); errors.Is(err, ErrNotFound) {
			return ErrNotFound
		}
		return ErrConflict
	}
	return nil
}

// CountSince counts the games an owner created since t.
func (s *Store) CountSince(ctx context.Context, owner string, t time.Time) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE owner = ? AND created >= ?`, owner, t.UnixMilli()).Scan(&n)
	return n, err
}

// Playing lists the ids of the games not over, oldest first.
func (s *Store) Playing(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM games WHERE status = 'playing' ORDER BY created`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Recent lists the latest games, newest first.
func (s *Store) Recent(ctx context.Context, n int) ([]*Game, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, spec, created, updated, actions, seats, status, result, reason, owner, draw_offer, clock, rematch, start, takeback_offer FROM games ORDER BY updated DESC LIMIT ?`, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Game
	for rows.Next() {
		g, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}
