package play

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/moderation"
	"github.com/muster-games/muster/internal/outcome"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

// Routes adds the API of games to mux.
func (gs *Games) Routes(mux *http.ServeMux) {
	f := gs.api.Func
	// Every change asked of a game passes its address's limit first,
	// before the game is read.
	ch := func(h func(http.ResponseWriter, *http.Request) error) http.HandlerFunc { return f(gs.limited(h)) }
	mux.HandleFunc("POST /api/games", f(gs.create))
	mux.HandleFunc("POST /api/import", f(gs.importRecord))
	mux.HandleFunc("GET /api/games/{id}", f(gs.get))
	mux.HandleFunc("GET /api/games/{id}/record", f(gs.record))
	mux.HandleFunc("POST /api/games/{id}/join", ch(gs.join))
	mux.HandleFunc("POST /api/games/{id}/act", ch(gs.act))
	mux.HandleFunc("POST /api/games/{id}/resign", ch(gs.seatRequest((*room).resign)))
	mux.HandleFunc("POST /api/games/{id}/abort", ch(gs.seatRequest((*room).abort)))
	mux.HandleFunc("POST /api/games/{id}/draw", ch(gs.seatRequestWhat((*room).draw)))
	mux.HandleFunc("POST /api/games/{id}/takeback", ch(gs.seatRequestWhat((*room).takeback)))
	mux.HandleFunc("POST /api/games/{id}/rematch", ch(gs.rematchRequest))
	mux.HandleFunc("POST /api/admin/games/{id}/abort", f(gs.adminAbort))
}

// limited refuses a change asked of a game from an address past its
// ChangesPerMinute, before anything is read; an id that cannot be a
// game's is refused then too.
func (gs *Games) limited(h func(http.ResponseWriter, *http.Request) error) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		if err := gs.allowChange(r, r.PathValue("id")); err != nil {
			if retry, ok := errors.AsType[*tooManyChanges](err); ok {
				w.Header().Set("Retry-After", strconv.Itoa(int(retry.wait.Seconds())+1))
			}
			return err
		}
		return h(w, r)
	}
}

// allowChange counts a change asked of game id by r's address, refusing
// it (tooManyChanges) past ChangesPerMinute, and refuses an id that
// cannot be a game's.
func (gs *Games) allowChange(r *http.Request, id string) error {
	if ok, retry := gs.changes.Allow(httpx.Client(r), time.Now()); !ok {
		return httpx.WithCode(http.StatusTooManyRequests, &tooManyChanges{gs.cfg.ChangesPerMinute, retry})
	}
	if !token.ValidID(id) {
		return errNoGame
	}
	return nil
}

// tooManyChanges refuses a change past the limit, until wait has passed.
type tooManyChanges struct {
	limit int
	wait  time.Duration
}

func (e *tooManyChanges) Error() string {
	return fmt.Sprintf("at most %d changes to games a minute from one address: wait %s", e.limit, e.wait.Round(time.Second))
}

// Opponents a game is created against.
const (
	opponentAI     = "ai"
	opponentFriend = "friend"
	opponentLocal  = "local"
)

// createRequest is the body of POST /api/games.
type createRequest struct {
	Game    string `json:"game"`
	Ruleset string `json:"ruleset"`
	// Opponent is "ai", "friend" (a seat held by an invitation) or
	// "local" (both seats in this browser).
	Opponent string `json:"opponent"`
	Level    string `json:"level"`
	// Side is the creator's player name, or "random".
	Side string `json:"side"`
	// Minutes and Increment (seconds) set a clock; 0 minutes: none.
	Minutes   float64 `json:"minutes,omitempty"`
	Increment float64 `json:"increment,omitempty"`
	// Days sets a correspondence game: days for each move (1, 2, 3, 5,
	// 7 or 14).
	Days int `json:"days,omitempty"`
	// Position, if set, is the position to start from, in the game's
	// position text (a lesson, a study, "play the computer from here").
	Position string `json:"position,omitempty"`
	// Lesson marks the board of a lesson step (both seats here) or of a
	// puzzle (against the computer): it is
	// in no list of games, no count of games waiting, no player's page.
	Lesson bool `json:"lesson,omitempty"`
}

type createResponse struct {
	ID     string `json:"id"`
	Seat   int    `json:"seat"`
	Secret string `json:"secret"`
	// Secrets of both seats for a local game.
	Secrets []string `json:"secrets,omitempty"`
	// Invite is the path a friend opens to take the other seat.
	Invite string `json:"invite,omitempty"`
}

func (gs *Games) create(w http.ResponseWriter, r *http.Request) error {
	var req createRequest
	if err := gs.api.Decode(w, r, &req); err != nil {
		return err
	}
	g, err := game.Load(SpecOf(req.Game, req.Ruleset))
	if err != nil {
		return httpx.WithCode(http.StatusBadRequest, err)
	}
	resp, err := gs.newGame(w, r, g, req, req.Position, nil)
	if err != nil {
		return err
	}
	return gs.api.JSON(w, http.StatusCreated, resp)
}

// SpecOf is the game string of a game named with a ruleset ("" for its
// default).
func SpecOf(name, ruleset string) string {
	if ruleset == "" {
		return name
	}
	return name + "(" + ruleset + ")"
}

// newGame makes a game for the request's player from a request, with
// actions already played (an import), stores it and starts its room. The
// address's limit is checked before the player is made (a client without
// cookies is a new player each time): a refused request makes nobody.
func (gs *Games) newGame(w http.ResponseWriter, r *http.Request, g game.Game, req createRequest, start string, actions []string) (createResponse, error) {
	owner := httpx.Client(r)
	// Counted and made under the address's lock: games asked for at once
	// pass the limit one by one.
	defer gs.creating.Lock(owner)()
	if err := gs.underGameLimit(r.Context(), owner); err != nil {
		return createResponse{}, err
	}
	me, err := gs.ids.Identify(w, r)
	if err != nil {
		return createResponse{}, err
	}
	if req.Opponent == opponentFriend {
		if err := moderation.Check(me, false); err != nil {
			return createResponse{}, err
		}
	}
	if req.Lesson && req.Opponent != opponentLocal && req.Opponent != opponentAI {
		return createResponse{}, httpx.WithCode(http.StatusBadRequest, errors.New("a lesson's or a puzzle's board is played at one screen or against the computer (opponent local or ai)"))
	}
	rec := &store.Game{ID: token.ID(), Spec: g.Spec(), Owner: owner, Actions: actions, DrawOffer: -1, TakebackOffer: -1, Start: start, Lesson: req.Lesson}
	resp, err := seatsFor(g, req, rec, me, gs.levels())
	if err != nil {
		return createResponse{}, httpx.WithCode(http.StatusBadRequest, err)
	}
	if rec.Clock, err = ClockFor(req.Minutes, req.Increment, req.Days); err != nil {
		return createResponse{}, httpx.WithCode(http.StatusBadRequest, err)
	}
	st, err := initial(g, rec)
	if err != nil {
		return createResponse{}, httpx.WithCode(http.StatusBadRequest, err)
	}
	if err := game.ApplyNotation(st, actions); err != nil {
		return createResponse{}, httpx.WithCode(http.StatusBadRequest, err)
	}
	if st.IsTerminal() {
		rec.Status, rec.Result, rec.Reason = store.StatusOver, game.ResultName(st), st.Result().Reason
	}
	if rec.Status != store.StatusOver && (rec.Seats[0].Kind == store.SeatAI || rec.Seats[1].Kind == store.SeatAI) && gs.pool.Full() {
		return createResponse{}, errEnginesFull
	}
	rec.ToAct = ToActOf(rec, st)
	if err := gs.Start(r.Context(), rec); err != nil {
		return createResponse{}, err
	}
	resp.ID = rec.ID
	if resp.Invite != "" {
		resp.Invite = fmt.Sprintf(resp.Invite, rec.ID)
	}
	return resp, nil
}

// underGameLimit checks that addr may make another game this hour.
func (gs *Games) underGameLimit(ctx context.Context, addr string) error {
	n, err := gs.store.CountSince(ctx, addr, time.Now().Add(-time.Hour), gs.cfg.GamesPerHour)
	if err != nil {
		return httpx.Unavailable(err)
	}
	if n >= gs.cfg.GamesPerHour {
		return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("at most %d new games an hour from one address", gs.cfg.GamesPerHour))
	}
	return nil
}

// errBotInvite refuses a friend's invitation to a bot: a bot plays only
// the games it is challenged to, so that nobody meets a program unasked.
var errBotInvite = httpx.NewError(http.StatusForbidden, "a bot plays only the challenges made to it, not a friend's invitation")

// errEnginesFull refuses a game against the computer while the engine
// pool's queue is full.
var errEnginesFull = httpx.NewError(http.StatusServiceUnavailable, "the computer players are all busy: try again in a minute, or play a person")

// Start stores a new game and loads its room, which sets its agents and
// clock going where it is their turn.
func (gs *Games) Start(ctx context.Context, rec *store.Game) error {
	if err := gs.store.Create(ctx, rec); err != nil {
		return httpx.Unavailable(err)
	}
	// The room is made from the game as written, not read back: a copy,
	// which the room keeps to itself.
	if _, err := gs.open(ctx, rec.Copy()); err != nil {
		gs.log.Warn("loading a new game", "game", rec.ID, "err", err)
	}
	return nil
}

// load loads a stored game's room, which starts it; a game it cannot load
// now starts when it is next loaded (its first request, or the restart).
func (gs *Games) load(ctx context.Context, id string) {
	if err := gs.with(ctx, id, func(*room) error { return nil }); err != nil {
		gs.log.Warn("loading a new game", "game", id, "err", err)
	}
}

// levels are the computer players a request may name.
func (gs *Games) levels() []string {
	if gs.cfg.Levels == nil {
		return agent.Levels
	}
	return gs.cfg.Levels
}

// seatsFor fills the seats of a new game: the creator's on his side, the
// other the agent's (one of levels: the one place where a request names a
// computer player), a friend's or the creator's too.
func seatsFor(g game.Game, req createRequest, rec *store.Game, me *store.Player, levels []string) (createResponse, error) {
	seat := -1
	var names []string
	for p := 0; p < g.NumPlayers(); p++ {
		names = append(names, g.PlayerName(game.Player(p)))
		if names[p] == req.Side {
			seat = p
		}
	}
	switch {
	case req.Side == "random" || req.Side == "":
		seat = int(token.New(1)[0]) % 2
	case seat < 0:
		return createResponse{}, fmt.Errorf("unknown side %q (known: %s, random)", req.Side, strings.Join(names, ", "))
	}
	secret := token.New(16)
	rec.Seats = make([]store.Seat, 2)
	rec.Seats[seat] = store.Seat{Kind: store.SeatHuman, SecretHash: token.Hash(secret), Player: me.ID, Name: me.Username}
	resp := createResponse{Seat: seat, Secret: secret}
	other := 1 - seat
	switch req.Opponent {
	case opponentAI, "":
		level := req.Level
		if level == "" {
			level = "medium"
		}
		if !slices.Contains(levels, level) {
			return createResponse{}, fmt.Errorf("unknown level %q (known: %s)", level, strings.Join(levels, ", "))
		}
		if err := agent.Check(level, g); err != nil {
			return createResponse{}, err
		}
		rec.Seats[other] = store.Seat{Kind: store.SeatAI, Agent: level}
	case opponentFriend:
		invite := token.New(16)
		rec.Seats[other] = store.Seat{Kind: store.SeatHuman, JoinHash: token.Hash(invite)}
		resp.Invite = "/g/%s?join=" + invite
	case opponentLocal:
		second := token.New(16)
		rec.Seats[other] = store.Seat{Kind: store.SeatHuman, SecretHash: token.Hash(second), Player: me.ID, Name: me.Username}
		resp.Secrets = make([]string, 2)
		resp.Secrets[seat], resp.Secrets[other] = secret, second
	default:
		return createResponse{}, fmt.Errorf("unknown opponent %q (known: ai, friend, local)", req.Opponent)
	}
	return resp, nil
}

// correspondenceDays are the days a move a correspondence game may give.
var correspondenceDays = []int{1, 2, 3, 5, 7, 14}

// ClockFor reads a time control: minutes and an increment in seconds, or
// days a move by correspondence; nil for none.
func ClockFor(minutes, increment float64, days int) (*store.Clock, error) {
	if days != 0 {
		if !slices.Contains(correspondenceDays, days) || minutes != 0 {
			return nil, fmt.Errorf("correspondence is 1, 2, 3, 5, 7 or 14 days a move, without minutes (asked: %d days)", days)
		}
		day := int64(24 * time.Hour / time.Millisecond)
		base := int64(days) * day
		return &store.Clock{BaseMS: base, LeftMS: [2]int64{base, base}, SinceMS: time.Now().UnixMilli(), DaysPerMove: days}, nil
	}
	switch {
	case minutes < 0 || minutes > 600 || increment < 0 || increment > 600:
		return nil, errors.New("a clock is 0 to 600 minutes with 0 to 600 seconds a turn")
	case minutes == 0:
		return nil, nil
	}
	base := int64(minutes * 60000)
	return &store.Clock{BaseMS: base, IncMS: int64(increment * 1000), LeftMS: [2]int64{base, base}, SinceMS: time.Now().UnixMilli()}, nil
}

type importRequest struct {
	createRequest
	Record string `json:"record"`
}

// importRecord starts a game from a record (its moves replayed and checked).
func (gs *Games) importRecord(w http.ResponseWriter, r *http.Request) error {
	var req importRequest
	if err := gs.api.Decode(w, r, &req); err != nil {
		return err
	}
	g, rec, err := ReadRecord(req.Game, req.Record)
	if err != nil {
		return httpx.WithCode(http.StatusBadRequest, err)
	}
	resp, err := gs.newGame(w, r, g, req.createRequest, rec.Start, rec.Actions)
	if err != nil {
		return err
	}
	return gs.api.JSON(w, http.StatusCreated, resp)
}

// ReadRecord reads a record and returns the game it was played under:
// read in the format of the named game first, else in each game's, so
// that a record says its own game (its header names the ruleset) whatever
// the form chose. The error is the named game's.
func ReadRecord(name, text string) (game.Game, *game.Record, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil, errors.New("the record is empty: paste a game record")
	}
	var first error
	names := game.Names()
	if name != "" {
		names = append([]string{name}, names...)
	}
	for _, n := range names {
		g, rec, err := readRecordAs(n, text)
		if err == nil {
			return g, rec, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, nil, first
}

// readRecordAs reads a record in the format of the named game.
func readRecordAs(name, text string) (game.Game, *game.Record, error) {
	g, err := game.Load(name)
	if err != nil {
		return nil, nil, err
	}
	rc, ok := g.(game.Recorder)
	if !ok {
		return nil, nil, fmt.Errorf("%s has no record format", g.Name())
	}
	rec, err := rc.ReadRecord(strings.NewReader(text))
	if err != nil {
		return nil, nil, err
	}
	st, err := game.Replay(rec)
	if err != nil {
		return nil, nil, err
	}
	return st.Game(), rec, nil
}

// get sends the game's view now, or as it was after ?ply=N actions.
func (gs *Games) get(w http.ResponseWriter, r *http.Request) error {
	rm, err := gs.current(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	rm.touch()
	sn := rm.snap.Load()
	v := sn.current()
	if q := r.URL.Query().Get("ply"); q != "" {
		ply, perr := strconv.Atoi(q)
		if perr != nil {
			ply = -1
		}
		if v, err = rm.viewAt(sn, ply); err != nil {
			return err
		}
	}
	me, err := gs.ids.Me(r)
	if err != nil {
		return err
	}
	if me != nil {
		v.MySeats = seatsOf(sn.rec.Seats, me.ID)
	}
	return gs.sendView(w, &v)
}

// record sends the game's record in the game's own format.
func (gs *Games) record(w http.ResponseWriter, r *http.Request) error {
	rm, err := gs.current(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := rm.snap.Load().writeRecord(rm.g, rm.first, &b); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", rm.id+".txt"))
	w.Write(b.Bytes())
	return nil
}

type joinRequest struct {
	Token string `json:"token"`
}

// join gives the seat left for a friend to the holder of its invitation,
// once.
func (gs *Games) join(w http.ResponseWriter, r *http.Request) error {
	var req joinRequest
	if err := gs.api.Decode(w, r, &req); err != nil {
		return err
	}
	if _, err := gs.room(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	me, err := gs.ids.Identify(w, r)
	if err != nil {
		return err
	}
	if err := moderation.Check(me, false); err != nil {
		return err
	}
	if me.Bot {
		return errBotInvite
	}
	var seat int
	var secret string
	err = gs.with(r.Context(), r.PathValue("id"), func(rm *room) error {
		var err error
		seat, secret, err = rm.join(r.Context(), req.Token, me)
		return err
	})
	if err != nil {
		return err
	}
	return gs.api.JSON(w, http.StatusOK, map[string]any{"seat": seat, "secret": secret})
}

type actRequest struct {
	Secret string `json:"secret"`
	Action string `json:"action"`
	// Ply is the number of actions the player saw: an action made on an
	// older view is refused.
	Ply *int `json:"ply"`
}

// act plays an action for a seat.
func (gs *Games) act(w http.ResponseWriter, r *http.Request) error {
	var req actRequest
	if err := gs.api.Decode(w, r, &req); err != nil {
		return err
	}
	h, err := gs.actor(r, req)
	if err != nil {
		return err
	}
	return gs.answer(w, r, func(rm *room) (View, error) { return rm.play(r.Context(), h, req.Action, *req.Ply) })
}

// actor checks an action's request and returns the seat's holder who
// makes it.
func (gs *Games) actor(r *http.Request, req actRequest) (holder, error) {
	switch {
	case len(req.Action) > 64:
		return holder{}, httpx.WithCode(http.StatusBadRequest, errors.New("an action is at most 64 characters"))
	case req.Ply == nil:
		return holder{}, httpx.WithCode(http.StatusBadRequest, errors.New("an action needs the ply it was made at"))
	}
	return gs.holder(r, req.Secret)
}

// Act plays an action sent on game id's WebSocket (internal/watch) as
// act plays one posted, under the same limit of changes from an
// address: its view goes to the game's watchers, the socket among them.
func (gs *Games) Act(r *http.Request, id, secret, action string, ply *int) error {
	if err := gs.allowChange(r, id); err != nil {
		return err
	}
	h, err := gs.actor(r, actRequest{Secret: secret, Action: action, Ply: ply})
	if err != nil {
		return err
	}
	return gs.with(r.Context(), id, func(rm *room) error {
		_, err := rm.play(r.Context(), h, action, *ply)
		return err
	})
}

// answer does a change on the request's game and answers with the view
// it leaves: the JSON its watchers were sent, where it was built just now
// (a view is encoded once per change, not again for the one who made it).
// It is the view of the snapshot the change published, though the game
// may have changed again since (the computer's quick answer, once the
// room's turn is let go), as the watchers were sent it in turn.
func (gs *Games) answer(w http.ResponseWriter, r *http.Request, do func(*room) (View, error)) error {
	var v View
	err := gs.with(r.Context(), r.PathValue("id"), func(rm *room) error {
		var err error
		v, err = do(rm)
		return err
	})
	if err != nil {
		return err
	}
	if sn := v.published; sn != nil {
		if time.Since(sn.at) < freshView {
			return gs.api.Raw(w, http.StatusOK, sn.encoded(gs))
		}
		v := sn.current()
		return gs.sendView(w, &v)
	}
	if v.Legal == nil {
		v.Legal = []game.ActionInfo{}
	}
	return gs.sendView(w, &v)
}

// sendView answers with v, encoded as a change encodes it for its
// watchers (appendView, byte for byte encoding/json's), not by reflection,
// which took six to seven times as long (BenchmarkView).
func (gs *Games) sendView(w http.ResponseWriter, v *View) error {
	var err error
	encodeView(v, func(b []byte) { err = gs.api.Raw(w, http.StatusOK, b) })
	return err
}

// freshView is how old a view's JSON may be to answer a change with it:
// its clock is read when it is built.
const freshView = 250 * time.Millisecond

type secretRequest struct {
	Secret string `json:"secret"`
	// What is, for draws and takebacks, offer, accept or decline.
	What string `json:"what,omitempty"`
}

// seatRequest serves a request of a seat's holder (resign, abort),
// answered with the new view.
func (gs *Games) seatRequest(do func(*room, context.Context, holder) (View, error)) func(http.ResponseWriter, *http.Request) error {
	return gs.seatRequestWhat(func(rm *room, ctx context.Context, h holder, _ string) (View, error) { return do(rm, ctx, h) })
}

// seatRequestWhat serves a request of a seat's holder with a what (draws,
// takebacks), answered with the new view.
func (gs *Games) seatRequestWhat(do func(*room, context.Context, holder, string) (View, error)) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		req, h, err := gs.seatHolder(w, r)
		if err != nil {
			return err
		}
		return gs.answer(w, r, func(rm *room) (View, error) { return do(rm, r.Context(), h, req.What) })
	}
}

// seatHolder reads a request of a seat's holder: its body and who it
// comes from.
func (gs *Games) seatHolder(w http.ResponseWriter, r *http.Request) (secretRequest, holder, error) {
	var req secretRequest
	if err := gs.api.Decode(w, r, &req); err != nil {
		return req, holder{}, err
	}
	h, err := gs.holder(r, req.Secret)
	return req, h, err
}

// rematchRequest gives the seat holder his seat in the game that
// follows, sides swapped.
func (gs *Games) rematchRequest(w http.ResponseWriter, r *http.Request) error {
	_, h, err := gs.seatHolder(w, r)
	if err != nil {
		return err
	}
	if me, err := gs.ids.Me(r); err != nil {
		return err
	} else if err := moderation.Check(me, false); err != nil {
		return err
	}
	resp, err := gs.rematch(r.Context(), r.PathValue("id"), h, httpx.Client(r))
	if err != nil {
		return err
	}
	return gs.api.JSON(w, http.StatusOK, resp)
}

// errAdmin refuses an administrator's request from anyone else.
var errAdmin = httpx.NewError(http.StatusForbidden, "for administrators only")

// adminAbort calls a game in play off for an administrator, whoever
// plays it.
func (gs *Games) adminAbort(w http.ResponseWriter, r *http.Request) error {
	var req struct{}
	if err := gs.api.Decode(w, r, &req); err != nil {
		return err
	}
	me, err := gs.ids.Me(r)
	if err != nil {
		return err
	}
	if me == nil || !me.Admin {
		return errAdmin
	}
	err = gs.with(r.Context(), r.PathValue("id"), func(rm *room) error {
		if err := rm.lock(r.Context()); err != nil {
			return err
		}
		defer rm.unlock()
		if rm.rec.Status != store.StatusPlaying {
			return errOver
		}
		return rm.end(r.Context(), outcome.Abort("aborted by an administrator"))
	})
	if err != nil {
		return err
	}
	gs.log.Info("game aborted by an administrator", "game", r.PathValue("id"), "by", me.Username)
	return gs.api.JSON(w, http.StatusOK, map[string]string{"status": "aborted"})
}

// holder is who a request comes from: the seat's secret it gives and the
// player its session signs in.
func (gs *Games) holder(r *http.Request, secret string) (holder, error) {
	h := holder{secret: secret}
	p, err := gs.ids.Me(r)
	if err != nil {
		return h, err
	}
	if p != nil {
		h.player = p.ID
	}
	return h, nil
}

// Seated tells whether player (an id, "" for nobody) holds a seat of
// game id by his session or token; a game not in memory is loaded, and
// one changed through another server read again (current), so that a
// socket opened next (Subscribe, which reads no version of its own)
// begins from the game as stored.
func (gs *Games) Seated(ctx context.Context, id, player string) (bool, error) {
	rm, err := gs.current(ctx, id)
	if err != nil {
		return false, err
	}
	return player != "" && len(seatsOf(rm.snap.Load().rec.Seats, player)) > 0, nil
}

// Subscribe makes a watcher of game id: its views, as JSON, handed to
// deliver at once and after every change (each whole: a watcher's outbox
// keeps, of those it has not sent, the first and the newest), until stop
// or until the game leaves this server's memory (gone is called: the
// watcher connects again). deliver and gone are called under the room's
// lock of its watchers and must not wait. A game not in memory is loaded;
// the view at once never waits for a change under way.
func (gs *Games) Subscribe(ctx context.Context, id string, deliver func(*httpx.Lent), gone func()) (stop func(), err error) {
	rm, err := gs.room(ctx, id)
	if err != nil {
		return nil, err
	}
	w := &watcher{deliver: deliver, gone: gone}
	if err := rm.subscribe(w); err != nil {
		return nil, err
	}
	return func() { rm.unsubscribe(w) }, nil
}

// SeatInfo is what a request's holder is in a game: his seat (-1: none,
// a spectator), its title and the player holding it, whether he holds a
// seat by his session, and whether the game is over.
type SeatInfo struct {
	Seat     int
	Title    string
	Player   string
	ByPlayer bool
	Over     bool
}

// Seat tells what the holder of secret, or player, is in game id.
func (gs *Games) Seat(ctx context.Context, id, secret, player string) (SeatInfo, error) {
	rm, err := gs.current(ctx, id)
	if err != nil {
		return SeatInfo{}, err
	}
	sn := rm.snap.Load()
	info := SeatInfo{Seat: seatOf(sn.rec.Seats, holder{secret: secret, player: player}), Over: sn.rec.Status == store.StatusOver}
	info.ByPlayer = len(seatsOf(sn.rec.Seats, player)) > 0
	if info.Seat >= 0 {
		info.Title = rm.g.Traits().Players[info.Seat].Title
		info.Player = sn.rec.Seats[info.Seat].Player
	}
	return info, nil
}
