package tablut

import (
	"fmt"
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
	caps := s.g.Rules.capturesOf(&s.pos, m)
	if caps.N == 0 {
		return m.String()
	}
	// Written into one string (every view names its legal moves so).
	return string(appendCaptures(append(make([]byte, 0, 5+4*caps.N), m.String()...), caps))
}

// appendMove appends a legal move other than a pass as MoveString writes
// it.
func (s *State) appendMove(b []byte, m Move) []byte {
	b = append(b, m.String()...)
	if caps := s.g.Rules.capturesOf(&s.pos, m); caps.N > 0 {
		b = appendCaptures(b, caps)
	}
	return b
}

// appendCaptures appends the squares a move takes, in order, after "x"
// and joined by "/".
func appendCaptures(b []byte, caps Captures) []byte {
	sq := caps.Sq[:caps.N]
	for i := 1; i < len(sq); i++ {
		for j := i; j > 0 && sq[j] < sq[j-1]; j-- {
			sq[j], sq[j-1] = sq[j-1], sq[j]
		}
	}
	for i, c := range sq {
		if i == 0 {
			b = append(b, 'x')
		} else {
			b = append(b, '/')
		}
		b = append(b, c.String()...)
	}
	return b
}

func (s *State) ActionString(a game.Action) string { return s.MoveString(Move(a)) }

// ParseMove reads a move in OpenTafl Notation (OTN) and checks that it is
// legal here and that what it says is so. Muster writes "e3-e1" and
// "e5-e8xe9" (captures after x, several joined by /); OpenTafl also names
// a piece other than a plain taflman by its letter before its square
// ("Ke5-f5", "d1-d3xKd4": K the king, T a defender, t an attacker) and
// writes the king's capture among the captures, where Muster's game ends
// without it. OTN's trailing info symbols (+, -, ++, --, +++) are accepted
// and ignored. Jumps and berserk moves (^, =) are OTN too, but no Tablut
// ruleset has them.
func (s *State) ParseMove(text string) (Move, error) {
	mv, err := parseMoveText(text)
	if err != nil {
		return 0, err
	}
	m := mv.move
	if s.over {
		return 0, fmt.Errorf("tablut: %w %s: the game is over (%s)", game.ErrIllegal, text, s.result.Reason)
	}
	if !s.IsLegal(m) {
		return 0, fmt.Errorf("tablut: %w %s: %s", game.ErrIllegal, text, s.whyIllegal(m))
	}
	if m == Pass {
		return m, nil
	}
	if mv.piece != 0 && !letterFits(mv.piece, s.pos.At(m.From())) {
		return 0, fmt.Errorf("tablut: %w %s: %q names %s, but the piece on %s is %s", game.ErrIllegal, text, mv.piece, letterName(mv.piece), m.From(), pieceWords(s.pos.At(m.From())))
	}
	if mv.captures != nil {
		p := s.pos
		caps, kingTaken := s.g.Rules.Apply(&p, m)
		took := map[Square]Piece{}
		for _, c := range caps.Sq[:caps.N] {
			took[c] = s.pos.At(c)
		}
		said := map[Square]bool{}
		for _, c := range mv.captures {
			said[c.sq] = true
			piece, ok := took[c.sq]
			if !ok && kingTaken && c.sq == s.pos.King() {
				piece, ok = King, true
			}
			if !ok {
				return 0, fmt.Errorf("tablut: %w %s: wrong captures: the move does not capture on %s (it captures %s)", game.ErrIllegal, text, c.sq, capturesWords(caps, kingTaken, s.pos.King()))
			}
			if c.piece != 0 && !letterFits(c.piece, piece) {
				return 0, fmt.Errorf("tablut: %w %s: %q names %s, but the piece taken on %s is %s", game.ErrIllegal, text, c.piece, letterName(c.piece), c.sq, pieceWords(piece))
			}
		}
		for sq := range took {
			if !said[sq] {
				return 0, fmt.Errorf("tablut: %w %s: wrong captures: the move also captures on %s (it captures %s)", game.ErrIllegal, text, sq, capturesWords(caps, kingTaken, s.pos.King()))
			}
		}
	}
	return m, nil
}

func (s *State) ParseAction(text string) (game.Action, error) {
	m, err := s.ParseMove(text)
	return game.Action(m), err
}

// otnMove is a move as OTN writes it: the piece's letter, if named, the
// move, and its captures (nil when none are written).
type otnMove struct {
	piece    byte
	move     Move
	captures []otnCapture
}

type otnCapture struct {
	piece byte
	sq    Square
}

// otnLetters are OTN's piece letters: lower case the attackers', upper
// case the defenders' (taflman, commander, knight, king, mercenary,
// guard).
const otnLetters = "tcnkmgTCNKMG"

// otnSquare reads an optional piece letter and a square at the start of
// t; it returns them and the rest.
func otnSquare(t, text string) (byte, Square, string, error) {
	var letter byte
	// A letter then a file ("Kd4"); a file alone is a square's ("c4").
	if len(t) > 1 && strings.IndexByte(otnLetters, t[0]) >= 0 && t[1] >= 'a' && t[1] <= 'z' {
		letter, t = t[0], t[1:]
	}
	n := 0
	for n < len(t) && (n == 0 && t[n] >= 'a' && t[n] <= 'z' || n > 0 && t[n] >= '0' && t[n] <= '9') {
		n++
	}
	if n < 2 {
		return 0, 0, "", fmt.Errorf("tablut: %w: bad move %q: want a square such as e3", game.ErrSyntax, text)
	}
	sq, err := ParseSquare(t[:n])
	if err != nil {
		return 0, 0, "", fmt.Errorf("tablut: %w: bad move %q: %v", game.ErrSyntax, text, err)
	}
	return letter, sq, t[n:], nil
}

func parseMoveText(text string) (otnMove, error) {
	t := strings.TrimSpace(text)
	if t == "pass" {
		return otnMove{move: Pass}, nil
	}
	t = strings.TrimRight(t, "+-")
	if t == "" {
		return otnMove{}, fmt.Errorf("tablut: %w: bad move %q: want from-to, such as e3-e1", game.ErrSyntax, text)
	}
	piece, from, rest, err := otnSquare(t, text)
	if err != nil {
		return otnMove{}, err
	}
	switch {
	case strings.HasPrefix(rest, "^"), strings.HasPrefix(rest, "="):
		return otnMove{}, fmt.Errorf("tablut: %w: bad move %q: a jump or a berserk move (%c) is OTN, but no Tablut ruleset has one", game.ErrSyntax, text, rest[0])
	case !strings.HasPrefix(rest, "-"):
		return otnMove{}, fmt.Errorf("tablut: %w: bad move %q: want from-to, such as e3-e1", game.ErrSyntax, text)
	}
	_, to, rest, err := otnSquare(rest[1:], text)
	if err != nil {
		return otnMove{}, err
	}
	if len(rest) > 0 && strings.IndexByte(otnLetters, rest[0]) >= 0 && rest[0] != 'x' {
		return otnMove{}, fmt.Errorf("tablut: %w: bad move %q: a letter after the target square", game.ErrSyntax, text)
	}
	mv := otnMove{piece: piece, move: NewMove(from, to)}
	if rest == "" {
		return mv, nil
	}
	if rest[0] != 'x' || len(rest) < 3 {
		return otnMove{}, fmt.Errorf("tablut: %w: bad move %q: after the squares comes x and the captures", game.ErrSyntax, text)
	}
	mv.captures = []otnCapture{}
	for _, c := range strings.Split(rest[1:], "/") {
		letter, sq, more, err := otnSquare(c, text)
		if err != nil {
			return otnMove{}, err
		}
		if more != "" {
			return otnMove{}, fmt.Errorf("tablut: %w: bad move %q: captures are squares joined by /", game.ErrSyntax, text)
		}
		mv.captures = append(mv.captures, otnCapture{letter, sq})
	}
	return mv, nil
}

// letterFits reports whether an OTN letter names the piece: K the king, a
// taflman's t or T by side; Tablut has no commanders, knights,
// mercenaries or guards.
func letterFits(letter byte, p Piece) bool {
	switch letter {
	case 'K':
		return p == King
	case 'T':
		return p == Defender
	case 't':
		return p == Attacker
	}
	return false
}

// letterName says what an OTN letter names.
func letterName(letter byte) string {
	side := "an attacking"
	if letter >= 'A' && letter <= 'Z' {
		side = "a defending"
	}
	switch letter | 0x20 {
	case 'k':
		if letter == 'K' {
			return "the king"
		}
		return "an attacking king"
	case 't':
		return side + " taflman"
	case 'c':
		return side + " commander"
	case 'n':
		return side + " knight"
	case 'm':
		return side + " mercenary"
	}
	return side + " guard"
}

func pieceWords(p Piece) string {
	switch p {
	case King:
		return "the king"
	case Defender:
		return "a defender"
	case Attacker:
		return "an attacker"
	}
	return "empty"
}

// capturesWords lists what a move captures, the king included.
func capturesWords(caps Captures, kingTaken bool, king Square) string {
	var names []string
	for _, c := range caps.Sq[:caps.N] {
		names = append(names, c.String())
	}
	if kingTaken {
		names = append(names, "the king on "+king.String())
	}
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, ", ")
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
