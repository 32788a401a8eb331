package arena

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

func evalLines(t *testing.T, data []byte) []Line {
	t.Helper()
	var out []Line
	for _, s := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if s == "" {
			continue
		}
		var l Line
		if err := json.Unmarshal([]byte(s), &l); err != nil {
			t.Fatalf("%v: %q", err, s)
		}
		l.Seconds = 0
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return key(out[i].Spec, out[i].Index) < key(out[j].Spec, out[j].Index) })
	return out
}

// sameGames fails unless two runs' results hold the same n games, line
// for line (but for the time taken), and returns them.
func sameGames(t *testing.T, want, got []byte, n int) []Line {
	t.Helper()
	a, b := evalLines(t, want), evalLines(t, got)
	if len(a) != n || len(b) != n {
		t.Fatalf("%d and %d games, want %d", len(a), len(b), n)
	}
	for i := range a {
		ja, _ := json.Marshal(a[i])
		jb, _ := json.Marshal(b[i])
		if !bytes.Equal(ja, jb) {
			t.Fatalf("game %d differs:\n%s\n%s", i, ja, jb)
		}
	}
	return a
}

var testEval = EvalConfig{Specs: []string{"tablut(linnaeus)", "tablut(walker)"}, Agents: [2]string{"random", "alphabeta(depth=1)"}, Games: 6, Seed: 9, Workers: 2, Opening: 2}

// TestShardsUnion: the shards' lines together are the unsharded run's.
func TestShardsUnion(t *testing.T) {
	var all bytes.Buffer
	if err := Eval(context.Background(), testEval, nil, &all, nil); err != nil {
		t.Fatal(err)
	}
	var merged bytes.Buffer
	for i := 0; i < 3; i++ {
		cfg := testEval
		cfg.Shard, cfg.Shards = i, 3
		if err := Eval(context.Background(), cfg, nil, &merged, nil); err != nil {
			t.Fatal(err)
		}
	}
	a := sameGames(t, all.Bytes(), merged.Bytes(), 12)
	for _, l := range a {
		if l.Length == 0 || l.Record == "" || l.Branching <= 0 || (l.WinnerAgent == "" && l.Winner != "draw") {
			t.Fatalf("incomplete line %+v", l)
		}
	}
}

// TestResume: an interrupted run (with a torn last line) resumes without
// losing or repeating a game.
func TestResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	f, _ := os.Create(path)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err := Eval(ctx, testEval, nil, f, func(done, total int) {
		n = done
		if done == 5 {
			cancel()
		}
	})
	if err == nil {
		t.Fatal("an interrupted run reports no error")
	}
	f.WriteString(`{"spec":"tablut(linnaeus)","ind`) // a torn line
	f.Close()
	done, err := Done(path)
	if err != nil || len(done) < 5 || len(done) > 7 {
		t.Fatalf("done %d (%v), want the games finished before the interruption (%d)", len(done), err, n)
	}
	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err := Eval(context.Background(), testEval, done, f, nil); err != nil {
		t.Fatal(err)
	}
	f.Close()
	data, _ := os.ReadFile(path)
	lines := evalLines(t, data)
	seen := map[string]bool{}
	for _, l := range lines {
		k := key(l.Spec, l.Index)
		if seen[k] {
			t.Fatalf("%s played twice", k)
		}
		seen[k] = true
	}
	if len(lines) != 12 {
		t.Fatalf("%d games, want 12", len(lines))
	}
}

// TestEvalMoves: every game starts after the given actions.
func TestEvalMoves(t *testing.T) {
	cfg := EvalConfig{Specs: []string{"lanrick(1893)"}, Agents: [2]string{"random", "random"}, Games: 2, Seed: 1, Workers: 1,
		Moves: []string{"mark d5", "interchange"}}
	var b bytes.Buffer
	if err := Eval(context.Background(), cfg, nil, &b, nil); err != nil {
		t.Fatal(err)
	}
	for _, l := range evalLines(t, b.Bytes()) {
		if !strings.Contains(l.Record, "1. black: mark d5\n2. white: interchange") {
			t.Fatalf("record does not start with the moves:\n%s", l.Record[:200])
		}
	}
}

// TestMatchAndEvalPlayTheSameGames: a match and an evaluation with the same
// seed, agents and opening play the same games, move for move, because
// they share one game loop and one seeding scheme.
func TestMatchAndEvalPlayTheSameGames(t *testing.T) {
	cfg := EvalConfig{Specs: []string{"tablut(linnaeus)"}, Agents: [2]string{"random", "mcts(iterations=50)"}, Games: 4, Seed: 5, Workers: 2, Opening: 3}
	var out bytes.Buffer
	if err := Eval(context.Background(), cfg, nil, &out, nil); err != nil {
		t.Fatal(err)
	}
	lines := evalLines(t, out.Bytes())
	g, err := game.Load(cfg.Specs[0])
	if err != nil {
		t.Fatal(err)
	}
	games, err := Match(context.Background(), g, cfg.Agents[0], cfg.Agents[1], cfg.Games, cfg.Seed, Options{Workers: 1, Opening: cfg.Opening}, nil)
	if err != nil {
		t.Fatal(err)
	}
	differ := false
	for i, gm := range games {
		l := lines[i]
		if l.Index != gm.Index || l.Length != gm.Actions || l.Players[0] != "AB"[gm.Seats[0]:gm.Seats[0]+1] {
			t.Errorf("game %d: eval played %d actions (%v), match %d (seats %v)", i, l.Length, l.Players, gm.Actions, gm.Seats)
		}
		rec, err := g.(game.Recorder).ReadRecord(strings.NewReader(l.Record))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(rec.Actions, " ") != strings.Join(gm.Record.Actions, " ") {
			t.Errorf("game %d: the moves differ", i)
		}
		if i > 0 && strings.Join(gm.Record.Actions, " ") != strings.Join(games[0].Record.Actions, " ") {
			differ = true
		}
	}
	if !differ {
		t.Error("every game is the same: the seeds do not reach the games")
	}
}
