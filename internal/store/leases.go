package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Leases: on a database shared by several servers, the clocks and agents
// of a game are run by the one server holding its lease. A server renews
// its leases while it lives; when it dies they expire, and another server
// takes the game over.

// TakeLease gives the game's lease to owner for ttl, if nobody else holds
// a lease still running; it reports whether owner holds it now.
func (s *Store) TakeLease(ctx context.Context, game, owner string, ttl time.Duration) (bool, error) {
	now := time.Now().UnixMilli()
	res, err := s.exec(ctx, `INSERT INTO leases (game, owner, expires) VALUES (?, ?, ?)
		ON CONFLICT (game) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
		WHERE leases.owner = excluded.owner OR leases.expires < ?`, game, owner, now+ttl.Milliseconds(), now)
	if err != nil {
		return false, fmt.Errorf("store: lease: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// RenewLeases extends every lease owner holds by ttl and lists their games.
// The leases of games no longer in play are given up: a game ended
// through another server leaves its lease with the server that held it
// (only the server that writes the end gives its own up), which renewed
// it, with all the others, for as long as it ran.
func (s *Store) RenewLeases(ctx context.Context, owner string, ttl time.Duration) ([]string, error) {
	now := time.Now().UnixMilli()
	if _, err := s.exec(ctx, `DELETE FROM leases WHERE owner = ? AND game IN (SELECT id FROM games WHERE status <> 'playing')`, owner); err != nil {
		return nil, fmt.Errorf("store: give up the leases of games over: %w", err)
	}
	if _, err := s.exec(ctx, `UPDATE leases SET expires = ? WHERE owner = ? AND expires >= ?`, now+ttl.Milliseconds(), owner, now); err != nil {
		return nil, fmt.Errorf("store: renew leases: %w", err)
	}
	return s.ids(ctx, `SELECT game FROM leases WHERE owner = ? AND expires >= ?`, owner, now)
}

// ReleaseLease gives the game's lease up.
func (s *Store) ReleaseLease(ctx context.Context, game, owner string) error {
	_, err := s.exec(ctx, `DELETE FROM leases WHERE game = ? AND owner = ?`, game, owner)
	return err
}

// Orphans lists the games in play that need a server to run them (an
// agent seated, or a clock running) and whose lease is missing or over;
// at most n.
func (s *Store) Orphans(ctx context.Context, n int) ([]string, error) {
	return s.ids(ctx, `SELECT g.id FROM games g LEFT JOIN leases l ON l.game = g.id
		WHERE g.status = 'playing' AND (g.has_agent = 1 OR g.deadline > 0) AND (l.game IS NULL OR l.expires < ?)
		ORDER BY g.updated LIMIT ?`, time.Now().UnixMilli(), n)
}

// ids runs a query for one text column.
func (s *Store) ids(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := s.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// notifyChannel is the PostgreSQL channel servers tell each other on.
const notifyChannel = "muster"

// Notify tells every server listening on the database (PostgreSQL only;
// on SQLite there is one server and nothing to tell).
func (s *Store) Notify(ctx context.Context, payload string) error {
	if !s.pg {
		return nil
	}
	_, err := s.exec(ctx, `SELECT pg_notify(?, ?)`, notifyChannel, payload)
	return err
}

// Listen calls f with every notification until ctx ends, connecting again
// after a lost connection (PostgreSQL only). ready, if not nil, is called
// each time the listening connection is up.
func (s *Store) Listen(ctx context.Context, f func(payload string), ready func()) {
	if !s.pg {
		<-ctx.Done()
		return
	}
	for ctx.Err() == nil {
		// A lost connection (the error) is simply made again.
		s.listenOnce(ctx, f, ready)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

func (s *Store) listenOnce(ctx context.Context, f func(string), ready func()) error {
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return err
	}
	if ready != nil {
		ready()
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		f(n.Payload)
	}
}
