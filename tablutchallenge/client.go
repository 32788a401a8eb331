// Package tablutchallenge is a client for the server of the University of
// Bologna's Tablut Challenge (AGalassi/TablutCompetition): TCP, white on
// port 5800 and black on 5801; each message is a 4-byte big-endian length
// and UTF-8 JSON. The client sends its name as a JSON string, then reads
// states {"board": 9 rows of EMPTY|WHITE|BLACK|THRONE|KING, "turn": WHITE|
// BLACK|WHITEWIN|BLACKWIN|DRAW} (row 0 is rank 1) and, on its turn,
// answers {"from": "e4", "to": "f4", "turn": "WHITE"}. White are the
// defenders; the rules are Muster's ashton ruleset.
package tablutchallenge

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/tablut"
)

// Ports of the server.
const (
	WhitePort = 5800
	BlackPort = 5801
)

// MaxMessage bounds a message read from the server.
const MaxMessage = 1 << 16

// State is the server's message.
type State struct {
	Board [][]string `json:"board"`
	Turn  string     `json:"turn"`
}

// Action is the client's message.
type Action struct {
	From string `json:"from"`
	To   string `json:"to"`
	Turn string `json:"turn"`
}

// WriteMessage writes one framed JSON message.
func WriteMessage(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	if _, err := w.Write(n[:]); err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// ReadMessage reads one framed JSON message into v.
func ReadMessage(r io.Reader, v any) error {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return err
	}
	size := binary.BigEndian.Uint32(n[:])
	if size > MaxMessage {
		return fmt.Errorf("tablutchallenge: message of %d bytes, more than %d", size, MaxMessage)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(r, data); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("tablutchallenge: bad message %q: %w", data, err)
	}
	return nil
}

// Position turns a server state into a Muster position of the ashton
// ruleset.
func Position(g *tablut.Game, st State) (*tablut.State, error) {
	if len(st.Board) != tablut.Size {
		return nil, fmt.Errorf("tablutchallenge: board has %d rows, want 9", len(st.Board))
	}
	var b strings.Builder
	b.WriteByte('/')
	for r, row := range st.Board {
		if len(row) != tablut.Size {
			return nil, fmt.Errorf("tablutchallenge: row %d has %d squares, want 9", r, len(row))
		}
		for _, c := range row {
			switch c {
			case "EMPTY", "THRONE":
				b.WriteByte('1')
			case "WHITE":
				b.WriteByte('T')
			case "BLACK":
				b.WriteByte('t')
			case "KING":
				b.WriteByte('K')
			default:
				return nil, fmt.Errorf("tablutchallenge: unknown square %q", c)
			}
		}
		b.WriteByte('/')
	}
	side := "defenders"
	if st.Turn == "BLACK" {
		side = "attackers"
	}
	return g.Parse(compress(b.String()) + " " + side)
}

// compress turns runs of '1' into counts, as OTN writes empty squares.
func compress(s string) string {
	var b strings.Builder
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '1' {
			run++
			continue
		}
		if run > 0 {
			b.WriteByte(byte('0' + run))
			run = 0
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Client plays one game.
type Client struct {
	Name  string
	White bool // white = defenders
	// MoveTime is the time per move (the server allows 60 s by default;
	// keep a margin for the network).
	MoveTime time.Duration
	// Player chooses the moves, the same player for the whole game.
	Player Player
}

// A Player chooses the client's moves; Muster's agents are players. The
// context's deadline is the time for the move.
type Player interface {
	Act(ctx context.Context, s game.State) (search.Result, error)
}

// Play connects to addr and plays until the game ends; it returns the
// final turn (WHITEWIN, BLACKWIN or DRAW).
func (c *Client) Play(ctx context.Context, addr string) (string, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	go func() {
		<-ctx.Done()
		conn.Close()
	}()
	return c.PlayOn(ctx, conn)
}

// PlayOn plays on an open connection.
func (c *Client) PlayOn(ctx context.Context, conn io.ReadWriter) (string, error) {
	g := tablut.MustLoad("ashton")
	r := bufio.NewReader(conn)
	if err := WriteMessage(conn, c.Name); err != nil {
		return "", err
	}
	me := "BLACK"
	if c.White {
		me = "WHITE"
	}
	var game *tablut.State
	for {
		var st State
		if err := ReadMessage(r, &st); err != nil {
			if errors.Is(err, io.EOF) {
				return "", fmt.Errorf("tablutchallenge: the server closed the connection")
			}
			return "", err
		}
		switch st.Turn {
		case "WHITEWIN", "BLACKWIN", "DRAW":
			return st.Turn, nil
		case "WHITE", "BLACK":
		default:
			return "", fmt.Errorf("tablutchallenge: unknown turn %q", st.Turn)
		}
		pos, err := Position(g, st)
		if err != nil {
			return "", err
		}
		game = follow(game, pos)
		if st.Turn != me {
			continue
		}
		res, err := c.choose(ctx, game)
		if err != nil {
			return "", err
		}
		m := tablut.Move(res.Action)
		if err := WriteMessage(conn, Action{From: m.From().String(), To: m.To().String(), Turn: me}); err != nil {
			return "", err
		}
		game.ApplyMove(m)
	}
}

// follow keeps the game's history (for the repetition rule) when the new
// board is the old one after a legal move; otherwise it starts from the
// board as given.
func follow(game, pos *tablut.State) *tablut.State {
	if game == nil {
		return pos
	}
	if game.String() == pos.String() {
		return game
	}
	var buf [tablut.MaxMoves]tablut.Move
	for _, m := range game.LegalMoves(buf[:0]) {
		c := game.Copy()
		c.ApplyMove(m)
		if c.String() == pos.String() {
			return c
		}
	}
	return pos
}

func (c *Client) choose(ctx context.Context, s *tablut.State) (search.Result, error) {
	t := c.MoveTime
	if t <= 0 {
		t = 50 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, t)
	defer cancel()
	return c.Player.Act(ctx, s)
}
