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
		d := dirIndex(dir)
		if d < 0 {
			return fmt.Errorf("lines=%q: unknown direction %q", v, dir)
		}
		s.lines[q] = int8(d + 1)
	}
	return nil
}

// Parse reads a position in the one-line format.
func (g *Game) Parse(text string) (*State, error) {
	s := g.blank()
	bad := func(format string, a ...any) (*State, error) {
		return nil, fmt.Errorf("lanrick: %w: position: %s", game.ErrSyntax, fmt.Sprintf(format, a...))
	}
	seen := map[string]bool{}
	for _, f := range strings.Fields(text) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return bad("field %q is not key=value", f)
		}
		if seen[k] {
			return bad("field %s given twice", k)
		}
		seen[k] = true
		read := fieldReader(k)
		if read == nil {
			return bad("unknown field %q (known: %s)", k, fieldNames())
		}
		if err := read(s, v); err != nil {
			return bad("%v", err)
		}
	}
	if !seen["board"] {
		return bad("no board= field")
	}
	if !seen["size"] {
		s.shape.Size = s.defaultSize()
	}
	if err := s.ready(); err != nil {
		return bad("%v", err)
	}
	return s, nil
}

// A Setup is a position to build from Go without writing text: the men,
// who acts, what the rules want and the rendezvous. The 1879–1881 fields
// take the values Parse gives when they are left out.
type Setup struct {
	Black, White Bitboard
	ToAct        int   // Black or White
	Phase        Phase // as a rule PhaseMark or PhaseMove
	Rendezvous   int   // the number of the rendezvous, from 1 (0: 1)
	Setter       int   // who set the mark, or is to set it; -1 for nobody
	Mark         Square
	Size         int  // the squares of the rendezvous (0: as Parse defaults it)
	Line         int  // a direction (see Directions) for a 3-square rendezvous, else -1
	Budget       int  // squares left in the turn (0: the player's whole budget)
	Opening      bool // a 2-square opening turn
	Opened       [2]bool
}

// Directions names the eight directions in the order of Setup.Line.
func Directions() [8]string { return dirNames }

// Build makes the position u describes, checked as Parse checks a text.
func (g *Game) Build(u Setup) (*State, error) {
	s := g.blank()
	s.men = [2]Bitboard{u.Black, u.White}
	s.toAct, s.phase, s.setter, s.mark = int8(u.ToAct), u.Phase, int8(u.Setter), u.Mark
	s.rendezvous = int16(max(1, u.Rendezvous))
	s.shape = Shape{Size: u.Size, Line: u.Line}
	if u.Size == 0 {
		s.shape.Size = s.defaultSize()
	}
	s.budget, s.opening, s.openingDone = int8(u.Budget), u.Opening, u.Opened
	switch {
	case u.Black&u.White != 0:
		return nil, fmt.Errorf("lanrick: %w: position: a square holds men of both sides", game.ErrSyntax)
	case u.ToAct != Black && u.ToAct != White, u.Setter < -1 || u.Setter > White:
		return nil, fmt.Errorf("lanrick: %w: position: ToAct is Black or White, Setter -1, Black or White", game.ErrSyntax)
	case u.Phase < 0 || u.Phase > PhaseOver, u.Line < -1 || u.Line > 7, u.Mark < NoSquare || u.Mark >= Squares:
		return nil, fmt.Errorf("lanrick: %w: position: phase, line or mark out of range", game.ErrSyntax)
	case u.Line >= 0 && !isLineDir(dirNames[u.Line]):
		return nil, fmt.Errorf("lanrick: %w: position: the line of a rendezvous is n, e, ne or nw", game.ErrSyntax)
	}
	if err := s.ready(); err != nil {
		return nil, fmt.Errorf("lanrick: %w: position: %v", game.ErrSyntax, err)
	}
	return s, nil
}

// defaultSize is the rendezvous size a position leaves unsaid: 9 in
// 1879–1881, else one square fewer than the men (from 3 to 9).
func (s *State) defaultSize() int {
	if s.g.Rules.old() {
		return 9
	}
	return max(3, min(9, s.all().count()-1))
}

// blank is a position with nothing set: the start of a turn of black's in
// the first rendezvous, no mark, no men.
func (g *Game) blank() *State {
	return &State{g: g, mark: NoSquare, setter: -1, lastLoser: -1, lone: NoSquare, phase: PhaseMove, rendezvous: 1,
		shape: Shape{Line: -1}, early: early{placer: -1, first: -1, marshalStart: -1}}
}

// ready checks a position built by Parse or Build, derives what follows
// from its fields and starts its history.
func (s *State) ready() error {
	if err := s.check(); err != nil {
		return err
	}
	if s.over != (s.phase == PhaseOver) {
		return fmt.Errorf("result= goes with phase=over")
	}
	if s.over {
		s.toAct = -2
	}
	s.key = keyOf(Black, s.men[Black]) ^ keyOf(White, s.men[White])
	s.hashes, s.seen = s.hashes[:0], hashFilter{}
	s.remember(s.Hash())
	return nil
}

// A field reads the value of one key of the position format.
type field struct {
	key  string
	read func(s *State, v string) error
}

// fields are the keys of the position format in the order String writes them.
var fields = []field{
	{"board", func(s *State, v string) (err error) { s.men, err = parseBoard(v); return }},
	{"to", func(s *State, v string) error {
		to, ok := map[string]int8{"black": Black, "yellow": Black, "white": White, "chance": -1, "-": -2}[v]
		if !ok {
			return fmt.Errorf("to=%q: want black, white or chance", v)
		}
		s.toAct = to
		return nil
	}},
	{"phase", func(s *State, v string) error {
		for i, n := range phaseNames {
			if n == v {
				s.phase = Phase(i)
				return nil
			}
		}
		return fmt.Errorf("unknown phase %q (known: %s)", v, strings.Join(phaseNames, ", "))
	}},
	{"rdv", intField(0, 10000, func(s *State, n int) { s.rendezvous = int16(n) })},
	{"size", intField(3, 9, func(s *State, n int) { s.shape.Size = n })},
	{"mark", func(s *State, v string) (err error) { s.mark, err = parseOptSquare(v); return }},
	{"line", func(s *State, v string) error {
		if v == "-" {
			return nil
		}
		if !isLineDir(v) {
			return fmt.Errorf("line=%q: want n, e, ne, nw or -", v)
		}
		s.shape.Line = dirIndex(v)
		return nil
	}},
	{"setter", playerField(func(s *State) *int8 { return &s.setter })},
	{"budget", intField(0, 12, func(s *State, n int) { s.budget = int8(n) })},
	{"opening", ynField(func(s *State) *bool { return &s.opening })},
	{"opened", func(s *State, v string) error {
		if len(v) != 2 || (v[0] != 'b' && v[0] != '-') || (v[1] != 'w' && v[1] != '-') {
			return fmt.Errorf("opened=%q: want two characters, b or - then w or -", v)
		}
		s.openingDone = [2]bool{v[0] == 'b', v[1] == 'w'}
		return nil
	}},
	{"moved", func(s *State, v string) (err error) {
		s.moved, err = parseSquares(v)
		s.movedAny = s.moved != 0
		return
	}},
	{"lone", func(s *State, v string) (err error) { s.lone, err = parseOptSquare(v); return }},
	{"swap", func(s *State, v string) (err error) {
		set, left, _ := strings.Cut(v, "/")
		if s.swapped, err = parseSquares(set); err != nil || left == "" {
			return err
		}
		n, err := parseInt(left, 0, 8)
		s.swapLeft = int8(n)
		return err
	}},
	{"lost", playerField(func(s *State) *int8 { return &s.lastLoser })},
	{"passes", intField(0, 1, func(s *State, n int) { s.passes = int8(n) })},
	{"quiet", intField(0, 30000, func(s *State, n int) { s.noProgress = int16(n) })},
	{"squares", func(s *State, v string) (err error) {
		if !s.g.Rules.QueenCheck {
			return fmt.Errorf("squares= is for open_geometry=check")
		}
		s.rdv, err = parseSquares(v)
		return
	}},
	{"placer", playerField(func(s *State) *int8 { return &s.placer })},
	{"placed", intField(0, 10, func(s *State, n int) { s.placed = int8(n) })},
	{"first", playerField(func(s *State) *int8 { return &s.first })},
	{"budgets", pairField(func(s *State, x, y int) { s.budgets = [2]int8{int8(x), int8(y)} })},
	{"privilege", ynField(func(s *State) *bool { return &s.privilege })},
	{"bonus", intField(0, 20, func(s *State, n int) { s.bonus = int8(n) })},
	{"roll", pairField(func(s *State, x, y int) { s.roll, s.rollRow = int8(x), int8(y) })},
	{"scores", pairField(func(s *State, x, y int) { s.scores = [2]int8{int8(x), int8(y)} })},
	{"wanderers", intField(0, 20, func(s *State, n int) { s.wanderers = int8(n) })},
	{"prev", func(s *State, v string) (err error) { s.prevRdv, err = parseSquares(v); return }},
	{"mstart", playerField(func(s *State) *int8 { return &s.marshalStart })},
	{"lines", (*State).parseLines},
	{"result", func(s *State, v string) error {
		w, ok := map[string]int{"black": Black, "white": White, "draw": -1}[v]
		if !ok {
			return fmt.Errorf("result=%q: want black, white or draw", v)
		}
		s.over, s.result.Winner = true, game.Player(w)
		return nil
	}},
	{"reason", func(s *State, v string) error { s.result.Reason = strings.ReplaceAll(v, "_", " "); return nil }},
}

func fieldReader(key string) func(*State, string) error {
	for _, f := range fields {
		if f.key == key {
			return f.read
		}
	}
	return nil
}

func fieldNames() string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.key
	}
	return strings.Join(names, ", ")
}

// intField reads a number from lo to hi into the state.
func intField(lo, hi int, set func(*State, int)) func(*State, string) error {
	return func(s *State, v string) error {
		n, err := parseInt(v, lo, hi)
		set(s, n)
		return err
	}
}

// pairField reads two numbers from 0 to 20 with a comma.
func pairField(set func(*State, int, int)) func(*State, string) error {
	return func(s *State, v string) error {
		a, b, ok := strings.Cut(v, ",")
		if !ok {
			return fmt.Errorf("%q: want two numbers with a comma", v)
		}
		x, err := parseInt(a, 0, 20)
		if err != nil {
			return err
		}
		y, err := parseInt(b, 0, 20)
		set(s, x, y)
		return err
	}
}

// playerField reads black, white or - (none).
func playerField(at func(*State) *int8) func(*State, string) error {
	return func(s *State, v string) error {
		p, ok := map[string]int8{"black": Black, "white": White, "-": -1}[v]
		if !ok {
			return fmt.Errorf("%q: want black, white or -", v)
		}
		*at(s) = p
		return nil
	}
}

// ynField reads yes or no.
func ynField(at func(*State) *bool) func(*State, string) error {
	return func(s *State, v string) (err error) {
		*at(s), err = parseYN(v)
		return
	}
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
		if s.placed >= 10 {
			return fmt.Errorf("phase place ends when the ten men are set: placed=%d", s.placed)
		}
		if actor, _ := s.placeTurn(); s.toAct != actor {
			return fmt.Errorf("phase place: with placer=%s and placed=%d, %s sets the next man, not to=%s", optPlayerText(s.placer), s.placed, playerText(actor), playerText(s.toAct))
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
