package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Player is a browser's anonymous identity or an account: an account is
// an identity that has taken a username and password, so the games played
// before stay his.
type Player struct {
	ID string
	// Username is empty while the player is anonymous.
	Username     string
	PasswordHash string
	Created      time.Time
	// Registered is when the player made his account; zero while anonymous.
	Registered time.Time
	// Address is where the player came from when created (for limits).
	Address string
	// SessionSeen is when the session that signed him in was last marked
	// used (SessionPlayer only).
	SessionSeen time.Time
	// Bot: the account is played by a program, signed in by its tokens.
	Bot bool
	// Admin: the account moderates (marked from the command line);
	// Muted: its chat lines are refused; Banned: it may no longer start
	// games with others, challenge, accept or chat.
	Admin, Muted, Banned bool
}

// Anonymous reports whether the player has no account.
func (p *Player) Anonymous() bool { return p.Username == "" }

// ErrNoPlayer is returned for an unknown player or session.
var ErrNoPlayer = errors.New("store: no such player")

// ErrNoSession is returned for a session token the store does not know
// (never made, or ended): a browser signed in as nobody.
var ErrNoSession = errors.New("store: no such session")

// ErrNameTaken is returned when a username is already an account's.
var ErrNameTaken = errors.New("store: the username is taken")

// ErrRegistered is returned when an account is made for a player who
// already has one.
var ErrRegistered = errors.New("store: the player already has an account")

const playerColumns = `id, COALESCE(username, ''), password_hash, created, registered, address, bot, admin, muted, banned`

func scanPlayer(row scanner) (*Player, error) {
	var p Player
	var created, registered int64
	var bot, admin, muted, banned int
	err := row.Scan(&p.ID, &p.Username, &p.PasswordHash, &created, &registered, &p.Address, &bot, &admin, &muted, &banned)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoPlayer
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	p.Created, p.Bot = time.UnixMilli(created), bot != 0
	p.Admin, p.Muted, p.Banned = admin != 0, muted != 0, banned != 0
	if registered != 0 {
		p.Registered = time.UnixMilli(registered)
	}
	return &p, nil
}

// CreatePlayer stores a new anonymous player.
func (s *Store) CreatePlayer(ctx context.Context, p *Player) error {
	p.Created = time.Now()
	_, err := s.exec(ctx, `INSERT INTO players (id, created, address) VALUES (?, ?, ?)`, p.ID, p.Created.UnixMilli(), p.Address)
	if err != nil {
		return fmt.Errorf("store: create player: %w", err)
	}
	return nil
}

// Player reads a player by id.
func (s *Store) Player(ctx context.Context, id string) (*Player, error) {
	return scanPlayer(s.queryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE id = ?`, id))
}

// PlayerNamed reads an account by its username key (auth.UsernameKey).
func (s *Store) PlayerNamed(ctx context.Context, key string) (*Player, error) {
	return scanPlayer(s.queryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE username_key = ?`, key))
}

// Register makes the anonymous player id an account with the username
// (its key folded by the caller) and password hash, and shows the name in
// the games, challenges, tournaments and chat lines he took part in while
// anonymous, in one transaction.
func (s *Store) Register(ctx context.Context, id, username, key, hash string) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return fmt.Errorf("store: register: %w", err)
	}
	defer tx.Rollback()
	err = s.rewriteID(ctx, tx, id, func(tx *sql.Tx, id string) error {
		if err := s.notHeld(ctx, tx, key); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, s.q(`UPDATE players SET username = ?, username_key = ?, password_hash = ?, registered = ? WHERE id = ? AND username_key IS NULL`),
			username, key, hash, time.Now().UnixMilli(), id)
		if err != nil {
			if isUnique(err) {
				return ErrNameTaken
			}
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			var one int
			if err := tx.QueryRowContext(ctx, s.q(`SELECT 1 FROM players WHERE id = ?`), id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
				return ErrNoPlayer
			}
			return ErrRegistered
		}
		return nil
	}, username)
	if err != nil {
		if errors.Is(err, ErrNameTaken) || errors.Is(err, ErrRegistered) || errors.Is(err, ErrNoPlayer) {
			return err
		}
		return fmt.Errorf("store: register: %w", err)
	}
	return tx.Commit()
}

// notHeld is ErrNameTaken for the username key of a deleted account.
func (s *Store) notHeld(ctx context.Context, tx *sql.Tx, key string) error {
	var one int
	switch err := tx.QueryRowContext(ctx, s.q(`SELECT 1 FROM held_names WHERE username_key = ?`), key).Scan(&one); {
	case err == nil:
		return ErrNameTaken
	case errors.Is(err, sql.ErrNoRows):
		return nil
	default:
		return err
	}
}

// isUnique reports whether err is a violated uniqueness constraint, in
// either database's words.
func isUnique(err error) bool {
	m := err.Error()
	return strings.Contains(m, "UNIQUE constraint failed") || strings.Contains(m, "SQLSTATE 23505")
}

// RegisteredSince counts the accounts made from an address since t.
func (s *Store) RegisteredSince(ctx context.Context, address string, t time.Time) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM players WHERE address = ? AND registered >= ?`, address, t.UnixMilli()).Scan(&n)
	return n, err
}

// CreateSession stores a session: the hash of its cookie's token and the
// player it signs in.
func (s *Store) CreateSession(ctx context.Context, tokenHash, player string) error {
	now := time.Now().UnixMilli()
	_, err := s.exec(ctx, `INSERT INTO sessions (token_hash, player_id, created, seen) VALUES (?, ?, ?, ?)`, tokenHash, player, now, now)
	if err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	return nil
}

// SessionPlayer returns the player of a session, with when the session
// was last marked used, or ErrNoSession; any other error is the
// database's.
func (s *Store) SessionPlayer(ctx context.Context, tokenHash string) (*Player, error) {
	var p Player
	var created, registered, seen int64
	var bot, admin, muted, banned int
	err := s.queryRow(ctx, `SELECT p.id, COALESCE(p.username, ''), p.password_hash, p.created, p.registered, p.address, p.bot, p.admin, p.muted, p.banned, s.seen
		FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.token_hash = ?`, tokenHash).
		Scan(&p.ID, &p.Username, &p.PasswordHash, &created, &registered, &p.Address, &bot, &admin, &muted, &banned, &seen)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoSession
	}
	if err != nil {
		return nil, fmt.Errorf("store: session: %w", err)
	}
	p.Created, p.SessionSeen, p.Bot = time.UnixMilli(created), time.UnixMilli(seen), bot != 0
	p.Admin, p.Muted, p.Banned = admin != 0, muted != 0, banned != 0
	if registered != 0 {
		p.Registered = time.UnixMilli(registered)
	}
	return &p, nil
}

// SessionIdle is how long a session no request has used lasts: it then
// ends (ForgetIdleSessions), and its browser signs in again.
const SessionIdle = 30 * 24 * time.Hour

// TouchSession marks a session used now, if it was last marked more than
// a day ago (at most one write a session a day).
func (s *Store) TouchSession(ctx context.Context, tokenHash string, now time.Time) error {
	if _, err := s.exec(ctx, `UPDATE sessions SET seen = ? WHERE token_hash = ? AND seen < ?`, now.UnixMilli(), tokenHash, now.Add(-24*time.Hour).UnixMilli()); err != nil {
		return fmt.Errorf("store: touch session: %w", err)
	}
	return nil
}

// ForgetIdleSessions ends the sessions not used since before.
func (s *Store) ForgetIdleSessions(ctx context.Context, before time.Time) (int, error) {
	res, err := s.exec(ctx, `DELETE FROM sessions WHERE seen < ?`, before.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("store: forget sessions: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// DeleteSessions ends every session of a player (sign out everywhere).
func (s *Store) DeleteSessions(ctx context.Context, player string) error {
	if _, err := s.exec(ctx, `DELETE FROM sessions WHERE player_id = ?`, player); err != nil {
		return fmt.Errorf("store: delete sessions: %w", err)
	}
	return nil
}

// DeleteSession ends a session.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	if _, err := s.exec(ctx, `DELETE FROM sessions WHERE token_hash = ?`, tokenHash); err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}

// PlayerGames lists a player's games, those in play first, then the
// latest; at most n.
func (s *Store) PlayerGames(ctx context.Context, player string, n int) ([]*Game, error) {
	s.settleForList(ctx)
	return s.games(ctx, `SELECT `+gameColumns+` FROM games WHERE (player0 = ? OR player1 = ?) AND lesson = 0
		ORDER BY CASE WHEN status = 'playing' THEN 0 ELSE 1 END, updated DESC LIMIT ?`, player, player, n)
}

// PlayerGameIDs lists the ids of a player's games, lessons included, the
// latest changed first; at most n.
func (s *Store) PlayerGameIDs(ctx context.Context, player string, n int) ([]string, error) {
	return s.ids(ctx, `SELECT id FROM games WHERE player0 = ? OR player1 = ? ORDER BY updated DESC LIMIT ?`, player, player, n)
}

// Rating is a player's Glicko-2 rating in one game.
type Rating struct {
	Player string
	Game   string
	R, RD  float64
	Vol    float64
	// Games counts the rated games played.
	Games   int
	Updated time.Time
}

// Ratings returns a player's ratings, by game.
func (s *Store) Ratings(ctx context.Context, player string) (map[string]Rating, error) {
	rows, err := s.query(ctx, `SELECT player_id, game, rating, rd, vol, games, updated FROM ratings WHERE player_id = ?`, player)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]Rating{}
	for rows.Next() {
		r, err := scanRating(rows)
		if err != nil {
			return nil, err
		}
		out[r.Game] = r
	}
	return out, rows.Err()
}

// RatingsOf returns the ratings of several players at once, by player
// and then by game.
func (s *Store) RatingsOf(ctx context.Context, players []string) (map[string]map[string]Rating, error) {
	out := map[string]map[string]Rating{}
	if len(players) == 0 {
		return out, nil
	}
	args := make([]any, len(players))
	for i, p := range players {
		args[i] = p
	}
	rows, err := s.query(ctx, `SELECT player_id, game, rating, rd, vol, games, updated FROM ratings WHERE player_id IN (?`+strings.Repeat(", ?", len(players)-1)+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: ratings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scanRating(rows)
		if err != nil {
			return nil, err
		}
		if out[r.Player] == nil {
			out[r.Player] = map[string]Rating{}
		}
		out[r.Player][r.Game] = r
	}
	return out, rows.Err()
}

func scanRating(row scanner) (Rating, error) {
	var r Rating
	var updated int64
	if err := row.Scan(&r.Player, &r.Game, &r.R, &r.RD, &r.Vol, &r.Games, &updated); err != nil {
		return r, fmt.Errorf("store: %w", err)
	}
	r.Updated = time.UnixMilli(updated)
	return r, nil
}

// Ranked is a line of a leaderboard.
type Ranked struct {
	Rating
	Username string
}

// Leaderboard lists the best-rated accounts of a game whose deviation is
// at most maxRD (not provisional), best first; at most n.
func (s *Store) Leaderboard(ctx context.Context, game string, maxRD float64, n int) ([]Ranked, error) {
	rows, err := s.query(ctx, `SELECT r.player_id, r.game, r.rating, r.rd, r.vol, r.games, r.updated, p.username FROM ratings r
		JOIN players p ON p.id = r.player_id WHERE r.game = ? AND r.rd <= ? AND p.username IS NOT NULL ORDER BY r.rating DESC LIMIT ?`, game, maxRD, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Ranked
	for rows.Next() {
		var k Ranked
		var updated int64
		if err := rows.Scan(&k.Player, &k.Game, &k.R, &k.RD, &k.Vol, &k.Games, &updated, &k.Username); err != nil {
			return nil, err
		}
		k.Updated = time.UnixMilli(updated)
		out = append(out, k)
	}
	return out, rows.Err()
}

// FinishRated writes a rated game's end (as Update does, at ply, and only
// while the stored game is still in play) and its players' new ratings in
// one transaction, so that a game changes the ratings exactly once.
func (s *Store) FinishRated(ctx context.Context, g *Game, ply int, ratings []Rating) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := s.update(ctx, tx, g, ply, true, ""); err != nil {
		return err
	}
	for _, r := range ratings {
		_, err := tx.ExecContext(ctx, s.q(`INSERT INTO ratings (player_id, game, rating, rd, vol, games, updated) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (player_id, game) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, vol = excluded.vol, games = excluded.games, updated = excluded.updated`),
			r.Player, r.Game, r.R, r.RD, r.Vol, r.Games, r.Updated.UnixMilli())
		if err != nil {
			g.Version--
			return fmt.Errorf("store: rating: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		g.Version--
		return err
	}
	return nil
}

// ForgetIdleAnonymous deletes at most n anonymous players made before
// before that have nothing: no game, no challenge, no chat line; with
// their sessions. A browser that made an identity and never played
// leaves nothing behind. It returns how many it deleted.
func (s *Store) ForgetIdleAnonymous(ctx context.Context, before time.Time, n int) (int, error) {
	ids, err := s.ids(ctx, `SELECT p.id FROM players p WHERE p.username IS NULL AND p.created < ?
		AND NOT EXISTS (SELECT 1 FROM games g WHERE g.player0 = p.id OR g.player1 = p.id)
		AND NOT EXISTS (SELECT 1 FROM challenges c WHERE c.creator = p.id OR c.target = p.id)
		AND NOT EXISTS (SELECT 1 FROM chat m WHERE m.player = p.id)
		AND NOT EXISTS (SELECT 1 FROM ratings r WHERE r.player_id = p.id)
		LIMIT ?`, before.UnixMilli(), n)
	if err != nil {
		return 0, fmt.Errorf("store: idle players: %w", err)
	}
	tx, err := s.begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: forget players: %w", err)
	}
	defer tx.Rollback()
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM sessions WHERE player_id = ?`), id); err != nil {
			return 0, fmt.Errorf("store: forget players: %w", err)
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM players WHERE id = ? AND username IS NULL`), id); err != nil {
			return 0, fmt.Errorf("store: forget players: %w", err)
		}
	}
	return len(ids), tx.Commit()
}
