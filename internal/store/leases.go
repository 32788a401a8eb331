package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Leases: on a database shared by several servers, the clocks and agents
// of a game are run by the one server holding its lease. A lease runs
// while its server lives: each server keeps one row of its own in
// servers, its heartbeat, renewed every LeaseTTL/3 (Heartbeat), and a
// lease is held while its owner's heartbeat or its own expiry (set when it
// is taken, never renewed: a newly taken lease holds until the first
// heartbeat, and a server of a build before heartbeats renews only it)
// runs. When a server dies its heartbeat runs out, and another server
// takes its games over. A server's renewal was once a write of each of its
// leases: as many rows written as its games' moves wrote (1,000 live
// games: 500 a second), for PostgreSQL a new version of each row and of
// its index entries; now it is one row a server.

// leaseLive is the condition, in SQL, that the lease l is held (its args:
// now, twice).
const leaseLive = `(l.expires >= ? OR EXISTS (SELECT 1 FROM servers s WHERE s.instance = l.owner AND s.expires >= ?))`

// TakeLease gives the game's lease to owner for ttl, if nobody else holds
// a lease still running; it reports whether owner holds it now.
func (s *Store) TakeLease(ctx context.Context, game, owner string, ttl time.Duration) (bool, error) {
	now := time.Now().UnixMilli()
	res, err := s.exec(ctx, `INSERT INTO leases AS l (game, owner, expires) VALUES (?, ?, ?)
		ON CONFLICT (game) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
		WHERE l.owner = excluded.owner OR NOT `+leaseLive, game, owner, now+ttl.Milliseconds(), now, now)
	if err != nil {
		return false, fmt.Errorf("store: lease: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Heartbeat says that owner lives, for ttl: its leases hold that long.
func (s *Store) Heartbeat(ctx context.Context, owner string, ttl time.Duration) error {
	_, err := s.exec(ctx, `INSERT INTO servers (instance, expires) VALUES (?, ?)
		ON CONFLICT (instance) DO UPDATE SET expires = excluded.expires`, owner, time.Now().Add(ttl).UnixMilli())
	if err != nil {
		return fmt.Errorf("store: heartbeat: %w", err)
	}
	return nil
}

// Stopped says that owner has stopped: its leases no longer hold, and
// other servers take its games over at once.
func (s *Store) Stopped(ctx context.Context, owner string) error {
	if _, err := s.exec(ctx, `DELETE FROM servers WHERE instance = ?`, owner); err != nil {
		return fmt.Errorf("store: stopped: %w", err)
	}
	_, err := s.exec(ctx, `UPDATE leases SET expires = 0 WHERE owner = ?`, owner)
	return err
}

// ServersKept is how long a dead server's heartbeat row is kept: a day's
// servers (each start of muster serve is one) are a few rows.
const ServersKept = 24 * time.Hour

// ForgetServers deletes the rows of servers dead for a day (ServersKept),
// and reports how many; a server's sweep runs it every hour.
func (s *Store) ForgetServers(ctx context.Context) (int64, error) {
	n, err := rowsAffected(s.exec(ctx, `DELETE FROM servers WHERE expires < ?`, time.Now().Add(-ServersKept).UnixMilli()))
	if err != nil {
		return 0, fmt.Errorf("store: forget dead servers: %w", err)
	}
	return n, nil
}

// RenewLeases renews owner's heartbeat, by ttl, and lists the games whose
// leases it holds. The leases of games no longer in play are given up: a
// game ended through another server leaves its lease with the server that
// held it (only the server that writes the end gives its own up).
func (s *Store) RenewLeases(ctx context.Context, owner string, ttl time.Duration) ([]string, error) {
	if err := s.Heartbeat(ctx, owner, ttl); err != nil {
		return nil, err
	}
	if _, err := s.exec(ctx, `DELETE FROM leases WHERE owner = ? AND game IN (SELECT id FROM games WHERE status <> 'playing')`, owner); err != nil {
		return nil, fmt.Errorf("store: give up the leases of games over: %w", err)
	}
	return s.ids(ctx, `SELECT game FROM leases WHERE owner = ?`, owner)
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
	now := time.Now().UnixMilli()
	return s.ids(ctx, `SELECT g.id FROM games g LEFT JOIN leases l ON l.game = g.id
		WHERE g.status = 'playing' AND (g.has_agent = 1 OR g.deadline > 0) AND (l.game IS NULL OR NOT `+leaseLive+`)
		ORDER BY g.updated LIMIT ?`, now, now, n)
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
