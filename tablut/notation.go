package tablut

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/muster-games/muster/game"
)

// OTN writes the board as an OpenTafl Notation position, rank 1 first.
func (p *Position) OTN() string {
	var b strings.Builder
	b.WriteByte('/')
	for rank := 0; rank < Size; rank++ {
		empty := 0
		for file := 0; file < Size; file++ {
			c := ".tTK"[p.board[sq(file, rank)]]
			if c == '.' {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		b.WriteByte('/')
	}
	return b.String()
}

// ParseOTN reads an OpenTafl Notation position of a 9×9 board: rows of
// digits (runs of empty squares) and the letters t (attacker), T
// (defender) and K or k (king), each row ended by '/', rank 1 first.
func ParseOTN(text string) (Position, error) {
	var p Position
	p.king = NoSquare
	if !strings.HasPrefix(text, "/") || !strings.HasSuffix(text, "/") || len(text) < 2 {
		return p, fmt.Errorf("tablut: %w: position %q must start and end with '/'", game.ErrSyntax, text)
	}
	rows := strings.Split(text[1:len(text)-1], "/")
	if len(rows) != Size {
		return p, fmt.Errorf("tablut: %w: position has %d rows, want %d", game.ErrSyntax, len(rows), Size)
	}
	kings := 0
	for rank, row := range rows {
		file := 0
		for i := 0; i < len(row); i++ {
			c := row[i]
			if c >= '0' && c <= '9' {
				j := i
				for j < len(row) && row[j] >= '0' && row[j] <= '9' {
					j++
				}
				n, _ := strconv.Atoi(row[i:j])
				if j-i > 1 || n == 0 {
					return p, fmt.Errorf("tablut: %w: bad count %q in row %d", game.ErrSyntax, row[i:j], rank+1)
				}
				file += n
				i = j - 1
				continue
			}
			var piece Piece
			switch c {
			case 't':
				piece = Attacker
			case 'T':
				piece = Defender
			case 'K', 'k':
				piece = King
				kings++
			default:
				return p, fmt.Errorf("tablut: %w: unknown piece %q in row %d (want t, T or K)", game.ErrSyntax, c, rank+1)
			}
			if file >= Size {
				return p, fmt.Errorf("tablut: %w: row %d %q has more than %d squares", game.ErrSyntax, rank+1, row, Size)
			}
			p.put(sq(file, rank), piece)
			file++
		}
		if file != Size {
			return p, fmt.Errorf("tablut: %w: row %d %q has %d squares, want %d", game.ErrSyntax, rank+1, row, file, Size)
		}
	}
	if kings != 1 {
		return p, fmt.Errorf("tablut: %w: position has %d kings, want 1", game.ErrSyntax, kings)
	}
	if p.board[Castle] != Empty && p.board[Castle] != King {
		return p, fmt.Errorf("tablut: %w: only the king may stand on the castle e5", game.ErrSyntax)
	}
	return p, nil
}

// Parse reads a position: an OpenTafl Notation board and the side to move
// ("attackers" or "defenders"; the ruleset's first mover when left out).
func (g *Game) Parse(text string) (*State, error) {
	fields := strings.Fields(text)
	if len(fields) == 0 || len(fields) > 2 {
		return nil, fmt.Errorf("tablut: %w: a position is an OTN board and the side to move, got %q", game.ErrSyntax, text)
	}
	p, err := ParseOTN(fields[0])
	if err != nil {
		return nil, err
	}
	p.toMove = g.Rules.First
	if len(fields) == 2 {
		side, err := g.ParsePlayer(fields[1])
		if err != nil {
			return nil, err
		}
		p.toMove = Side(side)
	}
	for s := Square(0); s < Squares; s++ {
		if g.Rules.camps.has(s) && (p.board[s] == Defender || p.board[s] == King) {
			return nil, fmt.Errorf("tablut: %w: a defender stands on the camp %s", game.ErrSyntax, s)
		}
	}
	p.hash = p.recomputeHash()
	st := &State{g: g, pos: p, hashes: []uint64{p.hash}}
	st.judge(1 - p.toMove)
	return st, nil
}

// String writes the position: the OTN board, a space and the side to move.
func (s *State) String() string { return s.pos.OTN() + " " + s.pos.toMove.String() }

// MoveString writes a legal move in notation, with its captures.
func (s *State) MoveString(m Move) string {
	if m == Pass {
		return "pass"
	}
	p := s.pos
	caps, _ := s.g.Rules.Apply(&p, m)
	return m.String() + captureSuffix(caps)
}

func captureSuffix(caps Captures) string {
	if caps.N == 0 {
		return ""
	}
	sq := caps.Sq[:caps.N]
	sort.Slice(sq, func(i, j int) bool { return sq[i] < sq[j] })
	names := make([]string, len(sq))
	for i, c := range sq {
		names[i] = c.String()
	}
	return "x" + strings.Join(names, "/")
}

func (s *State) ActionString(a game.Action) string { return s.MoveString(Move(a)) }

// ParseMove reads a move such as "e3-e1" or "e5-e8xe9" and checks that it is
// legal here and that a capture suffix, if given, is right. OpenTafl's
// trailing info symbols (+, -, ++, --) are accepted and ignored.
func (s *State) ParseMove(text string) (Move, error) {
	m, suffix, err := parseMoveText(text)
	if err != nil {
		return 0, err
	}
	if s.over {
		return 0, fmt.Errorf("tablut: %w %s: the game is over (%s)", game.ErrIllegal, text, s.result.Reason)
	}
	if !s.IsLegal(m) {
		return 0, fmt.Errorf("tablut: %w %s: %s", game.ErrIllegal, text, s.whyIllegal(m))
	}
	if suffix != "" {
		want := s.MoveString(m)[len(m.String()):]
		if !sameCaptures(suffix, want) {
			if want == "" {
				want = "none"
			}
			return 0, fmt.Errorf("tablut: %w %s: wrong captures %q, the move captures %s", game.ErrIllegal, text, suffix, strings.TrimPrefix(want, "x"))
		}
	}
	return m, nil
}

func (s *State) ParseAction(text string) (game.Action, error) {
	m, err := s.ParseMove(text)
	return game.Action(m), err
}

func parseMoveText(text string) (Move, string, error) {
	t := strings.TrimSpace(text)
	if t == "pass" {
		return Pass, "", nil
	}
	t = strings.TrimRight(t, "+-")
	if len(t) < 5 || t[2] != '-' {
		return 0, "", fmt.Errorf("tablut: %w: bad move %q: want from-to, such as e3-e1", game.ErrSyntax, text)
	}
	from, err := ParseSquare(t[0:2])
	if err != nil {
		return 0, "", fmt.Errorf("tablut: %w: bad move %q: %v", game.ErrSyntax, text, err)
	}
	to, err := ParseSquare(t[3:5])
	if err != nil {
		return 0, "", fmt.Errorf("tablut: %w: bad move %q: %v", game.ErrSyntax, text, err)
	}
	suffix := t[5:]
	if suffix != "" {
		if suffix[0] != 'x' || len(suffix) < 3 {
			return 0, "", fmt.Errorf("tablut: %w: bad move %q: after the squares comes x and the captures", game.ErrSyntax, text)
		}
		for _, c := range strings.Split(suffix[1:], "/") {
			if _, err := ParseSquare(c); err != nil {
				return 0, "", fmt.Errorf("tablut: %w: bad move %q: %v", game.ErrSyntax, text, err)
			}
		}
	}
	return NewMove(from, to), suffix, nil
}

func sameCaptures(a, b string) bool {
	split := func(s string) []string {
		l := strings.Split(strings.TrimPrefix(s, "x"), "/")
		sort.Strings(l)
		return l
	}
	if b == "" {
		return false
	}
	return strings.Join(split(a), "/") == strings.Join(split(b), "/")
}

// whyIllegal explains why a move that is not legal is not.
func (s *State) whyIllegal(m Move) string {
	r := &s.g.Rules
	if m == Pass {
		return "a pass is allowed only to a side that cannot move, in rulesets that pass"
	}
	from, to := m.From(), m.To()
	piece := s.pos.board[from]
	switch {
	case piece == Empty:
		return "no piece on " + from.String()
	case piece.side() != s.pos.toMove:
		return fmt.Sprintf("%s belongs to the %s, and the %s are to move", from, piece.side(), s.pos.toMove)
	case from == to:
		return "the piece does not move"
	case from.File() != to.File() && from.Rank() != to.Rank():
		return "pieces move along a rank or a file only"
	}
	step := 1
	if to.File() == from.File() {
		step = Size
	}
	if to < from {
		step = -step
	}
	c := r.class(&s.pos, from)
	for t := from + Square(step); ; t += Square(step) {
		if s.pos.board[t] != Empty {
			return "blocked at " + t.String()
		}
		if t == Castle && (t == to || !r.CastleCross) && !(c == 2 && r.KingReenter) {
			if t == to {
				return "nobody may stop on the castle e5"
			}
			return "nobody may cross the castle e5"
		}
		if c != 1 && r.camps.has(t) {
			return "only a piece that starts its move in a camp may enter or cross " + t.String()
		}
		if t == to {
			break
		}
	}
	if l := r.lines[c][from]; c == 1 && r.camps.has(to) && (l.forbidRank&(1<<to.File()) != 0 || l.forbidFile&(1<<to.Rank()) != 0) {
		return "a move from camp to camp may not be longer than 5 squares"
	}
	if r.Repetition == RepAttackerVary {
		return "the attackers may not repeat a position for the third time"
	}
	return "not a legal move"
}
