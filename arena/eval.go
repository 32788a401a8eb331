package arena

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
)

// EvalConfig is a self-play evaluation: n games of two agents under each
// game string, sides alternated.
type EvalConfig struct {
	Specs   []string // game strings, e.g. tablut(linnaeus), tablut(walker)
	Agents  [2]string
	Games   int // per game string
	Seed    uint64
	Workers int
	// Shard i of n plays the jobs whose number is i modulo n.
	Shard, Shards int
	Opening       int
	// Moves are actions played at the start of every game (a position to
	// study), before the random opening.
	Moves []string
}

// Line is one finished game, as written to the results file (JSON lines).
type Line struct {
	Spec    string    `json:"spec"`
	Game    string    `json:"game"`
	Index   int       `json:"index"`
	Seed    uint64    `json:"seed"`
	Agents  [2]string `json:"agents"`
	Players [2]string `json:"players"` // the agent (A or B) playing each player
	Winner  string    `json:"winner"`  // player name, "draw", or scores
	// WinnerAgent is "A", "B" or "" for a draw.
	WinnerAgent string `json:"winner_agent"`
	Reason      string `json:"reason"`
	Length      int    `json:"length"` // actions
	// Decisions counts the actions chosen among more than one legal one;
	// Branching is the mean number of legal actions at the players' turns.
	Decisions int     `json:"decisions"`
	Branching float64 `json:"branching"`
	// Repeats counts positions that had occurred before in the game.
	Repeats  int     `json:"repeats"`
	Seconds  float64 `json:"seconds"`
	Record   string  `json:"record"`
	Finished bool    `json:"finished"` // ended by the rules, not by the action limit
}

// job is one game of an evaluation.
type job struct {
	spec  string
	index int
	seed  uint64
}

func (c *EvalConfig) jobs() []job {
	var out []job
	n := 0
	for _, spec := range c.Specs {
		for i := 0; i < c.Games; i++ {
			if c.Shards <= 1 || n%c.Shards == c.Shard {
				out = append(out, job{spec: spec, index: i, seed: jobSeed(c.Seed, spec, i)})
			}
			n++
		}
	}
	return out
}

// jobSeed derives a game's seed from the evaluation's seed, the game
// string and the index, so shards and resumed runs play the same games.
func jobSeed(seed uint64, spec string, i int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%d", seed, spec, i)
	return h.Sum64()
}

// key identifies a game of the evaluation in the results file.
func key(spec string, index int) string { return fmt.Sprintf("%s#%d", spec, index) }

// Done reads a results file and returns the games it holds, by key. A
// torn last line (an interrupted write) is cut off the file so that new
// lines append cleanly.
func Done(path string) (map[string]bool, error) {
	done := map[string]bool{}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return done, nil
	}
	if err != nil {
		return nil, err
	}
	if n := bytes.LastIndexByte(data, '\n'); n != len(data)-1 {
		if err := os.Truncate(path, int64(n+1)); err != nil {
			return nil, err
		}
		data = data[:n+1]
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<16), 1<<26)
	for sc.Scan() {
		var l Line
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Spec != "" {
			done[key(l.Spec, l.Index)] = true
		}
	}
	return done, sc.Err()
}

// Eval plays the games of cfg that are not in done and writes a line per
// game to w as each ends (lines are written whole, one at a time). progress
// is called after each game with the number finished and to play.
func Eval(ctx context.Context, cfg EvalConfig, done map[string]bool, w io.Writer, progress func(finished, total int)) error {
	for _, spec := range cfg.Specs {
		g, err := game.Load(spec)
		if err != nil {
			return err
		}
		for _, a := range cfg.Agents {
			if _, err := agent.New(a, g, 0); err != nil {
				return err
			}
		}
	}
	var todo []job
	for _, j := range cfg.jobs() {
		if !done[key(j.spec, j.index)] {
			todo = append(todo, j)
		}
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var firstErr error
	finished := 0
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				l, err := evalOne(ctx, cfg, j)
				mu.Lock()
				if err == nil {
					var b []byte
					b, err = json.Marshal(l)
					if err == nil {
						_, err = w.Write(append(b, '\n'))
					}
				}
				if err != nil && firstErr == nil && ctx.Err() == nil {
					firstErr = err
				}
				if err == nil {
					finished++
					if progress != nil {
						progress(finished, len(todo))
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range todo {
		if ctx.Err() != nil {
			break
		}
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

func evalOne(ctx context.Context, cfg EvalConfig, j job) (Line, error) {
	g, err := game.Load(j.spec)
	if err != nil {
		return Line{}, err
	}
	seats := [2]int{0, 1}
	if j.index%2 == 1 {
		seats = [2]int{1, 0}
	}
	var agents [2]agent.Agent
	for p := 0; p < 2; p++ {
		if agents[p], err = agent.New(cfg.Agents[seats[p]], g, j.seed+uint64(p)); err != nil {
			return Line{}, err
		}
	}
	rng := rand.New(rand.NewPCG(j.seed, 1))
	orng := rand.New(rand.NewPCG(jobSeed(cfg.Seed, j.spec, j.index/2), 2))
	s := g.NewState()
	if err := game.ApplyNotation(s, cfg.Moves); err != nil {
		return Line{}, err
	}
	start := time.Now()
	l := Line{Spec: g.Spec(), Game: g.Name(), Index: j.index, Seed: j.seed, Agents: cfg.Agents}
	seen := map[uint64]bool{}
	var legalSum, turns int
	var buf []game.Action
	for n := 0; !s.IsTerminal() && n < MaxActions; n++ {
		if err := ctx.Err(); err != nil {
			return Line{}, err
		}
		if seen[s.Hash()] {
			l.Repeats++
		}
		seen[s.Hash()] = true
		p := s.ToAct()
		var a game.Action
		switch {
		case p == game.Chance:
			a, buf = game.RandomAction(s, rng, buf)
		default:
			buf = s.LegalActions(buf[:0])
			legalSum += len(buf)
			turns++
			if len(buf) > 1 {
				l.Decisions++
			}
			if n < cfg.Opening {
				a = buf[orng.IntN(len(buf))]
				break
			}
			res, err := agents[p].Act(ctx, s)
			if err != nil {
				return Line{}, err
			}
			a = res.Action
		}
		s.Apply(a)
	}
	l.Length = len(s.History())
	l.Seconds = time.Since(start).Seconds()
	if turns > 0 {
		l.Branching = float64(legalSum) / float64(turns)
	}
	for p := 0; p < 2; p++ {
		l.Players[p] = "AB"[seats[p] : seats[p]+1]
	}
	l.Finished = s.IsTerminal()
	if l.Finished {
		r := s.Result()
		l.Winner, l.Reason = game.ResultName(s), r.Reason
		if r.Winner >= 0 {
			l.WinnerAgent = l.Players[r.Winner]
		}
	} else {
		l.Winner, l.Reason = "draw", fmt.Sprintf("stopped after %d actions", MaxActions)
	}
	if rc, ok := g.(game.Recorder); ok {
		var b strings.Builder
		tags := []game.KV{{Key: g.PlayerName(0), Value: cfg.Agents[seats[0]]}, {Key: g.PlayerName(1), Value: cfg.Agents[seats[1]]}, {Key: "seed", Value: fmt.Sprint(j.seed)}}
		if err := rc.WriteRecord(&b, game.NewRecord("", s, tags...)); err == nil {
			l.Record = b.String()
		}
	}
	return l, nil
}
