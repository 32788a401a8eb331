package otep

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

// session runs the engine on a script as OpenTafl would send it: after
// "play" or "analyze" it waits for the engine's answer before the next
// line. It returns the engine's output lines.
func session(t *testing.T, script ...string) []string {
	t.Helper()
	e := &Engine{NewPlayer: alphaBeta, MoveTime: 50 * time.Millisecond, Log: &bytes.Buffer{}}
	return converse(t, e, script)
}

// converse runs the engine e on a script, pacing it as session does.
func converse(t *testing.T, e *Engine, script []string) []string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		errc <- e.Run(context.Background(), inR, outW)
		inR.Close()
		outW.Close()
	}()
	got := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			got <- sc.Text()
		}
		close(got)
	}()
	var lines []string
	// next waits for an answer, past status lines.
	next := func() {
		for {
			select {
			case l, ok := <-got:
				if !ok {
					return
				}
				lines = append(lines, l)
				if !strings.HasPrefix(l, "status ") {
					return
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("no answer; so far %v", lines)
			}
		}
	}
	next() // hello
	for _, l := range script {
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			break // the engine has left
		}
		if cmd, _, _ := strings.Cut(l, " "); (cmd == "play" || cmd == "analyze") && len(lines) > 0 {
			next()
		}
	}
	inW.Close()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	for l := range got {
		lines = append(lines, l)
	}
	return lines
}

// alphaBeta is the player muster engine otep gives by default.
func alphaBeta(g game.Game) (Player, error) { return agent.New("alphabeta(depth=64)", g, 1) }

// OpenTafl's Tablut 9x9 as OpenTafl writes it.
const rules = "rules dim:9 esc:e surf:y atkf:y tfr:d ka:y ks:c cenp:tcnkTCNK cens: cenh:tcnk cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"

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
	// Each move is preceded by a status line reporting the search.
	for i, l := range lines {
		if strings.HasPrefix(l, "move ") && (i == 0 || !strings.HasPrefix(lines[i-1], "status Muster: depth ")) {
			t.Errorf("move %q without a status line before it: %v", l, lines)
		}
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

// replayCapture runs the engine on what OpenTafl sent in a captured game,
// with a counting player. It fails on an error, an unknown command or a
// player made more than once, and returns the script and the time given
// to each move.
func replayCapture(t *testing.T, file string) (string, []time.Duration) {
	t.Helper()
	script, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	p := &counting{made: &made}
	var log bytes.Buffer
	e := &Engine{NewPlayer: func(game.Game) (Player, error) { made++; return p, nil }, Log: &log}
	if err := e.Run(context.Background(), bytes.NewReader(script), io.Discard); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "unknown command") || made != 1 {
		t.Fatalf("%s: players made %d; %s", file, made, log.String())
	}
	return string(script), p.given
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

// TestRealOpenTaflClock replays what OpenTafl 0.4.8 sent Muster in two
// real games (captured with ../shared/peers/opentafl, CLOCK_SHIM=0, 60 s
// + 1 s: Muster attacking, won in 39 plies; Muster defending, won in 16):
// the clock lines are milliseconds, so every move is given a twentieth of
// the time then left; OpenTafl's acknowledgements of the engine's moves
// are understood.
func TestRealOpenTaflClock(t *testing.T) {
	for _, side := range []string{"attackers", "defenders"} {
		script, given := replayCapture(t, "testdata/opentafl-0.4.8-"+side+".log")
		// The engine's time left when each play came.
		var left []time.Duration
		var now time.Duration
		for _, l := range strings.Split(string(script), "\n") {
			if f := strings.Fields(l); len(f) > 2 && f[0] == "clock" {
				ms, _ := strconv.Atoi(strings.TrimSuffix(f[1+map[string]int{"attackers": 0, "defenders": 1}[side]], "*"))
				now = time.Duration(ms) * time.Millisecond
			} else if strings.TrimSpace(l) == "play "+side {
				left = append(left, now)
			}
		}
		if len(given) != len(left) || len(left) < 5 {
			t.Fatalf("%s: moves asked %d of %d", side, len(given), len(left))
		}
		for i, d := range given {
			if want := left[i] / 20; d < want*9/10 || d > want*21/20 {
				t.Errorf("%s: move %d was given %v with %v left; want about %v", side, i+1, d, left[i], want)
			}
		}
	}
}

// TestOvertimeClock: the overtime period is in seconds and a starred time
// is what is left of the current period (OpenTafl's own test sends "clock
// 30000* 30000* 30 5 5"): in overtime a move gets most of the period; in
// main time with periods to come, a twentieth of the main time and most
// of a period, never more than nine tenths of what the clock holds.
func TestOvertimeClock(t *testing.T) {
	cases := []struct {
		clock string
		want  time.Duration
	}{
		{"clock 30000* 30000* 30 5 5", 21 * time.Second},
		{"clock 60000 60000 30 5 5", 24 * time.Second},
		{"clock 10000 10000 30 5 5", 9 * time.Second},
		{"clock 60000 60000 0 0 0", 3 * time.Second},
		{"clock 60000 60000 30 0 0", 3 * time.Second},
	}
	for _, c := range cases {
		e := &Engine{clock: [2]time.Duration{-1, -1}}
		e.setClock(strings.TrimPrefix(c.clock, "clock "))
		if got := e.budget(tablut.Attackers); got != c.want {
			t.Errorf("%s: %v a move, want %v", c.clock, got, c.want)
		}
	}
}

// patient is a player that thinks until it is stopped, then plays the
// first legal move.
type patient struct{}

func (patient) Act(ctx context.Context, s game.State) (search.Result, error) {
	<-ctx.Done()
	return search.Result{Action: s.LegalActions(nil)[0]}, nil
}

// TestGoodbyeDuringSearch: lines are read while the engine thinks: a
// "goodbye" in the middle of a long search ends the session within a
// second, and a "finish" ends the search without a move.
func TestGoodbyeDuringSearch(t *testing.T) {
	e := &Engine{NewPlayer: func(game.Game) (Player, error) { return patient{}, nil }, MoveTime: time.Hour, Log: &bytes.Buffer{}}
	inR, inW := io.Pipe()
	var out syncBuffer
	errc := make(chan error, 1)
	go func() { errc <- e.Run(context.Background(), inR, &out) }()
	io.WriteString(inW, rules+"\nplay attackers\n")
	time.Sleep(200 * time.Millisecond)
	io.WriteString(inW, "finish 0\nanalyze 1 0.1\n")
	time.Sleep(400 * time.Millisecond)
	start := time.Now()
	io.WriteString(inW, "play attackers\n")
	time.Sleep(100 * time.Millisecond)
	go io.WriteString(inW, "goodbye\n")
	select {
	case err := <-errc:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Second + 100*time.Millisecond):
		t.Fatal("goodbye during a search was not answered within a second")
	}
	t.Logf("goodbye answered %v after the last play", time.Since(start).Round(time.Millisecond))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "move ") {
			t.Errorf("a move after finish or goodbye: %v", lines)
		}
	}
	if !strings.HasPrefix(lines[len(lines)-1], "analysis 1 ") {
		t.Errorf("the analysis after the finished game: %v", lines)
	}
}

// syncBuffer is a buffer safe to write from the engine and read from the
// test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestAcknowledgementAndAnalysisSide: OpenTafl's "move <position>" after
// the engine's move is taken quietly, and the side named before "analyze"
// is the side analysed, whoever moved last.
func TestAcknowledgementAndAnalysisSide(t *testing.T) {
	var log bytes.Buffer
	e := &Engine{NewPlayer: alphaBeta, MoveTime: 50 * time.Millisecond, Log: &log}
	lines := converse(t, e, []string{rules, "clock 3000 3000 0 0 0", "play attackers",
		"move /3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
		"position /3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/", "side attackers", "analyze 1 0.2",
		"side defenders", "analyze 1 0.2", "goodbye"})
	if strings.Contains(log.String(), "unknown command") {
		t.Errorf("the acknowledgement was not understood: %s", log.String())
	}
	var analyses []string
	for _, l := range lines {
		if f := strings.Fields(l); len(f) == 4 && f[0] == "analysis" {
			analyses = append(analyses, f[2])
		}
	}
	if len(analyses) != 2 {
		t.Fatalf("analyses %v", lines)
	}
	for i, side := range []string{"attackers", "defenders"} {
		s, err := tablut.MustLoad("opentafl").Parse(tablut.StartOTN + " " + side)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(analyses[i], "|")
		if _, err := s.ParseMove(first); err != nil {
			t.Errorf("the analysis for the %s %q does not start with their move: %v", side, analyses[i], err)
		}
	}
}

// TestRulesMapping (OpenTafl Notation, rules entries): the king's strength
// maps as the notation defines it (s and y strong everywhere, c strong on
// and beside the throne, the default strong), and every entry Muster
// cannot play is refused with an error line naming it.
func TestRulesMapping(t *testing.T) {
	base := "rules dim:9 esc:e atkf:y cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
	cases := []struct{ extra, want string }{
		{"ks:c", "playing tablut(opentafl)\n"}, // the opentafl ruleset captures near the castle
		{"ks:s", "king_capture=strong"},
		{"ks:y", "king_capture=strong"},
		{"", "king_capture=strong"},
		{"ks:w", "error 0 rules not supported: ks:w"},
		{"ks:n", "error 0 rules not supported: ks:n"},
		{"ks:m", "error 0 rules not supported: ks:m"},
		{"tfr:w", "error 0 rules not supported: tfr:w"},
		{"ka:a", "error 0 rules not supported: ka:a"},
		{"spd:2", "error 0 rules not supported: spd:2"},
		{"zz:1", "error 0 rules not supported: unknown rules entry zz:1"},
	}
	for _, c := range cases {
		var log bytes.Buffer
		e := &Engine{NewPlayer: alphaBeta, Log: &log}
		lines := converse(t, e, []string{base + " " + c.extra, "goodbye"})
		got := log.String() + strings.Join(lines, "\n")
		if !strings.Contains(got, c.want) {
			t.Errorf("%q: want %q in\n%s", c.extra, c.want, got)
		}
	}
}

// TestPonder: with pondering on, the engine thinks on the opponent's time
// about the position after its move; OpenTafl's acknowledgement leaves it
// thinking, the opponent's move stops it, and the next move is searched as
// usual.
func TestPonder(t *testing.T) {
	_, start, err := tablut.ReadOTNRules(strings.TrimPrefix(rules, "rules "))
	if err != nil {
		t.Fatal(err)
	}
	var running atomic.Int32
	pondered := make(chan string, 10)
	e := &Engine{NewPlayer: func(game.Game) (Player, error) { return first{}, nil }, MoveTime: time.Hour, Log: &bytes.Buffer{}}
	e.Ponder = func(ctx context.Context, s game.State) {
		running.Add(1)
		pondered <- s.(*tablut.State).String()
		<-ctx.Done()
		running.Add(-1)
	}
	inR, inW := io.Pipe()
	var out syncBuffer
	errc := make(chan error, 1)
	go func() { errc <- e.Run(context.Background(), inR, &out) }()
	io.WriteString(inW, rules+"\nplay attackers\n")
	after := start.Copy()
	after.ApplyMove(tablut.Move(start.LegalActions(nil)[0]))
	select {
	case p := <-pondered:
		if p != after.String() {
			t.Errorf("pondered %s, want the position after the engine's move, %s", p, after)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no pondering after the move: %s", out.String())
	}
	pos := after.Position()
	io.WriteString(inW, "move "+pos.OTN()+"\n")
	time.Sleep(100 * time.Millisecond)
	if running.Load() != 1 {
		t.Error("the acknowledgement of the move stopped the pondering")
	}
	reply := tablut.Move(after.LegalActions(nil)[0])
	io.WriteString(inW, "opponent-move "+reply.String()+"\nplay attackers\n")
	<-pondered // the engine moved again and ponders again
	io.WriteString(inW, "goodbye\n")
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if running.Load() != 0 {
		t.Error("pondering outlived the session")
	}
	if moves := strings.Count(out.String(), "\nmove "); moves != 2 {
		t.Errorf("%d moves, want 2: %s", moves, out.String())
	}
}

// first plays the first legal move at once.
type first struct{}

func (first) Act(ctx context.Context, s game.State) (search.Result, error) {
	return search.Result{Action: s.LegalActions(nil)[0]}, nil
}

// TestRealOpenTaflOvertime replays what OpenTafl 0.4.8 sent in a real game
// with overtime (20 s main time, three periods of 5 s; its AI attacking,
// Muster defending and winning in 22 plies): in main time a move gets a
// twentieth of it and 70% of a 5-second period, at most 90% of the clock;
// once a starred time shows Muster inside a period, 70% of what is left of
// it (3.5 s of a fresh period, never 3.5 ms).
func TestRealOpenTaflOvertime(t *testing.T) {
	script, given := replayCapture(t, "testdata/opentafl-0.4.8-overtime.log")
	var want []time.Duration
	var clock string
	for _, l := range strings.Split(string(script), "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[0] == "clock" {
			clock = f[2] // the defenders'
		} else if strings.TrimSpace(l) == "play defenders" {
			ms, _ := strconv.Atoi(strings.TrimSuffix(clock, "*"))
			left := time.Duration(ms) * time.Millisecond
			if strings.HasSuffix(clock, "*") {
				want = append(want, left*7/10)
			} else {
				want = append(want, min(left/20+3500*time.Millisecond, left*9/10))
			}
		}
	}
	overtime := strings.Count(string(script), "5000* 5 3 3")
	if len(given) != len(want) || overtime < 3 {
		t.Fatalf("moves asked %d of %d; %d clock lines in overtime", len(given), len(want), overtime)
	}
	for i, d := range given {
		if d < want[i]*95/100 || d > want[i]*105/100 {
			t.Errorf("move %d was given %v; want about %v", i+1, d, want[i])
		}
	}
}

// TestEvaluationUnits: with five attackers gone and the defenders to act,
// the analysis gives the defenders' side whole men, in hundredths (OpenTafl
// shows the number as it comes), and the status line says men.
func TestEvaluationUnits(t *testing.T) {
	lines := session(t, rules, "position /9/9/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/4t4/", "side defenders", "analyze 1 0.3", "goodbye")
	last := strings.Fields(lines[len(lines)-1])
	if len(last) != 4 || last[0] != "analysis" {
		t.Fatalf("analysis line %v", lines)
	}
	if eval, err := strconv.Atoi(last[3]); err != nil || eval < 100 {
		t.Errorf("five men ahead evaluated %s hundredths of a man", last[3])
	}
	got := statusLine(search.Result{Depth: 5, Nodes: 1000, Value: 1.5, Elapsed: time.Second})
	if want := "status Muster: depth 5, 1000 nodes in 1.0 s, value +1.50"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestOpponentMoveInDetailedOTN: OpenTafl sends the opponent's move in
// OTN's detailed form when the engine is not set to simple notation
// (ExternalEngineHost.notifyMovesMade writes the move record), its
// captures after x. The engine takes the move as it is written, not the
// position sent with it, and answers from the position after it.
func TestOpponentMoveInDetailedOTN(t *testing.T) {
	log := &bytes.Buffer{}
	e := &Engine{NewPlayer: alphaBeta, MoveTime: 50 * time.Millisecond, Log: log}
	start := "/9/9/9/9/1tT1K4/9/9/3t5/9/"
	// The position sent with the move is the one before it: wrong on
	// purpose.
	lines := converse(t, e, []string{"hello", rules, "side defenders", "start", "position " + start, "clock 3000 3000 0 0 0",
		"opponent-move d8-d5xc5 " + start, "play defenders", "goodbye"})
	if strings.Contains(log.String(), "opponent move") {
		t.Fatalf("the engine refused the move: %s", log.String())
	}
	var reply string
	for _, l := range lines {
		if strings.HasPrefix(l, "move ") {
			reply = strings.TrimPrefix(l, "move ")
		}
	}
	s, err := tablut.MustLoad("opentafl").Parse(start + " attackers")
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.ParseMove("d8-d5xc5")
	if err != nil {
		t.Fatal(err)
	}
	s.ApplyMove(m)
	if _, err := s.ParseMove(reply); err != nil {
		t.Fatalf("the engine's answer %q does not follow the capture: %v (%v)", reply, err, lines)
	}
}
