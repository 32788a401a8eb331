// Package lobby is where players find each other: open challenges anyone
// may accept (or one player), and the games people are playing now, to
// watch. What every viewer sees alike — the open challenges with their
// creators' ratings, the live games with their boards — is built once for
// each change (at most every lobbyEvery) and shared; each viewer's own
// part (challenges to or from him, his games) is added for him. Drawing a
// board never loads a game's room or takes a lease.
package lobby

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/bus"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/identity"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
)

const (
	lobbyEvery = time.Second
	// Open challenges last a day (a correspondence one a week).
	challengeLife       = 24 * time.Hour
	correspondenceLife  = 7 * 24 * time.Hour
	lobbyLiveGames      = 12
	lobbyChallengesShow = 50
	// socketKey counts the lobby's watchers (no game id has its length).
	socketKey = "lobby"
)

// Config holds the lobby's limits.
type Config struct {
	// ChallengesPerHour bounds the challenges a player or an address makes
	// an hour.
	ChallengesPerHour int
	// Watchers bounds the lobby's WebSocket connections at once.
	Watchers int
	// OpenPerPlayer bounds the challenges open at once from one player or
	// one address.
	OpenPerPlayer int
}

// Identity tells who a request comes from (internal/identity).
type Identity interface {
	Me(r *http.Request) (*store.Player, error)
	Fresh(r *http.Request) (*store.Player, error)
	Identify(w http.ResponseWriter, r *http.Request) (*store.Player, error)
	ViewOf(ctx context.Context, p *store.Player) (identity.View, error)
}

// Games starts the games of accepted challenges and draws the live ones
// (internal/play).
type Games interface {
	Start(ctx context.Context, rec *store.Game) error
	SnapshotRatings(ctx context.Context, rec *store.Game) error
	Board(rec *store.Game) (play.Board, error)
}

// Lobby serves the lobby and the challenges.
type Lobby struct {
	cfg     Config
	store   *store.Store
	api     *httpx.API
	log     *slog.Logger
	ids     Identity
	games   Games
	bus     *bus.Bus
	sockets *httpx.Sockets
	ctx     context.Context

	// creating orders the challenges of an address (counted, then made).
	creating auth.Locks
	// kick coalesces the signals that the lobby changed.
	kick chan struct{}
	// shared is the part every viewer sees alike, as last built.
	shared atomic.Pointer[shared]
	// boards caches the live games' boards by id and update.
	boardsMu sync.Mutex
	boards   map[string]cachedBoard
	// Builds counts the shared parts built.
	Builds atomic.Int64

	mu   sync.Mutex
	subs map[chan *shared]struct{}
}

type cachedBoard struct {
	updated int64
	board   play.Board
}

// New returns the lobby of a server whose life is ctx; Run keeps it live.
func New(ctx context.Context, st *store.Store, api *httpx.API, ids Identity, games Games, b *bus.Bus, sockets *httpx.Sockets, cfg Config) *Lobby {
	l := &Lobby{cfg: cfg, store: st, api: api, log: api.Log, ids: ids, games: games, bus: b, sockets: sockets, ctx: ctx,
		kick: make(chan struct{}, 1), boards: map[string]cachedBoard{}, subs: map[chan *shared]struct{}{}}
	b.Handle(bus.Lobby, func(string) { l.Signal() })
	return l
}

// Routes adds the lobby's routes to mux.
func (l *Lobby) Routes(mux *http.ServeMux) {
	f := l.api.Func
	mux.HandleFunc("GET /api/lobby", f(l.get))
	mux.HandleFunc("GET /ws/lobby", f(l.watch))
	mux.HandleFunc("POST /api/challenges", f(l.createChallenge))
	mux.HandleFunc("POST /api/challenges/{id}/accept", f(l.acceptChallenge))
	mux.HandleFunc("POST /api/challenges/{id}/cancel", f(l.cancelChallenge))
}

// challengeView is a challenge as the lobby shows it.
type challengeView struct {
	ID      string `json:"id"`
	Spec    string `json:"spec"`
	Game    string `json:"game"`
	Creator string `json:"creator"` // a username or "Anonymous"
	// CreatorBot: the creator is a bot.
	CreatorBot bool    `json:"creator_bot,omitempty"`
	Rating     float64 `json:"rating,omitempty"`
	// Provisional marks a rating still uncertain.
	Provisional bool    `json:"provisional,omitempty"`
	Minutes     float64 `json:"minutes,omitempty"`
	Increment   float64 `json:"increment,omitempty"`
	Days        int     `json:"days,omitempty"`
	Rated       bool    `json:"rated"`
	// Side is the side the creator takes (its title), or "random".
	Side   string `json:"side"`
	Target string `json:"target,omitempty"`
	Mine   bool   `json:"mine"`
	// ForMe says the challenge is to the viewer.
	ForMe   bool  `json:"for_me,omitempty"`
	Created int64 `json:"created"`
	// Status and Game are set for the viewer's own accepted challenge:
	// the game to go to.
	Status  string `json:"status"`
	Started string `json:"started,omitempty"`
	// creator is the creator's id.
	creator string
	target  string
}

// liveGame is a game people are playing, with its board.
type liveGame struct {
	play.Summary
	play.Board
}

// view is what the lobby page shows.
type view struct {
	Challenges []challengeView `json:"challenges"`
	Live       []liveGame      `json:"live"`
	// Mine are the viewer's games in play.
	Mine []play.Summary `json:"mine"`
	Me   identity.View  `json:"me"`
}

// shared is what every viewer sees alike.
type shared struct {
	challenges []challengeView
	live       []liveGame
	built      time.Time
}

// build makes the shared part: the open challenges (their creators'
// ratings in one query) and the live games with their boards.
func (l *Lobby) build(ctx context.Context) (*shared, error) {
	cs, err := l.store.OpenChallenges(ctx, "", time.Now().Add(-correspondenceLife), lobbyChallengesShow)
	if err != nil {
		return nil, httpx.Unavailable(err)
	}
	views, err := l.challengeViews(ctx, cs)
	if err != nil {
		return nil, err
	}
	games, err := l.store.Live(ctx, lobbyLiveGames)
	if err != nil {
		return nil, httpx.Unavailable(err)
	}
	sh := &shared{challenges: views, live: []liveGame{}, built: time.Now()}
	seen := map[string]bool{}
	for _, g := range games {
		b, err := l.board(g)
		if err != nil {
			continue
		}
		seen[g.ID] = true
		sh.live = append(sh.live, liveGame{Summary: play.Summarize(g, ""), Board: b})
	}
	l.boardsMu.Lock()
	for id := range l.boards {
		if !seen[id] {
			delete(l.boards, id)
		}
	}
	l.boardsMu.Unlock()
	l.Builds.Add(1)
	l.shared.Store(sh)
	return sh, nil
}

// board draws a live game, again only when it has changed.
func (l *Lobby) board(g *store.Game) (play.Board, error) {
	up := g.Updated.UnixMilli()
	l.boardsMu.Lock()
	c, ok := l.boards[g.ID]
	l.boardsMu.Unlock()
	if ok && c.updated == up {
		return c.board, nil
	}
	b, err := l.games.Board(g)
	if err != nil {
		return b, err
	}
	l.boardsMu.Lock()
	l.boards[g.ID] = cachedBoard{up, b}
	l.boardsMu.Unlock()
	return b, nil
}

// challengeViews shows challenges, with their creators' ratings read in
// one query; expired live challenges are left out.
func (l *Lobby) challengeViews(ctx context.Context, cs []*store.Challenge) ([]challengeView, error) {
	var creators []string
	for _, c := range cs {
		if c.CreatorName != "" && !slices.Contains(creators, c.Creator) {
			creators = append(creators, c.Creator)
		}
	}
	ratings, err := l.store.RatingsOf(ctx, creators)
	if err != nil {
		return nil, httpx.Unavailable(err)
	}
	bots, err := l.store.BotsAmong(ctx, creators)
	if err != nil {
		return nil, httpx.Unavailable(err)
	}
	out := []challengeView{}
	now := time.Now()
	for _, c := range cs {
		if c.Status == store.ChallengeOpen && c.Days == 0 && now.Sub(c.Created) > challengeLife {
			continue
		}
		cv := challengeViewOf(c, ratings[c.Creator], now)
		cv.CreatorBot = bots[c.Creator]
		out = append(out, cv)
	}
	return out, nil
}

func challengeViewOf(c *store.Challenge, ratings map[string]store.Rating, now time.Time) challengeView {
	cv := challengeView{ID: c.ID, Spec: c.Spec, Creator: c.CreatorName, Minutes: c.Minutes, Increment: c.Increment,
		Days: c.Days, Rated: c.Rated, Side: c.Side, Target: c.TargetName, Created: c.Created.UnixMilli(), Status: c.Status,
		creator: c.Creator, target: c.Target}
	if cv.Creator == "" {
		cv.Creator = "Anonymous"
	}
	if c.Status == store.ChallengeAccepted {
		cv.Started = c.Game
	}
	if g, err := game.Load(c.Spec); err == nil {
		cv.Game = g.Name()
		if pl, err := g.ParsePlayer(c.Side); err == nil {
			cv.Side = g.PlayerName(pl)
		}
		if c.CreatorName != "" {
			cur, _ := play.CurrentRating(ratings, g.Name(), now)
			cv.Rating, cv.Provisional = cur.R, cur.Provisional()
		}
	}
	return cv
}

// current returns the shared part, built again if it is older than
// lobbyEvery (a request between the signals' builds).
func (l *Lobby) current(ctx context.Context) (*shared, error) {
	if sh := l.shared.Load(); sh != nil && time.Since(sh.built) < lobbyEvery {
		return sh, nil
	}
	return l.build(ctx)
}

// viewFor adds player p's own part (nil: nobody yet) to the shared part.
func (l *Lobby) viewFor(ctx context.Context, sh *shared, p *store.Player) (view, error) {
	v := view{Challenges: []challengeView{}, Live: sh.live, Mine: []play.Summary{}, Me: identity.Nobody}
	if p == nil {
		v.Challenges = sh.challenges
		return v, nil
	}
	me, err := l.ids.ViewOf(ctx, p)
	if err != nil {
		return v, err
	}
	v.Me = me
	accepted, err := l.store.AcceptedFor(ctx, p.ID, time.Now().Add(-time.Minute))
	if err != nil {
		return v, httpx.Unavailable(err)
	}
	// His own and those to him, apart from the open list, so that no flood
	// of others' pushes them out.
	targeted, err := l.store.ChallengesOf(ctx, p.ID, time.Now().Add(-correspondenceLife), lobbyChallengesShow)
	if err != nil {
		return v, httpx.Unavailable(err)
	}
	own, err := l.challengeViews(ctx, append(accepted, targeted...))
	if err != nil {
		return v, err
	}
	list := slices.Clone(own)
	for _, cv := range sh.challenges {
		if !slices.ContainsFunc(own, func(o challengeView) bool { return o.ID == cv.ID }) {
			list = append(list, cv)
		}
	}
	for _, cv := range list {
		cv.Mine, cv.ForMe = cv.creator == p.ID, cv.target != "" && cv.target == p.ID
		v.Challenges = append(v.Challenges, cv)
	}
	games, err := l.store.PlayerGames(ctx, p.ID, 20)
	if err != nil {
		return v, httpx.Unavailable(err)
	}
	for _, g := range games {
		if g.Status == store.StatusPlaying {
			v.Mine = append(v.Mine, play.Summarize(g, p.ID))
		}
	}
	return v, nil
}

// get sends the lobby as the asking browser sees it.
func (l *Lobby) get(w http.ResponseWriter, r *http.Request) error {
	p, err := l.ids.Me(r)
	if err != nil {
		return err
	}
	sh, err := l.current(r.Context())
	if err != nil {
		return err
	}
	v, err := l.viewFor(r.Context(), sh, p)
	if err != nil {
		return err
	}
	return l.api.JSON(w, http.StatusOK, v)
}

// Changed marks the lobby changed on this server and on every other
// server sharing the database.
func (l *Lobby) Changed() {
	l.Signal()
	l.bus.Publish(bus.Lobby, "")
}

// testHookWatching runs between a lobby watcher's counting and his first
// lobby.
var testHookWatching = func() {}

// Signal marks the lobby changed on this server: its shared part is built
// again and its watchers told, soon.
func (l *Lobby) Signal() {
	l.shared.Store(nil) // stale: built again when next asked
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// Run builds the shared part once for each change, at most every
// lobbyEvery, and hands it to the watchers, until ctx is done.
func (l *Lobby) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.kick:
		}
		l.mu.Lock()
		n := len(l.subs)
		l.mu.Unlock()
		if n > 0 {
			sh, err := l.build(ctx)
			if err != nil {
				if ctx.Err() == nil {
					l.log.Warn("building the lobby", "err", err)
				}
			} else {
				l.mu.Lock()
				for ch := range l.subs {
					select {
					case <-ch: // an older one not yet taken
					default:
					}
					ch <- sh
				}
				l.mu.Unlock()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(lobbyEvery):
		}
	}
}

// watch keeps a browser's lobby live over a WebSocket.
func (l *Lobby) watch(w http.ResponseWriter, r *http.Request) error {
	return l.sockets.Serve(w, r, httpx.Watch{Key: socketKey, Max: l.cfg.Watchers}, func(ctx context.Context, r *http.Request, send func([]byte) error) {
		// The watcher is counted before he reads the lobby as it is now: a
		// change between the two would otherwise be built and sent to the
		// others alone, and his lobby would lack it until the next change.
		ch := make(chan *shared, 1)
		l.mu.Lock()
		l.subs[ch] = struct{}{}
		l.mu.Unlock()
		defer func() {
			l.mu.Lock()
			delete(l.subs, ch)
			l.mu.Unlock()
		}()
		testHookWatching()
		if sh, err := l.current(ctx); err == nil {
			l.mu.Lock()
			select {
			case ch <- sh: // the lobby as it is now
			default: // one built since he was counted is there already
			}
			l.mu.Unlock()
		}
		for {
			var sh *shared
			select {
			case <-ctx.Done():
				return
			case sh = <-ch:
			}
			// Who the viewer is may change (he signs in elsewhere): read it
			// again each time.
			p, err := l.ids.Fresh(r)
			if err != nil {
				continue
			}
			v, err := l.viewFor(ctx, sh, p)
			if err != nil {
				continue
			}
			b, err := httpx.Marshal(v)
			if err != nil {
				continue
			}
			if send(b) != nil {
				return
			}
		}
	})
}
