package otep

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/tablut"
)

// Host is the other side of the protocol: Muster as OpenTafl is to an
// engine. It runs an engine's command, tells it the rules, the opponent's
// moves (with the position after each, as OpenTafl does) and a clock, asks
// it to play, and reads its move; so any OTEP engine — OpenTafl's own AI
// among them — can play where Muster plays (a bot account on a server).
// The messages are those OpenTafl 0.4.8 sends, as its traffic in testdata
// shows.
type Host struct {
	// MoveTime is a move's time where the game has no clock.
	MoveTime time.Duration
	// Log receives the traffic, each line marked > (to the engine) or <
	// (from it); nil: none.
	Log io.Writer

	g     *tablut.Game
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	// s is the game as the engine has been told it.
	s      *tablut.State
	mu     sync.Mutex
	closed bool
}

// ErrNotTafl is returned for a game an OTEP engine cannot play.
var ErrNotTafl = errors.New("otep: OpenTafl engines play tafl games only")

// StartHost starts an engine's command (run by the shell) for a game of
// Tablut, and sends it the rules.
func StartHost(command string, g game.Game, moveTime time.Duration, log io.Writer) (*Host, error) {
	cmd := exec.Command("/bin/sh", "-c", command)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if log != nil {
		cmd.Stderr = log
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("otep: starting %q: %w", command, err)
	}
	h, err := NewHost(in, out, g, moveTime, log)
	if err != nil {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
		return nil, err
	}
	h.cmd = cmd
	return h, nil
}

// NewHost hosts an engine already running, on its input and output.
func NewHost(in io.WriteCloser, out io.Reader, g game.Game, moveTime time.Duration, log io.Writer) (*Host, error) {
	if err := Playable(g); err != nil {
		return nil, err
	}
	tg := g.(*tablut.Game)
	rules := tg.OTNRules()
	h := &Host{MoveTime: moveTime, Log: log, g: tg, in: in, lines: make(chan string, 64), s: tg.Start()}
	go func() {
		defer close(h.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			h.lines <- strings.TrimSpace(sc.Text())
		}
	}()
	if err := h.send("rules " + rules); err != nil {
		return nil, err
	}
	return h, nil
}

// Playable says whether an OTEP engine can be told the game: a tafl game
// whose rules OpenTafl's notation states exactly (what it cannot say
// would be played by other rules).
func Playable(g game.Game) error {
	tg, ok := g.(*tablut.Game)
	if !ok {
		return fmt.Errorf("%w, not %s", ErrNotTafl, g.Name())
	}
	if back, _, err := tablut.ReadOTNRules(tg.OTNRules()); err != nil || !back.SamePlay(tg) {
		return fmt.Errorf("otep: %s cannot be told in OpenTafl's notation exactly (it reads back as %s)", tg.Spec(), specOf(back))
	}
	return nil
}

func specOf(g *tablut.Game) string {
	if g == nil {
		return "nothing"
	}
	return g.Spec()
}

func (h *Host) send(line string) error {
	if h.Log != nil {
		fmt.Fprintf(h.Log, "> %s\n", line)
	}
	_, err := io.WriteString(h.in, line+"\n")
	return err
}

// Act tells the engine what was played since it last moved and asks it
// for a move in s, within budget (MoveTime where zero), returned as the
// engine wrote it (OpenTafl's notation, which Tablut reads).
func (h *Host) Act(ctx context.Context, s game.State, budget time.Duration) (string, error) {
	ts, ok := s.(*tablut.State)
	if !ok {
		return "", ErrNotTafl
	}
	if err := h.tell(ts); err != nil {
		return "", err
	}
	if budget <= 0 {
		budget = h.MoveTime
	}
	pos := ts.Position()
	side := pos.ToMove()
	move, err := h.ask(ctx, side, budget)
	if errors.Is(err, errNoAnswer) && ctx.Err() == nil {
		// An engine that judges the game over by a rule it reads
		// differently (OpenTafl counts a repeated position twice) says
		// nothing: told the position afresh, without its history, it
		// plays on.
		p := h.s.Position()
		h.send("position " + p.OTN())
		move, err = h.ask(ctx, side, budget)
	}
	return move, err
}

// errNoAnswer is an engine silent past a move's time.
var errNoAnswer = errors.New("otep: the engine sent no move in time")

// ask sends a clock and "play", and reads the engine's move.
func (h *Host) ask(ctx context.Context, side tablut.Side, budget time.Duration) (string, error) {
	// The move's time as an overtime period the engine is in: it spends
	// most of what is left of it (as OpenTafl's byo-yomi).
	ms := budget.Milliseconds()
	sec := max(budget.Seconds(), 1)
	if err := h.send(fmt.Sprintf("clock %d* %d* %.0f 1 1", ms, ms, sec)); err != nil {
		return "", err
	}
	if err := h.send("play " + side.String()); err != nil {
		return "", err
	}
	deadline := time.NewTimer(budget + 5*time.Second)
	defer deadline.Stop()
	for {
		select {
		case <-ctx.Done():
			h.send("stop")
			return "", ctx.Err()
		case <-deadline.C:
			h.send("stop")
			return "", errNoAnswer
		case line, ok := <-h.lines:
			if !ok {
				return "", errors.New("otep: the engine quit")
			}
			if h.Log != nil {
				fmt.Fprintf(h.Log, "< %s\n", line)
			}
			cmd, rest, _ := strings.Cut(line, " ")
			switch cmd {
			case "move":
				text := strings.Fields(rest)
				if len(text) == 0 {
					return "", errors.New("otep: the engine sent an empty move")
				}
				m, err := h.s.ParseMove(text[0])
				if err != nil {
					return "", fmt.Errorf("otep: the engine's move %q: %w", text[0], err)
				}
				mover := h.s.ActionString(game.Action(m))
				h.s.ApplyMove(m)
				// OpenTafl acknowledges a move with the position after it.
				p := h.s.Position()
				h.send("move " + p.OTN())
				return mover, nil
			case "error":
				return "", fmt.Errorf("otep: the engine: %s", rest)
			}
		}
	}
}

// tell brings the engine's game up to s: the opponent's moves since, as
// opponent-move with the position after each; where s is not a
// continuation of what it knows (a game begun elsewhere, a takeback), the
// position itself.
func (h *Host) tell(s *tablut.State) error {
	known, now := h.s.History(), s.History()
	follows := len(now) >= len(known)
	for i := 0; follows && i < len(known); i++ {
		follows = known[i] == now[i]
	}
	p, q := s.Position(), h.replay(now).Position()
	if !follows || p.OTN() != q.OTN() {
		h.s = s.Clone().(*tablut.State)
		return h.send("position " + p.OTN())
	}
	for _, a := range now[len(known):] {
		text := h.s.ActionString(a)
		h.s.Apply(a)
		p := h.s.Position()
		if err := h.send("opponent-move " + text + " " + p.OTN()); err != nil {
			return err
		}
	}
	return nil
}

// replay is the start with the actions played (to check that a state's
// history begins where the engine's game does).
func (h *Host) replay(actions []game.Action) *tablut.State {
	s := h.g.Start()
	for _, a := range actions {
		s.Apply(a)
	}
	return s
}

// Close says goodbye to the engine and stops it if it does not go.
func (h *Host) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	h.closed = true
	h.send("goodbye")
	h.in.Close()
	if h.cmd == nil {
		return nil
	}
	done := make(chan error, 1)
	go func() { done <- h.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(3 * time.Second):
		h.cmd.Process.Kill()
		return <-done
	}
}
