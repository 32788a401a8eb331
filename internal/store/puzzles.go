package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// PuzzleGame is the game under which ratings keep a player's puzzle
// rating.
const PuzzleGame = "puzzles"

// ErrTried is a puzzle the player has tried before: only the first try
// moves his rating.
var ErrTried = errors.New("store: the puzzle was tried before")

// PuzzleTries returns, for each puzzle a player has tried, whether his
// first try solved it.
func (s *Store) PuzzleTries(ctx context.Context, player string) (map[string]bool, error) {
	rows, err := s.query(ctx, `SELECT puzzle, solved FROM puzzle_attempts WHERE player_id = ?`, player)
	if err != nil {
		return nil, fmt.Errorf("store: puzzle tries: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		var solved int
		if err := rows.Scan(&id, &solved); err != nil {
			return nil, fmt.Errorf("store: puzzle tries: %w", err)
		}
		out[id] = solved == 1
	}
	return out, rows.Err()
}

// RecordPuzzle records a player's first try at a puzzle and his puzzle
// rating after it, rate giving it from the rating before (zero, found
// false, for his first puzzle), in one transaction. ErrTried where he has
// tried it before: nothing changes.
func (s *Store) RecordPuzzle(ctx context.Context, player, puzzle string, solved bool, rate func(before Rating, found bool) Rating) (Rating, error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return Rating{}, fmt.Errorf("store: puzzle: %w", err)
	}
	defer tx.Rollback()
	var one int
	switch err := tx.QueryRowContext(ctx, s.q(`SELECT 1 FROM puzzle_attempts WHERE player_id = ? AND puzzle = ?`), player, puzzle).Scan(&one); {
	case err == nil:
		return Rating{}, ErrTried
	case !errors.Is(err, sql.ErrNoRows):
		return Rating{}, fmt.Errorf("store: puzzle: %w", err)
	}
	before, err := scanRating(tx.QueryRowContext(ctx, s.q(`SELECT player_id, game, rating, rd, vol, games, updated FROM ratings WHERE player_id = ? AND game = ?`), player, PuzzleGame))
	found := err == nil
	if !found && !errors.Is(err, sql.ErrNoRows) {
		return Rating{}, err
	}
	after := rate(before, found)
	after.Player, after.Game, after.Updated = player, PuzzleGame, time.Now()
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO puzzle_attempts (player_id, puzzle, solved, rating_before, rating_after, at) VALUES (?, ?, ?, ?, ?, ?)`),
		player, puzzle, boolInt(solved), before.R, after.R, after.Updated.UnixMilli()); err != nil {
		if isUnique(err) {
			return Rating{}, ErrTried
		}
		return Rating{}, fmt.Errorf("store: puzzle: %w", err)
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO ratings (player_id, game, rating, rd, vol, games, updated) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (player_id, game) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, vol = excluded.vol, games = excluded.games, updated = excluded.updated`),
		player, PuzzleGame, after.R, after.RD, after.Vol, after.Games, after.Updated.UnixMilli()); err != nil {
		return Rating{}, fmt.Errorf("store: puzzle rating: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Rating{}, fmt.Errorf("store: puzzle: %w", err)
	}
	return after, nil
}
