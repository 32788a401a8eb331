package play

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/bus"
	"github.com/muster-games/muster/internal/engine"
	"github.com/muster-games/muster/internal/events"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/outcome"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

// room is a game in play in memory. It is the one owner of a game: every
// change goes through its methods, which take its turn, check the change
// by the rules and the seats' secrets, store it, and then publish the new
// snapshot to the readers and the watchers. The turn orders the changes
// as the store needs them (each write expects the one before); readers
// never wait for it.
type room struct {
	gs *Games
	id string
	g  game.Game
	// first is the position the game began from (never played on).
	first game.State
	// turn is taken (a token put in) by the change being made.
	turn chan struct{}

	// What follows is read and written by the holder of the turn. The
	// snapshots share rec.Actions and s's history: rec.Actions is only
	// appended to (or replaced), and s is never changed once set (a
	// change makes a new state).
	rec *store.Game
	s   game.State
	// leased is set while this server runs the game's clock and agents
	// (always, on a database no other server shares); it changes under
	// the turn and may be read without it.
	leased atomic.Bool
	// agents are the computer's seats' players, made when first asked to
	// act and dropped when the game ends.
	agents [2]agent.Agent
	// thinking is set while an agent or the dice act; stopThinking ends
	// the agent's search (the game ended, or was taken back).
	thinking     bool
	stopThinking context.CancelFunc
	// timer ends the game when the player to act runs out of time.
	timer *time.Timer
	// turns are the game's turns, grouped as actions come, at ply
	// turnsAt (moveList).
	turns   *turnLog
	turnsAt int
	// pondering is a computer thinking on a person's time, while it runs.
	pondering struct {
		cancel context.CancelFunc
		done   chan struct{}
	}
	// gone is set once the room has left memory.
	gone bool
	// stale is set when a write found the stored game changed by another
	// server since this one read it: the next holder of the turn reads
	// it again before anything else.
	stale bool
	// behind is set when another server's change was not read at once
	// (changedElsewhere): a watcher who comes has it read (subscribe).
	behind atomic.Bool

	// rng throws the dice; only the one think running uses it.
	rng *rand.Rand
	// snap is the last snapshot published.
	snap atomic.Pointer[snapshot]
	// used is when the room was last used (Unix ns), for evicting it.
	used atomic.Int64
	// agentCount counts the agents held.
	agentCount atomic.Int32

	// subMu guards the watchers (a leaf: nothing is locked under it);
	// watching counts them for the registry, which reads it without.
	subMu    sync.Mutex
	subs     map[*watcher]struct{}
	retired  bool
	watching atomic.Int32
}

func newRoom(gs *Games, rec *store.Game) (*room, error) {
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
	r := &room{gs: gs, id: rec.ID, rec: rec, g: g, s: s, first: first, turn: make(chan struct{}, 1), subs: map[*watcher]struct{}{},
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1)), turnsAt: -1}
	if rec.Clock != nil && !rec.Clock.Correspondence() && !gs.bus.Shared() {
		// A live clock does not run while the server is down; days for a
		// move by correspondence do.
		rec.Clock.SinceMS = time.Now().UnixMilli()
	}
	r.touch()
	r.publish()
	return r, nil
}

// initial is the position a stored game began from.
func initial(g game.Game, rec *store.Game) (game.State, error) {
	if rec.Start == "" {
		return g.NewState(), nil
	}
	return g.ParseState(rec.Start)
}

// lock takes the room's turn, waiting until ctx is done; a room that has
// left memory answers errGone. A room that a write found behind the
// store (stale) reads the game again first. Where servers share the
// database, the copy may be behind unseen; no version is read here (a
// read a request, most of them for nothing: a fifth of the CPU of a
// server through which 500 live games were played), for nothing is lost
// on an old copy: every write of the game is made on the version read,
// and one that finds it changed is made again on the game read anew
// (Games.with); a request refused on a copy found behind is made again
// too (with); and what is shown is read at its version first (current).
func (r *room) lock(ctx context.Context) error {
	// The turn taken at once where it is free, so that a request's
	// context (a socket's, for as long as it lives) is not asked for the
	// channel it makes only when asked (0.1 KB a socket).
	if err := ctx.Err(); err != nil {
		return httpx.Unavailable(err)
	}
	select {
	case r.turn <- struct{}{}:
	default:
		select {
		case r.turn <- struct{}{}:
		case <-ctx.Done():
			return httpx.Unavailable(ctx.Err())
		}
	}
	if r.gone {
		<-r.turn
		return errGone
	}
	if r.stale {
		if err := r.reload(ctx); err != nil {
			<-r.turn
			return err
		}
	}
	return nil
}

func (r *room) unlock() { <-r.turn }

// catchUp reads the game again if another server has changed it since the
// room last showed it, and reports whether it had.
func (r *room) catchUp(ctx context.Context) (bool, error) {
	if !r.gs.bus.Shared() {
		return false, nil
	}
	v, err := r.gs.store.Version(ctx, r.id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return false, errNoGame
	case err != nil:
		return false, httpx.Unavailable(err)
	case v <= r.snap.Load().rec.Version:
		return false, nil
	}
	if err := r.lock(ctx); err != nil {
		return false, err
	}
	defer r.unlock()
	if v > r.rec.Version {
		if err := r.reload(ctx); err != nil {
			return false, err
		}
	}
	return true, nil
}

// touch marks the room used now.
func (r *room) touch() { r.used.Store(time.Now().UnixNano()) }

// start sets the agents and the clock going where it is their turn.
func (r *room) start() {
	if r.lock(r.gs.ctx) != nil {
		return
	}
	defer r.unlock()
	if r.endLeft() {
		return
	}
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

// seatOf returns the seat the holder holds among seats, or -1: the seat
// of the secret, else the one seat held by the player (a player holding
// both, at one screen, names his seat by its secret).
func seatOf(seats []store.Seat, who holder) int {
	if who.secret != "" {
		sum := token.Sum(who.secret)
		for p, seat := range seats {
			if seat.SecretHash != "" && token.Matches(&sum, seat.SecretHash) {
				return p
			}
		}
	}
	if who.player == "" {
		return -1
	}
	found := -1
	for p, seat := range seats {
		if seat.Kind == store.SeatHuman && seat.Player == who.player && seat.JoinHash == "" {
			if found >= 0 {
				return -1
			}
			found = p
		}
	}
	return found
}

// seatsOf lists the seats a player holds by his session.
func seatsOf(seats []store.Seat, player string) []int {
	var out []int
	for p, seat := range seats {
		if player != "" && seat.Kind == store.SeatHuman && seat.Player == player && seat.JoinHash == "" {
			out = append(out, p)
		}
	}
	return out
}

// seated checks a seat's holder on a game in play; the turn is held.
func (r *room) seated(h holder) (int, error) {
	seat := seatOf(r.rec.Seats, h)
	switch {
	case seat < 0:
		return -1, errBadSecret
	case r.rec.Status == store.StatusOver:
		return -1, errOver
	}
	return seat, nil
}

// isAI reports whether seat p is the computer's; the turn is held.
func (r *room) isAI(p game.Player) bool {
	return p >= 0 && int(p) < len(r.rec.Seats) && r.rec.Seats[p].Kind == store.SeatAI
}

// play checks and plays an action for the seat holding secret, at ply,
// and returns the new view.
func (r *room) play(ctx context.Context, h holder, text string, ply int) (View, error) {
	if err := r.lock(ctx); err != nil {
		return View{}, err
	}
	defer r.unlock()
	if r.s.IsTerminal() {
		return View{}, errOver
	}
	seat, err := r.seated(h)
	if err != nil {
		return View{}, err
	}
	if ply != len(r.rec.Actions) {
		return View{}, errStale
	}
	if p := r.s.ToAct(); p < 0 || int(p) != seat {
		return View{}, errNotYourTurn
	}
	a, err := r.s.ParseAction(text)
	if err != nil {
		return View{}, err
	}
	if err := r.apply(ctx, a); err != nil {
		return View{}, err
	}
	return r.snap.Load().head(), nil
}

// join gives the seat left for a friend to the holder of its invitation,
// player me, once, and returns the seat and its new secret.
func (r *room) join(ctx context.Context, invite string, me *store.Player) (int, string, error) {
	if err := r.lock(ctx); err != nil {
		return -1, "", err
	}
	defer r.unlock()
	h := token.Hash(invite)
	for p, seat := range r.rec.Seats {
		if seat.JoinHash == "" || invite == "" || !token.Equal(seat.JoinHash, h) {
			continue
		}
		secret := token.New(16)
		oldClock := r.rec.Clock
		r.rec.Seats[p].JoinHash = ""
		r.rec.Seats[p].SecretHash = token.Hash(secret)
		r.rec.Seats[p].Player, r.rec.Seats[p].Name = me.ID, me.Username
		if r.clockRuns() {
			r.startClock() // as the friend arrives
		}
		if err := r.save(ctx, len(r.rec.Actions)); err != nil {
			r.rec.Seats[p], r.rec.Clock = seat, oldClock
			return -1, "", err
		}
		r.publish()
		r.arm()
		return p, secret, nil
	}
	return -1, "", errBadInvite
}

// apply plays a legal action, stores it and tells the watchers; the turn
// is held. With a clock, the mover's time is charged (and the game lost
// if it ran out) and his increment added when his turn ends.
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
			if err := r.end(ctx, outcome.Won(int(1-mover), r.g.PlayerName(mover)+" lost on time")); err != nil {
				r.rec.Clock = oldClock
				return err
			}
			return errOver
		}
	}
	next := game.Fork(r.s) // r.s is kept only until the move is stored
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
		o := outcome.Of(next)
		r.rec.Result, r.rec.Reason = o.Text(r.g), o.Reason
	}
	if err := r.saveState(ctx, before, next); err != nil {
		r.rec.Actions = r.rec.Actions[:before]
		r.rec.Status, r.rec.Result, r.rec.Reason = store.StatusPlaying, "", ""
		r.rec.Clock, r.rec.DrawOffer, r.rec.TakebackOffer = oldClock, oldOffer, oldTakeback
		game.Release(next)
		return err
	}
	if r.turns != nil && r.turnsAt == before {
		// The turns follow the game's own states: their log keeps none.
		r.turns.addPlayed(r.s, a, next)
		r.turnsAt = before + 1
	}
	// The state before is read no more (agents and ponderings play on
	// clones of their own): a later fork may use it again.
	game.Release(r.s)
	r.s = next
	r.gs.Actions.Add(1)
	if r.rec.Status == store.StatusOver {
		r.finished()
		r.gs.Finished.Add(1)
		r.gs.cfg.Events.GameFinished(events.GameFinished{Game: r.id})
	}
	r.publish()
	r.kick()
	r.arm()
	return nil
}

// save stores the game, which the store had with before actions; the
// turn is held.
func (r *room) save(ctx context.Context, before int) error { return r.saveState(ctx, before, r.s) }

// saveState stores the game as it is in state s. A rated game that ends
// changes its players' ratings in the same write. A store that fails is
// answered 503; one that holds a newer game, 409.
func (r *room) saveState(ctx context.Context, before int, s game.State) error {
	r.rec.ToAct, r.rec.Deadline = ToActOf(r.rec, s), 0
	p := s.ToAct()
	if r.clockRuns() && p >= 0 && int(p) < 2 {
		r.rec.Deadline = r.rec.Clock.Deadline(int(p))
	}
	var err error
	told := false // the write told the other servers itself
	switch {
	case r.rec.Rated && r.rec.Status == store.StatusOver && len(r.rec.Ratings) == 0:
		err = r.finishRated(ctx, before, s)
	default:
		note := r.gs.bus.Note(bus.Game, r.rec.ID)
		err = r.gs.store.UpdateNotify(ctx, r.rec, before, note)
		told = note != ""
	}
	switch {
	case errors.Is(err, store.ErrConflict):
		// Another server changed the game since this one read it: the
		// change was not made, and the game is read again before the
		// next (Games.with makes the request again on it).
		r.stale = true
		return err
	case errors.Is(err, store.ErrNotFound):
		return err
	case err != nil:
		return httpx.Unavailable(err)
	}
	if !told {
		r.gs.bus.Publish(bus.Game, r.rec.ID)
	}
	if r.rec.Status == store.StatusOver && r.leased.Load() && r.gs.bus.Shared() {
		go r.gs.store.ReleaseLease(context.Background(), r.rec.ID, r.gs.bus.Instance)
	}
	return nil
}

// finished lets the game's computer players go, as the game ends; the
// turn is held.
func (r *room) finished() {
	if r.timer != nil {
		r.timer.Stop()
	}
	r.stopPondering()
	if r.stopThinking != nil {
		r.stopThinking()
	}
	r.agents = [2]agent.Agent{}
	r.agentCount.Store(0)
}

// refresh reads the game again from the store, where another server may
// have changed it, and shows the change to the watchers (and, holding the
// lease, sets its agents and clock going).
func (r *room) refresh() {
	r.behind.Store(false) // what was told before is read now
	rec, err := r.gs.store.Get(r.gs.ctx, r.id)
	if err != nil {
		return
	}
	if r.lock(r.gs.ctx) != nil {
		return
	}
	defer r.unlock()
	r.take(rec)
}

// changedElsewhere is told that another server has changed the game. The
// game is read again at once where something on this server follows it:
// its watchers here, or its clock, computer player or dice, which this
// server runs (holding its lease). Otherwise it is read again when next
// used (lock, and catchUp before a view is shown, read its version
// first): a room made by a request here whose players then watch and play
// on another server replayed the game and encoded its view for nobody at
// every move (a game of 30 moves, 30 replays). The lobby is told, and
// draws the game from the store (Board) if it shows it: the room's copy
// cannot say whether the game is between two people now (a friend's
// joining may be among the changes it has not read).
func (r *room) changedElsewhere() {
	r.behind.Store(true)
	sn := r.snap.Load()
	runs := r.leased.Load() && (sn.rec.Clock != nil || sn.view.Traits.Chance ||
		slices.ContainsFunc(sn.rec.Seats, func(s store.Seat) bool { return s.Kind == store.SeatAI }))
	if r.watching.Load() > 0 || runs {
		r.refresh()
		return
	}
	r.gs.cfg.Events.GameChanged(events.GameChanged{Game: r.id})
}

// reload reads the game again from the store under the turn, after a
// write found it changed by another server.
func (r *room) reload(ctx context.Context) error {
	rec, err := r.gs.store.Get(ctx, r.id)
	if err != nil {
		return httpx.Unavailable(err)
	}
	r.stale = false
	r.take(rec)
	return nil
}

// take makes rec, read from the store, the room's game if it is newer
// than the room's, and shows it; the turn is held.
func (r *room) take(rec *store.Game) {
	if rec.Version <= r.rec.Version {
		return
	}
	s := r.first.Clone()
	if err := game.ApplyNotation(s, rec.Actions); err != nil {
		r.gs.log.Error("reading a game again", "game", rec.ID, "err", err)
		return
	}
	r.stopPondering()
	r.rec, r.s, r.turnsAt = rec, s, -1
	if rec.Status == store.StatusOver {
		r.finished()
	}
	if r.endLeft() {
		return
	}
	r.publish()
	r.kick()
	r.arm()
}

// endLeft ends a game in play a seat of which has left (its account
// deleted): aborted before both sides have moved, else resigned, with a
// rated game's rules (end); it reports whether it ended one. The turn is
// held.
func (r *room) endLeft() bool {
	if r.rec.Status != store.StatusPlaying {
		return false
	}
	for p, seat := range r.rec.Seats {
		if !seat.Left {
			continue
		}
		why := r.g.PlayerName(game.Player(p)) + " left: the account was deleted"
		o := outcome.Won(1-p, why)
		if r.canAbort() || r.rec.Seats[1-p].Left {
			// Before both sides have moved, or both seats the account's
			// (a game at one screen): nobody wins it.
			o = outcome.Abort(why)
		}
		if err := r.end(r.gs.ctx, o); err != nil {
			r.gs.log.Error("ending a game whose player left", "game", r.id, "err", err)
			return false
		}
		return true
	}
	return false
}

// sweep reads the game again where the store holds a newer version than
// the room (a change made by another program on the database: muster
// admin delete makes its games due), then flags a player to act who has
// run out of time.
func (r *room) sweep() {
	if v, err := r.gs.store.Version(r.gs.ctx, r.id); err == nil && v > r.snap.Load().rec.Version {
		r.refresh()
	}
	r.flagNow()
}

// loseLease stops running the game's clock and agents: another server
// holds its lease now.
func (r *room) loseLease() {
	if r.lock(r.gs.ctx) != nil {
		return
	}
	defer r.unlock()
	if r.leased.Load() {
		r.leased.Store(false)
		if r.timer != nil {
			r.timer.Stop()
		}
	}
}

// adopt runs a game whose server is gone: its lease is this server's now.
func (r *room) adopt() {
	if r.lock(r.gs.ctx) != nil {
		return
	}
	r.leased.Store(true)
	r.unlock()
	r.refresh()
	r.start()
}

// retire takes the room out of use once the registry has dropped it: its
// pondering and clock stop, and a watcher that came meanwhile is let go
// (the page connects again, to the room loaded anew).
func (r *room) retire() {
	if r.lock(context.Background()) == nil {
		r.gone = true
		r.stopPondering() // its engine slots are wanted elsewhere
		if r.timer != nil {
			r.timer.Stop() // the deadline sweep watches it now
		}
		r.unlock()
	}
	r.subMu.Lock()
	defer r.subMu.Unlock()
	r.retired = true
	for w := range r.subs {
		w.gone()
		delete(r.subs, w)
	}
	r.watching.Store(0)
}

// ToActOf is the player whose move the stored game waits for in state s,
// or "".
func ToActOf(rec *store.Game, s game.State) string {
	if p := s.ToAct(); rec.Status != store.StatusOver && p >= 0 && int(p) < len(rec.Seats) && rec.Seats[p].Kind == store.SeatHuman {
		return rec.Seats[p].Player
	}
	return ""
}

// stopTimer stops the clock's timer.
func (r *room) stopTimer() {
	if r.lock(context.Background()) != nil {
		return
	}
	defer r.unlock()
	if r.timer != nil {
		r.timer.Stop()
	}
}

// clockRuns reports whether the game's clock runs: a timed game in play,
// every seat taken, and the first action made (as on lichess, nobody loses
// time to a seat still empty or before the game has begun). The turn is
// held.
func (r *room) clockRuns() bool { return clockRuns(r.rec) }

func clockRuns(rec *store.Game) bool {
	if rec.Clock == nil || rec.Status != store.StatusPlaying || len(rec.Actions) == 0 {
		return false
	}
	for _, seat := range rec.Seats {
		if seat.JoinHash != "" {
			return false
		}
	}
	return true
}

// startClock starts the time of the player to act from now, on a copy of
// the clock (the old one is kept for undoing a failed write); the turn is
// held.
func (r *room) startClock() {
	nc := *r.rec.Clock
	nc.SinceMS = time.Now().UnixMilli()
	r.rec.Clock = &nc
}

// arm sets the timer for the player to act; the turn is held.
func (r *room) arm() {
	if r.timer != nil {
		r.timer.Stop()
	}
	c := r.rec.Clock
	p := r.s.ToAct()
	if p < 0 || !r.clockRuns() || !r.leased.Load() {
		return
	}
	left := time.Duration(c.LeftMS[p]-(time.Now().UnixMilli()-c.SinceMS)) * time.Millisecond
	ply := len(r.rec.Actions)
	r.timer = time.AfterFunc(max(left, 0)+10*time.Millisecond, func() { r.flag(p, ply) })
}

// flagNow ends the game if the player to act has run out of time.
func (r *room) flagNow() {
	sn := r.snap.Load()
	if sn.toAct >= 0 && sn.clockRuns {
		r.flag(sn.toAct, len(sn.rec.Actions))
	}
}

// flag ends the game when p, to act at ply, has run out of time.
func (r *room) flag(p game.Player, ply int) {
	if r.gs.ctx.Err() != nil || r.lock(r.gs.ctx) != nil {
		return
	}
	defer r.unlock()
	if len(r.rec.Actions) != ply || r.rec.Status != store.StatusPlaying {
		return
	}
	c := r.rec.Clock.Charged(int(p), time.Now().UnixMilli())
	if c.LeftMS[p] > 0 {
		r.arm()
		return
	}
	old := r.rec.Clock
	r.rec.Clock = &c
	if err := r.end(r.gs.ctx, outcome.Won(int(1-p), r.g.PlayerName(p)+" lost on time")); err != nil {
		r.rec.Clock = old
		r.gs.log.Error("flagging a game", "game", r.rec.ID, "err", err)
	}
}

// agentFor returns the computer player of seat p, made when first asked;
// the turn is held.
func (r *room) agentFor(p game.Player) (agent.Agent, error) {
	if a := r.agents[p]; a != nil {
		return a, nil
	}
	a, err := agent.New(r.rec.Seats[p].Agent, r.g, uint64(time.Now().UnixNano())+uint64(p))
	if err != nil {
		return nil, err
	}
	if f := r.gs.cfg.NeedAgent; f != nil {
		f(r.g)
	}
	r.agents[p] = a
	r.agentCount.Add(1)
	return a, nil
}

// kick starts the agent or the dice if they are to act; the turn is held.
func (r *room) kick() {
	if !r.leased.Load() || r.thinking || r.s.IsTerminal() || r.rec.Status == store.StatusOver {
		return
	}
	p := r.s.ToAct()
	if p != game.Chance && !r.isAI(p) {
		return
	}
	var ag agent.Agent
	if p != game.Chance {
		var err error
		if ag, err = r.agentFor(p); err != nil {
			r.gs.log.Error("the computer's seat", "game", r.rec.ID, "err", err)
			return
		}
	}
	ctx, cancel := context.WithCancel(r.gs.ctx)
	r.thinking, r.stopThinking = true, cancel
	s := r.s.Clone()
	ply := len(r.rec.Actions)
	r.gs.wg.Add(1)
	go r.think(ctx, p, ag, s, ply)
	r.publish()
}

// think finds the action of the agent or the dice and plays it, unless
// the game has moved on meanwhile. The agent searches with slots of the
// engine pool, waiting in its queue while they are taken (and, with the
// queue full, trying again a little later).
func (r *room) think(ctx context.Context, p game.Player, ag agent.Agent, s game.State, ply int) {
	defer r.gs.wg.Done()
	var a game.Action
	var err error
	if p == game.Chance {
		a, _ = game.RandomAction(s, r.rng, nil)
	} else {
		a, err = r.search(ctx, ag, s)
	}
	if r.lock(r.gs.ctx) != nil {
		return
	}
	defer r.unlock()
	r.thinking = false
	if r.stopThinking != nil {
		r.stopThinking()
		r.stopThinking = nil
	}
	switch {
	case r.gs.ctx.Err() != nil:
		return
	case len(r.rec.Actions) != ply || r.rec.Status == store.StatusOver:
		r.publish() // no longer thinking
		r.kick()
		return
	case err != nil:
		r.gs.log.Error("agent failed", "game", r.rec.ID, "err", err)
		r.publish()
		return
	}
	if err := r.apply(r.gs.ctx, a); err != nil {
		if errors.Is(err, store.ErrConflict) && r.reload(r.gs.ctx) == nil {
			// Another server changed the game meanwhile: the agent looks
			// at it again.
			r.publish()
			r.kick()
			return
		}
		r.gs.log.Error("playing the agent's action", "game", r.rec.ID, "err", err)
		r.publish() // no longer thinking
		return
	}
	r.ponder(p)
}

// search runs the agent on s with engine slots, until ctx ends.
func (r *room) search(ctx context.Context, ag agent.Agent, s game.State) (game.Action, error) {
	for wait := time.Second; ; wait = min(2*wait, 10*time.Second) {
		lease, err := r.gs.pool.Acquire(ctx, engine.Move, agent.Threads(ag))
		if err == nil {
			sctx, cancel := context.WithTimeout(lease.Context(), r.gs.cfg.AgentTimeout)
			res, err := ag.Act(sctx, s)
			cancel()
			lease.Release()
			return res.Action, err
		}
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		r.gs.log.Warn("the engine pool is full: the computer waits", "game", r.id)
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// ponder lets the computer at seat p think on the person's time, where
// its moves have a time to fill (the max level): it searches the position
// after its move into its own table until the person acts, the game ends
// or AgentTimeout passes. It takes slots of the engine pool only where
// they are free, and gives them back as soon as any other search waits
// for them. The turn is held.
func (r *room) ponder(p game.Player) {
	if p < 0 { // the dice
		return
	}
	next := r.s.ToAct()
	ag := r.agents[p]
	if ag == nil || r.s.IsTerminal() || next < 0 || r.isAI(next) || agent.Limits(ag).Time == 0 || r.pondering.done != nil {
		return
	}
	lease, ok := r.gs.pool.TryPonder(r.gs.ctx, agent.Threads(ag))
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(lease.Context(), r.gs.cfg.AgentTimeout)
	done := make(chan struct{})
	r.pondering.cancel, r.pondering.done = cancel, done
	s := r.s.Clone()
	r.gs.wg.Add(1)
	r.gs.Ponders.Add(1)
	go func() {
		defer r.gs.wg.Done()
		defer lease.Release()
		defer close(done)
		agent.Ponder(ctx, ag, s)
	}()
}

// stopPondering ends the computer's thinking on the person's time and
// waits for it, so that its search has the cores; the turn is held.
func (r *room) stopPondering() {
	if r.pondering.done == nil {
		return
	}
	r.pondering.cancel()
	<-r.pondering.done
	r.pondering.cancel, r.pondering.done = nil, nil
}

// watcher is a room's watcher: what it is handed (a connection's
// outbox), neither waiting.
type watcher struct {
	// deliver is handed each view, as JSON, lent for the call: it takes
	// a share of it (an outbox's PostLent) to keep it longer.
	deliver func(*httpx.Lent)
	// gone is called if the room leaves memory while he watches.
	gone func()
}

// subscribe adds a watcher; he is handed the current view at once. A
// room already out of use answers errGone.
//
// The watcher is handed the view he is counted in with: a change
// published between reading the view and counting the watcher would pass
// him by (its broadcast goes to those counted), and he would wait on the
// view before it until the next change, which may never come (a
// computer's first move). So the view is read again under the watchers'
// lock, and encoded again if a change came meanwhile.
func (r *room) subscribe(w *watcher) error {
	for {
		sn := r.snap.Load()
		msg := sn.currentJSON(r.gs)
		testHookSubscribing()
		r.subMu.Lock()
		if r.retired {
			r.subMu.Unlock()
			return errGone
		}
		if r.snap.Load() != sn {
			r.subMu.Unlock()
			continue
		}
		w.deliver(httpx.Lend(msg, nil))
		r.subs[w] = struct{}{}
		r.watching.Store(int32(len(r.subs)))
		r.touch()
		r.subMu.Unlock()
		if r.behind.Swap(false) {
			// A change told while nobody watched here, perhaps after
			// this view was read: it is read now, and comes to him.
			go r.refresh()
		}
		return nil
	}
}

// testHookSubscribing runs between a watcher's view and his counting.
var testHookSubscribing = func() {}

func (r *room) unsubscribe(w *watcher) {
	r.subMu.Lock()
	defer r.subMu.Unlock()
	delete(r.subs, w)
	r.watching.Store(int32(len(r.subs)))
	r.touch()
}

// broadcast hands a view to every watcher. Each view is whole, so a
// watcher too slow to take every one gets the newest: his outbox keeps
// the first view still waiting and the newest, dropping those between.
func (r *room) broadcast(msg *httpx.Lent) {
	r.subMu.Lock()
	defer r.subMu.Unlock()
	for w := range r.subs {
		w.deliver(msg)
	}
}

// idle reports whether the room can leave memory at now: nobody watches,
// no agent thinks, no live clock runs, and it has not been used for
// after. A live clock keeps its room; days by correspondence are watched
// by the deadline sweep once the room is dropped.
func (r *room) idle(now time.Time, after time.Duration) bool {
	sn := r.snap.Load()
	live := sn.clockRuns && !sn.rec.Clock.Correspondence()
	return !sn.thinking && !live && now.Sub(time.Unix(0, r.used.Load())) > after && r.watching.Load() == 0
}

// writeRecord writes the game's record in its game's own format, with
// the site, date, players and result as tags.
func (sn *snapshot) writeRecord(g game.Game, first game.State, w io.Writer) error {
	rc, ok := g.(game.Recorder)
	if !ok {
		return httpx.WithCode(http.StatusNotFound, fmt.Errorf("%s has no record format", g.Name()))
	}
	rec := &sn.rec
	tags := []game.KV{{Key: "site", Value: "Muster"}, {Key: "date", Value: rec.Created.Format("2006.01.02")}}
	for p, seat := range rec.Seats {
		who := "person"
		if seat.Kind == store.SeatAI {
			who = "Muster " + seat.Agent
		}
		tags = append(tags, game.KV{Key: g.PlayerName(game.Player(p)), Value: who})
	}
	if rec.Status == store.StatusOver {
		tags = append(tags, game.KV{Key: "result", Value: rec.Result}, game.KV{Key: "termination", Value: rec.Reason})
	}
	s := first.Clone()
	for _, a := range sn.history {
		s.Apply(a)
	}
	return rc.WriteRecord(w, game.NewRecord(rec.Start, s, tags...))
}
