package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Challenge is an offer to play: open to anyone in the lobby, or to one
// player.
type Challenge struct {
	ID string
	// Creator is the player who offers it, CreatorName his username
	// ("" when anonymous).
	Creator, CreatorName string
	Spec                 string
	// Minutes and Increment set a live clock; Days a correspondence one;
	// all zero: no clock.
	Minutes, Increment float64
	Days               int
	Rated              bool
	// Side is the creator's side (a player name of the game) or "random".
	Side string
	// Target, when set, is the one player who may accept.
	Target, TargetName string
	Created            time.Time
	// Status is open, accepted or cancelled; Game the game an accepted
	// challenge started.
	Status string
	Game   string
	// Address is where the creator came from (for limits).
	Address string
}

// Challenge statuses.
const (
	ChallengeOpen      = "open"
	ChallengeAccepted  = "accepted"
	ChallengeCancelled = "cancelled"
)

// ErrNoChallenge is returned for an unknown challenge, or one no longer
// open.
var ErrNoChallenge = errors.New("store: no such open challenge")

const challengeColumns = `id, creator, creator_name, spec, minutes, increment, days, rated, side, target, target_name, created, status, game, address`

func scanChallenge(row scanner) (*Challenge, error) {
	var c Challenge
	var created int64
	var rated int
	err := row.Scan(&c.ID, &c.Creator, &c.CreatorName, &c.Spec, &c.Minutes, &c.Increment, &c.Days, &rated, &c.Side, &c.Target, &c.TargetName, &created, &c.Status, &c.Game, &c.Address)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoChallenge
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	c.Rated, c.Created = rated != 0, time.UnixMilli(created)
	return &c, nil
}

// CreateChallenge stores an open challenge.
func (s *Store) CreateChallenge(ctx context.Context, c *Challenge) error {
	c.Created, c.Status = time.Now(), ChallengeOpen
	_, err := s.exec(ctx, `INSERT INTO challenges (`+challengeColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.Creator, c.CreatorName, c.Spec, c.Minutes, c.Increment, c.Days, boolInt(c.Rated), c.Side, c.Target, c.TargetName, c.Created.UnixMilli(), c.Status, c.Game, c.Address)
	if err != nil {
		return fmt.Errorf("store: create challenge: %w", err)
	}
	return nil
}

// Challenge reads a challenge.
func (s *Store) Challenge(ctx context.Context, id string) (*Challenge, error) {
	return scanChallenge(s.queryRow(ctx, `SELECT `+challengeColumns+` FROM challenges WHERE id = ?`, id))
}

// OpenChallenges lists the open challenges made since since that player
// may see: those open to all, his own, and those to him; newest first, at
// most n.
func (s *Store) OpenChallenges(ctx context.Context, player string, since time.Time, n int) ([]*Challenge, error) {
	return s.challenges(ctx, `SELECT `+challengeColumns+` FROM challenges WHERE status = 'open' AND created >= ?
		AND (target = '' OR target = ? OR creator = ?) ORDER BY created DESC LIMIT ?`, since.UnixMilli(), player, player, n)
}

// challenges runs a query for whole challenges.
func (s *Store) challenges(ctx context.Context, query string, args ...any) ([]*Challenge, error) {
	rows, err := s.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Challenge
	for rows.Next() {
		c, err := scanChallenge(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// AcceptedFor lists the challenges the player made that were accepted
// since since (the creator's page goes to the game).
func (s *Store) AcceptedFor(ctx context.Context, player string, since time.Time) ([]*Challenge, error) {
	return s.challenges(ctx, `SELECT `+challengeColumns+` FROM challenges WHERE creator = ? AND status = 'accepted' AND closed >= ?
		ORDER BY closed DESC LIMIT 10`, player, since.UnixMilli())
}

// CloseChallenge moves an open challenge to status (accepted, with the
// game it started, or cancelled); only one caller can close it.
func (s *Store) CloseChallenge(ctx context.Context, id, status, game string) error {
	res, err := s.exec(ctx, `UPDATE challenges SET status = ?, game = ?, closed = ? WHERE id = ? AND status = 'open'`, status, game, time.Now().UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("store: close challenge: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrNoChallenge
	}
	return nil
}

// ChallengesSince counts the challenges a player or an address made since
// t.
func (s *Store) ChallengesSince(ctx context.Context, player, address string, t time.Time) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM challenges WHERE (creator = ? OR address = ?) AND created >= ?`, player, address, t.UnixMilli()).Scan(&n)
	return n, err
}

// Live lists the games in play between people, latest first: what the
// lobby offers to watch; at most n.
func (s *Store) Live(ctx context.Context, n int) ([]*Game, error) {
	return s.games(ctx, `SELECT `+gameColumns+` FROM games WHERE status = 'playing' AND lesson = 0 AND player0 <> '' AND player1 <> '' AND player0 <> player1
		ORDER BY updated DESC LIMIT ?`, n)
}

// ChallengesOf lists the open challenges made since since that are
// player's own or to him; newest first, at most n.
func (s *Store) ChallengesOf(ctx context.Context, player string, since time.Time, n int) ([]*Challenge, error) {
	return s.challenges(ctx, `SELECT `+challengeColumns+` FROM challenges WHERE status = 'open' AND created >= ?
		AND (target = ? OR creator = ?) ORDER BY created DESC LIMIT ?`, since.UnixMilli(), player, player, n)
}

// OpenCount counts the challenges still open made since since by player
// or from address.
func (s *Store) OpenCount(ctx context.Context, player, address string, since time.Time) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM challenges WHERE status = 'open' AND created >= ? AND (creator = ? OR address = ?)`,
		since.UnixMilli(), player, address).Scan(&n)
	return n, err
}
