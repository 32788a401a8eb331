package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The operator's changes (muster admin): each is one transaction, and
// each change of a game adds to its version, so that a server holding the
// game reads it again before its next change.

// AbortGame calls a game in play off, without a result, for an operator:
// ErrNotFound for no such game, ErrConflict for one already over.
func (s *Store) AbortGame(ctx context.Context, id, reason string) error {
	s.j.forget(id)
	res, err := s.exec(ctx, `UPDATE games SET status = 'over', result = 'aborted', reason = ?, to_act = '', deadline = 0, draw_offer = -1, takeback_offer = -1,
		version = version + 1, updated = ? WHERE id = ? AND status = 'playing'`, reason, time.Now().UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("store: abort %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	if _, err := s.Get(ctx, id); err != nil {
		return err
	}
	return ErrConflict
}

// RenameAccount gives the account whose username key is oldKey a new
// username (and its key), everywhere it is shown: its games' seats, its
// tournament places, its challenges and its chat lines. ErrNoPlayer for no
// such account, ErrNameTaken for a name already an account's.
func (s *Store) RenameAccount(ctx context.Context, oldKey, name, key string) error {
	return s.rewritePlayer(ctx, oldKey, func(tx *sql.Tx, id string) error {
		if err := s.notHeld(ctx, tx, key); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.q(`UPDATE players SET username = ?, username_key = ? WHERE id = ?`), name, key, id)
		if err != nil && isUnique(err) {
			return ErrNameTaken
		}
		return err
	}, name)
}

// DeleteAccount deletes an account, keeping its games: the player stays
// as an anonymous identity with no name, password, sessions, tokens or
// ratings, and every name it left (its games' seats, tournament places,
// challenges, chat lines) is blanked; its open challenges are withdrawn.
// Its username is held: nobody registers it or is renamed to it again.
// Its seats lose their secrets and are marked Left, and each of its games
// in play is made due at once, so that the server running it (which looks
// at the games due every few seconds) ends it for the seat that left.
// It returns the ids of those games. ErrNoPlayer for no such account.
func (s *Store) DeleteAccount(ctx context.Context, key string) ([]string, error) {
	now := time.Now().UnixMilli()
	var playing []string
	err := s.rewritePlayer(ctx, key, func(tx *sql.Tx, id string) error {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO held_names (username_key, held) VALUES (?, ?)`), key, now); err != nil {
			return err
		}
		var err error
		if playing, err = s.leaveSeats(ctx, tx, id, now); err != nil {
			return err
		}
		for _, q := range []string{
			`UPDATE players SET username = NULL, username_key = NULL, password_hash = '', registered = 0, bot = 0, admin = 0, muted = 0, banned = 0 WHERE id = ?`,
			`DELETE FROM sessions WHERE player_id = ?`,
			`DELETE FROM bot_tokens WHERE player_id = ?`,
			`DELETE FROM ratings WHERE player_id = ?`,
			`DELETE FROM puzzle_attempts WHERE player_id = ?`,
			`UPDATE challenges SET status = 'cancelled' WHERE (creator = ? OR target = ?) AND status = 'open'`,
		} {
			args := make([]any, strings.Count(q, "?"))
			for i := range args {
				args[i] = id
			}
			if _, err := tx.ExecContext(ctx, s.q(q), args...); err != nil {
				return err
			}
		}
		return nil
	}, "")
	if err != nil {
		return nil, err
	}
	return playing, nil
}

// leaveSeats marks player id's seats Left, without their secrets, in tx;
// his games in play are due at now (rewriteID then moves their versions
// on). It returns the ids of those in play.
func (s *Store) leaveSeats(ctx context.Context, tx *sql.Tx, id string, now int64) ([]string, error) {
	rows, err := tx.QueryContext(ctx, s.q(`SELECT id, seats, status FROM games WHERE player0 = ? OR player1 = ?`), id, id)
	if err != nil {
		return nil, err
	}
	type left struct {
		seats   string
		playing bool
	}
	games := map[string]left{}
	for rows.Next() {
		var gid, text string
		var status Status
		if err := rows.Scan(&gid, &text, &status); err != nil {
			rows.Close()
			return nil, err
		}
		var ss []Seat
		if err := json.Unmarshal([]byte(text), &ss); err != nil {
			rows.Close()
			return nil, fmt.Errorf("game %s: seats: %w", gid, err)
		}
		for i := range ss {
			if ss[i].Player == id {
				ss[i].SecretHash, ss[i].Left = "", true
			}
		}
		b, _ := json.Marshal(ss)
		games[gid] = left{string(b), status == StatusPlaying}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var playing []string
	for gid, g := range games {
		q := `UPDATE games SET seats = ? WHERE id = ?`
		args := []any{g.seats, gid}
		if g.playing {
			q = `UPDATE games SET seats = ?, deadline = ? WHERE id = ?`
			args = []any{g.seats, now, gid}
			playing = append(playing, gid)
		}
		if _, err := tx.ExecContext(ctx, s.q(q), args...); err != nil {
			return nil, err
		}
	}
	return playing, nil
}

// rewritePlayer runs change on the account with username key in a
// transaction, then shows it everywhere as name ("" for anonymous).
func (s *Store) rewritePlayer(ctx context.Context, key string, change func(tx *sql.Tx, id string) error, name string) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	var id string
	err = tx.QueryRowContext(ctx, s.q(`SELECT id FROM players WHERE username_key = ?`), key).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoPlayer
	} else if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := s.rewriteID(ctx, tx, id, change, name); err != nil {
		return err
	}
	return tx.Commit()
}

// rewriteID runs change on player id in tx, then shows him everywhere as
// name ("" for anonymous): in his games' seats (their versions moved on,
// so that a server holding one reads it again), his tournaments, his
// challenges and his chat lines.
func (s *Store) rewriteID(ctx context.Context, tx *sql.Tx, id string, change func(tx *sql.Tx, id string) error, name string) error {
	if err := change(tx, id); err != nil {
		if errors.Is(err, ErrNameTaken) || errors.Is(err, ErrRegistered) {
			return err
		}
		return fmt.Errorf("store: %w", err)
	}
	// The names in the games' seats: read, changed, written with the
	// version moved on (the journal checks each game's next write).
	s.j.forget("")
	rows, err := tx.QueryContext(ctx, s.q(`SELECT id, seats FROM games WHERE player0 = ? OR player1 = ?`), id, id)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	seats := map[string]string{}
	for rows.Next() {
		var gid, text string
		if err := rows.Scan(&gid, &text); err != nil {
			rows.Close()
			return fmt.Errorf("store: %w", err)
		}
		seats[gid] = text
	}
	rows.Close()
	for gid, text := range seats {
		var ss []Seat
		if err := json.Unmarshal([]byte(text), &ss); err != nil {
			return fmt.Errorf("store: game %s: seats: %w", gid, err)
		}
		for i := range ss {
			if ss[i].Player == id {
				ss[i].Name = name
			}
		}
		b, _ := json.Marshal(ss)
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE games SET seats = ?, version = version + 1 WHERE id = ?`), string(b), gid); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	shown := name
	if shown == "" {
		shown = "Anonymous"
	}
	for _, q := range []struct{ query, value string }{
		{`UPDATE tournament_players SET name = ? WHERE player = ?`, shown},
		{`UPDATE challenges SET creator_name = ? WHERE creator = ?`, name},
		{`UPDATE challenges SET target_name = ? WHERE target = ?`, name},
		{`UPDATE chat SET name = ? WHERE player = ?`, shown},
	} {
		if _, err := tx.ExecContext(ctx, s.q(q.query), q.value, id); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	return nil
}

// AddressActivity is what one address did in a while: the games it
// made, the accounts and the challenges.
type AddressActivity struct {
	Address                     string
	Games, Accounts, Challenges int
}

// BusiestAddresses lists the addresses that made the most games,
// accounts and challenges since t, the busiest first; at most n.
func (s *Store) BusiestAddresses(ctx context.Context, since time.Time, n int) ([]AddressActivity, error) {
	t := since.UnixMilli()
	rows, err := s.query(ctx, `SELECT address, SUM(g), SUM(a), SUM(c) FROM (
			SELECT owner AS address, 1 AS g, 0 AS a, 0 AS c FROM games WHERE created >= ? AND owner <> ''
			UNION ALL SELECT address, 0, 1, 0 FROM players WHERE registered >= ? AND address <> ''
			UNION ALL SELECT address, 0, 0, 1 FROM challenges WHERE created >= ? AND address <> ''
		) x GROUP BY address ORDER BY SUM(g) + SUM(a) + SUM(c) DESC, address LIMIT ?`, t, t, t, n)
	if err != nil {
		return nil, fmt.Errorf("store: busiest addresses: %w", err)
	}
	defer rows.Close()
	var out []AddressActivity
	for rows.Next() {
		var a AddressActivity
		if err := rows.Scan(&a.Address, &a.Games, &a.Accounts, &a.Challenges); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
