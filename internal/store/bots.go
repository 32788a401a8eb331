package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// BotToken is one of a bot's tokens, as its owner sees it: never the
// token itself, which only its hash stands for here.
type BotToken struct {
	ID      string
	Created time.Time
	// Used is when a request last signed in with it (to the day); zero
	// if never.
	Used time.Time
}

// ErrNoToken is returned for a bot token the store does not know (never
// made, or revoked).
var ErrNoToken = errors.New("store: no such bot token")

// ErrNotBot is returned when a player who is no bot is given a token.
var ErrNotBot = errors.New("store: the player is not a bot")

// ErrHasGames is returned when an account that has played games, or has
// a challenge open or a place in a tournament not over, would become a
// bot: its games and rating were a person's, and nobody who challenged
// it or entered a tournament for people asked to play a program.
var ErrHasGames = errors.New("store: the account has played games, or has challenges or tournaments open")

// MakeBot turns the account id into a bot, if it has played no game and
// has no challenge open and no place in a tournament not over
// (ErrHasGames); ErrNoPlayer if there is no such account.
func (s *Store) MakeBot(ctx context.Context, id string) error {
	res, err := s.exec(ctx, `UPDATE players SET bot = 1 WHERE id = ? AND username_key IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM games WHERE (player0 = ? OR player1 = ?) AND lesson = 0)
		AND NOT EXISTS (SELECT 1 FROM challenges WHERE (creator = ? OR target = ?) AND status = 'open')
		AND NOT EXISTS (SELECT 1 FROM tournament_players tp JOIN tournaments t ON t.id = tp.tournament WHERE tp.player = ? AND t.status <> 'over')`, id, id, id, id, id, id)
	if err != nil {
		return fmt.Errorf("store: make bot: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	p, err := s.Player(ctx, id)
	switch {
	case err != nil:
		return err
	case p.Anonymous():
		return ErrNoPlayer
	}
	return ErrHasGames
}

// CreateBotToken stores a new token of the bot player (its hash, and an
// id by which its owner names it).
func (s *Store) CreateBotToken(ctx context.Context, player, id, tokenHash string) error {
	p, err := s.Player(ctx, player)
	if err != nil {
		return err
	}
	if !p.Bot {
		return ErrNotBot
	}
	if _, err := s.exec(ctx, `INSERT INTO bot_tokens (id, token_hash, player_id, created) VALUES (?, ?, ?, ?)`,
		id, tokenHash, player, time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("store: create bot token: %w", err)
	}
	return nil
}

// BotTokens lists a player's tokens, the newest first.
func (s *Store) BotTokens(ctx context.Context, player string) ([]BotToken, error) {
	rows, err := s.query(ctx, `SELECT id, created, used FROM bot_tokens WHERE player_id = ? ORDER BY created DESC, id`, player)
	if err != nil {
		return nil, fmt.Errorf("store: bot tokens: %w", err)
	}
	defer rows.Close()
	var out []BotToken
	for rows.Next() {
		var t BotToken
		var created, used int64
		if err := rows.Scan(&t.ID, &created, &used); err != nil {
			return nil, fmt.Errorf("store: bot tokens: %w", err)
		}
		t.Created = time.UnixMilli(created)
		if used != 0 {
			t.Used = time.UnixMilli(used)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// DeleteBotToken revokes a token of player's; ErrNoToken if he has none
// of that id (another's token is not his to revoke).
func (s *Store) DeleteBotToken(ctx context.Context, player, id string) error {
	res, err := s.exec(ctx, `DELETE FROM bot_tokens WHERE id = ? AND player_id = ?`, id, player)
	if err != nil {
		return fmt.Errorf("store: delete bot token: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrNoToken
	}
	return nil
}

// TokenPlayer returns the bot a token signs in, marking the token used
// (at most once a day), or ErrNoToken.
func (s *Store) TokenPlayer(ctx context.Context, tokenHash string) (*Player, error) {
	var id string
	var used int64
	err := s.queryRow(ctx, `SELECT player_id, used FROM bot_tokens WHERE token_hash = ?`, tokenHash).Scan(&id, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoToken
	}
	if err != nil {
		return nil, fmt.Errorf("store: bot token: %w", err)
	}
	if now := time.Now(); now.Sub(time.UnixMilli(used)) > 24*time.Hour {
		if _, err := s.exec(ctx, `UPDATE bot_tokens SET used = ? WHERE token_hash = ?`, now.UnixMilli(), tokenHash); err != nil {
			return nil, fmt.Errorf("store: bot token: %w", err)
		}
	}
	p, err := s.Player(ctx, id)
	if err != nil {
		return nil, err
	}
	if !p.Bot {
		return nil, ErrNoToken
	}
	return p, nil
}

// BotsAmong returns which of the players are bots.
func (s *Store) BotsAmong(ctx context.Context, players []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(players) == 0 {
		return out, nil
	}
	args := make([]any, len(players))
	for i, p := range players {
		args[i] = p
	}
	rows, err := s.query(ctx, `SELECT id FROM players WHERE bot = 1 AND id IN (?`+strings.Repeat(", ?", len(players)-1)+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: bots: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: bots: %w", err)
		}
		out[id] = true
	}
	return out, rows.Err()
}
