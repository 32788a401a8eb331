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
	"os"
	"strings"
	"sync"

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
				out = append(out, job{spec: spec, index: i, seed: gameSeed(c.Seed, spec, i)})
			}
			n++
		}
	}
	return out
}

// gameSeed derives a game's seed from the match's seed, the game
// string and the index, so shards and resumed runs play the same games.
func gameSeed(seed uint64, spec string, i int) uint64 {
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
	var mu sync.Mutex
	finished := 0
	return inParallel(ctx, cfg.Workers, len(todo), func(i int) error {
		l, err := evalOne(ctx, cfg, todo[i])
		if err != nil {
			return err
		}
		b, err := json.Marshal(l)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
		finished++
		if progress != nil {
			progress(finished, len(todo))
		}
		return nil
	})
}

func evalOne(ctx context.Context, cfg EvalConfig, j job) (Line, error) {
	g, err := game.Load(j.spec)
	if err != nil {
		return Line{}, err
	}
	pl, err := pairing{g: g, specs: cfg.Agents, index: j.index, seed: cfg.Seed, random: cfg.Opening, moves: cfg.Moves}.play(ctx)
	if err != nil {
		return Line{}, err
	}
	s, tl := pl.state, pl.tally
	l := Line{Spec: g.Spec(), Game: g.Name(), Index: j.index, Seed: pl.seed, Agents: cfg.Agents,
		Length: len(s.History()), Seconds: tl.took.Seconds(), Decisions: tl.decisions, Repeats: tl.repeats}
	if tl.turns > 0 {
		l.Branching = float64(tl.legal) / float64(tl.turns)
	}
	for p := range l.Players {
		l.Players[p] = "AB"[pl.seats[p] : pl.seats[p]+1]
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
		if err := rc.WriteRecord(&b, pl.record(cfg.Agents)); err == nil {
			l.Record = b.String()
		}
	}
	return l, nil
}
