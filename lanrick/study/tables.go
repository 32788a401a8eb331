package study

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/lanrick/endgame"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/solve"
)

// LineName names a line of the final rendezvous as the mark action does
// ("d5 ne"), or in hexadecimal if it is not one.
func LineName(line lanrick.Bitboard) string {
	if l := lineOf(line); l.Squares != 0 {
		return l.String()
	}
	return fmt.Sprintf("%016x", uint64(line))
}

// An Answer is what the endgame tables say of a position.
type Answer struct {
	Phase lanrick.Phase
	Line  lanrick.Bitboard // the rendezvous, once marked
	// LookAhead: within a turn, the tables answer by looking ahead to the
	// next start of a turn.
	LookAhead bool
	Value     endgame.Value       // for the player to act (not at the mark)
	Best      []game.Action       // the best action, or the best turn at its start
	Marks     []endgame.MarkValue // at the mark: every mark's value
	// Kept and Interchanged are the decider's values at the interchange.
	Kept, Interchanged endgame.Value
	// Five: three men against two, answered from the five-man tables
	// (Value and Best; Best is the whole turn at its start).
	Five bool
}

// Ask answers s from the tables (see endgame.Applies).
func Ask(ts *endgame.Tables, s *lanrick.State) (Answer, error) {
	ans := Answer{Phase: s.Phase(), Line: s.RendezvousSquares()}
	if endgame.AppliesFive(s) {
		return askFive(ts, s, ans)
	}
	black, white := s.Men(lanrick.Black), s.Men(lanrick.White)
	me := int(s.ToAct())
	var err error
	switch {
	case !atDecision(s): // within a turn, or choosing the men interchanged
		var a game.Action
		a, ans.Value, err = ts.Act(s)
		ans.LookAhead, ans.Best = true, []game.Action{a}
	case s.Phase() == lanrick.PhaseMark:
		ans.Marks, err = ts.Marks(black, white, me, s.Game().(*lanrick.Game).Rules.SetterNoOwnMan)
	case s.Phase() == lanrick.PhaseInterchange:
		if ans.Kept, err = ts.Opening(black, white, ans.Line, me); err != nil {
			return ans, err
		}
		if ans.Interchanged, err = ts.Opening(white, black, ans.Line, me); err != nil {
			return ans, err
		}
		var a game.Action
		a, ans.Value, err = ts.Act(s)
		ans.Best = []game.Action{a}
	default: // the start of a turn
		var after lanrick.Bitboard
		ans.Value, after, err = ts.Best(black, white, ans.Line, me, s.Opening())
		ans.Best = TurnTo(s, after)
	}
	return ans, err
}

// atDecision reports whether the tables answer s directly: the final
// rendezvous about to be marked, decided or begun at the start of a turn.
func atDecision(s *lanrick.State) bool {
	switch s.Phase() {
	case lanrick.PhaseMark, lanrick.PhaseInterchange:
		return true
	case lanrick.PhaseMove:
		full := 3
		if s.Opening() {
			full = 2
		}
		return s.TurnStart() && s.Budget() == full
	}
	return false
}

// TurnTo finds actions of the player to move that end his turn with his
// men on after (or win on the way there); nil if none does.
func TurnTo(s *lanrick.State, after lanrick.Bitboard) []game.Action {
	me := s.ToAct()
	var walk func(c *lanrick.State, acts []game.Action) []game.Action
	walk = func(c *lanrick.State, acts []game.Action) []game.Action {
		for _, a := range c.LegalActions(nil) {
			n := c.Copy()
			n.Apply(a)
			next := append(acts[:len(acts):len(acts)], a)
			ended := n.IsTerminal() || n.Phase() == lanrick.PhaseRemove || n.ToAct() != me
			if ended {
				if n.Men(int(me)) == after {
					return next
				}
				continue
			}
			if found := walk(n, next); found != nil {
				return found
			}
		}
		return nil
	}
	return walk(s.Copy(), nil)
}

// A Built table, with the size of its file and the time it took.
type Built struct {
	Table *endgame.Table
	Bytes int64
	Took  time.Duration
}

// BuildTables loads or builds every table on all cores, calling done as
// each is ready, then reads each file back and compares it with the table.
func BuildTables(ts *endgame.Tables, done func(Built)) ([]*endgame.Table, error) {
	classes := endgame.Classes()
	tables := make([]*endgame.Table, len(classes))
	errs := make([]error, len(classes))
	var mu sync.Mutex
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range min(runtime.NumCPU(), len(classes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				start := time.Now()
				t, _, err := ts.Table(classes[i])
				tables[i], errs[i] = t, err
				if err != nil {
					continue
				}
				b := Built{Table: t, Took: time.Since(start)}
				if fi, err := os.Stat(filepath.Join(ts.Dir, endgame.FileName(t.Line))); err == nil {
					b.Bytes = fi.Size()
				}
				mu.Lock()
				done(b)
				mu.Unlock()
			}
		}()
	}
	for i := range classes {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("line %s: %w", LineName(classes[i]), err)
		}
	}
	for _, t := range tables {
		if err := readBack(ts.Dir, t); err != nil {
			return nil, err
		}
	}
	return tables, nil
}

// readBack reads a table's file and compares it with the table.
func readBack(dir string, t *endgame.Table) error {
	f, err := os.Open(filepath.Join(dir, endgame.FileName(t.Line)))
	if err != nil {
		return err
	}
	defer f.Close()
	back, err := endgame.Read(f)
	if err != nil {
		return fmt.Errorf("reading back line %s: %w", LineName(t.Line), err)
	}
	if !back.Equal(t) {
		return fmt.Errorf("line %s: the file differs from the table built", LineName(t.Line))
	}
	return nil
}

// CheckTables proves n positions of each table by search over the rules
// package's actions: won or lost within 3 turns (a turn being at most
// three actions), as the table says. It returns how many it proved.
func CheckTables(tables []*endgame.Table, n int, seed uint64) (int, error) {
	g := lanrick.MustLoad("1893")
	r := rand.New(rand.NewPCG(seed, 8))
	checked := 0
	for _, t := range tables {
		line := lineOf(t.Line)
		for k, tries := 0, 0; k < n && tries < 1_000_000; tries++ {
			black, white := endgame.RandomPosition(r)
			side := r.IntN(2)
			v, err := t.Value(black, white, side)
			if err != nil {
				return checked, err
			}
			if v.Turns > 2+k%2 {
				continue
			}
			k++
			s, err := g.Build(line.Setup(black, white, side, false))
			if err != nil {
				return checked, err
			}
			res, err := solve.Solve(context.Background(), s, search.Limits{Depth: 3*v.Turns + 1})
			if err != nil {
				return checked, err
			}
			if !res.Proved() || int(res.Lo) != v.Outcome {
				return checked, fmt.Errorf("line %s: %s: table says %v, search %v", line, s, v, res)
			}
			checked++
		}
	}
	return checked, nil
}

// lineOf is the line of the final rendezvous with these squares, or the
// zero Line.
func lineOf(squares lanrick.Bitboard) endgame.Line {
	for _, l := range endgame.Lines() {
		if l.Squares == squares {
			return l
		}
	}
	return endgame.Line{}
}

// RendezvousName names a 4-square rendezvous by its mark ("mark c3: a1 a5
// e1 h8"), or in hexadecimal if it is not one.
func RendezvousName(rdv lanrick.Bitboard) string {
	m := FiveMark(rdv)
	if m == lanrick.NoSquare {
		return fmt.Sprintf("%016x", uint64(rdv))
	}
	var sq []string
	for w := rdv; w != 0; w &= w - 1 {
		sq = append(sq, lanrick.Square(bits.TrailingZeros64(uint64(w))).String())
	}
	return "mark " + m.String() + ": " + strings.Join(sq, " ")
}

// FiveMark is a mark whose 4-square rendezvous is rdv, or NoSquare.
func FiveMark(rdv lanrick.Bitboard) lanrick.Square {
	for m := lanrick.Square(0); m < 64; m++ {
		if r, ok := lanrick.Rendezvous(m, lanrick.Shape{Size: 4, Line: -1}); ok && r == rdv {
			return m
		}
	}
	return lanrick.NoSquare
}

// FiveSetup is the start of an ordinary turn in the 4-square rendezvous
// rdv of 1893 (the sixth rendezvous, five men on the board), side to move.
func FiveSetup(black, white, rdv lanrick.Bitboard, side int) lanrick.Setup {
	return lanrick.Setup{Black: black, White: white, ToAct: side, Phase: lanrick.PhaseMove, Rendezvous: 6,
		Setter: 1 - side, Mark: FiveMark(rdv), Size: 4, Line: -1, Budget: 3, Opened: [2]bool{true, true}}
}

// RandomFive places three men against two at random, none of either side
// all in rdv; near is the chance that every man stands on the border,
// where the race is closest.
func RandomFive(r *rand.Rand, rdv lanrick.Bitboard, near float64) (three, two lanrick.Bitboard) {
	for {
		var pool []int
		for s := 0; s < 64; s++ {
			if r.Float64() < near && lanrick.Border&(1<<s) == 0 {
				continue
			}
			pool = append(pool, s)
		}
		if len(pool) < 5 {
			continue
		}
		p := r.Perm(len(pool))
		three = 1<<pool[p[0]] | 1<<pool[p[1]] | 1<<pool[p[2]]
		two = 1<<pool[p[3]] | 1<<pool[p[4]]
		if three&^rdv != 0 && two&^rdv != 0 {
			return three, two
		}
	}
}

// CheckFive checks the five-man table of rdv (a canonical 4-square
// rendezvous) on n random positions at the start of a turn, three men of
// either colour against two, either to move: the table's value equals the
// best end of the turn as the rules package plays it (Tables.Act, which
// reads the tables at the next start of a turn, through Rule 7's
// conversions and Rule 8's end into the final rendezvous); and every
// tenth position whose end is at most two turns away is proved by
// exhaustive search over the rules package's actions, with no table. It
// returns how many it checked each way.
func CheckFive(ts *endgame.Tables, rdv lanrick.Bitboard, ruleset string, n int, seed uint64) (consistent, proved int, err error) {
	g, err := lanrick.Load(ruleset)
	if err != nil {
		return 0, 0, err
	}
	r := rand.New(rand.NewPCG(seed, 5))
	for tries := 0; consistent < n && tries < 100*n; tries++ {
		three, two := RandomFive(r, rdv, 0.7)
		black, white := three, two
		if r.IntN(2) == 1 {
			black, white = two, three
		}
		side := r.IntN(2)
		s, err := g.Build(FiveSetup(black, white, rdv, side))
		if err != nil {
			return consistent, proved, err
		}
		threeToMove := s.Men(side) == three
		v, err := ts.FiveValue(three, two, rdv, threeToMove, g.Rules.SetterNoOwnMan)
		if err != nil {
			return consistent, proved, err
		}
		_, w, err := ts.Act(s)
		if err != nil {
			return consistent, proved, err
		}
		if v != w {
			return consistent, proved, fmt.Errorf("rendezvous %s: %s: the table says %v, a turn's look-ahead %v", RendezvousName(rdv), s, v, w)
		}
		consistent++
		if v.Outcome == 0 || v.Turns > 2 || consistent%10 != 0 && v.Turns > 1 {
			continue
		}
		res, err := solve.Solve(context.Background(), s, search.Limits{Depth: 4*v.Turns + 1})
		if err != nil {
			return consistent, proved, err
		}
		if !res.Proved() || int(res.Lo) != v.Outcome {
			return consistent, proved, fmt.Errorf("rendezvous %s: %s: the table says %v, search %v", RendezvousName(rdv), s, v, solve.Verdict(res))
		}
		proved++
	}
	return consistent, proved, nil
}

// askFive answers three men against two: the best action and its value
// (at the start of an ordinary turn, the whole best turn).
func askFive(ts *endgame.Tables, s *lanrick.State, ans Answer) (Answer, error) {
	ans.Five = true
	a, v, err := ts.Act(s)
	if err != nil {
		return ans, err
	}
	ans.Value, ans.Best = v, []game.Action{a}
	ans.LookAhead = !(s.TurnStart() && !s.Opening())
	if ans.LookAhead {
		return ans, nil
	}
	me := s.ToAct()
	c := s.Copy()
	c.Apply(a)
	for !c.IsTerminal() && c.ToAct() == me && c.Phase() == lanrick.PhaseMove {
		a, _, err := ts.Act(c)
		if err != nil {
			return ans, err
		}
		ans.Best = append(ans.Best, a)
		c.Apply(a)
	}
	return ans, nil
}
