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
	"slices"
	"strings"
	"sync"
	"syscall"
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
	data, err := readFrame(r)
	if err != nil {
		return err
	}
	return decode(data, v)
}

func readFrame(r io.Reader) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	size := binary.BigEndian.Uint32(n[:])
	if size > MaxMessage {
		return nil, fmt.Errorf("tablutchallenge: message of %d bytes, more than %d", size, MaxMessage)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, err
	}
	return data, nil
}

func decode(data []byte, v any) error {
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

// none is no move: a1-a1 is never legal.
const none tablut.Move = 0

// Client plays one game.
type Client struct {
	Name  string
	White bool // white = defenders
	// MoveTime is the time Muster thinks about each move; the server's
	// limit, less a margin for the network.
	MoveTime time.Duration
	// Limit is the server's time per move (its -t), used only to explain
	// a connection the server closed: it ends a late player's game so.
	Limit time.Duration
	// Player chooses the moves, the same player for the whole game.
	Player Player
	// Traffic, if set, receives each message as a line: "<- " and the
	// JSON received, "-> " and the JSON sent, after the seconds since the
	// connection opened; and "closed" when reading ends.
	Traffic io.Writer
	// Log, if set, receives a line for each move and event in words.
	Log io.Writer
	// Ponder, if set, thinks on the opponent's time: it searches the
	// position after Muster's move until the opponent's move comes.
	Ponder func(ctx context.Context, s game.State)
}

// A Player chooses the client's moves; Muster's agents are players. The
// context's deadline is the time for the move.
type Player interface {
	Act(ctx context.Context, s game.State) (search.Result, error)
}

// End is how a game ended.
type End struct {
	// Turn is the server's last turn: WHITEWIN, BLACKWIN or DRAW; empty
	// when the server closed the connection instead, as it does when a
	// player's time runs out.
	Turn string
	// Won says Muster won; Lost that it lost (both false: a draw or
	// unknown).
	Won, Lost bool
	// Why says in words why the game ended.
	Why string
	// Plies counts the moves played on the server.
	Plies int
}

func (e End) String() string {
	out := "draw"
	switch {
	case e.Won:
		out = "Muster won"
	case e.Lost:
		out = "Muster lost"
	case e.Turn == "":
		out = "no result"
	}
	if e.Turn != "" {
		out += " (" + e.Turn + ")"
	}
	plies := "plies"
	if e.Plies == 1 {
		plies = "ply"
	}
	return fmt.Sprintf("%s after %d %s: %s", out, e.Plies, plies, e.Why)
}

// Play connects to addr and plays until the game ends.
func (c *Client) Play(ctx context.Context, addr string) (End, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return End{}, err
	}
	defer conn.Close()
	go func() {
		<-ctx.Done()
		conn.Close()
	}()
	return c.PlayOn(ctx, conn)
}

// session is one game's state on the client's side.
type session struct {
	*Client
	conn  io.ReadWriter
	r     *bufio.Reader
	start time.Time
	me    string // WHITE or BLACK
	game  *tablut.State
	// sent is the move Muster sent last and before the position it was
	// sent in, until the next state shows whether the server took it.
	sent    tablut.Move
	before  string
	refused []tablut.Move // refused in the current position
	plies   int
	since   time.Time // when the last state came
	// frames carries what the reader goroutine reads, so that a closed
	// connection is seen while Muster thinks.
	frames  chan frame
	pending []frame
	// trafficMu orders the lines of the reader and of the game on Traffic.
	trafficMu sync.Mutex
	// pondering is the search on the opponent's time, while it runs.
	pondering struct {
		cancel context.CancelFunc
		done   chan struct{}
	}
}

// ponder starts thinking on the opponent's time, if the client may.
func (s *session) ponder(ctx context.Context) {
	if s.Ponder == nil || s.game.IsTerminal() || s.pondering.done != nil {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	s.pondering.cancel, s.pondering.done = cancel, done
	pos := s.game.Clone()
	go func() {
		defer close(done)
		s.Ponder(ctx, pos)
	}()
}

// stopPondering ends the search on the opponent's time and waits for it,
// so that the next search has the cores.
func (s *session) stopPondering() {
	if s.pondering.done == nil {
		return
	}
	s.pondering.cancel()
	<-s.pondering.done
	s.pondering.cancel, s.pondering.done = nil, nil
}

// frame is one message read, or the error that ended reading.
type frame struct {
	data []byte
	err  error
}

// PlayOn plays on an open connection.
func (c *Client) PlayOn(ctx context.Context, conn io.ReadWriter) (End, error) {
	s := &session{Client: c, conn: conn, r: bufio.NewReader(conn), start: time.Now(), me: "BLACK", sent: none, frames: make(chan frame)}
	if c.White {
		s.me = "WHITE"
	}
	if err := s.write(c.Name); err != nil {
		return End{}, err
	}
	done := make(chan struct{})
	defer close(done)
	go s.readAll(done)
	g := tablut.MustLoad("ashton")
	for {
		var st State
		err := s.read(&st)
		s.stopPondering()
		if isClosed(err) {
			return s.closed(), nil
		}
		if err != nil {
			return End{}, err
		}
		s.since = time.Now()
		switch st.Turn {
		case "WHITEWIN", "BLACKWIN", "DRAW":
			return s.ended(g, st), nil
		case "WHITE", "BLACK":
		default:
			return End{}, fmt.Errorf("tablutchallenge: unknown turn %q", st.Turn)
		}
		pos, err := Position(g, st)
		if err != nil {
			return End{}, err
		}
		if s.sent != none {
			if pos.String() == s.before && st.Turn == s.me {
				// The server allows errors (its -e) and asks again.
				s.logf("the server refused %s; choosing another move", s.sent)
				s.refused = append(s.refused, s.sent)
			} else {
				s.refused = s.refused[:0]
			}
			s.sent = none
		}
		if next := follow(s.game, pos); next != s.game {
			if s.game != nil {
				s.plies++
			}
			s.game = next
		}
		if st.Turn != s.me {
			s.ponder(ctx)
			continue
		}
		m, err := s.choose(ctx)
		if errors.Is(err, errClosed) {
			return s.closed(), nil
		}
		if err != nil {
			return End{}, err
		}
		s.before, s.sent = s.game.String(), m
		err = s.write(Action{From: m.From().String(), To: m.To().String(), Turn: s.me})
		if isClosed(err) {
			return s.closed(), nil
		}
		if err != nil {
			return End{}, err
		}
		s.logf("played %s after %.1fs", m, time.Since(s.since).Seconds())
	}
}

// ended explains the server's final state.
func (s *session) ended(g *tablut.Game, st State) End {
	e := End{Turn: st.Turn, Plies: s.plies}
	mine := map[string]string{"WHITE": "WHITEWIN", "BLACK": "BLACKWIN"}[s.me]
	e.Won = st.Turn == mine
	e.Lost = st.Turn != mine && st.Turn != "DRAW"
	if s.game == nil {
		e.Why = "the server ended the game before it began"
		return e
	}
	// The side to move on the final board: the one that did not move last.
	next := s.me
	if s.sent != none {
		next = map[string]string{"WHITE": "BLACK", "BLACK": "WHITE"}[s.me]
	}
	pos, err := Position(g, State{Board: st.Board, Turn: next})
	if err != nil {
		e.Why = "the final board was unreadable: " + err.Error()
		return e
	}
	same := samePlacement(pos, s.game)
	switch {
	case same && s.sent != none:
		e.Why = fmt.Sprintf("the server refused Muster's move %s", s.sent)
	case same && st.Turn != "DRAW":
		e.Why = "the server refused the opponent's move"
	case same:
		e.Why = "the server called a draw without a move (its limit on a game's hours)"
	default:
		if s.sent != none {
			s.game.ApplyMove(s.sent)
		} else {
			s.game = follow(s.game, pos)
		}
		e.Plies++
		if s.game.IsTerminal() {
			e.Why = s.game.Result().Reason
		} else {
			e.Why = "the server ended the game where Muster's rules go on"
		}
	}
	return e
}

// closed explains a connection the server closed: it does so, without a
// final state, when a player's time is up.
func (s *session) closed() End {
	e := End{Plies: s.plies}
	if s.game == nil {
		e.Why = "the server closed the connection before the game began"
		return e
	}
	took := time.Since(s.since)
	ours := s.sent != none || s.game.ToMove() == tablut.Defenders == (s.me == "WHITE")
	switch {
	case s.Limit > 0 && took < s.Limit-time.Second: // the server counts whole seconds
		whose := "the opponent's"
		if ours {
			whose = "Muster's"
		}
		e.Why = fmt.Sprintf("the server closed the connection %.1fs into %s turn, before the limit of %v: the server stopped, or its limit is shorter (a late move loses)", took.Seconds(), whose, s.Limit)
	case ours:
		e.Lost = true
		e.Why = fmt.Sprintf("the server closed the connection %.1fs after asking Muster for a move: Muster's time ran out", took.Seconds())
	default:
		e.Won = true
		e.Why = fmt.Sprintf("the server closed the connection %.1fs into the opponent's turn: the opponent's time ran out", took.Seconds())
	}
	return e
}

// isClosed says err is the connection closed by the other end.
func isClosed(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)
}

// samePlacement says two positions have the same men on the same squares.
func samePlacement(a, b *tablut.State) bool {
	for q := tablut.Square(0); q < tablut.Size*tablut.Size; q++ {
		if a.At(q) != b.At(q) {
			return false
		}
	}
	return true
}

// readAll reads messages until an error, handing them to the game.
func (s *session) readAll(done <-chan struct{}) {
	for {
		data, err := readFrame(s.r)
		if err != nil {
			select {
			case <-done: // the game is over and the connection closed by us
				return
			default:
			}
		}
		if err == nil {
			s.traffic("<- %s", data)
		} else {
			s.traffic("closed (%v)", err)
		}
		select {
		case s.frames <- frame{data, err}:
		case <-done:
			return
		}
		if err != nil {
			return
		}
	}
}

// read takes the next message.
func (s *session) read(v *State) error {
	var f frame
	if len(s.pending) > 0 {
		f, s.pending = s.pending[0], s.pending[1:]
	} else {
		f = <-s.frames
	}
	if f.err != nil {
		return f.err
	}
	return decode(f.data, v)
}

func (s *session) write(v any) error {
	if s.Traffic != nil {
		data, _ := json.Marshal(v)
		s.traffic("-> %s", data)
	}
	return WriteMessage(s.conn, v)
}

// traffic writes a line of the traffic log, after the seconds since the
// connection opened.
func (s *session) traffic(format string, args ...any) {
	if s.Traffic == nil {
		return
	}
	s.trafficMu.Lock()
	defer s.trafficMu.Unlock()
	fmt.Fprintf(s.Traffic, "%.3f "+format+"\n", append([]any{time.Since(s.start).Seconds()}, args...)...)
}

func (s *session) logf(format string, args ...any) {
	if s.Log != nil {
		fmt.Fprintf(s.Log, format+"\n", args...)
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

// errClosed is the connection closed while Muster thought.
var errClosed = errors.New("tablutchallenge: the connection closed")

// choose asks the player for a move, not one the server refused here.
// A connection closed meanwhile (the server ends a game so when a move is
// late) stops the search.
func (s *session) choose(ctx context.Context) (tablut.Move, error) {
	if len(s.refused) > 0 {
		var buf [tablut.MaxMoves]tablut.Move
		for _, m := range s.game.LegalMoves(buf[:0]) {
			if !slices.Contains(s.refused, m) {
				return m, nil
			}
		}
		return none, fmt.Errorf("tablutchallenge: the server refused every legal move")
	}
	t := s.MoveTime
	if t <= 0 {
		t = 50 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, t)
	defer cancel()
	type answer struct {
		res search.Result
		err error
	}
	answers := make(chan answer, 1)
	go func() {
		res, err := s.Player.Act(ctx, s.game)
		answers <- answer{res, err}
	}()
	for {
		select {
		case a := <-answers:
			if a.err != nil {
				return none, a.err
			}
			return tablut.Move(a.res.Action), nil
		case f := <-s.frames:
			s.pending = append(s.pending, f)
			if f.err != nil {
				cancel()
				<-answers
				return none, errClosed
			}
		}
	}
}
