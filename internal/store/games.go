package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/muster-games/muster/internal/jsontext"
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
	// Player is the id of the player holding the seat (an account or a
	// browser's anonymous identity); empty for an agent or a seat not yet
	// taken.
	Player string `json:"player,omitempty"`
	// Rating and RD are the player's rating when a rated game began.
	Rating float64 `json:"rating,omitempty"`
	RD     float64 `json:"rd,omitempty"`
	// Bot: the player holding the seat is a bot (a program's account).
	Bot bool `json:"bot,omitempty"`
	// Left: the seat's account was deleted. Its secret is gone with it,
	// and a game in play is ended for it by the server that runs it
	// (resigned, or aborted before both sides have moved).
	Left bool `json:"left,omitempty"`
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
	// Rated games change their players' ratings.
	Rated bool
	// Lesson marks a game of a lesson step: in no list, no count of games
	// waiting, no player's page.
	Lesson bool
	// Ratings are the rating changes a rated game made, once it is over.
	Ratings []RatingChange
	// ToAct is the player (id) whose move the game waits for; empty when
	// it waits for no person.
	ToAct string
	// Deadline is when the player to act runs out of time (Unix ms), 0
	// while no clock runs.
	Deadline int64
	// Version counts the game's writes: a write is made only on the
	// version it read, and adds one.
	Version int64

	// stored are the columns an update writes as the database holds them
	// at stored.version (where this copy read or wrote them): an update
	// made on that version writes only the columns that differ.
	stored *storedRow
}

// updateColumns are the columns Update writes, in order, but for updated
// and version, which every write changes.
var updateColumns = [...]string{"actions", "seats", "status", "result", "reason", "ply", "draw_offer", "clock", "rematch",
	"takeback_offer", "player0", "player1", "rated", "rating_change", "to_act", "deadline"}

// The updateColumns that hold numbers; the others hold text.
const (
	colActions       = 0
	colSeats         = 1
	colStatus        = 2
	colPly           = 5
	colDrawOffer     = 6
	colClock         = 7
	colTakebackOffer = 9
	colRatings       = 13
	colToAct         = 14
	colDeadline      = 15
	numColumns       = 1<<5 | 1<<6 | 1<<9 | 1<<12 | 1<<15 // ply, draw_offer, takeback_offer, rated, deadline
)

// storedRow is a game's updateColumns as written or read at a version,
// with the seats they were written from (a copy of its own).
type storedRow struct {
	version int64
	vals    rowVals
	seats   []Seat
}

// rowVals are a game's updateColumns, each a text or a number (numColumns).
type rowVals struct {
	text [len(updateColumns)]string
	num  [len(updateColumns)]int64
}

// arg is column i as a statement's argument.
func (r *rowVals) arg(i int) any {
	if numColumns&(1<<i) != 0 {
		return r.num[i]
	}
	return r.text[i]
}

// row is g's updateColumns as Update writes them, and the seats they
// hold. Where prev (the row as stored, if known) has the same actions or
// seats, its texts are used again: the actions are written by hand into a
// buffer and compared (jsontext, as encoding/json writes them), the seats
// compared before they are encoded; a move changes neither's text but
// the actions', and the texts are then all a row allocates.
func (g *Game) row(prev *storedRow) (r rowVals, seats []Seat) {
	buf := rowBuffers.Get().(*[]byte)
	*buf = jsontext.AppendStrings((*buf)[:0], g.Actions)
	if prev != nil && string(*buf) == prev.vals.text[colActions] {
		r.text[colActions] = prev.vals.text[colActions]
	} else {
		r.text[colActions] = string(*buf)
	}
	rowBuffers.Put(buf)
	if prev != nil && slices.Equal(prev.seats, g.Seats) && (prev.seats == nil) == (g.Seats == nil) {
		r.text[colSeats], seats = prev.vals.text[colSeats], prev.seats
	} else {
		b, _ := json.Marshal(g.Seats)
		r.text[colSeats], seats = string(b), slices.Clone(g.Seats)
	}
	r.text[2], r.text[3], r.text[4] = string(g.Status), g.Result, g.Reason
	r.num[5], r.num[6] = int64(len(g.Actions)), int64(g.DrawOffer)
	r.text[colClock], r.text[8] = clockText(g.Clock), g.Rematch
	r.num[9] = int64(g.TakebackOffer)
	r.text[10], r.text[11] = g.player(0), g.player(1)
	r.num[12] = int64(boolInt(g.Rated))
	r.text[colRatings], r.text[14] = ratingsText(g.Ratings), g.ToAct
	r.num[15] = g.Deadline
	return r, seats
}

// rowBuffers are the buffers row writes a game's actions into.
var rowBuffers = sync.Pool{New: func() any { return new([]byte) }}

// RatingChange is what a rated game did to one seat's rating.
type RatingChange struct {
	Seat   int     `json:"seat"`
	Player string  `json:"player"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	RD     float64 `json:"rd"`
}

// hasAgent reports whether an agent holds a seat.
func (g *Game) hasAgent() bool {
	for _, s := range g.Seats {
		if s.Kind == SeatAI {
			return true
		}
	}
	return false
}

// player returns the player id of seat i, or "".
func (g *Game) player(i int) string {
	if i < len(g.Seats) {
		return g.Seats[i].Player
	}
	return ""
}

// Clock is a time control: each player's time left, with an increment
// added when his turn ends; or, by correspondence, a number of days for
// each move (BaseMS of them), the time left set back to it when a turn
// ends.
type Clock struct {
	BaseMS int64    `json:"base_ms"`
	IncMS  int64    `json:"inc_ms"`
	LeftMS [2]int64 `json:"left_ms"`
	// SinceMS is when the player to act began thinking (Unix ms).
	SinceMS int64 `json:"since_ms"`
	// DaysPerMove is set for correspondence.
	DaysPerMove int `json:"days_per_move,omitempty"`
}

// Correspondence reports whether the clock gives days a move.
func (c Clock) Correspondence() bool { return c.DaysPerMove > 0 }

// Deadline is when player p, to act, runs out of time (Unix ms).
func (c Clock) Deadline(p int) int64 { return c.SinceMS + c.LeftMS[p] }

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

// Create stores a new game.
func (s *Store) Create(ctx context.Context, g *Game) error {
	now := time.UnixMilli(time.Now().UnixMilli()) // as stored
	g.Created, g.Updated = now, now
	g.Actions = nonNil(g.Actions)
	if g.Status == "" {
		g.Status = StatusPlaying
	}
	// The columns as Update writes them, encoded once for the insert and
	// kept as stored.
	vals, seats := g.row(nil)
	_, err := s.exec(ctx, `INSERT INTO games (id, spec, created, updated, actions, seats, status, result, reason, owner, ply, draw_offer, clock, rematch, start, takeback_offer,
		player0, player1, rated, rating_change, to_act, deadline, has_agent, lesson)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.Spec, now.UnixMilli(), now.UnixMilli(), vals.text[colActions], vals.text[colSeats], g.Status, g.Result, g.Reason, g.Owner, len(g.Actions), g.DrawOffer, vals.text[colClock], g.Rematch, g.Start, g.TakebackOffer,
		g.player(0), g.player(1), boolInt(g.Rated), vals.text[colRatings], g.ToAct, g.Deadline, boolInt(g.hasAgent()), boolInt(g.Lesson))
	if err != nil {
		return fmt.Errorf("store: create %s: %w", g.ID, err)
	}
	g.stored = &storedRow{version: g.Version, vals: vals, seats: seats}
	if s.j != nil && g.Version == 0 {
		// Its writes go into the journal from the first.
		s.j.note(g.ID, journalAt{0, int64(len(g.Actions))})
	}
	return nil
}

// Copy is a copy of g that shares nothing either may change: after
// Create, a game as Get would read it back.
func (g *Game) Copy() *Game {
	c := *g
	c.Actions = slices.Clone(nonNil(g.Actions))
	c.Seats = slices.Clone(g.Seats)
	if g.Clock != nil {
		clock := *g.Clock
		c.Clock = &clock
	}
	c.Ratings = slices.Clone(g.Ratings)
	return &c
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func ratingsText(r []RatingChange) string {
	if len(r) == 0 {
		return ""
	}
	b, _ := json.Marshal(r)
	return string(b)
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
	if err := s.settle(ctx); err != nil {
		return nil, err
	}
	row := s.queryRow(ctx, `SELECT `+gameColumns+` FROM games WHERE id = ?`, id)
	return scan(row)
}

// GetMany reads the games of ids that are stored, in no order.
func (s *Store) GetMany(ctx context.Context, ids []string) ([]*Game, error) {
	if err := s.settle(ctx); err != nil {
		return nil, err
	}
	var out []*Game
	for len(ids) > 0 {
		n := min(len(ids), 500)
		args := make([]any, n)
		for i, id := range ids[:n] {
			args[i] = id
		}
		gs, err := s.games(ctx, `SELECT `+gameColumns+` FROM games WHERE id IN (?`+strings.Repeat(", ?", n-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		out = append(out, gs...)
		ids = ids[n:]
	}
	return out, nil
}

// gameColumns are the columns scan reads, in order.
const gameColumns = `id, spec, created, updated, actions, seats, status, result, reason, owner, draw_offer, clock, rematch, start, takeback_offer, rated, rating_change, to_act, deadline, lesson, version`

type scanner interface{ Scan(dest ...any) error }

func scan(row scanner) (*Game, error) {
	var g Game
	var created, updated int64
	var actions, seats, clock, ratings string
	var rated, lesson int
	err := row.Scan(&g.ID, &g.Spec, &created, &updated, &actions, &seats, &g.Status, &g.Result, &g.Reason, &g.Owner, &g.DrawOffer, &clock, &g.Rematch, &g.Start, &g.TakebackOffer,
		&rated, &ratings, &g.ToAct, &g.Deadline, &lesson, &g.Version)
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
	g.Rated, g.Lesson = rated != 0, lesson != 0
	if ratings != "" {
		if err := json.Unmarshal([]byte(ratings), &g.Ratings); err != nil {
			return nil, fmt.Errorf("store: game %s: ratings: %w", g.ID, err)
		}
	}
	// The columns as read, their texts as stored (a list of games read is
	// not encoded again for it).
	g.stored = &storedRow{version: g.Version, seats: slices.Clone(g.Seats), vals: rowVals{
		text: [len(updateColumns)]string{actions, seats, string(g.Status), g.Result, g.Reason, "", "", clock, g.Rematch, "", g.player(0), g.player(1), "", ratings, g.ToAct, ""},
		num:  [len(updateColumns)]int64{5: int64(len(g.Actions)), 6: int64(g.DrawOffer), 9: int64(g.TakebackOffer), 12: int64(rated), 15: g.Deadline},
	}}
	return &g, nil
}

// Version reads the version of a stored game.
func (s *Store) Version(ctx context.Context, id string) (int64, error) {
	if err := s.settle(ctx); err != nil {
		return 0, err
	}
	var v int64
	err := s.queryRow(ctx, `SELECT version FROM games WHERE id = ?`, id).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNotFound
	}
	return v, err
}

// Update writes the game's actions, seats, status and result, provided
// the stored game is still the version g was read at, with ply actions
// (optimistic concurrency): it returns ErrConflict otherwise, when
// another server (or an older copy) has changed the game since. On
// success g.Version is the new version.
func (s *Store) Update(ctx context.Context, g *Game, ply int) error {
	return s.UpdateNotify(ctx, g, ply, "")
}

// UpdateNotify is Update that also sends note, if not empty, to the
// servers listening on PostgreSQL (Notify's payload), in the write's own
// statement: sent when, and only if, the write is made, with no second
// round trip (a notification's own statement was a tenth of the CPU of a
// server through which 500 live games were played). On SQLite nobody
// listens, and note is not sent.
func (s *Store) UpdateNotify(ctx context.Context, g *Game, ply int, note string) error {
	defer s.took(Writes, time.Now())
	if !s.pg {
		note = ""
	}
	return s.update(ctx, s.db, g, ply, false, note)
}

// conn is a database or a transaction.
type conn interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// update writes g if the stored game is at g.Version with ply actions
// (and, with playing, is not over).
func (s *Store) update(ctx context.Context, c conn, g *Game, ply int, playing bool, note string) error {
	vals, seats := g.row(g.stored)
	old := g.Updated
	// Updated grows by at least a millisecond with every change, so that
	// clients can order the views of a game by it.
	g.Updated = time.UnixMilli(max(time.Now().UnixMilli(), old.UnixMilli()+1))
	// Only the columns that changed since the version this copy read or
	// wrote, where the write is made on that version (else all of them):
	// a move changes a few, and each index over a column not written is
	// left alone.
	var changed uint32
	columns := 0
	for i := range updateColumns {
		if g.stored != nil && g.stored.version == g.Version && g.stored.vals.text[i] == vals.text[i] && g.stored.vals.num[i] == vals.num[i] {
			continue
		}
		changed |= 1 << i
		columns++
	}
	args := make([]any, 0, columns+5)
	for i := range updateColumns {
		if changed&(1<<i) != 0 {
			args = append(args, vals.arg(i))
		}
	}
	query := s.updateQuery(changed, playing, note != "")
	args = append(args, g.Updated.UnixMilli(), g.Version+1, g.ID, ply, g.Version)
	if note != "" {
		args = append(args, note)
	}
	var n int64
	var err error
	if db, ok := c.(*sql.DB); ok && db == s.db {
		// The write of every move, outside a transaction: prepared once,
		// and on SQLite grouped with the other games' (group.go).
		var st *sql.Stmt
		switch st, err = s.prepared(ctx, s.db, query); {
		case err == nil && s.j != nil:
			// Into the journal, where it knows the row (journal.go).
			n, err = s.j.update(ctx, st, &journalRecord{mask: changed, playing: playing, id: g.ID,
				updated: args[columns].(int64), version: args[columns+1].(int64), ply: int64(ply), from: g.Version, set: args[:columns]})
		case err == nil && !s.pg:
			n, err = s.execGrouped(ctx, st, args)
		case err == nil:
			n, err = rowsAffected(st.ExecContext(ctx, args...))
		case errors.Is(err, errTooManyPrepared):
			n, err = rowsAffected(c.ExecContext(ctx, query, args...))
		}
	} else {
		// In a transaction, which may yet be rolled back: the journal
		// checks the game's next write.
		s.j.forget(g.ID)
		n, err = rowsAffected(c.ExecContext(ctx, query, args...))
	}
	if err != nil {
		g.Updated = old
		return fmt.Errorf("store: update %s: %w", g.ID, err)
	}
	if n != 1 {
		g.Updated = old
		var n int
		if err := c.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM games WHERE id = ?`), g.ID).Scan(&n); err == nil && n == 0 {
			return ErrNotFound
		}
		return ErrConflict
	}
	g.Version++
	// Written over where g has one: no other copy of g is written (a
	// game's room writes its own), and one that shares it, as a room's
	// snapshots do, never reads it; were one written, the row describes
	// the database at its version all the same (a new one each write
	// was a tenth of what a server allocated at 1,000 live games).
	if g.stored == nil {
		g.stored = new(storedRow)
	}
	*g.stored = storedRow{version: g.Version, vals: vals, seats: seats}
	return nil
}

// updateQuery is the statement that writes the columns of changed (a bit
// a column of updateColumns), with updated and version, where the stored
// game is at a version with a number of actions (and, with playing, not
// over): made once for each set of columns.
func (s *Store) updateQuery(changed uint32, playing, notify bool) string {
	key := uint64(changed)
	if playing {
		key |= 1 << 32
	}
	if notify {
		key |= 1 << 33
	}
	if q, ok := s.updates.Load(key); ok {
		return q.(string)
	}
	cond := ""
	if playing {
		cond = " AND status = 'playing'"
	}
	q := `UPDATE games SET ` + setColumns(changed) + `updated = ?, version = ? WHERE id = ? AND ply = ? AND version = ?` + cond
	if notify {
		// The notification goes with the row written, if one is: the
		// statement's rows are the update's (PostgreSQL only).
		q = `WITH written AS (` + q + ` RETURNING 1) SELECT pg_notify('` + notifyChannel + `', ?) FROM written`
	}
	q = s.q(q)
	s.updates.Store(key, q)
	return q
}

// setColumns is an update's SET of the updateColumns in changed, each
// "col = ?, ".
func setColumns(changed uint32) string {
	var set strings.Builder
	for i, col := range updateColumns {
		if changed&(1<<i) != 0 {
			set.WriteString(col)
			set.WriteString(" = ?, ")
		}
	}
	return set.String()
}

// rowsAffected is the rows a statement's result says it changed.
func rowsAffected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Overdue lists the games in play whose player to act ran out of time
// before now (Unix ms); at most n.
func (s *Store) Overdue(ctx context.Context, now int64, n int) ([]string, error) {
	return s.ids(ctx, `SELECT id FROM games WHERE deadline > 0 AND deadline < ? AND status = 'playing' ORDER BY deadline LIMIT ?`, now, n)
}

// LeftInPlay lists at most n games in play a seat of which has left (its
// account deleted: Seat.Left).
func (s *Store) LeftInPlay(ctx context.Context, n int) ([]string, error) {
	return s.ids(ctx, `SELECT id FROM games WHERE status = 'playing' AND seats LIKE '%"left":true%' LIMIT ?`, n)
}

// WaitingFor counts the games in play waiting for the player's move (the
// moves in the journal written first: an opponent's move counts as soon
// as it is answered).
func (s *Store) WaitingFor(ctx context.Context, player string) (int, error) {
	s.settleForList(ctx)
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM games WHERE to_act = ? AND status = 'playing' AND lesson = 0`, player).Scan(&n)
	return n, err
}

// CountSince counts the games an owner created since t, up to most (a
// limit's check needs no more: an address that made thousands costs no
// more to refuse than one that made the limit).
func (s *Store) CountSince(ctx context.Context, owner string, t time.Time, most int) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM games WHERE owner = ? AND created >= ? LIMIT ?) AS made`, owner, t.UnixMilli(), most).Scan(&n)
	return n, err
}

// Playing lists the ids of the games not over, oldest first.
func (s *Store) Playing(ctx context.Context) ([]string, error) {
	return s.ids(ctx, `SELECT id FROM games WHERE status = 'playing' ORDER BY created`)
}

// Recent lists the latest games, newest first.
func (s *Store) Recent(ctx context.Context, n int) ([]*Game, error) {
	return s.games(ctx, `SELECT `+gameColumns+` FROM games ORDER BY updated DESC LIMIT ?`, n)
}

// games runs a query for whole games.
func (s *Store) games(ctx context.Context, query string, args ...any) ([]*Game, error) {
	rows, err := s.query(ctx, query, args...)
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

// Unbegun lists the games in play in which nobody has acted, last
// changed before before; at most n.
func (s *Store) Unbegun(ctx context.Context, before time.Time, n int) ([]string, error) {
	return s.ids(ctx, `SELECT id FROM games WHERE status = 'playing' AND ply = 0 AND updated < ? ORDER BY updated LIMIT ?`, before.UnixMilli(), n)
}
