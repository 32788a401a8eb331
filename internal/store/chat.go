package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Chat rooms of a game: its players talk apart from its spectators.
const (
	ChatPlayers    = "players"
	ChatSpectators = "spectators"
)

// Message is a line of a game's chat.
type Message struct {
	ID   int64  `json:"id"`
	Game string `json:"-"`
	// Room is ChatPlayers or ChatSpectators.
	Room   string `json:"room"`
	Player string `json:"-"`
	// Name is the sender as shown: a username, a side, or "Anonymous".
	Name    string    `json:"name"`
	Text    string    `json:"text"`
	Created time.Time `json:"-"`
	// At is Created in Unix ms, for the page.
	At int64 `json:"at"`
}

// AddMessage stores a chat line and sets its id.
func (s *Store) AddMessage(ctx context.Context, m *Message) error {
	m.Created = time.Now()
	m.At = m.Created.UnixMilli()
	q := `INSERT INTO chat (game, room, player, name, text, created) VALUES (?, ?, ?, ?, ?, ?)`
	if s.pg {
		if err := s.queryRow(ctx, q+` RETURNING id`, m.Game, m.Room, m.Player, m.Name, m.Text, m.At).Scan(&m.ID); err != nil {
			return fmt.Errorf("store: chat: %w", err)
		}
		return nil
	}
	res, err := s.exec(ctx, q, m.Game, m.Room, m.Player, m.Name, m.Text, m.At)
	if err != nil {
		return fmt.Errorf("store: chat: %w", err)
	}
	m.ID, _ = res.LastInsertId()
	return nil
}

// Messages lists a game's chat lines in the given rooms, oldest first;
// the last n.
func (s *Store) Messages(ctx context.Context, game string, rooms []string, n int) ([]Message, error) {
	if len(rooms) == 0 {
		return []Message{}, nil
	}
	q := `SELECT id, room, player, name, text, created FROM chat WHERE game = ? AND room IN (?` + strings.Repeat(", ?", len(rooms)-1) + `) ORDER BY id DESC LIMIT ?`
	args := []any{game}
	for _, r := range rooms {
		args = append(args, r)
	}
	rows, err := s.query(ctx, q, append(args, n)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Message{}
	for rows.Next() {
		m := Message{Game: game}
		if err := rows.Scan(&m.ID, &m.Room, &m.Player, &m.Name, &m.Text, &m.At); err != nil {
			return nil, err
		}
		m.Created = time.UnixMilli(m.At)
		out = append(out, m)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, rows.Err()
}
