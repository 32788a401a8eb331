// Package otep is an engine for OpenTafl's engine protocol (OTEP): lines of
// US-ASCII on standard input and output. OpenTafl sends the rules, the
// side, positions, clocks, the opponent's moves and requests to play or to
// analyse; the engine answers "move" and "analysis" lines. Only Tablut
// rules that Muster can express are accepted (a 9×9 board, edge escape).
package otep

import (
	"bufio"
	"context"
	"fmt"
	"io"
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

	out    io.Writer
	g      *tablut.Game
	s      *tablut.State
	side   tablut.Side
	clock  [2]time.Duration // -1: untimed
	over   time.Duration    // an overtime period
	player Player
}

const maxLine = 1 << 16

// Run serves one session until "goodbye" or the end of input.
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
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		cmd, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		switch cmd {
		case "goodbye":
			return nil
		case "hello", "start", "simple-moves", "status":
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
				continue
			}
			e.play(ctx, side)
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
	}
	return sc.Err()
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
	kv := map[string]string{
		"esc": "c", "surf": "y", "atkf": "y", "tfr": "d", "ka": "y", "ks": "y",
		"cenp": "tcnkTCNK", "cens": "K", "cenh": "tcnk", "cenhe": "tcnkTCNK", "linc": "n",
	}
	for _, f := range strings.Fields(text) {
		k, v, _ := strings.Cut(f, ":")
		kv[k] = v
	}
	if kv["dim"] != "9" {
		return fmt.Errorf("rules not supported: board dim:%s (Muster plays 9×9 Tablut)", kv["dim"])
	}
	if kv["esc"] != "e" {
		return fmt.Errorf("rules not supported: corner escape (Muster's Tablut escapes to the edge)")
	}
	for _, k := range []string{"ber", "sw"} {
		if v, ok := kv[k]; ok && v != "n" {
			return fmt.Errorf("rules not supported: %s:%s", k, v)
		}
	}
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	opts := []game.KV{
		{Key: "encirclement", Value: yes(kv["surf"] == "y")},
		{Key: "king_armed", Value: yes(kv["ka"] != "n")},
		{Key: "castle_cross", Value: yes(strings.ContainsAny(kv["cenp"], "tT"))},
		{Key: "king_reenter", Value: yes(strings.Contains(kv["cens"], "K"))},
		{Key: "linnaean", Value: yes(kv["linc"] == "y")},
	}
	if kv["atkf"] == "n" {
		opts = append(opts, game.KV{Key: "first", Value: "defenders"})
	}
	kc := "near_castle"
	if kv["ks"] == "y" {
		kc = "strong"
	}
	opts = append(opts, game.KV{Key: "king_capture", Value: kc})
	host := "never"
	switch {
	case strings.Contains(kv["cenh"], "T"):
		host = "always"
	case strings.ContainsAny(kv["cenhe"], "tT"):
		host = "empty"
	}
	opts = append(opts, game.KV{Key: "castle_hostile", Value: host})
	rep := map[string]string{"d": "third", "i": "none"}[kv["tfr"]]
	if rep == "" {
		return fmt.Errorf("rules not supported: tfr:%s (Muster draws or ignores a threefold repetition)", kv["tfr"])
	}
	opts = append(opts, game.KV{Key: "repetition", Value: rep})
	if kv["afor"] != "" {
		opts = append(opts, game.KV{Key: "camps", Value: "forts"})
	}
	g, err := tablut.Load("opentafl", opts...)
	if err != nil {
		return err
	}
	start := tablut.StartOTN
	if v := kv["start"]; v != "" {
		start = v
	}
	s, err := g.Parse(start + " " + g.Rules.First.String())
	if err != nil {
		return fmt.Errorf("rules not supported: start position: %w", err)
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

// setClock reads "clock <attacker> <defender> <overtime> <attacker
// overtimes> <defender overtimes>". OpenTafl's protocol text says seconds,
// but OpenTafl sends milliseconds (captured from OpenTafl 0.4.8.0b:
// "clock 119738 121000 0 0 0" on a 2-minute clock); -1 is untimed.
func (e *Engine) setClock(text string) {
	f := strings.Fields(text)
	if len(f) < 2 {
		return
	}
	for i := 0; i < 2; i++ {
		ms, err := strconv.ParseFloat(strings.TrimSuffix(f[i], "*"), 64)
		if err == nil {
			if ms < 0 {
				e.clock[i] = -1
			} else {
				e.clock[i] = time.Duration(ms * float64(time.Millisecond))
			}
		}
	}
	if len(f) > 2 {
		if ms, err := strconv.ParseFloat(f[2], 64); err == nil && ms > 0 {
			e.over = time.Duration(ms * float64(time.Millisecond))
		}
	}
}

// budget is the time for one move: a thirtieth of the main time left,
// most of an overtime period, or MoveTime untimed.
func (e *Engine) budget(side tablut.Side) time.Duration {
	left := e.clock[side]
	switch {
	case left < 0 && e.over > 0:
		return e.over * 8 / 10
	case left < 0:
		return e.MoveTime
	}
	t := left / 30
	if e.over > 0 {
		t += e.over * 8 / 10
	}
	return max(t, 50*time.Millisecond)
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
	res, err := e.search(ctx, e.budget(side))
	if err != nil {
		e.send("error -1 " + err.Error())
		return
	}
	m := tablut.Move(res.Action)
	e.s.ApplyMove(m)
	e.send("move " + m.String())
}

func (e *Engine) search(ctx context.Context, t time.Duration) (search.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, t)
	defer cancel()
	return e.player.Act(ctx, e.s)
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

// analyze answers "analysis <n> <line> <eval>…" with the best line found.
func (e *Engine) analyze(ctx context.Context, text string) {
	f := strings.Fields(text)
	sec := 2.0
	if len(f) > 1 {
		if v, err := strconv.ParseFloat(f[1], 64); err == nil && v > 0 {
			sec = v
		}
	}
	if e.s == nil || e.s.IsTerminal() {
		e.send("analysis 0")
		return
	}
	res, err := e.search(ctx, time.Duration(sec*float64(time.Second)))
	if err != nil {
		e.send("error -1 " + err.Error())
		return
	}
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
	e.send(fmt.Sprintf("analysis 1 %s %d", strings.Join(line, "|"), int(res.Value*100)))
}
