// Package puzzle draws Lanrick puzzles from the endgame tables: positions
// of the final rendezvous (the three squares, two men a side), and of the
// one before it where its tables are on disk (three men against two), in
// which the player to move wins, with best play, in one to four turns of
// his own.
// The tables check a solver's turns: every turn that keeps a win within
// the turns left counts, not one stored line.
package puzzle

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/lanrick/endgame"
)

// Ruleset is the ruleset of the puzzles (the tables' own: 1893).
const Ruleset = "1893"

// Puzzle is one position to solve.
type Puzzle struct {
	// ID names the puzzle: its position, in the game's position text.
	ID       string `json:"id"`
	Position string `json:"position"`
	Spec     string `json:"spec"`
	// Side is the player to move, who is to win ("black" or "white").
	Side string `json:"side"`
	// Turns are the solver's turns to the win with best play (1 to 4).
	Turns int `json:"turns"`
	// Rating is the difficulty: more turns to find, and fewer first
	// moves that keep the win, are harder.
	Rating int `json:"rating"`
	// Context says the position in a line.
	Context string `json:"context"`
}

// Lines are the 3-square rendezvous whose table is on disk in dir.
func Lines(dir string) []endgame.Line {
	var out []endgame.Line
	for _, l := range endgame.Lines() {
		if _, err := os.Stat(filepath.Join(dir, endgame.FileName(endgame.ClassOf(l.Squares)))); err == nil {
			out = append(out, l)
		}
	}
	return out
}

// Generate draws n puzzles from random positions of the given lines,
// reading the tables ts (which should not build: NoBuild); seed makes the
// draw repeatable. It tries at most a hundred positions a puzzle.
func Generate(ts *endgame.Tables, lines []endgame.Line, n int, seed uint64) ([]Puzzle, error) {
	if len(lines) == 0 {
		return nil, fmt.Errorf("puzzle: no endgame table on disk (muster solve tables builds them)")
	}
	g := lanrick.MustLoad(Ruleset)
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	seen := map[string]bool{}
	var out []Puzzle
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		l := lines[rng.IntN(len(lines))]
		// Four men on four squares, two a side; the side to move wins.
		var sqs []lanrick.Square
		for len(sqs) < 4 {
			s := lanrick.Square(rng.IntN(64))
			dup := false
			for _, t := range sqs {
				dup = dup || t == s
			}
			if !dup {
				sqs = append(sqs, s)
			}
		}
		side := rng.IntN(2)
		pos := Position(sqs[:2], sqs[2:], l, side, rng.IntN(2))
		if seen[pos] {
			continue
		}
		seen[pos] = true
		s, turns, rating, ok := judge(ts, g, pos, 800)
		if !ok || !endgame.AppliesFour(s) {
			continue
		}
		name := [2]string{"Black", "White"}[side]
		out = append(out, Puzzle{ID: pos, Position: pos, Spec: "lanrick(" + Ruleset + ")", Side: strings.ToLower(name), Turns: turns, Rating: rating,
			Context: fmt.Sprintf("The last rendezvous, %s: %s to play and win in %d turn%s.", lineWords(l), name, turns, map[bool]string{true: "", false: "s"}[turns == 1])})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rating < out[j].Rating })
	return out, nil
}

// judge reads a position and, where the tables say its player to move
// wins in one to four turns of his own (seven of both sides'), returns it
// with those turns and its rating: base, more for more turns and for
// fewer first actions that keep the win.
func judge(ts *endgame.Tables, g *lanrick.Game, pos string, base int) (s *lanrick.State, turns, rating int, ok bool) {
	s, err := g.Parse(pos)
	if err != nil || s.IsTerminal() || !endgame.Applies(s) {
		return nil, 0, 0, false
	}
	_, v, err := ts.Act(s)
	if err != nil || v.Outcome != 1 || v.Turns > 7 {
		return nil, 0, 0, false
	}
	turns = (v.Turns + 1) / 2
	keep, all := keeping(ts, s, v)
	rating = base + 250*(turns-1) + int(300*(1-float64(keep)/float64(max(1, all))))
	return s, turns, rating, true
}

// keeping counts the first actions that keep the win within the same
// number of turns, and all the first actions.
func keeping(ts *endgame.Tables, s *lanrick.State, v endgame.Value) (keep, all int) {
	for _, a := range s.LegalActions(nil) {
		c := s.Copy()
		c.Apply(a)
		all++
		if w, ok := Verdict(ts, c, int(s.ToAct())); ok && w.Outcome == 1 && w.Turns <= v.Turns {
			keep++
		}
	}
	return keep, all
}

// Verdict is the tables' value of s for player p: the outcome with best
// play and the turns to it, both players' (the turn under way counting as
// one); ok is false where the tables do not decide s.
func Verdict(ts *endgame.Tables, s *lanrick.State, p int) (endgame.Value, bool) {
	if s.IsTerminal() {
		r := s.Returns()
		switch {
		case r[p] > 0:
			return endgame.Value{Outcome: 1}, true
		case r[p] < 0:
			return endgame.Value{Outcome: -1}, true
		}
		return endgame.Value{}, true
	}
	if !endgame.Applies(s) {
		return endgame.Value{}, false
	}
	_, v, err := ts.Act(s)
	if err != nil {
		return endgame.Value{}, false
	}
	if int(s.ToAct()) != p {
		v.Outcome = -v.Outcome
	}
	return v, true
}

// Position writes a position of the final rendezvous on line l, black's
// and white's men on the squares given, side to move at the start of his
// turn (three squares: fewer than four men), setter the player who set
// the mark.
func Position(black, white []lanrick.Square, l endgame.Line, side, setter int) string {
	var board [8][8]byte
	for _, s := range black {
		board[s.Rank()][s.File()] = 'b'
	}
	for _, s := range white {
		board[s.Rank()][s.File()] = 'w'
	}
	var rows []string
	for r := 7; r >= 0; r-- {
		var b strings.Builder
		empty := 0
		for f := 0; f < 8; f++ {
			if board[r][f] == 0 {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprintf(&b, "%d", empty)
				empty = 0
			}
			b.WriteByte(board[r][f])
		}
		if empty > 0 {
			fmt.Fprintf(&b, "%d", empty)
		}
		rows = append(rows, b.String())
	}
	name := [2]string{"black", "white"}
	mark, dir, _ := strings.Cut(l.String(), " ")
	return fmt.Sprintf("board=%s to=%s phase=move rdv=5 size=3 mark=%s line=%s setter=%s budget=3 opening=no opened=bw",
		strings.Join(rows, "/"), name[side], mark, dir, name[setter])
}

// lineWords says a 3-square rendezvous: its squares.
func lineWords(l endgame.Line) string { return squareWords(l.Squares) }

// FiveClasses are the classes of the 4-square rendezvous whose five-man
// table (1893's) is on disk in ts.
func FiveClasses(ts *endgame.Tables) []lanrick.Bitboard {
	var out []lanrick.Bitboard
	for _, c := range endgame.FiveClasses() {
		if _, _, err := ts.Five(c, false); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// GenerateFive draws n puzzles of three men against two from the
// five-man tables of the given classes (each rendezvous of a class drawn
// through the board's symmetries): positions at the start of a turn that
// the player to move wins in one to four turns of his own, within the
// rendezvous (the three all in, or Rule 7 turning the race round on the
// way), not through the final rendezvous. It tries at most a hundred
// positions a puzzle.
func GenerateFive(ts *endgame.Tables, classes []lanrick.Bitboard, n int, seed uint64) ([]Puzzle, error) {
	if len(classes) == 0 {
		return nil, fmt.Errorf("puzzle: no five-man table on disk (muster solve tables --five builds them)")
	}
	var marks []lanrick.Square
	for m := lanrick.Square(0); m < 64; m++ {
		if rdv, ok := lanrick.Rendezvous(m, lanrick.Shape{Size: 4, Line: -1}); ok {
			for _, c := range classes {
				if endgame.ClassOf(rdv) == c {
					marks = append(marks, m)
				}
			}
		}
	}
	g := lanrick.MustLoad(Ruleset)
	rng := rand.New(rand.NewPCG(seed, seed^0xf17e))
	seen := map[string]bool{}
	var out []Puzzle
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		mark := marks[rng.IntN(len(marks))]
		rdv, _ := lanrick.Rendezvous(mark, lanrick.Shape{Size: 4, Line: -1})
		p := rng.Perm(64)[:5]
		three := lanrick.Bitboard(1)<<p[0] | 1<<p[1] | 1<<p[2]
		two := lanrick.Bitboard(1)<<p[3] | 1<<p[4]
		if three&^rdv == 0 || two&^rdv == 0 {
			continue
		}
		black, white := three, two
		if rng.IntN(2) == 1 {
			black, white = two, three
		}
		side := rng.IntN(2)
		pos := fivePosition(black, white, mark, side)
		if seen[pos] {
			continue
		}
		seen[pos] = true
		// Seven turns at most (judge): the final rendezvous, which a Rule 8
		// end leads to, takes more, so every win here stays in this one.
		s, turns, rating, ok := judge(ts, g, pos, 900)
		if !ok || !endgame.AppliesFive(s) {
			continue
		}
		name := [2]string{"Black", "White"}[side]
		count := "three men against two"
		if s.Men(side) == two {
			count = "two men against three"
		}
		out = append(out, Puzzle{ID: pos, Position: pos, Spec: "lanrick(" + Ruleset + ")", Side: strings.ToLower(name), Turns: turns, Rating: rating,
			Context: fmt.Sprintf("The 4-square rendezvous, %s (border men slide along the edge, Rule 6): %s to play with %s and win in %d turn%s.",
				squareWords(rdv), name, count, turns, map[bool]string{true: "", false: "s"}[turns == 1])})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rating < out[j].Rating })
	return out, nil
}

// fivePosition writes a position of the 4-square rendezvous of mark,
// side to move at the start of an ordinary turn.
func fivePosition(black, white lanrick.Bitboard, mark lanrick.Square, side int) string {
	var b, w []lanrick.Square
	for x := black; x != 0; x &= x - 1 {
		b = append(b, lanrick.Square(bits.TrailingZeros64(uint64(x))))
	}
	for x := white; x != 0; x &= x - 1 {
		w = append(w, lanrick.Square(bits.TrailingZeros64(uint64(x))))
	}
	board, _, _ := strings.Cut(Position(b, w, endgame.Line{}, side, 1-side), " ")
	name := [2]string{"black", "white"}
	return fmt.Sprintf("%s to=%s phase=move rdv=6 size=4 mark=%s line=- setter=%s budget=3 opening=no opened=bw",
		board, name[side], mark, name[1-side])
}

func squareWords(b lanrick.Bitboard) string {
	var sq []string
	for x := uint64(b); x != 0; x &= x - 1 {
		sq = append(sq, lanrick.Square(bits.TrailingZeros64(x)).String())
	}
	return strings.Join(sq, ", ")
}
