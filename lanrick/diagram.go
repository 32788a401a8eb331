package lanrick

import (
	"fmt"
	"strings"
)

// Diagram draws the position for a terminal: rank 8 (black's edge) at the
// top, b and w for the men, * for an empty rendezvous square, m for the
// mark outside it; then what the rules want next.
func (s *State) Diagram() string {
	var b strings.Builder
	b.WriteString("    a b c d e f g h     black\n")
	for rank := 7; rank >= 0; rank-- {
		fmt.Fprintf(&b, " %d ", rank+1)
		for file := 0; file < 8; file++ {
			q := sq(file, rank)
			c := byte('.')
			switch {
			case s.men[Black].has(q):
				c = 'b'
			case s.men[White].has(q):
				c = 'w'
			case s.rdv.has(q):
				c = '*'
			case q == s.mark:
				c = 'm'
			}
			b.WriteByte(' ')
			b.WriteByte(c)
		}
		fmt.Fprintf(&b, "  %d\n", rank+1)
	}
	b.WriteString("    a b c d e f g h     white\n")
	fmt.Fprintf(&b, "men: black %d, white %d", s.men[Black].count(), s.men[White].count())
	if s.g.Rules.Version == V1879Mar {
		fmt.Fprintf(&b, "; marks: black %d, white %d", s.scores[Black], s.scores[White])
	}
	if s.mark != NoSquare {
		fmt.Fprintf(&b, "; rendezvous %d: %s, mark %s", s.rendezvous, squareCount(s.rdv.count()), s.mark)
	}
	b.WriteByte('\n')
	if s.over {
		w := "draw"
		if s.result.Winner >= 0 {
			w = colourName(int(s.result.Winner)) + " wins"
		}
		fmt.Fprintf(&b, "game over: %s (%s)\n", w, s.result.Reason)
		return b.String()
	}
	who := playerText(s.toAct)
	switch s.phase {
	case PhaseMove:
		fmt.Fprintf(&b, "%s to move: %s left this turn", who, squareCount(s.budget))
		if s.moved != 0 {
			fmt.Fprintf(&b, " (moved: %s)", squaresText(s.moved))
		}
		if s.opening {
			b.WriteString(", the 2-square opening turn")
		}
		b.WriteByte('\n')
	case PhaseRoll:
		b.WriteString("the die is thrown\n")
	default:
		fmt.Fprintf(&b, "%s to act: %s\n", who, map[Phase]string{
			PhasePlace: "set a man on the border (@sq)", PhaseMark: "set the mark (mark sq)",
			PhaseInterchange: "interchange or no-interchange", PhaseSwap: "choose a man to interchange (swap sq)",
			PhaseRemove: "choose the man to take (x sq)", PhaseRelocate: "move a wanderer to the border",
			PhaseSetIn: "set a wanderer in the rendezvous", PhaseRadiate: "move the centre man out",
			PhaseBonus: "bonus moves, or end", PhaseEqualise: "move a man from the field to the border",
			PhaseMarshal: "move a man from the field to the border",
		}[s.phase])
	}
	return b.String()
}
