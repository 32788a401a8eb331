package otep

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

// session runs the engine on a script and returns its output lines.
func session(t *testing.T, script ...string) []string {
	t.Helper()
	var out, log bytes.Buffer
	e := &Engine{NewPlayer: alphaBeta, MoveTime: 50 * time.Millisecond, Log: &log}
	if err := e.Run(context.Background(), strings.NewReader(strings.Join(script, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

// alphaBeta is the player muster engine otep gives by default.
func alphaBeta(g game.Game) (Player, error) { return agent.New("alphabeta(depth=64)", g, 1) }

// OpenTafl's Tablut 9x9 as OpenTafl writes it.
const rules = "rules dim:9 esc:e surf:y atkf:y tfr:d ka:y ks:n cenp:tcnkTCNK cens: cenh:tcnk cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"

// TestSession plays a scripted game: hello first, a legal move on play,
// the opponent's move taken, an analysis line, and exit on goodbye.
func TestSession(t *testing.T) {
	lines := session(t, "hello", rules, "side attackers", "start", "clock 3000 3000 0 0 0", "play attackers",
		"opponent-move e3-d3 /3ttt3/4t4/3T5/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/", "play attackers", "analyze 1 0.2", "finish 1", "goodbye", "play attackers")
	if lines[0] != "hello" {
		t.Fatalf("first line %q", lines[0])
	}
	g := tablut.MustLoad("opentafl")
	s := g.Start()
	var moves []string
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "move ") {
			moves = append(moves, strings.TrimPrefix(l, "move "))
		}
	}
	if len(moves) != 2 {
		t.Fatalf("want 2 moves (nothing after goodbye), got %v in %v", moves, lines)
	}
	for i, m := range []string{moves[0], "e3-d3", moves[1]} {
		if _, err := s.ParseMove(m); err != nil {
			t.Fatalf("move %d %q is not legal: %v (lines %v)", i, m, err, lines)
		}
		x, _ := s.ParseMove(m)
		s.ApplyMove(x)
	}
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "analysis 1 ") || len(strings.Fields(last)) != 4 {
		t.Fatalf("analysis line %q", last)
	}
}

// TestUnsupportedRules: a corner-escape or 11×11 game is refused with an
// error line, and the engine goes on.
func TestUnsupportedRules(t *testing.T) {
	lines := session(t, "rules dim:11 esc:c start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
		"rules dim:9 esc:c start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/", "play attackers", "bogus line", "goodbye")
	errs := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "error ") {
			errs++
		}
	}
	if errs != 3 {
		t.Fatalf("want 3 error lines (two rules, play without rules), got %v", lines)
	}
}

// TestDefenderFirstRules: atkf:n makes the defenders move first.
func TestDefenderFirstRules(t *testing.T) {
	lines := session(t, strings.Replace(rules, "atkf:y", "atkf:n", 1), "side defenders", "play defenders", "goodbye")
	move := strings.TrimPrefix(lines[len(lines)-1], "move ")
	s, _ := tablut.MustLoad("opentafl", kvFirst()).Parse(tablut.StartOTN + " defenders")
	if _, err := s.ParseMove(move); err != nil {
		t.Fatalf("defenders' move %q: %v", move, err)
	}
}

func kvFirst() game.KV { return game.KV{Key: "first", Value: "defenders"} }

// counting is a player that takes the first legal move and notes the
// time it was given.
type counting struct {
	made  *int
	given []time.Duration
}

func (c *counting) Act(ctx context.Context, s game.State) (search.Result, error) {
	d, ok := ctx.Deadline()
	if !ok {
		return search.Result{}, context.DeadlineExceeded
	}
	c.given = append(c.given, time.Until(d))
	return search.Result{Action: s.LegalActions(nil)[0]}, nil
}

// TestOnePlayerPerGame: the engine makes its player once per rules
// message, not once per move, and hands it the move's time as the
// context's deadline (OpenTafl's clock comes in milliseconds).
func TestOnePlayerPerGame(t *testing.T) {
	made := 0
	p := &counting{made: &made}
	e := &Engine{NewPlayer: func(game.Game) (Player, error) { made++; return p, nil }, Log: &bytes.Buffer{}}
	var out bytes.Buffer
	script := []string{rules, "side attackers", "clock 60000 60000 0 0 0", "play attackers", "play attackers", "goodbye"}
	if err := e.Run(context.Background(), strings.NewReader(strings.Join(script, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	if made != 1 || len(p.given) != 2 {
		t.Fatalf("players made %d, moves asked %d; want 1 and 2\n%s", made, len(p.given), out.String())
	}
	for _, d := range p.given {
		if d <= 0 || d > 60*time.Second {
			t.Errorf("a move was given %v of a 60 s clock", d)
		}
	}
}

// TestRealOpenTaflClock replays what OpenTafl 0.4.8 sent Muster in a real
// game (attackers, 60 s + 1 s; captured with ../shared/peers/opentafl,
// CLOCK_SHIM=0): the clock lines are milliseconds, so every move is given
// about a thirtieth of the time left, never more than the clock holds.
func TestRealOpenTaflClock(t *testing.T) {
	script, err := os.ReadFile("testdata/opentafl-0.4.8-attackers.log")
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	p := &counting{made: &made}
	e := &Engine{NewPlayer: func(game.Game) (Player, error) { made++; return p, nil }, Log: &bytes.Buffer{}}
	var out bytes.Buffer
	if err := e.Run(context.Background(), bytes.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	if made != 1 || len(p.given) != strings.Count(string(script), "\nplay attackers") {
		t.Fatalf("players made %d, moves asked %d", made, len(p.given))
	}
	for i, d := range p.given {
		if d < time.Second || d > 3*time.Second {
			t.Errorf("move %d was given %v of a clock near 60 s", i+1, d)
		}
	}
}
