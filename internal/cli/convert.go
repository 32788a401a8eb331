package cli

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/lanrick/ai"
	"github.com/muster-games/muster/lanrick/endgame"
	"github.com/muster-games/muster/lanrick/puzzle"
	"github.com/muster-games/muster/lanrick/study"
	"github.com/muster-games/muster/metrics"
)

// convertStart is a start of an ordinary turn (of the final rendezvous,
// or of the 4-square one with three men against two) that the player to
// move wins with best play.
type convertStart struct {
	setup lanrick.Setup
	side  int
	value endgame.Value
}

// convertResult is how an agent played one start.
type convertResult struct {
	won   bool
	turns int // the turns played, both sides', the first included
}

// drawWonStarts draws n random starts of the final rendezvous (any line
// whose table is on disk, two men a side anywhere, either side to move,
// no man yet in) that the tables call won for the player to move in at
// least minTurns of his turns.
func drawWonStarts(ts *endgame.Tables, n, minTurns int, seed uint64) ([]convertStart, error) {
	r := rand.New(rand.NewPCG(seed, 0x636f6e76))
	lines := puzzle.Lines(ts.Dir)
	if len(lines) == 0 {
		return nil, fmt.Errorf("no endgame table in %s", ts.Dir)
	}
	var out []convertStart
	for tries := 0; len(out) < n; tries++ {
		if tries > 1000*n+1000 {
			return nil, fmt.Errorf("only %d won starts of %d turns or more in %d tries", len(out), minTurns, tries)
		}
		l := lines[r.IntN(len(lines))]
		black, white := endgame.RandomPosition(r)
		side := r.IntN(2)
		if (black|white)&l.Squares != 0 {
			continue
		}
		v, err := ts.Value(black, white, l.Squares, side)
		if err != nil {
			return nil, err
		}
		if v.Outcome == 1 && (v.Turns+1)/2 >= minTurns {
			out = append(out, convertStart{setup: l.Setup(black, white, side, false), side: side, value: v})
		}
	}
	return out, nil
}

// drawWonFiveStarts draws n random starts of an ordinary turn in the
// 4-square rendezvous (of a class whose five-man table is on disk), three
// men against two of random colours, either to move, that the tables call
// won for the player to move in at least minTurns turns of both sides'.
func drawWonFiveStarts(ts *endgame.Tables, noOwnMan bool, n, minTurns int, seed uint64) ([]convertStart, error) {
	r := rand.New(rand.NewPCG(seed, 0x66697665))
	var classes []lanrick.Bitboard
	for _, c := range endgame.FiveClasses() {
		if _, _, err := ts.Five(c, noOwnMan); err == nil {
			classes = append(classes, c)
		}
	}
	if len(classes) == 0 {
		return nil, fmt.Errorf("no five-man table in %s", ts.Dir)
	}
	var out []convertStart
	for tries := 0; len(out) < n; tries++ {
		if tries > 1000*n+1000 {
			return nil, fmt.Errorf("only %d won starts of %d turns or more in %d tries", len(out), minTurns, tries)
		}
		c := classes[r.IntN(len(classes))]
		three, two := study.RandomFive(r, c, 0.5)
		black, white := three, two
		if r.IntN(2) == 1 {
			black, white = two, three
		}
		side := r.IntN(2)
		men := black
		if side == 1 {
			men = white
		}
		v, err := ts.FiveValue(three, two, c, men == three, noOwnMan)
		if err != nil {
			return nil, err
		}
		if v.Outcome == 1 && v.Turns >= minTurns {
			out = append(out, convertStart{setup: study.FiveSetup(black, white, c, side), side: side, value: v})
		}
	}
	return out, nil
}

// convertGame plays one start: the agent of spec for the side that wins,
// the tables for the other, until the game ends (or maxActions pass).
func convertGame(ctx context.Context, ts *endgame.Tables, g *lanrick.Game, spec string, seed uint64, st convertStart) (convertResult, error) {
	s, err := g.Build(st.setup)
	if err != nil {
		return convertResult{}, err
	}
	a, err := agent.New(spec, g, seed)
	if err != nil {
		return convertResult{}, err
	}
	var res convertResult
	const maxActions = 1000
	for !s.IsTerminal() && len(s.History()) < maxActions {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if s.TurnStart() {
			res.turns++
		}
		if int(s.ToAct()) == st.side {
			r, err := a.Act(ctx, s)
			if err != nil {
				return res, err
			}
			s.Apply(r.Action)
			continue
		}
		if !endgame.Applies(s) {
			// The defender got all in with two men a side and converts a
			// man: the game is his whatever he chooses.
			s.Apply(s.LegalActions(nil)[0])
			continue
		}
		act, _, err := ts.Act(s)
		if err != nil {
			return res, err
		}
		s.Apply(act)
	}
	res.won = s.IsTerminal() && int(s.Result().Winner) == st.side
	return res, nil
}

// solveConvert measures how often an agent converts won starts of the
// final rendezvous (men 4) or of three men against two (men 5) against the
// tables' perfect defence.
func solveConvert(env *Env, ts *endgame.Tables, ruleset, spec string, men, n, minTurns, workers int, seed uint64) error {
	g, err := lanrick.Load(ruleset)
	if err != nil {
		return err
	}
	if err := agent.Check(spec, g); err != nil {
		return err
	}
	ts.NoBuild = true
	ai.SetEndgameDir(ts.Dir) // endgame=yes reads the same tables
	starts, err := drawWonStarts(ts, n, minTurns, seed)
	what := "the final rendezvous"
	if men == 5 {
		starts, err = drawWonFiveStarts(ts, g.Rules.SetterNoOwnMan, n, minTurns, seed)
		what = "three men against two"
	}
	if err != nil {
		return fmt.Errorf("%w (build the tables with muster solve tables)", err)
	}
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	results := make([]convertResult, len(starts))
	errs := make([]error, len(starts))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = convertGame(context.Background(), ts, g, spec, seed+uint64(i), starts[i])
			}
		}()
	}
	for i := range starts {
		next <- i
	}
	close(next)
	wg.Wait()
	type tally struct{ games, won, inTime int }
	var all tally
	byTurns := map[int]*tally{}
	for i, r := range results {
		if errs[i] != nil {
			return errs[i]
		}
		want := starts[i].value.Turns
		t := byTurns[want]
		if t == nil {
			t = &tally{}
			byTurns[want] = t
		}
		for _, t := range []*tally{&all, t} {
			t.games++
			if r.won {
				t.won++
				if r.turns <= want {
					t.inTime++
				}
			}
		}
	}
	w := env.Stdout
	iv := metrics.Wilson(float64(all.won), float64(all.games))
	fmt.Fprintf(w, "%s, %s: converted %d of %d won starts of %s against the tables' defence (%.1f%%, 95%% interval %.1f–%.1f%%); %d in the tables' number of turns\n",
		g.Spec(), spec, all.won, all.games, what, 100*float64(all.won)/float64(all.games), 100*iv.Lo, 100*iv.Hi, all.inTime)
	keys := make([]int, 0, len(byTurns))
	for k := range byTurns {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		t := byTurns[k]
		fmt.Fprintf(w, "  won in %s (both sides') with best play: %d starts, converted %d, %d in time\n", plural(k, "turn", "turns"), t.games, t.won, t.inTime)
	}
	return nil
}
