package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/tablut"
)

// room is a game in play in memory: its state, the stored record and the
// connections watching it. Every change goes through its mutex, is checked
// by the rules, stored, and then sent to the watchers.
type room struct {
	srv    *Server
	mu     sync.Mutex
	rec    *store.Game
	g      game.Game
	s      game.State
	subs   map[chan []byte]struct{}
	agents [2]agent.Agent
	// thinking is set while an agent or the dice act.
	thinking bool
	rng      *rand.Rand
	// timer ends the game when the player to act runs out of time.
	timer *time.Timer
	// used is when the room was last used, for evicting idle rooms.
	used time.Time
}

// Errors of actions, shown to the player.
var (
	errNotYourTurn = errors.New("it is not your turn")
	errBadSecret   = errors.New("this seat's secret is wrong: you may only watch")
	errStale       = errors.New("the game has moved on: reload it")
	errOver        = errors.New("the game is over")
)

func newRoom(srv *Server, rec *store.Game) (*room, error) {
	g, err := game.Load(rec.Spec)
	if err != nil {
		return nil, err
	}
	s := g.NewState()
	for i, text := range rec.Actions {
		a, err := s.ParseAction(text)
		if err != nil {
			return nil, fmt.Errorf("game %s: stored action %d %q: %w", rec.ID, i+1, text, err)
		}
		s.Apply(a)
	}
	r := &room{srv: srv, rec: rec, g: g, s: s, subs: map[chan []byte]struct{}{}, rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1)), used: time.Now()}
	if rec.Clock != nil {
		// Time does not run while the server is down.
		rec.Clock.SinceMS = time.Now().UnixMilli()
	}
	for p, seat := range rec.Seats {
		if seat.Kind == "ai" {
			ag, err := agent.New(seat.Agent, g, uint64(time.Now().UnixNano())+uint64(p))
			if err != nil {
				return nil, err
			}
			r.agents[p] = ag
		}
	}
	return r, nil
}

// seatOf returns the seat whose secret this is, or -1.
func (r *room) seatOf(secret string) int {
	if secret == "" {
		return -1
	}
	h := hashSecret(secret)
	for p, seat := range r.rec.Seats {
		if seat.SecretHash != "" && equalHash(seat.SecretHash, h) {
			return p
		}
	}
	return -1
}

// play checks and plays an action for the seat holding secret, at ply.
func (r *room) play(ctx context.Context, secret, text string, ply int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.s.IsTerminal() || r.rec.Status == "over" {
		return errOver
	}
	seat := r.seatOf(secret)
	if seat < 0 {
		return errBadSecret
	}
	if ply != len(r.rec.Actions) {
		return errStale
	}
	if p := r.s.ToAct(); p < 0 || int(p) != seat {
		return errNotYourTurn
	}
	a, err := r.s.ParseAction(text)
	if err != nil {
		return err
	}
	return r.apply(ctx, a)
}

// apply plays a legal action, stores it and tells the watchers; the room's
// mutex is held. With a clock, the mover's time is charged (and the game
// lost if it ran out) and his increment added when his turn ends.
func (r *room) apply(ctx context.Context, a game.Action) error {
	text := r.s.ActionString(a)
	before := len(r.rec.Actions)
	mover := r.s.ToAct()
	oldClock := r.rec.Clock
	if c := r.rec.Clock; c != nil && mover >= 0 {
		nc := c.Charged(int(mover), time.Now().UnixMilli())
		if nc.LeftMS[mover] == 0 {
			r.rec.Clock = &nc
			if err := r.end(ctx, r.g.PlayerName(1-mover), r.g.PlayerName(mover)+" lost on time"); err != nil {
				r.rec.Clock = oldClock
				return err
			}
			return errOver
		}
		r.rec.Clock = &nc
	}
	next := r.s.Clone()
	next.Apply(a)
	if c := r.rec.Clock; c != nil && mover >= 0 && next.ToAct() != mover {
		c.LeftMS[mover] += c.IncMS
	}
	r.rec.Actions = append(r.rec.Actions, text)
	r.rec.DrawOffer = -1
	if next.IsTerminal() {
		r.rec.Status = "over"
		r.rec.Result = game.ResultName(next)
		r.rec.Reason = next.Result().Reason
	}
	if err := r.srv.store.Update(ctx, r.rec, before); err != nil {
		r.rec.Actions = r.rec.Actions[:before]
		r.rec.Status, r.rec.Result, r.rec.Reason = "playing", "", ""
		r.rec.Clock = oldClock
		return err
	}
	r.s = next
	r.broadcast()
	r.kick()
	r.arm()
	return nil
}

// arm sets the timer for the player to act; the mutex is held.
func (r *room) arm() {
	if r.timer != nil {
		r.timer.Stop()
	}
	c := r.rec.Clock
	p := r.s.ToAct()
	if c == nil || p < 0 || r.rec.Status != "playing" {
		return
	}
	left := time.Duration(c.LeftMS[p]-(time.Now().UnixMilli()-c.SinceMS)) * time.Millisecond
	ply := len(r.rec.Actions)
	r.timer = time.AfterFunc(max(left, 0)+10*time.Millisecond, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if len(r.rec.Actions) != ply || r.rec.Status != "playing" || r.srv.ctx.Err() != nil {
			return
		}
		c := r.rec.Clock.Charged(int(p), time.Now().UnixMilli())
		if c.LeftMS[p] > 0 {
			r.arm()
			return
		}
		old := r.rec.Clock
		r.rec.Clock = &c
		if err := r.end(r.srv.ctx, r.g.PlayerName(1-p), r.g.PlayerName(p)+" lost on time"); err != nil {
			r.rec.Clock = old
			r.srv.log.Printf("game %s: %v", r.rec.ID, err)
		}
	})
}

// end finishes the game by resignation or agreement; the mutex is held.
func (r *room) end(ctx context.Context, result, reason string) error {
	ply := len(r.rec.Actions)
	r.rec.Status, r.rec.Result, r.rec.Reason, r.rec.DrawOffer = "over", result, reason, -1
	if err := r.srv.store.Update(ctx, r.rec, ply); err != nil {
		r.rec.Status, r.rec.Result, r.rec.Reason = "playing", "", ""
		return err
	}
	r.broadcast()
	return nil
}

// kick starts the agent or the dice if they are to act; the mutex is held.
func (r *room) kick() {
	if r.thinking || r.s.IsTerminal() || r.rec.Status == "over" {
		return
	}
	p := r.s.ToAct()
	if p != game.Chance && (p < 0 || r.agents[p] == nil) {
		return
	}
	r.thinking = true
	s := r.s.Clone()
	ply := len(r.rec.Actions)
	r.srv.wg.Add(1)
	go func() {
		defer r.srv.wg.Done()
		var a game.Action
		var err error
		if p == game.Chance {
			r.mu.Lock()
			a, _ = game.RandomAction(s, r.rng, nil)
			r.mu.Unlock()
		} else {
			ctx, cancel := context.WithTimeout(r.srv.ctx, r.srv.cfg.AgentTimeout)
			res, aerr := r.agents[p].Act(ctx, s)
			cancel()
			a, err = res.Action, aerr
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		r.thinking = false
		if err != nil || r.srv.ctx.Err() != nil {
			if err != nil {
				r.srv.log.Printf("game %s: agent: %v", r.rec.ID, err)
			}
			return
		}
		if len(r.rec.Actions) != ply || r.rec.Status == "over" {
			r.kick()
			return
		}
		if err := r.apply(r.srv.ctx, a); err != nil {
			r.srv.log.Printf("game %s: %v", r.rec.ID, err)
		}
	}()
	r.broadcast()
}

// subscribe adds a watcher; it gets the current view at once.
func (r *room) subscribe() chan []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch := make(chan []byte, 1)
	r.subs[ch] = struct{}{}
	ch <- r.viewJSON()
	return ch
}

func (r *room) unsubscribe(ch chan []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.subs, ch)
}

// broadcast sends the view to every watcher. Each view is whole, so a
// watcher too slow to take every one gets the newest: an older view still
// waiting is dropped in its favour, never the newest. The mutex is held.
func (r *room) broadcast() {
	msg := r.viewJSON()
	for ch := range r.subs {
		select {
		case ch <- msg:
		default:
			select {
			case <-ch: // the stale view
			default:
			}
			select {
			case ch <- msg:
			default:
			}
		}
	}
}

// actionView is a legal action with its squares, for the board's clicks.
type actionView struct {
	Text    string   `json:"text"`
	Kind    string   `json:"kind"`
	Squares []string `json:"squares,omitempty"`
}

var squareRE = regexp.MustCompile(`[a-i][1-9]`)

func describeAction(text string) actionView {
	v := actionView{Text: text, Squares: squareRE.FindAllString(text, -1)}
	switch {
	case strings.HasPrefix(text, "@"):
		v.Kind = "place"
	case strings.HasPrefix(text, "roll"):
		v.Kind = "roll"
	case strings.HasPrefix(text, "mark>"):
		v.Kind = "markmove"
	case strings.HasPrefix(text, "mark"):
		v.Kind = "mark"
	case strings.HasPrefix(text, "swap"):
		v.Kind = "swap"
	case strings.HasPrefix(text, "x "):
		v.Kind = "remove"
	case strings.Contains(text, "~"):
		v.Kind = "slide"
	case len(v.Squares) >= 2:
		v.Kind = "move"
		v.Squares = v.Squares[:2]
	default:
		v.Kind = text // interchange, no-interchange, end, pass
		v.Squares = nil
	}
	return v
}

// view is what every client receives.
type view struct {
	ID        string       `json:"id"`
	Spec      string       `json:"spec"`
	Game      string       `json:"game"`
	Players   []string     `json:"players"`
	Seats     []seatView   `json:"seats"`
	Position  string       `json:"position"`
	ToAct     *string      `json:"to_act"`
	Board     any          `json:"board"`
	Legal     []actionView `json:"legal"`
	History   []string     `json:"history"`
	Ply       int          `json:"ply"`
	Status    string       `json:"status"`
	Result    string       `json:"result,omitempty"`
	Reason    string       `json:"reason,omitempty"`
	DrawOffer int          `json:"draw_offer"`
	Thinking  bool         `json:"thinking"`
	Clock     *clockView   `json:"clock,omitempty"`
}

// clockView gives each player's time left now, and who is thinking.
type clockView struct {
	LeftMS  [2]int64 `json:"left_ms"`
	Running int      `json:"running"` // the player whose time runs, or -1
	BaseMS  int64    `json:"base_ms"`
	IncMS   int64    `json:"inc_ms"`
}

type seatView struct {
	Kind    string `json:"kind"`
	Agent   string `json:"agent,omitempty"`
	Claimed bool   `json:"claimed"`
}

func (r *room) view() view {
	r.used = time.Now()
	v := view{
		ID: r.rec.ID, Spec: r.g.Spec(), Game: r.g.Name(), Position: r.s.String(), History: append([]string{}, r.rec.Actions...),
		Ply: len(r.rec.Actions), Status: r.rec.Status, Result: r.rec.Result, Reason: r.rec.Reason, DrawOffer: r.rec.DrawOffer,
		Thinking: r.thinking, Legal: []actionView{},
	}
	for p := 0; p < r.g.NumPlayers(); p++ {
		v.Players = append(v.Players, r.g.PlayerName(game.Player(p)))
	}
	for _, seat := range r.rec.Seats {
		v.Seats = append(v.Seats, seatView{Kind: seat.Kind, Agent: seat.Agent, Claimed: seat.SecretHash != "" || seat.Kind == "ai"})
	}
	if p := r.s.ToAct(); p >= 0 && r.rec.Status == "playing" {
		name := r.g.PlayerName(p)
		v.ToAct = &name
		for _, a := range r.s.LegalActions(nil) {
			v.Legal = append(v.Legal, describeAction(r.s.ActionString(a)))
		}
	} else if p == game.Chance {
		name := "chance"
		v.ToAct = &name
	}
	if c := r.rec.Clock; c != nil {
		cv := &clockView{LeftMS: c.LeftMS, Running: -1, BaseMS: c.BaseMS, IncMS: c.IncMS}
		if p := r.s.ToAct(); p >= 0 && r.rec.Status == "playing" {
			cv.Running = int(p)
			cv.LeftMS = c.Charged(int(p), time.Now().UnixMilli()).LeftMS
		}
		v.Clock = cv
	}
	switch s := r.s.(type) {
	case *tablut.State:
		v.Board = s.View()
	case *lanrick.State:
		v.Board = s.View()
	}
	return v
}

// viewAt is the view of the game as it was after ply actions, for
// stepping through it; nothing is legal there.
func (r *room) viewAt(ply int) view {
	s := r.g.NewState()
	for _, text := range r.rec.Actions[:ply] {
		a, err := s.ParseAction(text)
		if err != nil {
			break
		}
		s.Apply(a)
	}
	cur := r.s
	r.s = s
	v := r.view()
	r.s = cur
	v.Legal, v.ToAct, v.Ply, v.History = []actionView{}, nil, ply, v.History[:ply]
	return v
}

func (r *room) viewJSON() []byte {
	b, err := marshal(r.view())
	if err != nil {
		return []byte(`{"error":"internal"}`)
	}
	return b
}

// idle reports whether the room can leave memory: nobody watches, no agent
// thinks, no clock runs, and it has not been used for a while. The mutex
// is held.
func (r *room) idle(after time.Duration) bool {
	running := r.timer != nil && r.rec.Clock != nil && r.rec.Status == "playing"
	return len(r.subs) == 0 && !r.thinking && !running && time.Since(r.used) > after
}
