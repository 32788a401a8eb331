package lanrick

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/muster-games/muster/game"
)

// A position is one line of space-separated key=value fields:
//
//	board=.b..w..b/w7/8/7w/b7/8/7b/w2b2w1 to=black phase=mark rdv=1 size=9
//	mark=- line=- setter=black budget=0 opening=no opened=-- moved=-
//	lone=- swap=- lost=- passes=0 quiet=0
//
// board is written as FEN writes a chess board: rank 8 (black's edge)
// first, 'b' and 'w' for the men, digits for runs of empty squares. The
// other fields: who is to act (black, white or chance) and what the rules
// want (phase); the number of the rendezvous, its size, mark and line; who
// set the mark; the squares left in the turn, whether it is a 2-square
// opening turn and which players have had their first turn in this
// rendezvous; the men moved this turn; the lone outsider at the start of
// the turn; the men chosen for an interchange (with how many are still to
// choose); who lost the last man; consecutive passes; turns without
// progress. Only board is required; the others default to the start of a
// turn of black's with no mark set. A parsed position starts a fresh
// history for the repetition rule.

// Hash returns a hash of everything that affects what may follow.
func (s *State) Hash() uint64 {
	h := uint64(0x6c616e7269636b)
	mix := func(x uint64) {
		h ^= x
		h *= 0x9E3779B97F4A7C15
		h ^= h >> 29
	}
	mix(uint64(s.men[Black]))
	mix(uint64(s.men[White]))
	mix(uint64(s.moved))
	mix(uint64(s.swapped))
	flags := uint64(uint8(s.phase)) | uint64(uint8(s.toAct))<<8 | uint64(uint8(s.mark))<<16 |
		uint64(uint8(s.shape.Size))<<24 | uint64(uint8(s.shape.Line))<<32 | uint64(uint8(s.setter))<<40 |
		uint64(uint8(s.budget))<<48 | uint64(uint8(s.swapLeft))<<56
	mix(flags)
	var b uint64
	for i, f := range [...]bool{s.movedAny, s.opening, s.openingDone[0], s.openingDone[1], s.over} {
		if f {
			b |= 1 << i
		}
	}
	mix(b | uint64(uint8(s.lone))<<8 | uint64(uint8(s.lastLoser))<<16 | uint64(uint8(s.passes))<<24)
	if s.g.Rules.old() {
		mix(uint64(s.prevRdv))
		mix(uint64(uint8(s.placer)) | uint64(uint8(s.placed))<<8 | uint64(uint8(s.first))<<16 |
			uint64(uint8(s.budgets[0]))<<24 | uint64(uint8(s.budgets[1]))<<32 | uint64(uint8(s.bonus))<<40 |
			uint64(uint8(s.roll))<<48 | uint64(uint8(s.rollRow))<<56)
		priv := uint64(0)
		if s.privilege {
			priv = 1
		}
		mix(priv | uint64(uint8(s.scores[0]))<<8 | uint64(uint8(s.scores[1]))<<16 |
			uint64(uint8(s.wanderers))<<24 | uint64(uint8(s.marshalStart))<<32 | uint64(uint16(s.rendezvous))<<40)
		for w := s.moved; w != 0; w &= w - 1 {
			q := trailing(w)
			mix(uint64(q)<<8 | uint64(uint8(s.lines[q])))
		}
	}
	return h
}

func boardText(men [2]Bitboard) string {
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			q := sq(file, rank)
			c := byte(0)
			switch {
			case men[Black].has(q):
				c = 'b'
			case men[White].has(q):
				c = 'w'
			}
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

func squaresText(b Bitboard) string {
	if b == 0 {
		return "-"
	}
	var names []string
	for _, q := range b.squares(nil) {
		names = append(names, q.String())
	}
	return strings.Join(names, ",")
}

func playerText(p int8) string {
	switch p {
	case Black, White:
		return colourName(int(p))
	case -1:
		return "chance"
	}
	return "-"
}

func optPlayerText(p int8) string {
	if p < 0 {
		return "-"
	}
	return colourName(int(p))
}

func yn(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// String writes the position in the one-line format.
func (s *State) String() string {
	to := playerText(s.toAct)
	if s.over {
		to = "-"
	}
	line := "-"
	if s.shape.Line >= 0 {
		line = dirNames[s.shape.Line]
	}
	opened := []byte("--")
	for p := 0; p < 2; p++ {
		if s.openingDone[p] {
			opened[p] = "bw"[p]
		}
	}
	swap := squaresText(s.swapped)
	if s.phase == PhaseSwap {
		swap += "/" + strconv.Itoa(int(s.swapLeft))
	}
	f := []string{
		"board=" + boardText(s.men), "to=" + to, "phase=" + s.phase.String(),
		"rdv=" + strconv.Itoa(int(s.rendezvous)), "size=" + strconv.Itoa(s.shape.Size),
		"mark=" + s.mark.String(), "line=" + line, "setter=" + optPlayerText(s.setter),
		"budget=" + strconv.Itoa(int(s.budget)), "opening=" + yn(s.opening), "opened=" + string(opened),
		"moved=" + squaresText(s.moved), "lone=" + s.lone.String(), "swap=" + swap,
		"lost=" + optPlayerText(s.lastLoser), "passes=" + strconv.Itoa(int(s.passes)),
		"quiet=" + strconv.Itoa(int(s.noProgress)),
	}
	if s.g.Rules.QueenCheck && s.mark != NoSquare {
		f = append(f, "squares="+squaresText(s.rdv))
	}
	if s.g.Rules.old() {
		f = append(f, "placer="+optPlayerText(s.placer), "placed="+strconv.Itoa(int(s.placed)),
			"first="+optPlayerText(s.first), "budgets="+strconv.Itoa(int(s.budgets[0]))+","+strconv.Itoa(int(s.budgets[1])),
			"privilege="+yn(s.privilege), "bonus="+strconv.Itoa(int(s.bonus)),
			"roll="+strconv.Itoa(int(s.roll))+","+strconv.Itoa(int(s.rollRow)),
			"scores="+strconv.Itoa(int(s.scores[0]))+","+strconv.Itoa(int(s.scores[1])),
			"wanderers="+strconv.Itoa(int(s.wanderers)), "prev="+squaresText(s.prevRdv),
			"mstart="+optPlayerText(s.marshalStart), "lines="+s.linesText())
	}
	if s.over {
		winner := "draw"
		if s.result.Winner >= 0 {
			winner = colourName(int(s.result.Winner))
		}
		f = append(f, "result="+winner, "reason="+strings.ReplaceAll(s.result.Reason, " ", "_"))
	}
	return strings.Join(f, " ")
}

// linesText writes the direction each man moved this turn took (1881).
func (s *State) linesText() string {
	var out []string
	for _, q := range s.moved.squares(nil) {
		if d := s.lines[q]; d > 0 {
			out = append(out, q.String()+":"+dirNames[d-1])
		}
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, ",")
}

func (s *State) parseLines(v string) error {
	if v == "-" {
		return nil
	}
	for _, item := range strings.Split(v, ",") {
		name, dir, ok := strings.Cut(item, ":")
		q, err := ParseSquare(name)
		if !ok || err != nil {
			return fmt.Errorf("lines=%q: want square:direction items", v)
		}
		found := false
		for d, n := range dirNames {
			if n == dir {
				s.lines[q], found = int8(d+1), true
			}
		}
		if !found {
			return fmt.Errorf("lines=%q: unknown direction %q", v, dir)
		}
	}
	return nil
}

// Parse reads a position in the one-line format.
func (g *Game) Parse(text string) (*State, error) {
	s := &State{g: g, mark: NoSquare, setter: -1, lastLoser: -1, lone: NoSquare, phase: PhaseMove, rendezvous: 1,
		placer: -1, first: -1, marshalStart: -1}
	bad := func(format string, a ...any) (*State, error) {
		return nil, fmt.Errorf("lanrick: %w: position: %s", game.ErrSyntax, fmt.Sprintf(format, a...))
	}
	seen := map[string]bool{}
	var winner, reason string
	for _, field := range strings.Fields(text) {
		k, v, ok := strings.Cut(field, "=")
		if !ok {
			return bad("field %q is not key=value", field)
		}
		if seen[k] {
			return bad("field %s given twice", k)
		}
		seen[k] = true
		var err error
		switch k {
		case "board":
			s.men, err = parseBoard(v)
		case "to":
			switch v {
			case "black", "yellow":
				s.toAct = Black
			case "white":
				s.toAct = White
			case "chance":
				s.toAct = -1
			case "-":
				s.toAct = -2
			default:
				err = fmt.Errorf("to=%q: want black, white or chance", v)
			}
		case "phase":
			err = fmt.Errorf("unknown phase %q (known: %s)", v, strings.Join(phaseNames, ", "))
			for i, n := range phaseNames {
				if n == v {
					s.phase, err = Phase(i), nil
				}
			}
		case "rdv":
			var n int
			n, err = parseInt(v, 0, 10000)
			s.rendezvous = int16(n)
		case "size":
			s.shape.Size, err = parseInt(v, 3, 9)
		case "mark":
			s.mark, err = parseOptSquare(v)
		case "line":
			s.shape.Line = -1
			if v != "-" {
				if !isLineDir(v) {
					err = fmt.Errorf("line=%q: want n, e, ne, nw or -", v)
				}
				for d, n := range dirNames {
					if n == v {
						s.shape.Line = d
					}
				}
			}
		case "setter":
			s.setter, err = parseOptPlayer(k, v)
		case "lost":
			s.lastLoser, err = parseOptPlayer(k, v)
		case "placer":
			s.placer, err = parseOptPlayer(k, v)
		case "first":
			s.first, err = parseOptPlayer(k, v)
		case "mstart":
			s.marshalStart, err = parseOptPlayer(k, v)
		case "budget":
			var n int
			n, err = parseInt(v, 0, 12)
			s.budget = int8(n)
		case "opening":
			s.opening, err = parseYN(v)
		case "opened":
			if len(v) != 2 || (v[0] != 'b' && v[0] != '-') || (v[1] != 'w' && v[1] != '-') {
				err = fmt.Errorf("opened=%q: want two characters, b or - then w or -", v)
			} else {
				s.openingDone = [2]bool{v[0] == 'b', v[1] == 'w'}
			}
		case "moved":
			s.moved, err = parseSquares(v)
			s.movedAny = s.moved != 0
		case "lone":
			s.lone, err = parseOptSquare(v)
		case "swap":
			set, left, _ := strings.Cut(v, "/")
			s.swapped, err = parseSquares(set)
			if err == nil && left != "" {
				var n int
				n, err = parseInt(left, 0, 8)
				s.swapLeft = int8(n)
			}
		case "passes":
			var n int
			n, err = parseInt(v, 0, 1)
			s.passes = int8(n)
		case "quiet":
			var n int
			n, err = parseInt(v, 0, 30000)
			s.noProgress = int16(n)
		case "placed":
			var n int
			n, err = parseInt(v, 0, 10)
			s.placed = int8(n)
		case "budgets", "roll", "scores":
			a, b, ok := strings.Cut(v, ",")
			var x, y int
			if !ok {
				err = fmt.Errorf("%s=%q: want two numbers with a comma", k, v)
				break
			}
			if x, err = parseInt(a, 0, 20); err == nil {
				y, err = parseInt(b, 0, 20)
			}
			switch k {
			case "budgets":
				s.budgets = [2]int8{int8(x), int8(y)}
			case "roll":
				s.roll, s.rollRow = int8(x), int8(y)
			default:
				s.scores = [2]int8{int8(x), int8(y)}
			}
		case "privilege":
			s.privilege, err = parseYN(v)
		case "bonus", "wanderers":
			var n int
			n, err = parseInt(v, 0, 20)
			if k == "bonus" {
				s.bonus = int8(n)
			} else {
				s.wanderers = int8(n)
			}
		case "prev":
			s.prevRdv, err = parseSquares(v)
		case "squares":
			s.rdv, err = parseSquares(v)
			if !g.Rules.QueenCheck {
				err = fmt.Errorf("squares= is for open_geometry=check")
			}
		case "lines":
			err = s.parseLines(v)
		case "result":
			winner = v
		case "reason":
			reason = strings.ReplaceAll(v, "_", " ")
		default:
			return bad("unknown field %q (known: board, to, phase, rdv, size, mark, line, setter, budget, opening, opened, moved, lone, swap, lost, passes, quiet, placer, placed, first, budgets, privilege, bonus, roll, scores, wanderers, prev, mstart, lines, result, reason)", k)
		}
		if err != nil {
			return bad("%v", err)
		}
	}
	if !seen["board"] {
		return bad("no board= field")
	}
	if !seen["size"] {
		s.shape.Size = max(3, min(9, s.all().count()-1))
		if g.Rules.old() {
			s.shape.Size = 9
		}
	}
	if !seen["line"] {
		s.shape.Line = -1
	}
	if err := s.check(); err != nil {
		return bad("%v", err)
	}
	if (winner != "") != (s.phase == PhaseOver) {
		return bad("result= goes with phase=over")
	}
	if winner != "" {
		s.over, s.phase, s.toAct = true, PhaseOver, -2
		switch winner {
		case "black":
			s.result.Winner = Black
		case "white":
			s.result.Winner = White
		case "draw":
			s.result.Winner = -1
		default:
			return bad("result=%q: want black, white or draw", winner)
		}
		s.result.Reason = reason
	}
	s.hashes = append(s.hashes, s.Hash())
	return s, nil
}

// check validates a parsed position and derives the rendezvous.
func (s *State) check() error {
	if s.moved&^(s.men[0]|s.men[1]) != 0 {
		return fmt.Errorf("moved= names squares without men")
	}
	if (s.shape.Size == 3) != (s.shape.Line >= 0) && s.mark != NoSquare {
		return fmt.Errorf("a line is given exactly for a 3-square rendezvous")
	}
	if s.mark != NoSquare {
		rdv, ok := Rendezvous(s.mark, s.shape)
		if !ok {
			return fmt.Errorf("a %d-square rendezvous does not fit on %s", s.shape.Size, s.mark)
		}
		if s.g.Rules.QueenCheck && s.shape.Size%2 == 0 {
			if s.rdv&^rdv != 0 {
				return fmt.Errorf("squares= lists squares outside the rendezvous of %s", s.mark)
			}
			rdv = s.rdv
		}
		s.rdv = rdv
	}
	needMark := s.phase == PhaseMove || s.phase == PhaseRemove || s.phase == PhaseInterchange || s.phase == PhaseSwap
	if needMark && s.mark == NoSquare {
		return fmt.Errorf("phase %s needs a mark", s.phase)
	}
	if (s.phase == PhaseMark || s.phase == PhaseInterchange || s.phase == PhaseSwap) && s.setter < 0 {
		return fmt.Errorf("phase %s needs a setter", s.phase)
	}
	if s.phase == PhaseSwap && (s.swapLeft < 1 || int(s.swapLeft)+s.swapped.count() != s.men[s.setter].count() || s.swapped&^s.men[1-s.setter] != 0) {
		return fmt.Errorf("swap= does not fit the setter's men")
	}
	if s.phase != PhaseOver && s.phase != PhaseMark && s.phase != PhaseMove && s.phase != PhaseRemove {
		if old := s.g.Rules.old(); old == (s.phase == PhaseInterchange || s.phase == PhaseSwap) {
			return fmt.Errorf("phase %s does not occur in %s", s.phase, s.g.Rules.Version)
		}
	}
	if s.moved&^s.all() != 0 || s.lines != [Squares]int8{} && !s.g.Rules.MultiMove {
		return fmt.Errorf("lines= is for rulesets where a man moves again along his line")
	}
	if s.phase == PhaseMark && s.g.Rules.old() && s.shape.Size != 9 {
		return fmt.Errorf("a rendezvous of %s has 9 squares", s.g.Rules.Version)
	}
	if s.g.Rules.old() && s.phase == PhasePlace {
		if s.placer < 0 || int(s.placed) != s.all().count() {
			return fmt.Errorf("phase place needs placer= and placed= equal to the men on the board")
		}
	}
	if s.g.Rules.old() && s.phase == PhaseRoll && s.toAct != -1 {
		return fmt.Errorf("phase roll has to=chance")
	}
	if afterWin := s.phase >= PhaseRelocate && s.phase <= PhaseMarshal || s.phase == PhaseRemove && s.g.Rules.old(); afterWin {
		switch {
		case s.lastLoser < 0:
			return fmt.Errorf("phase %s needs lost= (the loser of the rendezvous)", s.phase)
		case s.toAct < 0:
			return fmt.Errorf("phase %s needs a player to act", s.phase)
		case (s.phase == PhaseEqualise || s.phase == PhaseMarshal) && s.marshalStart < 0:
			return fmt.Errorf("phase %s needs mstart= (who began the re-marshalling)", s.phase)
		}
	}
	if s.toAct == -1 && s.phase != PhaseRoll {
		return fmt.Errorf("chance acts only in phase roll")
	}
	if s.toAct == -2 && s.phase != PhaseOver {
		return fmt.Errorf("to=- is for a finished game")
	}
	if s.phase == PhaseMove && s.budget == 0 && !s.over {
		s.budget = s.budgetFor(s.toAct)
	}
	return nil
}

func parseBoard(v string) ([2]Bitboard, error) {
	var men [2]Bitboard
	ranks := strings.Split(v, "/")
	if len(ranks) != 8 {
		return men, fmt.Errorf("board has %d ranks, want 8", len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '1' && c <= '8':
				file += int(c - '0')
				continue
			case c == 'b' || c == 'B':
				if file < 8 {
					men[Black] |= bitOf(sq(file, rank))
				}
			case c == 'w' || c == 'W' || c == 'y' || c == 'Y':
				if file < 8 {
					men[White] |= bitOf(sq(file, rank))
				}
			default:
				return men, fmt.Errorf("unknown character %q in rank %d (want b, w or a digit)", c, rank+1)
			}
			file++
		}
		if file != 8 {
			return men, fmt.Errorf("rank %d %q has %d squares, want 8", rank+1, row, file)
		}
	}
	return men, nil
}

// parseOptPlayer reads black, white or - (none).
func parseOptPlayer(key, v string) (int8, error) {
	switch v {
	case "black":
		return Black, nil
	case "white":
		return White, nil
	case "-":
		return -1, nil
	}
	return -1, fmt.Errorf("%s=%q: want black, white or -", key, v)
}

func parseInt(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q: want a number from %d to %d", v, lo, hi)
	}
	return n, nil
}

func parseYN(v string) (bool, error) {
	switch v {
	case "yes":
		return true, nil
	case "no":
		return false, nil
	}
	return false, fmt.Errorf("%q: want yes or no", v)
}

func parseOptSquare(v string) (Square, error) {
	if v == "-" {
		return NoSquare, nil
	}
	return ParseSquare(v)
}

func parseSquares(v string) (Bitboard, error) {
	var b Bitboard
	if v == "-" || v == "" {
		return 0, nil
	}
	for _, n := range strings.Split(v, ",") {
		q, err := ParseSquare(n)
		if err != nil {
			return 0, err
		}
		b |= bitOf(q)
	}
	return b, nil
}

func (g *Game) ParseState(text string) (game.State, error) {
	s, err := g.Parse(text)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (s *State) ActionString(a game.Action) string { return actionText(a) }

// ParseAction reads an action and checks that it is legal here.
func (s *State) ParseAction(text string) (game.Action, error) {
	a, err := parseActionText(text)
	if err != nil {
		return 0, err
	}
	if s.over {
		return 0, fmt.Errorf("lanrick: %w %s: the game is over", game.ErrIllegal, text)
	}
	if !s.IsLegal(a) {
		return 0, fmt.Errorf("lanrick: %w %s: %s", game.ErrIllegal, text, s.whyIllegal(a))
	}
	return a, nil
}
