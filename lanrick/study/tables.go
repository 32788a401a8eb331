package study

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
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
}

// Ask answers s from the tables (see endgame.Applies).
func Ask(ts *endgame.Tables, s *lanrick.State) (Answer, error) {
	ans := Answer{Phase: s.Phase(), Line: s.RendezvousSquares()}
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
