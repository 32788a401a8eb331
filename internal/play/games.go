package play

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/bus"
	"github.com/muster-games/muster/internal/engine"
	"github.com/muster-games/muster/internal/events"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/outcome"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

// Config holds the limits of the games in play.
type Config struct {
	// GamesPerHour bounds the games one client (address) creates an hour.
	GamesPerHour int
	// AgentTimeout bounds an agent's thinking for one action.
	AgentTimeout time.Duration
	// LeaseTTL is how long a server's hold on a game lasts unrenewed, on
	// a database shared by several servers.
	LeaseTTL time.Duration
	// Levels are the computer players a request may name: the named
	// levels (agent.Levels) where nil; an operator may add search specs.
	Levels []string
	// Events hears of the games that end here, and of every change of a
	// game between people (the lobby shows their boards); nil: nobody.
	Events *events.Hub
	// NeedAgent, if set, is told of each game a computer player is made
	// for (the server builds what its players need, once, when a first
	// game needs it).
	NeedAgent func(g game.Game)
	// ChangesPerMinute bounds the changes (moves, offers, resignations,
	// joins, rematches) one address asks of games in a minute
	// (0: DefaultChangesPerMinute).
	ChangesPerMinute int
}

// DefaultChangesPerMinute is ChangesPerMinute's default: ten a second,
// more than any number of people playing from one home or school.
const DefaultChangesPerMinute = 600

// Identity tells who a request comes from (internal/identity).
type Identity interface {
	// Me returns the request's player, or nil for nobody; an error is
	// the database's.
	Me(r *http.Request) (*store.Player, error)
	// Identify returns the request's player, making one if need be.
	Identify(w http.ResponseWriter, r *http.Request) (*store.Player, error)
}

// Games is the registry of the games this server has in memory.
type Games struct {
	cfg   Config
	store *store.Store
	api   *httpx.API
	log   *slog.Logger
	ids   Identity
	pool  *engine.Pool
	bus   *bus.Bus
	// ctx ends with the server; wg counts the agents and pondering.
	ctx context.Context
	wg  sync.WaitGroup
	// Ponders counts the times a computer began to think on a person's
	// time; Actions the actions played here, Finished the games ended
	// here.
	Ponders, Actions, Finished atomic.Int64

	// creating orders the new games of an address (counted against its
	// hourly limit, then made).
	creating auth.Locks
	// offers limits the draw and takeback offers (and their refusals) of
	// each seat of a game: each is a write and a broadcast.
	offers *auth.Limiter
	// changes limits each address's changes asked of games.
	changes *auth.Limiter

	mu    sync.Mutex
	rooms map[string]*room
	// retiring holds the rooms evicted but not yet out of use, each with
	// a channel closed once it is: the game is not loaded again before,
	// so that a write still under way is read.
	retiring map[string]chan struct{}
}

// New returns the registry of a server whose life is ctx.
func New(ctx context.Context, st *store.Store, api *httpx.API, ids Identity, pool *engine.Pool, b *bus.Bus, cfg Config) *Games {
	if cfg.ChangesPerMinute <= 0 {
		cfg.ChangesPerMinute = DefaultChangesPerMinute
	}
	gs := &Games{cfg: cfg, store: st, api: api, log: api.Log, ids: ids, pool: pool, bus: b, ctx: ctx,
		changes: auth.NewLimiter(cfg.ChangesPerMinute, time.Minute, 100000),
		rooms:   map[string]*room{}, retiring: map[string]chan struct{}{},
		offers: auth.NewLimiter(offersPerMinute, time.Minute, 100000)}
	b.Handle(bus.Game, func(id string) {
		if r := gs.loaded(id); r != nil {
			r.changedElsewhere()
		}
	})
	return gs
}

// Renamed shows a player's new name (an anonymous visitor who has
// registered: the store has already written it into his games' seats) in
// the games of his held in memory here, and tells the other servers to.
func (gs *Games) Renamed(ctx context.Context, player string) {
	ids, err := gs.store.PlayerGameIDs(ctx, player, renamedGames)
	if err != nil {
		gs.log.Warn("a renamed player's games", "player", player, "err", err)
		return
	}
	for _, id := range ids {
		if r := gs.loaded(id); r != nil {
			r.refresh()
		}
		gs.bus.Publish(bus.Game, id)
	}
}

// renamedGames bounds the games a rename refreshes at once: the others
// show the name when next read.
const renamedGames = 200

// offersPerMinute bounds a seat's draw and takeback offers and refusals.
const offersPerMinute = 6

var (
	errNoGame = httpx.NewError(http.StatusNotFound, "no such game")
	// errGone is a room left from memory while a request held it: the
	// request finds the game again.
	errGone = httpx.NewError(http.StatusServiceUnavailable, "the game was just unloaded: try again")
)

// room returns the game's room, loading it from the store. Nothing is
// held while the store is read or the lease taken.
func (gs *Games) room(ctx context.Context, id string) (*room, error) {
	if !token.ValidID(id) {
		return nil, errNoGame
	}
	for {
		gs.mu.Lock()
		r, wait := gs.rooms[id], gs.retiring[id]
		gs.mu.Unlock()
		if r != nil {
			return r, nil
		}
		if wait == nil {
			break
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, httpx.Unavailable(ctx.Err())
		}
	}
	rec, err := gs.store.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNoGame
	} else if err != nil {
		return nil, httpx.Unavailable(err)
	}
	return gs.open(ctx, rec)
}

// open makes the room of a game as stored, rec, which it keeps, and
// starts it; or returns the room another request made meanwhile.
func (gs *Games) open(ctx context.Context, rec *store.Game) (*room, error) {
	id := rec.ID
	r, err := newRoom(gs, rec)
	if err != nil {
		return nil, err
	}
	// One server runs a game's clock and agents: here, unless another
	// holds its lease.
	r.leased.Store(true)
	if gs.bus.Shared() && rec.Status == store.StatusPlaying {
		ok, err := gs.store.TakeLease(ctx, id, gs.bus.Instance, gs.cfg.LeaseTTL)
		if err != nil {
			return nil, httpx.Unavailable(err)
		}
		r.leased.Store(ok)
	}
	gs.mu.Lock()
	if old := gs.rooms[id]; old != nil {
		gs.mu.Unlock()
		return old, nil
	}
	if gs.retiring[id] != nil {
		// Evicted while this one was read: the read may predate a write
		// of the room retiring; the caller asks again.
		gs.mu.Unlock()
		return nil, errGone
	}
	gs.rooms[id] = r
	gs.mu.Unlock()
	// A game loaded runs: its computer and clock go where it is their
	// turn (on the server holding its lease).
	r.start()
	return r, nil
}

// with runs f on the game's room, finding it again if it left memory
// meanwhile, and running f again if another server changed the game
// between its reading and its write (f checks everything again on the
// game read anew, so a move made on a position that has changed is
// refused then as stale). Where servers share the database, a request
// that f refuses (an answer of 4xx) is made again too if the room's copy
// was behind the store: it was decided on a game another server had
// changed unseen (lock reads no version), and may stand on the game as
// it is.
func (gs *Games) with(ctx context.Context, id string, f func(*room) error) error {
	var err error
	for range 5 {
		var r *room
		if r, err = gs.room(ctx, id); err != nil {
			return err
		}
		err = f(r)
		switch code := httpx.Status(err); {
		case err == nil:
		case errors.Is(err, errGone), errors.Is(err, store.ErrConflict):
			continue
		case gs.bus.Shared() && code >= 400 && code < 500:
			if behind, cerr := r.catchUp(ctx); cerr == nil && behind {
				continue
			}
		}
		return err
	}
	return err
}

// current returns the room of game id as the store has it now. Where
// servers share the database, a change made through another server a
// moment ago (a move sent there, and answered) may not have been told to
// this one yet: the game's version is read, and the game read again if it
// is newer than the room's, so that whoever made a change sees it
// whichever server answers him next. One read of the version a request;
// none where no other server shares the database.
func (gs *Games) current(ctx context.Context, id string) (*room, error) {
	var rm *room
	err := gs.with(ctx, id, func(r *room) error {
		rm = r
		_, err := r.catchUp(ctx)
		return err
	})
	return rm, err
}

// loaded returns the game's room if this server has it in memory.
func (gs *Games) loaded(id string) *room {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	return gs.rooms[id]
}

// all returns the rooms in memory.
func (gs *Games) all() []*room {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	out := make([]*room, 0, len(gs.rooms))
	for _, r := range gs.rooms {
		out = append(out, r)
	}
	return out
}

// Evict drops the rooms idle for longer than idle and returns how many.
// A room is idle when nobody watches it, no agent thinks, no live clock
// runs, and it has not been used for a while; it is judged by what it
// has published, so the registry takes no room's turn.
func (gs *Games) Evict(idle time.Duration) int {
	now := time.Now()
	var out []*room
	gs.mu.Lock()
	for id, r := range gs.rooms {
		if r.idle(now, idle) && gs.retiring[id] == nil {
			delete(gs.rooms, id)
			gs.retiring[id] = make(chan struct{})
			out = append(out, r)
		}
	}
	gs.mu.Unlock()
	for _, r := range out {
		r.retire()
		gs.mu.Lock()
		close(gs.retiring[r.id])
		delete(gs.retiring, r.id)
		gs.mu.Unlock()
	}
	return len(out)
}

// FlagOverdue ends the games whose player to act has run out of time
// while no timer of this server watched them: rooms dropped from memory (a
// correspondence game waits days), or games another server ran. It
// returns how many it looked at.
func (gs *Games) FlagOverdue() int {
	ids, err := gs.store.Overdue(gs.ctx, time.Now().UnixMilli(), 100)
	if err != nil {
		if gs.ctx.Err() == nil {
			gs.log.Error("overdue games", "err", err)
		}
		return 0
	}
	for _, id := range ids {
		r, err := gs.room(gs.ctx, id)
		if err != nil {
			gs.log.Error("an overdue game", "game", id, "err", err)
			continue
		}
		r.sweep()
	}
	return len(ids)
}

// EndLeft ends the games in play a seat of which has left (its account
// deleted by muster admin delete on the database), which the server has
// not ended yet: the deletion makes them due (FlagOverdue reads them
// again within seconds), but a move of this server's journal written to
// the database just after it may have put the clock's deadline back. It
// returns how many it looked at.
func (gs *Games) EndLeft() int {
	ids, err := gs.store.LeftInPlay(gs.ctx, 100)
	if err != nil {
		if gs.ctx.Err() == nil {
			gs.log.Error("games whose player left", "err", err)
		}
		return 0
	}
	for _, id := range ids {
		r, err := gs.room(gs.ctx, id)
		if err != nil {
			gs.log.Error("a game whose player left", "game", id, "err", err)
			continue
		}
		r.refresh()
	}
	return len(ids)
}

// unbegunWait is how long a game in which nobody has acted waits before
// it is aborted (a correspondence game: its days for a move).
const unbegunWait = 24 * time.Hour

// AbortUnbegun aborts the games in which nobody has made the first move
// for a day (or, by correspondence, the days a move): they would wait
// for ever, as no clock runs before the first move. It returns how many
// it aborted.
func (gs *Games) AbortUnbegun() int {
	ids, err := gs.store.Unbegun(gs.ctx, time.Now().Add(-unbegunWait), 100)
	if err != nil {
		if gs.ctx.Err() == nil {
			gs.log.Error("unbegun games", "err", err)
		}
		return 0
	}
	n := 0
	for _, id := range ids {
		err := gs.with(gs.ctx, id, func(r *room) error {
			if err := r.lock(gs.ctx); err != nil {
				return err
			}
			defer r.unlock()
			wait := unbegunWait
			if c := r.rec.Clock; c != nil && c.Correspondence() {
				wait = time.Duration(c.BaseMS) * time.Millisecond
			}
			if r.rec.Status != store.StatusPlaying || len(r.rec.Actions) > 0 || time.Since(r.rec.Updated) < wait {
				return nil
			}
			n++
			return r.end(gs.ctx, outcome.Abort(fmt.Sprintf("nobody made the first move in %s", wait.Round(time.Hour))))
		})
		if err != nil {
			gs.log.Error("aborting an unbegun game", "game", id, "err", err)
		}
	}
	return n
}

// Resume starts the agents and clocks of the games in play (after a
// restart).
func (gs *Games) Resume(ctx context.Context) error {
	ids, err := gs.store.Playing(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := gs.room(ctx, id); err != nil { // loaded, it starts
			gs.log.Error("resuming a game", "game", id, "err", err)
		}
	}
	return nil
}

// Close stops the clocks and waits for the agents, once the server's
// context is done.
func (gs *Games) Close() {
	for _, r := range gs.all() {
		r.stopTimer()
	}
	gs.wg.Wait()
}

// Leave tells the other servers on the database that this one has
// stopped, once Close has stopped its clocks and agents and its renewals
// have ended: they take its games over at their next renewal, not once its
// heartbeat has run out (LeaseTTL). A server that dies without it is
// taken over so.
func (gs *Games) Leave() {
	if !gs.bus.Shared() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := gs.store.Stopped(ctx, gs.bus.Instance); err != nil {
		gs.log.Error("leaving", "err", err)
	}
}

// ForgetServers forgets the servers dead for a day: their heartbeats'
// rows, run out long since, hold no lease (every hour, where servers
// share the database).
func (gs *Games) ForgetServers() {
	if _, err := gs.store.ForgetServers(gs.ctx); err != nil && gs.ctx.Err() == nil {
		gs.log.Error("forgetting dead servers", "err", err)
	}
}

// RenewAndAdopt renews this server's leases, lets go of the games whose
// lease it lost, and adopts orphaned games (every LeaseTTL/3).
func (gs *Games) RenewAndAdopt() {
	held, err := gs.store.RenewLeases(gs.ctx, gs.bus.Instance, gs.cfg.LeaseTTL)
	if err != nil {
		if gs.ctx.Err() == nil {
			gs.log.Error("renewing leases", "err", err)
		}
		return
	}
	mine := map[string]bool{}
	for _, id := range held {
		mine[id] = true
	}
	for _, r := range gs.all() {
		if !mine[r.id] {
			r.loseLease()
		}
	}
	orphans, err := gs.store.Orphans(gs.ctx, 50)
	if err != nil {
		return
	}
	for _, id := range orphans {
		ok, err := gs.store.TakeLease(gs.ctx, id, gs.bus.Instance, gs.cfg.LeaseTTL)
		if err != nil || !ok {
			continue
		}
		r, err := gs.room(gs.ctx, id)
		if err != nil {
			gs.log.Error("adopting a game", "game", id, "err", err)
			continue
		}
		r.adopt()
	}
}

// Stats is what the registry holds.
type Stats struct {
	// Rooms in memory, Playing those of games going on; Agents the
	// computer players they hold; Watchers their WebSockets and streams.
	Rooms, Playing, Agents, Watchers int
}

// Stats counts the rooms in memory, their computer players and watchers.
func (gs *Games) Stats() Stats {
	var s Stats
	for _, r := range gs.all() {
		s.Rooms++
		if r.snap.Load().rec.Status == store.StatusPlaying {
			s.Playing++
		}
		s.Agents += int(r.agentCount.Load())
		s.Watchers += int(r.watching.Load())
	}
	return s
}

// Running reports, of a game in this server's memory (loaded), whether
// this server runs its clock and agents (holds its lease) and whether its
// computer thinks now.
func (gs *Games) Running(id string) (leased, thinking, loaded bool) {
	r := gs.loaded(id)
	if r == nil {
		return false, false, false
	}
	return r.leased.Load(), r.snap.Load().thinking, true
}
