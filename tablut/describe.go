package tablut

import (
	"fmt"
	"slices"

	"github.com/muster-games/muster/game"
)

// traits are Tablut's for people and tools.
var traits = game.Traits{
	Players: []game.PlayerTraits{
		{Name: "attackers", Title: "Attackers (Muscovites)", Colour: "dark"},
		{Name: "defenders", Title: "Defenders (Swedes)", Colour: "light"},
	},
	Width: Size, Height: Size,
	Premove:   true,
	TurnPairs: true,
	Bottom:    game.Player(Attackers), // the board is symmetric; the first to move sits below
	Pieces: []game.PieceTraits{
		{Kind: "attacker", Name: "an attacker", Side: game.Player(Attackers)},
		{Kind: "defender", Name: "a defender", Side: game.Player(Defenders)},
		{Kind: "king", Name: "the king", Side: game.Player(Defenders), Emblem: game.EmblemCrown},
	},
	Regions: []game.RegionTraits{
		{Kind: "castle", Name: "the castle (konakis), where the king starts", Style: game.StyleFill, Tint: "gold"},
		{Kind: "camp", Name: "a camp of the attackers", Style: game.StyleFill, Tint: "sand"},
		{Kind: "open-line", Name: "an open line from the king to the edge (raichi, tuichu)", Style: game.StyleLine},
	},
}

// Traits describe Tablut: attackers and defenders on a 9×9 board.
func (g *Game) Traits() game.Traits { return traits }

var pieceKinds = [...]string{Attacker: "attacker", Defender: "defender", King: "king"}

// View describes the position for a board display: the pieces, the castle
// and camps, the king's open lines to the edge, and the last move with
// what it captured (the king too, when he was taken).
func (s *State) View() game.View { return s.AppendView(game.View{}) }

// AppendView is View drawn into dst's pieces and regions (game.ViewAppender).
func (s *State) AppendView(dst game.View) game.View {
	// Each list is made at its length (or dst's used again), and the
	// lists that are the same in every view (the castle's square, the
	// camps', the last move's) are shared: a game in play is described
	// after every move.
	men := s.pos.men[Attackers].count() + s.pos.men[Defenders].count()
	v := game.View{Width: Size, Height: Size, Pieces: slices.Grow(dst.Pieces[:0], men)}
	if v.Pieces == nil {
		v.Pieces = []game.Piece{} // a list, as encoded, even of none
	}
	for q := Square(0); q < Squares; q++ {
		if c := s.pos.board[q]; c != Empty {
			side := Attackers
			if c != Attacker {
				side = Defenders
			}
			v.Pieces = append(v.Pieces, game.Piece{Square: squareName[q], Side: game.Player(side), Kind: pieceKinds[c]})
		}
	}
	lines := s.openLines()
	v.Regions = slices.Grow(dst.Regions[:0], 2+len(lines))
	v.Regions = append(v.Regions, game.Region{Kind: "castle", Squares: castleSquares})
	if s.g.Rules.Camps != CampsNone {
		v.Regions = append(v.Regions, game.Region{Kind: "camp", Squares: campSquares})
	}
	for _, line := range lines {
		v.Regions = append(v.Regions, game.Region{Kind: "open-line", Squares: line})
	}
	if m, ok := s.lastMove(); ok {
		v.Last = moveSquares(m.From(), m.To())
		v.Captured = squareNames(s.captured())
	}
	routes := s.g.Rules.EscapeRoutes(&s.pos)
	switch {
	case s.over:
	case routes == 1:
		v.Facts = append(v.Facts, game.Fact{Key: "routes", Label: "Raichi", Value: "the king has an open line to the edge"})
	case routes > 1:
		v.Facts = append(v.Facts, game.Fact{Key: "routes", Label: "Tuichu", Value: fmt.Sprintf("the king has %d open lines to the edge", routes)})
	}
	return v
}

// castleSquares and campSquares name the castle and the camps (where
// the rules have them), for every view to share.
var castleSquares, campSquares = squareNames([]Square{Castle})[:1:1], func() []string {
	var out []string
	for q := Square(0); q < Squares; q++ {
		if startAttackers.has(q) {
			out = append(out, squareName[q])
		}
	}
	return out[:len(out):len(out)]
}()

// openLines are the squares from the king to each edge square he could
// reach now, the edge square last.
func (s *State) openLines() [][]string {
	k := s.pos.king
	if k < 0 || s.over {
		return nil
	}
	var out [][]string
	rm, fm := s.g.Rules.targets(&s.pos, k)
	add := func(df, dr int) {
		var line []string
		f, r := k.File()+df, k.Rank()+dr
		for f >= 0 && f < Size && r >= 0 && r < Size {
			line = append(line, sq(f, r).String())
			f, r = f+df, r+dr
		}
		out = append(out, line)
	}
	if rm&1 != 0 {
		add(-1, 0)
	}
	if rm&(1<<(Size-1)) != 0 {
		add(1, 0)
	}
	if fm&1 != 0 {
		add(0, -1)
	}
	if fm&(1<<(Size-1)) != 0 {
		add(0, 1)
	}
	return out
}

// lastMove is the last action if it was a move (not a pass).
func (s *State) lastMove() (Move, bool) {
	if len(s.undo) == 0 || len(s.actions) == 0 {
		return 0, false
	}
	m := Move(s.actions[len(s.actions)-1])
	return m, m != Pass
}

// captured lists the squares whose piece the last move took; the king,
// who stays on the board when he is taken, is listed too.
func (s *State) captured() []Square {
	m, ok := s.lastMove()
	if !ok {
		return nil
	}
	prev := s.undo[len(s.undo)-1].pos
	var out []Square
	for q := Square(0); q < Squares; q++ {
		if prev.board[q] != Empty && s.pos.board[q] == Empty && q != m.From() {
			out = append(out, q)
		}
	}
	if s.over && s.result.Reason == reasonKingCaptured {
		out = append(out, s.pos.king)
	}
	return out
}

func squareNames(qs []Square) []string {
	var out []string
	for _, q := range qs {
		out = append(out, q.String())
	}
	return out
}

// Describe describes a legal move: the piece's square and where it goes,
// or the forced pass (a button).
func (s *State) Describe(a game.Action) game.ActionInfo {
	m := Move(a)
	text := s.ActionString(a)
	if m == Pass {
		return game.ActionInfo{Text: text, Kind: "pass", Label: "Pass (no move)", EndsTurn: true}
	}
	return game.ActionInfo{Text: text, Kind: "move", Squares: moveSquares(m.From(), m.To()), Label: text, EndsTurn: true}
}

// AppendLegal describes the legal moves as Describe does, appended to
// dst, their squares shared (it implements game.LegalDescriber).
func (s *State) AppendLegal(dst []game.ActionInfo) []game.ActionInfo {
	var buf [MaxMoves]Move
	moves := s.LegalMoves(buf[:0])
	dst = slices.Grow(dst, len(moves))
	for _, m := range moves {
		if m == Pass {
			dst = append(dst, s.Describe(game.Action(m)))
			continue
		}
		text := s.MoveString(m)
		dst = append(dst, game.ActionInfo{Text: text, Kind: "move", Squares: moveSquares(m.From(), m.To()), Label: text, EndsTurn: true})
	}
	return dst
}

// AppendLegalJSON writes the legal moves' descriptions (AppendLegal) as
// the JSON list encoding/json writes of them (game.LegalJSONAppender),
// with no description made: false where a pass is legal.
func (s *State) AppendLegalJSON(b []byte) ([]byte, bool) {
	var buf [MaxMoves]Move
	n := len(b)
	b = append(b, '[')
	for i, m := range s.LegalMoves(buf[:0]) {
		if m == Pass {
			return b[:n], false
		}
		if i > 0 {
			b = append(b, ',')
		}
		// Notation, squares and labels are letters, digits, "-", "x"
		// and "/": nothing encoding/json escapes.
		b = append(b, `{"text":"`...)
		t := len(b)
		b = s.appendMove(b, m)
		e := len(b)
		b = append(b, `","kind":"move","squares":["`...)
		b = append(b, m.From().String()...)
		b = append(b, `","`...)
		b = append(b, m.To().String()...)
		b = append(b, `"],"label":"`...)
		b = append(b, b[t:e]...)
		b = append(b, `","ends_turn":true}`...)
	}
	return append(b, ']'), true
}

// Prompt asks the side to move for a move, naming the pieces that have
// one; at the end it says who won and why.
func (s *State) Prompt() game.Prompt {
	if s.over {
		return game.Prompt{Player: game.Terminal, Text: resultSentence(s.result)}
	}
	p := game.Prompt{Player: game.Player(s.pos.toMove)}
	// The movers' squares in the order of their first moves, gathered
	// here and then listed at their number: a prompt is made after
	// every move of every game.
	var seen [Squares]bool
	var movers [Squares]Square
	n := 0
	var buf [MaxMoves]Move
	for _, m := range s.LegalMoves(buf[:0]) {
		if m == Pass {
			p.Text = "You have no legal move: pass."
			return p
		}
		if !seen[m.From()] {
			seen[m.From()] = true
			movers[n] = m.From()
			n++
		}
	}
	if n > 0 {
		p.Squares = make([]string, n)
		for i, q := range movers[:n] {
			p.Squares[i] = q.String()
		}
	}
	if s.pos.toMove == Attackers {
		p.Text = "Move an attacker along a rank or file: trap a defender between two of yours, and surround the king."
	} else {
		p.Text = "Move a defender or the king along a rank or file: bring the king to the edge."
	}
	return p
}

const (
	reasonKingCaptured = "king captured"
	reasonKingEscaped  = "king escaped"
)

func resultSentence(r game.Result) string {
	switch {
	case r.Reason == reasonKingCaptured:
		return "The attackers won: the king was captured."
	case r.Reason == reasonKingEscaped:
		return "The defenders won: the king escaped to the edge."
	case r.Winner < 0:
		return "Draw: " + r.Reason + "."
	}
	return fmt.Sprintf("The %s won: %s.", Side(r.Winner), r.Reason)
}

// Events are what the last move did: the pieces it captured, and the end
// of the game.
func (s *State) Events() []game.Event {
	m, ok := s.lastMove()
	if !ok && len(s.actions) == 0 {
		return nil
	}
	mover := game.Player(1 - s.pos.toMove)
	if len(s.undo) > 0 {
		mover = game.Player(s.undo[len(s.undo)-1].pos.toMove)
	}
	var out []game.Event
	if !ok {
		out = append(out, game.Event{Kind: "pass", Player: mover, Text: fmt.Sprintf("The %s could not move and passed.", Side(mover))})
	}
	for _, q := range s.captured() {
		if q == s.pos.king && s.over && s.result.Reason == reasonKingCaptured {
			out = append(out, game.Event{Kind: "king-captured", Player: mover, Squares: []string{q.String()}, Text: "The king is captured on " + q.String() + "."})
			continue
		}
		out = append(out, game.Event{Kind: "capture", Player: mover, Squares: []string{q.String()}, Text: fmt.Sprintf("The %s captured %s on %s.", Side(mover), traits.Pieces[s.undo[len(s.undo)-1].pos.board[q]-1].Name, q)})
	}
	if ok && s.over && s.result.Reason == reasonKingEscaped {
		out = append(out, game.Event{Kind: "king-escaped", Player: game.Player(Defenders), Squares: []string{m.To().String()}, Text: "The king escaped to " + m.To().String() + "."})
	}
	if s.over {
		out = append(out, game.Event{Kind: "game-over", Player: s.result.Winner, Text: resultSentence(s.result)})
	}
	return out
}
