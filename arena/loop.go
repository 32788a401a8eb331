package arena

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
)

// MaxActions ends a game that has not ended as a draw (a safety net; every
// ruleset ends by its own rules much sooner).
const MaxActions = 20000

// tally is what the game loop counts along the way, for the metrics.
type tally struct {
	repeats   int // positions seen before in the game
	decisions int // players' actions chosen among more than one
	legal     int // legal actions summed over the players' turns
	turns     int // the players' turns
	took      time.Duration
}

// loop is the one game loop of the package: it plays s on to its end or
// MaxActions. The first random actions (the opening) are drawn uniformly
// from opening, the rest chosen by agents[p] for player p; chance actions
// are drawn with dice.
func loop(ctx context.Context, s game.State, agents [2]agent.Agent, dice, opening *rand.Rand, random int) (tally, error) {
	var t tally
	start := time.Now()
	seen := map[uint64]bool{}
	var buf []game.Action
	for n := 0; !s.IsTerminal() && n < MaxActions; n++ {
		if err := ctx.Err(); err != nil {
			return t, err
		}
		if h := s.Hash(); seen[h] {
			t.repeats++
		} else {
			seen[h] = true
		}
		p := s.ToAct()
		if p == game.Chance {
			var a game.Action
			a, buf = game.RandomAction(s, dice, buf)
			s.Apply(a)
			continue
		}
		buf = s.LegalActions(buf[:0])
		t.legal += len(buf)
		t.turns++
		if len(buf) > 1 {
			t.decisions++
		}
		if n < random {
			s.Apply(buf[opening.IntN(len(buf))])
			continue
		}
		res, err := agents[p].Act(ctx, s)
		if err != nil {
			return t, fmt.Errorf("%s: %w", agents[p].Spec(), err)
		}
		if err := s.Play(res.Action); err != nil {
			return t, fmt.Errorf("%s played an illegal action: %w", agents[p].Spec(), err)
		}
	}
	t.took = time.Since(start)
	return t, nil
}

// Play plays a game on from s to its end; agents[p] plays player p.
// Chance actions are drawn with rng.
func Play(ctx context.Context, s game.State, agents [2]agent.Agent, rng *rand.Rand) (game.State, error) {
	_, err := loop(ctx, s, agents, rng, nil, 0)
	return s, err
}

// A pairing is game number index between agents A and B (specs): A takes
// player 0 in even games and player 1 in odd ones. Every random choice of
// the game (the agents' seeds, the dice, the opening) is derived from the
// match seed, the game string and the index, so a game is the same
// whatever the workers, the shard or the other games; the two games of a
// pair (2k, 2k+1) share their opening with the sides swapped.
type pairing struct {
	g      game.Game
	specs  [2]string
	index  int
	seed   uint64 // of the match
	random int    // opening actions drawn uniformly
	moves  []string
}

// played is a finished pairing.
type played struct {
	state game.State
	seats [2]int // seats[p]: the agent (0 = A, 1 = B) that played p
	seed  uint64 // the game's own seed
	tally tally
}

func (pr pairing) play(ctx context.Context) (played, error) {
	spec := pr.g.Spec()
	out := played{seats: [2]int{0, 1}, seed: gameSeed(pr.seed, spec, pr.index)}
	if pr.index%2 == 1 {
		out.seats = [2]int{1, 0}
	}
	var agents [2]agent.Agent
	for p := range agents {
		a, err := agent.New(pr.specs[out.seats[p]], pr.g, out.seed+uint64(p))
		if err != nil {
			return out, err
		}
		agents[p] = a
	}
	out.state = pr.g.NewState()
	if err := game.ApplyNotation(out.state, pr.moves); err != nil {
		return out, err
	}
	dice := rand.New(rand.NewPCG(out.seed, 1))
	opening := rand.New(rand.NewPCG(gameSeed(pr.seed, spec, pr.index/2), 2))
	var err error
	out.tally, err = loop(ctx, out.state, agents, dice, opening, pr.random)
	return out, err
}

// record is the finished game's record, its players named by their agents.
func (pl played) record(specs [2]string) *game.Record {
	g := pl.state.Game()
	return game.NewRecord("", pl.state,
		game.KV{Key: g.PlayerName(0), Value: specs[pl.seats[0]]},
		game.KV{Key: g.PlayerName(1), Value: specs[pl.seats[1]]},
		game.KV{Key: "seed", Value: fmt.Sprint(pl.seed)},
	)
}

// inParallel calls one(i) for i in [0, n) on workers goroutines (0: one
// per core), stopping early when ctx is done, and returns the first error.
func inParallel(ctx context.Context, workers, n int, one func(i int) error) error {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	jobs := make(chan int)
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if err := one(i); err != nil {
					mu.Lock()
					if first == nil && ctx.Err() == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}
