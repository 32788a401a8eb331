package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Report is a player's report of another player, or of a chat line.
type Report struct {
	ID string
	// Reporter and Target are players' ids; ReporterName and TargetName
	// their usernames (or "Anonymous") as read.
	Reporter, Target         string
	ReporterName, TargetName string
	// Game and Line name a reported chat line (0: none), Quoted its text
	// as it was when reported.
	Game   string
	Line   int64
	Quoted string
	Reason string
	// Status is open or closed; Resolution what was done (dismissed,
	// muted, banned), ClosedBy by whom.
	Status, Resolution, ClosedBy string
	Created                      time.Time
}

// Report statuses.
const (
	ReportOpen   = "open"
	ReportClosed = "closed"
)

// ErrNoReport is returned for an unknown report, or one no longer open.
var ErrNoReport = errors.New("store: no such open report")

// ErrReported is returned for a report its reporter has made already and
// is still open (of the same player, or the same chat line).
var ErrReported = errors.New("store: reported already")

// CreateReport stores a report, unless the reporter has one open of the
// same player and line (ErrReported).
func (s *Store) CreateReport(ctx context.Context, r *Report) error {
	r.Created, r.Status = time.Now(), ReportOpen
	res, err := s.exec(ctx, `INSERT INTO reports (id, reporter, target, game, line, quoted, reason, created, status) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?
		WHERE NOT EXISTS (SELECT 1 FROM reports WHERE reporter = ? AND target = ? AND game = ? AND line = ? AND status = 'open')`,
		r.ID, r.Reporter, r.Target, r.Game, r.Line, r.Quoted, r.Reason, r.Created.UnixMilli(), r.Status, r.Reporter, r.Target, r.Game, r.Line)
	if err != nil {
		return fmt.Errorf("store: create report: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrReported
	}
	return nil
}

// ReportsSince counts the reports a player made since t.
func (s *Store) ReportsSince(ctx context.Context, reporter string, t time.Time) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM reports WHERE reporter = ? AND created >= ?`, reporter, t.UnixMilli()).Scan(&n)
	return n, err
}

// Reports lists the reports of a status, the oldest first; at most n.
func (s *Store) Reports(ctx context.Context, status string, n int) ([]*Report, error) {
	rows, err := s.query(ctx, `SELECT r.id, r.reporter, r.target, COALESCE(a.username, ''), COALESCE(b.username, ''), r.game, r.line, r.quoted, r.reason,
		r.status, r.resolution, r.closed_by, r.created
		FROM reports r LEFT JOIN players a ON a.id = r.reporter LEFT JOIN players b ON b.id = r.target
		WHERE r.status = ? ORDER BY r.created, r.id LIMIT ?`, status, n)
	if err != nil {
		return nil, fmt.Errorf("store: reports: %w", err)
	}
	defer rows.Close()
	var out []*Report
	for rows.Next() {
		var r Report
		var created int64
		if err := rows.Scan(&r.ID, &r.Reporter, &r.Target, &r.ReporterName, &r.TargetName, &r.Game, &r.Line, &r.Quoted, &r.Reason,
			&r.Status, &r.Resolution, &r.ClosedBy, &created); err != nil {
			return nil, fmt.Errorf("store: reports: %w", err)
		}
		r.Created = time.UnixMilli(created)
		out = append(out, &r)
	}
	return out, rows.Err()
}

// Report reads a report.
func (s *Store) Report(ctx context.Context, id string) (*Report, error) {
	var r Report
	var created int64
	err := s.queryRow(ctx, `SELECT id, reporter, target, game, line, quoted, reason, status, resolution, closed_by, created FROM reports WHERE id = ?`, id).
		Scan(&r.ID, &r.Reporter, &r.Target, &r.Game, &r.Line, &r.Quoted, &r.Reason, &r.Status, &r.Resolution, &r.ClosedBy, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoReport
	}
	if err != nil {
		return nil, fmt.Errorf("store: report: %w", err)
	}
	r.Created = time.UnixMilli(created)
	return &r, nil
}

// CloseReport closes an open report with what was done, by whom.
func (s *Store) CloseReport(ctx context.Context, id, resolution, by string) error {
	res, err := s.exec(ctx, `UPDATE reports SET status = 'closed', resolution = ?, closed_by = ? WHERE id = ? AND status = 'open'`, resolution, by, id)
	if err != nil {
		return fmt.Errorf("store: close report: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrNoReport
	}
	return nil
}

// SetAdmin marks an account as an administrator, or no longer.
func (s *Store) SetAdmin(ctx context.Context, usernameKey string, admin bool) error {
	return s.setFlag(ctx, "admin", "username_key", usernameKey, admin)
}

// SetMuted mutes a player's chat, or lets him speak again.
func (s *Store) SetMuted(ctx context.Context, id string, muted bool) error {
	return s.setFlag(ctx, "muted", "id", id, muted)
}

// SetBanned bans a player, or lifts the ban.
func (s *Store) SetBanned(ctx context.Context, id string, banned bool) error {
	return s.setFlag(ctx, "banned", "id", id, banned)
}

// setFlag sets a player's flag column (a name from the code, never from a
// request) by a key column.
func (s *Store) setFlag(ctx context.Context, column, by, key string, on bool) error {
	res, err := s.exec(ctx, `UPDATE players SET `+column+` = ? WHERE `+by+` = ?`, boolInt(on), key)
	if err != nil {
		return fmt.Errorf("store: set %s: %w", column, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrNoPlayer
	}
	return nil
}

// Message reads one chat line.
func (s *Store) Message(ctx context.Context, game string, id int64) (*Message, error) {
	var m Message
	var created int64
	err := s.queryRow(ctx, `SELECT id, game, room, player, name, text, created FROM chat WHERE game = ? AND id = ?`, game, id).
		Scan(&m.ID, &m.Game, &m.Room, &m.Player, &m.Name, &m.Text, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoMessage
	}
	if err != nil {
		return nil, fmt.Errorf("store: chat line: %w", err)
	}
	m.Created, m.At = time.UnixMilli(created), created
	return &m, nil
}

// ErrNoMessage is returned for an unknown chat line.
var ErrNoMessage = errors.New("store: no such chat line")

// Admins lists the administrators' usernames.
func (s *Store) Admins(ctx context.Context) ([]string, error) {
	rows, err := s.query(ctx, `SELECT username FROM players WHERE admin = 1 ORDER BY username_key`)
	if err != nil {
		return nil, fmt.Errorf("store: admins: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}
