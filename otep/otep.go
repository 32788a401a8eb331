// Package otep is an engine for OpenTafl's engine protocol (OTEP): lines of
// US-ASCII on standard input and output. OpenTafl sends the rules, the
// side, positions, clocks, the opponent's moves and requests to play or to
// analyse; the engine answers "move" and "analysis" lines. Lines are read
// while the engine thinks, so "goodbye" and "finish" are answered at once.
// Only Tablut rules that Muster can express are accepted (a 9×9 board, edge
// escape); any other rules entry is refused by name with an "error" line.
// The clock is read as OpenTafl 0.4.8 sends it (milliseconds, overtime in
// seconds), checked against traffic captured from real games in testdata.
package otep

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/tablut"
)

// A Player chooses the engine's moves; Muster's agents are players. The
// context's deadline is the time for the move.
type Player interface {
	Act(ctx context.Context, s game.State) (search.Result, error)
}

// Engine holds the game as OpenTafl has described it.
type Engine struct {
	// NewPlayer makes the player for a game, once per "rules" message, so
	// that its tree or table lives for the whole game.
	NewPlayer func(g game.Game) (Player, error)
	// MoveTime is the time per move when OpenTafl gives no clock.
	MoveTime time.Duration
	// Log receives diagnostics (standard error).
	Log io.Writer
	// Ponder, if set, thinks on the opponent's time: after each move of
	// the engine's it searches the position until the next line comes
	// (whatever it says), so that the table is warm for the next move.
	Ponder func(ctx context.Context, s game.State)

	out   io.Writer
	g     *tablut.Game
	s     *tablut.State
	side  tablut.Side
	clock [2]time.Duration // -1: untimed
	over  time.Duration    // an overtime period
	// inOvertime says a side's main time is spent (clock is then what is
	// left of its period); overtimes counts its periods left.
	inOvertime [2]bool
	overtimes  [2]int
	player     Player
	busy       *thinking // the search under way, or nil
	// pending are the lines read and not yet answered.
	pending []string
}

const maxLine = 1 << 16

// thinking is a search under way: its result arrives on done, and cancel
// stops it early.
type thinking struct {
	done    chan searchDone
	cancel  context.CancelFunc
	analyse bool // an analysis, else a move
	ponder  bool // thinking on the opponent's time: ends at the next line
	discard bool // the game has ended: say nothing of the result
}

type searchDone struct {
	res search.Result
	err error
}

// Run serves one session until "goodbye" or the end of input. Lines are
// read while the engine searches, so that "finish", "goodbye" and "stop"
// (move now) are answered at once.
func (e *Engine) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	e.out = out
	if e.Log == nil {
		e.Log = io.Discard
	}
	if e.MoveTime == 0 {
		e.MoveTime = 5 * time.Second
	}
	e.clock = [2]time.Duration{-1, -1}
	e.send("hello")
	lines := make(chan string)
	readErr := make(chan error, 1)
	stopRead := make(chan struct{})
	defer close(stopRead)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 4096), maxLine)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-stopRead:
				return
			}
		}
		readErr <- sc.Err()
		close(lines)
	}()
	eof := false
	for {
		var done chan searchDone
		if e.busy != nil {
			done = e.busy.done
		}
		select {
		case line, ok := <-lines:
			if !ok {
				// The input has ended: finish what was asked, then stop.
				lines = nil
				eof = true
				break
			}
			e.pending = append(e.pending, strings.TrimSpace(line))
		case d := <-done:
			e.finishSearch(d)
		}
		if quit := e.drain(ctx); quit {
			e.stopSearch(true)
			return nil
		}
		if eof && e.busy != nil && e.busy.ponder {
			e.stopSearch(true)
		}
		if eof && e.busy == nil {
			return <-readErr
		}
	}
}

// drain answers the lines read, in order. While a search runs, only the
// lines that concern it are answered ("goodbye", "finish", "stop", and the
// clock, acknowledgements and messages that change nothing); the others
// wait for its end, as the game stands still while the engine thinks. It
// reports whether the session ends.
func (e *Engine) drain(ctx context.Context) bool {
	for len(e.pending) > 0 {
		line := e.pending[0]
		cmd, _, _ := strings.Cut(line, " ")
		quiet := cmd == "clock" || cmd == "move" || cmd == "status" || cmd == "error" || cmd == ""
		if e.busy != nil && e.busy.ponder && !quiet {
			e.stopSearch(true) // the opponent has moved, or the game changed
		}
		if e.busy != nil {
			switch cmd {
			case "goodbye":
				return true
			case "finish":
				e.stopSearch(true)
			case "stop":
				e.stopSearch(false)
			default:
				if !quiet {
					return false
				}
			}
		}
		e.pending = e.pending[1:]
		if e.handle(ctx, line) {
			return true
		}
	}
	return false
}

// handle answers one line; it reports whether the session ends.
func (e *Engine) handle(ctx context.Context, line string) bool {
	if line == "" {
		return false
	}
	cmd, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch cmd {
	case "goodbye":
		return true
	case "hello", "start", "simple-moves", "status", "stop":
	case "rules":
		if err := e.rules(rest); err != nil {
			fmt.Fprintf(e.Log, "otep: %v\n", err)
			e.send("error 0 " + err.Error())
		}
	case "position":
		e.position(rest)
	case "side":
		if side, ok := parseSide(rest); ok {
			e.side = side
		}
	case "clock":
		e.setClock(rest)
	case "play":
		side, ok := parseSide(rest)
		if !ok || e.s == nil {
			e.send("error -1 play needs rules and a side")
			return false
		}
		e.play(ctx, side)
	case "move":
		// OpenTafl's acknowledgement of our move, with the position
		// after it; our state already has the move.
	case "opponent-move":
		e.opponentMove(rest)
	case "analyze":
		e.analyze(ctx, rest)
	case "finish":
		// The game is over; OpenTafl sends goodbye when the engine
		// should exit.
	case "error":
		fmt.Fprintf(e.Log, "otep: OpenTafl reports error %s\n", rest)
	default:
		fmt.Fprintf(e.Log, "otep: unknown command %q\n", cmd)
	}
	return false
}

// stopSearch ends the search under way and waits for it; its result is
// sent unless discard (the game or the session has ended).
func (e *Engine) stopSearch(discard bool) {
	if e.busy == nil {
		return
	}
	e.busy.discard = e.busy.discard || discard
	e.busy.cancel()
	e.finishSearch(<-e.busy.done)
}

func (e *Engine) send(line string) { fmt.Fprintln(e.out, line) }

func parseSide(s string) (tablut.Side, bool) {
	switch strings.TrimSpace(s) {
	case "attackers":
		return tablut.Attackers, true
	case "defenders":
		return tablut.Defenders, true
	}
	return 0, false
}

// rules maps an OTN rules string onto Muster's Tablut options, starting
// from the opentafl ruleset and OTN's documented defaults for keys left out.
func (e *Engine) rules(text string) error {
	g, s, err := tablut.ReadOTNRules(text)
	if err != nil {
		return err
	}
	p, err := e.NewPlayer(g)
	if err != nil {
		return err
	}
	e.g, e.s, e.player = g, s, p
	fmt.Fprintf(e.Log, "otep: playing %s\n", g.Spec())
	return nil
}

// position replaces the board; the side to move comes with play.
func (e *Engine) position(text string) {
	if e.g == nil {
		return
	}
	f := strings.Fields(text)
	if len(f) == 0 {
		return
	}
	p := e.s.Position()
	s, err := e.g.Parse(f[0] + " " + p.ToMove().String())
	if err != nil {
		fmt.Fprintf(e.Log, "otep: bad position %q: %v\n", text, err)
		return
	}
	e.s = s
}

// setClock reads "clock <attacker-ms>[*] <defender-ms>[*] <overtime-s>
// <attacker overtimes> <defender overtimes>", as OpenTafl 0.4.8 sends it
// (ExternalEngineHost.clockUpdate): the main time left in milliseconds,
// or with a star the time left in the current overtime period; the
// length of an overtime period in seconds; -1 for an untimed side.
func (e *Engine) setClock(text string) {
	f := strings.Fields(text)
	if len(f) < 2 {
		return
	}
	for i := 0; i < 2; i++ {
		v, star := strings.CutSuffix(f[i], "*")
		ms, err := strconv.ParseFloat(v, 64)
		if err != nil {
			continue
		}
		e.inOvertime[i] = star
		if ms < 0 {
			e.clock[i] = -1
		} else {
			e.clock[i] = time.Duration(ms * float64(time.Millisecond))
		}
	}
	if len(f) > 2 {
		if sec, err := strconv.ParseFloat(f[2], 64); err == nil && sec >= 0 {
			e.over = time.Duration(sec * float64(time.Second))
		}
	}
	for i := 0; i < 2 && len(f) > 3+i; i++ {
		if n, err := strconv.Atoi(f[3+i]); err == nil {
			e.overtimes[i] = n
		}
	}
}

// budget is the time for one move: a twentieth of the main time left
// (a tafl game rarely lasts 40 moves a side, and what is saved carries
// over), plus most of an overtime period when periods remain; in overtime,
// most of what is left of the period; MoveTime untimed.
func (e *Engine) budget(side tablut.Side) time.Duration {
	left := e.clock[side]
	switch {
	case left < 0:
		return e.MoveTime
	case e.inOvertime[side]:
		return max(left*7/10, 50*time.Millisecond)
	}
	t := left / 20
	if e.over > 0 && e.overtimes[side] > 0 {
		t += e.over * 7 / 10
	}
	return max(min(t, left*9/10), 50*time.Millisecond)
}

// sync makes the state's side to move the given one (OpenTafl sends
// positions without it).
func (e *Engine) sync(side tablut.Side) {
	if p := e.s.Position(); p.ToMove() != side {
		if s, err := e.g.Parse(p.OTN() + " " + side.String()); err == nil {
			e.s = s
		}
	}
}

func (e *Engine) play(ctx context.Context, side tablut.Side) {
	e.sync(side)
	if e.s.IsTerminal() {
		e.send("error -1 the game is over")
		return
	}
	e.think(ctx, e.budget(side), false)
}

// think starts a search of the current state in the background.
func (e *Engine) think(ctx context.Context, t time.Duration, analyse bool) {
	ctx, cancel := context.WithTimeout(ctx, t)
	b := &thinking{done: make(chan searchDone, 1), cancel: cancel, analyse: analyse}
	s := e.s.Clone()
	go func() {
		res, err := e.player.Act(ctx, s)
		b.done <- searchDone{res, err}
	}()
	e.busy = b
}

// finishSearch sends what a finished search found: the move, played on
// our state, or the analysis.
func (e *Engine) finishSearch(d searchDone) {
	b := e.busy
	e.busy = nil
	b.cancel()
	switch {
	case b.discard:
		return
	case d.err != nil:
		e.send("error -1 " + d.err.Error())
	case b.analyse:
		e.send(e.analysisLine(d.res))
	default:
		m := tablut.Move(d.res.Action)
		e.send(statusLine(d.res))
		e.s.ApplyMove(m)
		e.send("move " + m.String())
		e.ponder()
	}
}

// ponder thinks on the opponent's time, where the engine may.
func (e *Engine) ponder() {
	if e.Ponder == nil || e.s.IsTerminal() {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := &thinking{done: make(chan searchDone, 1), cancel: cancel, ponder: true, discard: true}
	s := e.s.Clone()
	go func() {
		e.Ponder(ctx, s)
		b.done <- searchDone{}
	}()
	e.busy = b
}

// statusLine reports a search for OpenTafl's status display.
func statusLine(r search.Result) string {
	what := fmt.Sprintf("%d playouts", r.Iterations)
	if r.Nodes > 0 {
		what = fmt.Sprintf("depth %d, %d nodes", r.Depth, r.Nodes)
	}
	value := r.Value
	if r.Kind == search.Score {
		value = r.Score
	}
	return fmt.Sprintf("status Muster: %s in %.1f s, value %+.2f", what, r.Elapsed.Seconds(), value)
}

// opponentMove plays the other side's move; if it does not fit, the
// position given with it is taken as it is.
func (e *Engine) opponentMove(text string) {
	if e.g == nil {
		return
	}
	f := strings.Fields(text)
	if len(f) == 0 {
		return
	}
	m, err := e.s.ParseMove(f[0])
	if err == nil {
		e.s.ApplyMove(m)
		return
	}
	fmt.Fprintf(e.Log, "otep: opponent move %q: %v\n", f[0], err)
	if len(f) > 1 {
		e.position(f[1])
		e.sync(e.side)
	}
}

// analyze searches the position for the side "side" named, answered by
// an "analysis" line.
func (e *Engine) analyze(ctx context.Context, text string) {
	f := strings.Fields(text)
	sec := 2.0
	if len(f) > 1 {
		if v, err := strconv.ParseFloat(f[1], 64); err == nil && v > 0 {
			sec = v
		}
	}
	if e.s == nil {
		e.send("analysis 0")
		return
	}
	e.sync(e.side)
	if e.s.IsTerminal() {
		e.send("analysis 0")
		return
	}
	e.think(ctx, time.Duration(sec*float64(time.Second)), true)
}

// analysisLine writes "analysis 1 <line> <evaluation>": the expected line
// from the position, and the evaluation for the side to move (hundredths
// of a man for alpha-beta, hundredths of the expected outcome for MCTS).
func (e *Engine) analysisLine(res search.Result) string {
	c := e.s.Copy()
	var line []string
	for _, a := range res.PV {
		if c.IsTerminal() || !c.IsLegal(tablut.Move(a)) {
			break
		}
		line = append(line, tablut.Move(a).String())
		c.ApplyMove(tablut.Move(a))
	}
	if len(line) == 0 {
		line = []string{tablut.Move(res.Action).String()}
	}
	// In hundredths: of a man for alpha-beta, of the outcome for MCTS.
	eval := int(math.Round(res.Value * 100))
	if res.Kind == search.Score {
		eval = int(math.Round(res.Score * 100))
	}
	return fmt.Sprintf("analysis 1 %s %d", strings.Join(line, "|"), eval)
}
