package cli

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/metrics"
)

// aheadStart is a middle-game position of a sampled game: the start of a
// turn of man-moves where one side has at least the asked number of men
// more than the other.
type aheadStart struct {
	s    *lanrick.State
	side int // the side ahead
	men  [2]int
}

// menOf returns the men of each side.
func menOf(s *lanrick.State) [2]int {
	return [2]int{bits.OnesCount64(uint64(s.Men(0))), bits.OnesCount64(uint64(s.Men(1)))}
}

// sampleAhead plays game number i between two sampler agents until the
// start of a turn where one side is ahead men or more; ok is false where
// the game ends first.
func sampleAhead(ctx context.Context, g *lanrick.Game, sampler string, ahead int, seed uint64, i int) (aheadStart, bool, error) {
	var seats [2]agent.Agent
	for p := range seats {
		a, err := agent.New(sampler, g, seed+uint64(2*i+p))
		if err != nil {
			return aheadStart{}, false, err
		}
		seats[p] = a
	}
	s := g.NewState().(*lanrick.State)
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	const maxActions = 5000
	for !s.IsTerminal() && len(s.History()) < maxActions {
		if s.TurnStart() {
			m := menOf(s)
			for side := range 2 {
				if m[side]-m[1-side] >= ahead {
					return aheadStart{s: s, side: side, men: m}, true, nil
				}
			}
		}
		if err := step(ctx, s, seats, rng); err != nil {
			return aheadStart{}, false, err
		}
	}
	return aheadStart{}, false, nil
}

// step plays the next action of s: its seat's agent's, or a chance
// outcome drawn from rng.
func step(ctx context.Context, s game.State, seats [2]agent.Agent, rng *rand.Rand) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p := s.ToAct()
	if p == game.Chance {
		a, _ := game.RandomAction(s, rng, nil)
		s.Apply(a)
		return nil
	}
	r, err := seats[p].Act(ctx, s)
	if err != nil {
		return err
	}
	s.Apply(r.Action)
	return nil
}

// playAhead plays a sampled start to its end: the agent of spec for the
// side ahead, that of against for the other; it returns the winner (-1:
// a draw, or no end within the safety net).
func playAhead(ctx context.Context, g *lanrick.Game, spec, against string, seed uint64, st aheadStart) (int, error) {
	s := st.s.Copy()
	rng := rand.New(rand.NewPCG(seed, 0x61686561))
	var seats [2]agent.Agent
	for p, sp := range map[int]string{st.side: spec, 1 - st.side: against} {
		a, err := agent.New(sp, g, seed+uint64(p))
		if err != nil {
			return -1, err
		}
		seats[p] = a
	}
	const maxActions = 5000
	for !s.IsTerminal() && len(s.History()) < maxActions {
		if err := step(ctx, s, seats, rng); err != nil {
			return -1, err
		}
	}
	if !s.IsTerminal() {
		return -1, nil
	}
	return int(s.Result().Winner), nil
}

// solveConvertAhead measures how often the side men ahead in a middle
// game wins it: n positions sampled from games between two sampler agents
// (the first start of a turn in each where a side is ahead by that many),
// each played on by the agent of spec for the side ahead against that of
// against.
func solveConvertAhead(env *Env, ruleset, spec, against, sampler string, ahead, n, workers int, seed uint64) error {
	g, err := lanrick.Load(ruleset)
	if err != nil {
		return err
	}
	for _, sp := range []string{spec, against, sampler} {
		if err := agent.Check(sp, g); err != nil {
			return err
		}
	}
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	ctx := context.Background()
	// Sampling games run in batches, numbered from 0, until n of them
	// reached a lead: the first n by number, whatever the workers.
	var starts []aheadStart
	for next, tries := 0, 0; len(starts) < n; next += workers {
		if tries > 10*n+100 {
			return fmt.Errorf("only %d of %d sampled games reached a lead of %d men", len(starts), tries, ahead)
		}
		batch := make([]aheadStart, workers)
		found := make([]bool, workers)
		errs := make([]error, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				batch[w], found[w], errs[w] = sampleAhead(ctx, g, sampler, ahead, seed, next+w)
			}()
		}
		wg.Wait()
		for w := range workers {
			if errs[w] != nil {
				return errs[w]
			}
			tries++
			if found[w] && len(starts) < n {
				starts = append(starts, batch[w])
			}
		}
		fmt.Fprintf(env.Stderr, "convert: %d of %d positions sampled (%d games)\n", len(starts), n, tries)
	}
	winners := make([]int, len(starts))
	errs := make([]error, len(starts))
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				winners[i], errs[i] = playAhead(ctx, g, spec, against, seed+1e6+uint64(2*i), starts[i])
			}
		}()
	}
	for i := range starts {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	type tally struct{ games, won, lost int }
	var all tally
	byMen := map[[2]int]*tally{}
	for i, st := range starts {
		if errs[i] != nil {
			return errs[i]
		}
		key := [2]int{st.men[st.side], st.men[1-st.side]}
		t := byMen[key]
		if t == nil {
			t = &tally{}
			byMen[key] = t
		}
		for _, t := range []*tally{&all, t} {
			t.games++
			switch winners[i] {
			case st.side:
				t.won++
			case 1 - st.side:
				t.lost++
			}
		}
	}
	w := env.Stdout
	iv := metrics.Wilson(float64(all.won), float64(all.games))
	fmt.Fprintf(w, "%s, %s against %s: the side %d or more men ahead won %d of %d middle games (%.1f%%, 95%% interval %.1f–%.1f%%), lost %d, drew %d (positions from %s's games, seed %d)\n",
		g.Spec(), spec, against, ahead, all.won, all.games, 100*float64(all.won)/float64(all.games), 100*iv.Lo, 100*iv.Hi,
		all.lost, all.games-all.won-all.lost, sampler, seed)
	keys := make([][2]int, 0, len(byMen))
	for k := range byMen {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] > keys[j][0]
		}
		return keys[i][1] > keys[j][1]
	})
	for _, k := range keys {
		t := byMen[k]
		fmt.Fprintf(w, "  %d men against %d: %d games, won %d, lost %d, drew %d\n", k[0], k[1], t.games, t.won, t.lost, t.games-t.won-t.lost)
	}
	return nil
}
