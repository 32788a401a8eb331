package server

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/store"
)

// room is a game in play in memory: its state, the stored record and the
// connections watching it. It is the one owner of a game: every change
// goes through its methods, which hold its mutex, check the change by the
// rules and the seats' secrets, store it, and then send the new view to
// the watchers. Nothing outside holds its lock.
type room struct {
	srv  *Server
	mu   sync.Mutex
	rec  *store.Game
	g    game.Game
	s    game.State
	subs map[chan []byte]struct{}
	// chatSubs watch the chat.
	chatSubs map[*chatSub]struct{}
	// leased is set while this server runs the game's clock and agents
	// (always, on a database no other server shares).
	leased bool
	agents [2]agent.Agent
	// thinking is set while an agent or the dice act.
	thinking bool
	rng      *rand.Rand
	// timer ends the game when the player to act runs out of time.
	timer *time.Timer
	// used is when the room was last used, for evicting idle rooms.
	used time.Time
	// first is the position the game began from (never played on).
	first game.State
	// turns caches the move list for the ply it was made at.
	turns   []game.Turn
	turnsAt int
	// pondering is a computer thinking on a person's time, while it runs.
	pondering struct {
		cancel context.CancelFunc
		done   chan struct{}
	}
}

func newRoom(srv *Server, rec *store.Game) (*room, error) {
	g, err := game.Load(rec.Spec)
	if err != nil {
		return nil, err
	}
	first, err := initial(g, rec)
	if err != nil {
		return nil, fmt.Errorf("game %s: start: %w", rec.ID, err)
	}
	s := first.Clone()
	if err := game.ApplyNotation(s, rec.Actions); err != nil {
		return nil, fmt.Errorf("game %s: stored actions: %w", rec.ID, err)
	}
	r := &room{srv: srv, rec: rec, g: g, s: s, first: first, subs: map[chan []byte]struct{}{}, chatSubs: map[*chatSub]struct{}{}, rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1)), used: time.Now(), turnsAt: -1}
	if rec.Clock != nil && !rec.Clock.Correspondence() && !srv.shared {
		// A live clock does not run while the server is down; days for a
		// move by correspondence do.
		rec.Clock.SinceMS = time.Now().UnixMilli()
	}
	for p, seat := range rec.Seats {
		if seat.Kind == store.SeatAI {
			ag, err := agent.New(seat.Agent, g, uint64(time.Now().UnixNano())+uint64(p))
			if err != nil {
				return nil, err
			}
			r.agents[p] = ag
		}
	}
	return r, nil
}

// initial is the position a stored game began from.
func initial(g game.Game, rec *store.Game) (game.State, error) {
	if rec.Start == "" {
		return g.NewState(), nil
	}
	return g.ParseState(rec.Start)
}

// start sets the agents and the clock going where it is their turn.
func (r *room) start() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kick()
	r.arm()
}

// holder is who asks to act for a seat: the seat's secret, kept by the
// browser that took the seat, and the player the request's session signs
// in (an account, or a browser's anonymous identity).
type holder struct {
	secret string
	player string
}

// seatOf returns the seat the holder holds, or -1: the seat of the secret,
// else the one seat held by the player (a player holding both, at one
// screen, names his seat by its secret).
func (r *room) seatOf(who holder) int {
	if who.secret != "" {
		h := hashSecret(who.secret)
		for p, seat := range r.rec.Seats {
			if seat.SecretHash != "" && equalHash(seat.SecretHash, h) {
				return p
			}
		}
	}
	if who.player == "" {
		return -1
	}
	found := -1
	for p, seat := range r.rec.Seats {
		if seat.Kind == store.SeatHuman && seat.Player == who.player && seat.JoinHash == "" {
			if found >= 0 {
				return -1
			}
			found = p
		}
	}
	return found
}

// seated checks a seat's holder on a game in play; the mutex is held.
func (r *room) seated(h holder) (int, error) {
	seat := r.seatOf(h)
	switch {
	case seat < 0:
		return -1, errBadSecret
	case r.rec.Status == store.StatusOver:
		return -1, errOver
	}
	return seat, nil
}

// play checks and plays an action for the seat holding secret, at ply,
// and returns the new view.
func (r *room) play(ctx context.Context, h holder, text string, ply int) (view, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.s.IsTerminal() {
		return view{}, errOver
	}
	seat, err := r.seated(h)
	if err != nil {
		return view{}, err
	}
	if ply != len(r.rec.Actions) {
		return view{}, errStale
	}
	if p := r.s.ToAct(); p < 0 || int(p) != seat {
		return view{}, errNotYourTurn
	}
	a, err := r.s.ParseAction(text)
	if err != nil {
		return view{}, err
	}
	if err := r.apply(ctx, a); err != nil {
		return view{}, err
	}
	return r.view(), nil
}

// join gives the seat left for a friend to the holder of its invitation,
// player me, once, and returns the seat and its new secret.
func (r *room) join(ctx context.Context, token string, me *store.Player) (int, string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h := hashSecret(token)
	for p, seat := range r.rec.Seats {
		if seat.JoinHash == "" || token == "" || !equalHash(seat.JoinHash, h) {
			continue
		}
		secret := randomToken(16)
		oldClock := r.rec.Clock
		r.rec.Seats[p].JoinHash = ""
		r.rec.Seats[p].SecretHash = hashSecret(secret)
		r.rec.Seats[p].Player, r.rec.Seats[p].Name = me.ID, me.Username
		if r.clockRuns() {
			r.startClock() // as the friend arrives
		}
		if err := r.save(ctx, len(r.rec.Actions)); err != nil {
			r.rec.Seats[p], r.rec.Clock = seat, oldClock
			return -1, "", err
		}
		r.broadcast()
		r.arm()
		return p, secret, nil
	}
	return -1, "", errBadInvite
}

// apply plays a legal action, stores it and tells the watchers; the room's
// mutex is held. With a clock, the mover's time is charged (and the game
// lost if it ran out) and his increment added when his turn ends.
func (r *room) apply(ctx context.Context, a game.Action) error {
	r.stopPondering()
	text := r.s.ActionString(a)
	before := len(r.rec.Actions)
	mover := r.s.ToAct()
	oldClock := r.rec.Clock
	running := r.clockRuns()
	if c := r.rec.Clock; c != nil && !running {
		r.startClock() // for whoever acts after this action
	} else if c != nil && mover >= 0 {
		nc := c.Charged(int(mover), time.Now().UnixMilli())
		r.rec.Clock = &nc
		if nc.LeftMS[mover] == 0 {
			if err := r.end(ctx, r.g.PlayerName(1-mover), r.g.PlayerName(mover)+" lost on time"); err != nil {
				r.rec.Clock = oldClock
				return err
			}
			return errOver
		}
	}
	next := r.s.Clone()
	next.Apply(a)
	if c := r.rec.Clock; c != nil && running && mover >= 0 && next.ToAct() != mover {
		if c.Correspondence() {
			c.LeftMS[mover] = c.BaseMS // days for the next move
		} else {
			c.LeftMS[mover] += c.IncMS
		}
	}
	r.rec.Actions = append(r.rec.Actions, text)
	oldOffer, oldTakeback := r.rec.DrawOffer, r.rec.TakebackOffer
	r.rec.DrawOffer, r.rec.TakebackOffer = -1, -1
	if next.IsTerminal() {
		r.rec.Status = store.StatusOver
		r.rec.Result = game.ResultName(next)
		r.rec.Reason = next.Result().Reason
	}
	if err := r.saveState(ctx, before, next); err != nil {
		r.rec.Actions = r.rec.Actions[:before]
		r.rec.Status, r.rec.Result, r.rec.Reason = store.StatusPlaying, "", ""
		r.rec.Clock, r.rec.DrawOffer, r.rec.TakebackOffer = oldClock, oldOffer, oldTakeback
		return err
	}
	r.s = next
	r.broadcast()
	r.kick()
	r.arm()
	return nil
}

// save stores the game, which the store had with before actions; the
// mutex is held.
func (r *room) save(ctx context.Context, before int) error { return r.saveState(ctx, before, r.s) }

// saveState stores the game as it is in state s. A rated game that ends
// changes its players' ratings in the same write.
func (r *room) saveState(ctx context.Context, before int, s game.State) error {
	r.rec.ToAct, r.rec.Deadline = toActOf(r.rec, s), 0
	p := s.ToAct()
	if r.clockRuns() && p >= 0 && int(p) < 2 {
		r.rec.Deadline = r.rec.Clock.Deadline(int(p))
	}
	var err error
	switch {
	case r.rec.Rated && r.rec.Status == store.StatusOver && len(r.rec.Ratings) == 0:
		err = r.finishRated(ctx, before, s)
	default:
		err = r.srv.store.Update(ctx, r.rec, before)
	}
	if err != nil {
		return err
	}
	r.srv.publish(topicGame, r.rec.ID)
	if r.rec.Status == store.StatusOver && r.leased && r.srv.shared {
		go r.srv.store.ReleaseLease(context.Background(), r.rec.ID, r.srv.instance)
	}
	return nil
}

// refresh reads the game again from the store, where another server may
// have changed it, and shows the change to the watchers (and, holding the
// lease, sets its agents and clock going).
func (r *room) refresh() {
	rec, err := r.srv.store.Get(r.srv.ctx, r.id())
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !rec.Updated.After(r.rec.Updated) {
		return
	}
	s := r.first.Clone()
	if err := game.ApplyNotation(s, rec.Actions); err != nil {
		r.srv.log.Error("reading a game again", "game", rec.ID, "err", err)
		return
	}
	r.rec, r.s, r.turnsAt = rec, s, -1
	r.broadcast()
	r.kick()
	r.arm()
}

// toActOf is the player whose move the stored game waits for in state s,
// or "".
func toActOf(rec *store.Game, s game.State) string {
	if p := s.ToAct(); rec.Status != store.StatusOver && p >= 0 && int(p) < len(rec.Seats) && rec.Seats[p].Kind == store.SeatHuman {
		return rec.Seats[p].Player
	}
	return ""
}

// stopTimer stops the clock's timer.
func (r *room) stopTimer() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil {
		r.timer.Stop()
	}
}

// clockRuns reports whether the game's clock runs: a timed game in play,
// every seat taken, and the first action made (as on lichess, nobody loses
// time to a seat still empty or before the game has begun). The mutex is
// held.
func (r *room) clockRuns() bool {
	if r.rec.Clock == nil || r.rec.Status != store.StatusPlaying || len(r.rec.Actions) == 0 {
		return false
	}
	for _, seat := range r.rec.Seats {
		if seat.JoinHash != "" {
			return false
		}
	}
	return true
}

// startClock starts the time of the player to act from now, on a copy of
// the clock (the old one is kept for undoing a failed write); the mutex
// is held.
func (r *room) startClock() {
	nc := *r.rec.Clock
	nc.SinceMS = time.Now().UnixMilli()
	r.rec.Clock = &nc
}

// arm sets the timer for the player to act; the mutex is held.
func (r *room) arm() {
	if r.timer != nil {
		r.timer.Stop()
	}
	c := r.rec.Clock
	p := r.s.ToAct()
	if p < 0 || !r.clockRuns() || !r.leased {
		return
	}
	left := time.Duration(c.LeftMS[p]-(time.Now().UnixMilli()-c.SinceMS)) * time.Millisecond
	ply := len(r.rec.Actions)
	r.timer = time.AfterFunc(max(left, 0)+10*time.Millisecond, func() { r.flag(p, ply) })
}

// flagNow ends the game if the player to act has run out of time.
func (r *room) flagNow() {
	r.mu.Lock()
	p, ply, runs := r.s.ToAct(), len(r.rec.Actions), r.clockRuns()
	r.mu.Unlock()
	if p >= 0 && runs {
		r.flag(p, ply)
	}
}

// flag ends the game when p, to act at ply, has run out of time.
func (r *room) flag(p game.Player, ply int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.rec.Actions) != ply || r.rec.Status != store.StatusPlaying || r.srv.ctx.Err() != nil {
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
		r.srv.log.Error("flagging a game", "game", r.rec.ID, "err", err)
	}
}

// kick starts the agent or the dice if they are to act; the mutex is held.
func (r *room) kick() {
	if !r.leased || r.thinking || r.s.IsTerminal() || r.rec.Status == store.StatusOver {
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
	go r.think(p, s, ply)
	r.broadcast()
}

// think finds the action of the agent or the dice and plays it, unless
// the game has moved on meanwhile.
func (r *room) think(p game.Player, s game.State, ply int) {
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
	switch {
	case err != nil:
		r.srv.log.Error("agent failed", "game", r.rec.ID, "err", err)
		return
	case r.srv.ctx.Err() != nil:
		return
	case len(r.rec.Actions) != ply || r.rec.Status == store.StatusOver:
		r.kick()
		return
	}
	if err := r.apply(r.srv.ctx, a); err != nil {
		r.srv.log.Error("playing the agent's action", "game", r.rec.ID, "err", err)
		return
	}
	r.ponder(p)
}

// ponder lets the computer at seat p think on the person's time, where
// its moves have a time to fill (the max level): it searches the position
// after its move into its own table until the person acts, the game ends
// or AgentTimeout passes. It takes one of the server's engine tokens and
// does not ponder when none is free. The mutex is held.
func (r *room) ponder(p game.Player) {
	if p < 0 { // the dice
		return
	}
	next := r.s.ToAct()
	ag := r.agents[p]
	if r.s.IsTerminal() || next < 0 || r.agents[next] != nil || agent.Limits(ag).Time == 0 || r.pondering.done != nil {
		return
	}
	select {
	case r.srv.engines <- struct{}{}:
	default:
		return
	}
	ctx, cancel := context.WithTimeout(r.srv.ctx, r.srv.cfg.AgentTimeout)
	done := make(chan struct{})
	r.pondering.cancel, r.pondering.done = cancel, done
	s := r.s.Clone()
	r.srv.wg.Add(1)
	r.srv.ponders.Add(1)
	go func() {
		defer r.srv.wg.Done()
		defer func() { <-r.srv.engines }()
		defer close(done)
		agent.Ponder(ctx, ag, s)
	}()
}

// stopPondering ends the computer's thinking on the person's time and
// waits for it, so that its search has the cores; the mutex is held.
func (r *room) stopPondering() {
	if r.pondering.done == nil {
		return
	}
	r.pondering.cancel()
	<-r.pondering.done
	r.pondering.cancel, r.pondering.done = nil, nil
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
	if r.betweenPeople() {
		r.srv.signalLobby() // its board in the lobby's list of games
	}
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

// betweenPeople reports whether two different players hold the seats (a
// game the lobby shows); the mutex is held.
func (r *room) betweenPeople() bool {
	return len(r.rec.Seats) == 2 && r.rec.Seats[0].Player != "" && r.rec.Seats[1].Player != "" && r.rec.Seats[0].Player != r.rec.Seats[1].Player
}

// idle reports whether the room can leave memory: nobody watches, no agent
// thinks, no clock runs, and it has not been used for a while.
func (r *room) idle(after time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	// A live clock keeps its room; days by correspondence are watched by
	// the deadline sweep once the room is dropped.
	running := r.timer != nil && r.rec.Clock != nil && !r.rec.Clock.Correspondence() && r.rec.Status == store.StatusPlaying
	return len(r.subs) == 0 && len(r.chatSubs) == 0 && !r.thinking && !running && time.Since(r.used) > after
}

// id is the game's id, which never changes.
func (r *room) id() string { return r.rec.ID }

// writeRecord writes the game's record in its game's own format, with
// the site, date, players and result as tags.
func (r *room) writeRecord(w io.Writer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	rc, ok := r.g.(game.Recorder)
	if !ok {
		return withCode(http.StatusNotFound, fmt.Errorf("%s has no record format", r.g.Name()))
	}
	tags := []game.KV{{Key: "site", Value: "Muster"}, {Key: "date", Value: r.rec.Created.Format("2006.01.02")}}
	for p, seat := range r.rec.Seats {
		who := "person"
		if seat.Kind == store.SeatAI {
			who = "Muster " + seat.Agent
		}
		tags = append(tags, game.KV{Key: r.g.PlayerName(game.Player(p)), Value: who})
	}
	if r.rec.Status == store.StatusOver {
		tags = append(tags, game.KV{Key: "result", Value: r.rec.Result}, game.KV{Key: "termination", Value: r.rec.Reason})
	}
	return rc.WriteRecord(w, game.NewRecord(r.rec.Start, r.s, tags...))
}
