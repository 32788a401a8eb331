package konane

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/muster-games/muster/game"
)

// Actions pack a kind in the high byte and squares (rank×Size+file) below:
// a lift names its square, a jump its start and its end.
const (
	kindLift = 1 << 24
	kindJump = 2 << 24
	kindPass = 3 << 24
	kindMask = 0xff << 24
)

// Lift is the action that takes a stone off the board in the opening.
func Lift(sq int) game.Action { return game.Action(kindLift | sq) }

// Jump is the action of a stone jumping from one square to another.
func Jump(from, to int) game.Action { return game.Action(kindJump | from | to<<8) }

// Pass is the action that stops a run of jumps.
const Pass = game.Action(kindPass)

// cell is what stands on a square: empty, or a stone of Black or White.
type cell int8

const empty cell = 0

func cellOf(p game.Player) cell { return cell(p) + 1 }

// directions are the four ways a stone jumps, as names in the position
// text.
var directions = [4]string{"north", "east", "south", "west"}

// State is a game of Kōnane in progress. It implements game.State.
type State struct {
	game.Played
	game.NoChance
	g      *Game
	board  [maxSize * maxSize]cell
	toMove game.Player
	// again is the square of the stone that has just jumped and may jump
	// on in direction dir, or -1.
	again, dir int
	gaps       int // empty squares
	hash       uint64
	over       bool
	result     game.Result
	// last is the last action, by mover, with the square its jump took.
	last  game.Action
	mover game.Player
	taken int
	// run counts the jumps of the turn so far (of the run in a position
	// read from text).
	run int
}

func (s *State) Game() game.Game { return s.g }

func (s *State) ToAct() game.Player {
	if s.over {
		return game.Terminal
	}
	return s.toMove
}

func (s *State) IsTerminal() bool    { return s.over }
func (s *State) Result() game.Result { return s.result }
func (s *State) Hash() uint64        { return s.hash }
func (s *State) Returns() []float64  { return game.WinReturns(2, s.over, s.result) }

func (s *State) Play(a game.Action) error                     { return game.PlayLegal(s, a) }
func (s *State) ParseAction(text string) (game.Action, error) { return game.ParseLegal(s, text) }

func (s *State) Clone() game.State { return s.Copy() }

// Copy is Clone with the concrete type.
func (s *State) Copy() *State {
	c := *s
	c.Played = s.Played.Copy()
	return &c
}

// step is the square next to sq in direction d, or -1 off the board.
func (s *State) step(sq, d int) int {
	n := s.g.Size
	r, f := sq/n, sq%n
	switch d {
	case 0:
		r++
	case 1:
		f++
	case 2:
		r--
	case 3:
		f--
	}
	if r < 0 || r >= n || f < 0 || f >= n {
		return -1
	}
	return r*n + f
}

// jumpTo is where the stone on sq lands jumping in direction d, or -1 if
// it cannot: an enemy stone next to it and an empty square beyond.
func (s *State) jumpTo(sq, d int) int {
	mid := s.step(sq, d)
	if mid < 0 || s.board[mid] == empty || s.board[mid] == s.board[sq] {
		return -1
	}
	to := s.step(mid, d)
	if to < 0 || s.board[to] != empty {
		return -1
	}
	return to
}

func (s *State) LegalActions(dst []game.Action) []game.Action {
	if s.over {
		return dst
	}
	switch {
	case s.again >= 0:
		return append(dst, Jump(s.again, s.jumpTo(s.again, s.dir)), Pass)
	case s.gaps == 0:
		for _, sq := range s.g.opening {
			dst = append(dst, Lift(sq))
		}
		return dst
	case s.gaps == 1:
		gap := s.gap()
		for d := range directions {
			if sq := s.step(gap, d); sq >= 0 && s.board[sq] == cellOf(s.toMove) {
				dst = append(dst, Lift(sq))
			}
		}
		return dst
	}
	own := cellOf(s.toMove)
	for sq := 0; sq < s.g.Size*s.g.Size; sq++ {
		if s.board[sq] != own {
			continue
		}
		for d := range directions {
			if to := s.jumpTo(sq, d); to >= 0 {
				dst = append(dst, Jump(sq, to))
			}
		}
	}
	return dst
}

// gap is the first empty square.
func (s *State) gap() int {
	for sq := 0; sq < s.g.Size*s.g.Size; sq++ {
		if s.board[sq] == empty {
			return sq
		}
	}
	return -1
}

func (s *State) Apply(a game.Action) {
	s.Add(a)
	s.last, s.mover, s.taken = a, s.toMove, -1
	if s.again < 0 {
		s.run = 0 // a turn begins
	}
	if s.again >= 0 {
		s.hash ^= zobrist.again[s.dir][s.again]
	}
	s.again = -1
	switch a & kindMask {
	case kindLift:
		sq := int(a & 0xff)
		s.lift(sq)
	case kindJump:
		from, to := int(a&0xff), int(a>>8&0xff)
		d := s.direction(from, to)
		mid := s.step(from, d)
		s.taken = mid
		s.run++
		s.lift(mid)
		s.lift(from)
		s.put(to, s.toMove)
		if s.jumpTo(to, d) >= 0 {
			s.again, s.dir = to, d
			s.hash ^= zobrist.again[d][to]
			return
		}
	}
	s.toMove = 1 - s.toMove
	s.hash ^= zobrist.white
	s.settle()
}

func (s *State) lift(sq int) {
	s.hash ^= zobrist.stone[s.board[sq]-1][sq]
	s.board[sq] = empty
	s.gaps++
}

func (s *State) put(sq int, p game.Player) {
	s.board[sq] = cellOf(p)
	s.hash ^= zobrist.stone[p][sq]
	s.gaps--
}

// direction is the way from one square to another on its rank or file.
func (s *State) direction(from, to int) int {
	n := s.g.Size
	switch {
	case to/n > from/n:
		return 0
	case to%n > from%n:
		return 1
	case to/n < from/n:
		return 2
	}
	return 3
}

// settle ends the game when the player to act cannot: the first who
// cannot jump loses.
func (s *State) settle() {
	var buf [4]game.Action
	if len(s.firstActions(buf[:0])) > 0 {
		return
	}
	s.over = true
	s.result = game.Result{Winner: 1 - s.toMove, Reason: s.g.PlayerName(s.toMove) + " cannot jump"}
}

// firstActions appends the legal actions, stopping at the first.
func (s *State) firstActions(dst []game.Action) []game.Action {
	if s.again >= 0 || s.gaps < 2 {
		return s.LegalActions(dst)
	}
	own := cellOf(s.toMove)
	for sq := 0; sq < s.g.Size*s.g.Size; sq++ {
		if s.board[sq] != own {
			continue
		}
		for d := range directions {
			if to := s.jumpTo(sq, d); to >= 0 {
				return append(dst, Jump(sq, to))
			}
		}
	}
	return dst
}

func (s *State) square(sq int) string { return game.SquareName(sq%s.g.Size, sq/s.g.Size) }

// ActionString writes a lift as its square ("e6"), a jump as its start and
// end ("c5-e5"), and the stop of a run of jumps as "pass".
func (s *State) ActionString(a game.Action) string {
	switch a & kindMask {
	case kindLift:
		return s.square(int(a & 0xff))
	case kindJump:
		return s.square(int(a&0xff)) + "-" + s.square(int(a>>8&0xff))
	case kindPass:
		return "pass"
	}
	return fmt.Sprintf("action(%d)", a)
}

// String writes the position: the board from the top rank down, b and w
// for the stones and digits for runs of empty squares, the player to act,
// and the stone that may jump on, with its direction:
//
//	board=wbwbwb/bwbwbw/wb2wb/bwbwbw/wbwbwb/bwbwbw to=black again=c4:east
func (s *State) String() string {
	var b strings.Builder
	b.WriteString("board=")
	n := s.g.Size
	for r := n - 1; r >= 0; r-- {
		run := 0
		for f := 0; f < n; f++ {
			c := s.board[r*n+f]
			if c == empty {
				run++
				continue
			}
			if run > 0 {
				b.WriteString(strconv.Itoa(run))
				run = 0
			}
			b.WriteByte("bw"[c-1])
		}
		if run > 0 {
			b.WriteString(strconv.Itoa(run))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString(" to=" + s.g.PlayerName(s.toMove))
	if s.again >= 0 {
		b.WriteString(" again=" + s.square(s.again) + ":" + directions[s.dir])
	}
	return b.String()
}

// Parse reads a position as String writes it. A full board is Black's to
// lift a stone from, a board with one gap White's.
func (g *Game) Parse(text string) (*State, error) {
	s := &State{g: g, again: -1, last: 0, taken: -1}
	fields := map[string]string{}
	for _, f := range strings.Fields(text) {
		k, v, ok := strings.Cut(f, "=")
		if !ok || (k != "board" && k != "to" && k != "again") || fields[k] != "" {
			return nil, fmt.Errorf("konane: %w: position field %q (known: board=, to=, again=)", game.ErrSyntax, f)
		}
		fields[k] = v
	}
	if fields["board"] == "" || fields["to"] == "" {
		return nil, fmt.Errorf("konane: %w: a position needs board= and to=", game.ErrSyntax)
	}
	n := g.Size
	rows := strings.Split(fields["board"], "/")
	if len(rows) != n {
		return nil, fmt.Errorf("konane: %w: the board has %d rows, want %d", game.ErrSyntax, len(rows), n)
	}
	for i, row := range rows {
		r, f := n-1-i, 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c == 'b' || c == 'w':
				if f >= n {
					return nil, fmt.Errorf("konane: %w: row %d is longer than %d", game.ErrSyntax, r+1, n)
				}
				p := game.Player(strings.IndexByte("bw", c))
				s.board[r*n+f] = cellOf(p)
				s.hash ^= zobrist.stone[p][r*n+f]
				f++
			case c >= '1' && c <= '9':
				k := j
				for k < len(row) && row[k] >= '0' && row[k] <= '9' {
					k++
				}
				run, _ := strconv.Atoi(row[j:k])
				f += run
				s.gaps += run
				j = k - 1
			default:
				return nil, fmt.Errorf("konane: %w: %q in row %d (b, w, or a number of empty squares)", game.ErrSyntax, c, r+1)
			}
			if f > n {
				return nil, fmt.Errorf("konane: %w: row %d is longer than %d", game.ErrSyntax, r+1, n)
			}
		}
		if f != n {
			return nil, fmt.Errorf("konane: %w: row %d has %d squares, want %d", game.ErrSyntax, r+1, f, n)
		}
	}
	to, err := g.ParsePlayer(fields["to"])
	if err != nil {
		return nil, fmt.Errorf("konane: %w", err)
	}
	s.toMove = to
	if to == White {
		s.hash ^= zobrist.white
	}
	switch {
	case s.gaps == 0 && to != Black:
		return nil, fmt.Errorf("konane: %w: on a full board Black lifts the first stone", game.ErrSyntax)
	case s.gaps == 1 && to != White:
		return nil, fmt.Errorf("konane: %w: with one gap it is White's to lift a stone", game.ErrSyntax)
	}
	if a := fields["again"]; a != "" {
		sqText, dirText, _ := strings.Cut(a, ":")
		f, r, err := game.ParseSquareName(sqText, n, n)
		d := -1
		for i, name := range directions {
			if name == dirText {
				d = i
			}
		}
		if err != nil || d < 0 {
			return nil, fmt.Errorf("konane: %w: again=%q: want a square and a direction, such as again=c4:east", game.ErrSyntax, a)
		}
		sq := r*n + f
		if s.gaps < 2 || s.board[sq] != cellOf(to) || s.jumpTo(sq, d) < 0 {
			return nil, fmt.Errorf("konane: %w: again=%s: no stone of %s there that can jump on %s", game.ErrSyntax, a, fields["to"], dirText)
		}
		s.again, s.dir, s.run = sq, d, 1
		s.hash ^= zobrist.again[d][sq]
	}
	s.settle()
	return s, nil
}
