package tablut

import (
	"fmt"
	"strings"
)

// Diagram draws the position for a terminal: rank 9 at the top, t for an
// attacker, T a defender, K the king, + the empty castle, : an empty camp
// or fort; then the side to move and the king's open lines (Linnaeus's
// raichi for one, tuichu for two or more).
func (s *State) Diagram() string {
	var b strings.Builder
	b.WriteString("    a b c d e f g h i\n")
	for rank := Size - 1; rank >= 0; rank-- {
		fmt.Fprintf(&b, " %d ", rank+1)
		for file := 0; file < Size; file++ {
			q := sq(file, rank)
			c := ".tTK"[s.pos.board[q]]
			switch {
			case c != '.':
			case q == Castle:
				c = '+'
			case s.g.Rules.camps.has(q):
				c = ':'
			}
			b.WriteByte(' ')
			b.WriteByte(c)
		}
		fmt.Fprintf(&b, "  %d\n", rank+1)
	}
	b.WriteString("    a b c d e f g h i\n")
	if s.over {
		fmt.Fprintf(&b, "game over: %s (%s)\n", resultText(s), s.result.Reason)
		return b.String()
	}
	fmt.Fprintf(&b, "%s to move", s.pos.toMove)
	switch n := s.g.Rules.EscapeRoutes(&s.pos); {
	case n == 1:
		b.WriteString("; the king has an open line (raichi)")
	case n > 1:
		fmt.Fprintf(&b, "; the king has %d open lines (tuichu)", n)
	}
	b.WriteByte('\n')
	return b.String()
}

func resultText(s *State) string {
	if s.result.Winner < 0 {
		return "draw"
	}
	return Side(s.result.Winner).String() + " win"
}
