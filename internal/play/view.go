package play

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"
	"weak"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/events"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/outcome"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/rating"
)

// View is what every client receives: the game's own description (traits,
// board, legal actions with their squares, prompt, events, turns) and the
// room's (seats, status, clock, draw offer).
type View struct {
	ID string `json:"id"`
	Described
	Seats   []seatView `json:"seats"`
	Turns   turnList   `json:"turns"`
	History []string   `json:"history"`
	// Start is the position the game began from (the game's position
	// text), where it is not the game's own start: with History, what a
	// program needs to follow the game exactly, repetitions included.
	Start  string       `json:"start,omitempty"`
	Ply    int          `json:"ply"`
	Status store.Status `json:"status"`
	Result string       `json:"result,omitempty"`
	Reason string       `json:"reason,omitempty"`
	// Ending is how the game ended ("win", "draw", "aborted", "scored";
	// none while it goes on) and Winner the seat that won, or -1: the
	// outcome as data, where Result is its words.
	Ending string `json:"ending,omitempty"`
	Winner int    `json:"winner"`
	// DrawOffer is the seat offering a draw, or -1.
	DrawOffer int        `json:"draw_offer"`
	Thinking  bool       `json:"thinking"`
	Clock     *clockView `json:"clock,omitempty"`
	// CanAbort says the game may still be called off; Rematch is the id
	// of the game that follows, once asked for.
	CanAbort bool   `json:"can_abort"`
	Rematch  string `json:"rematch,omitempty"`
	// Takeback names, per seat, the ply a takeback would return to, or -1;
	// TakebackOffer the seat asking its opponent for one, or -1.
	Takeback      [2]int `json:"takeback"`
	TakebackOffer int    `json:"takeback_offer"`
	// Updated is when the stored game last changed (Unix ms): a client
	// keeps the newest view by it, a takeback's fewer plies included.
	Updated int64 `json:"updated"`
	// Rated games change their players' ratings: RatingChanges says by
	// how much, once the game is over.
	Rated         bool                 `json:"rated"`
	RatingChanges []store.RatingChange `json:"rating_changes,omitempty"`
	// MySeats are the seats the asking player holds by his session, in
	// the answer to him alone (never broadcast).
	MySeats []int `json:"my_seats,omitempty"`

	// published is the snapshot a change's view was read from (head),
	// whose JSON answers whoever made the change (answer); never encoded.
	published *snapshot
	// legalJSON, if set, is Legal as the game wrote it in JSON
	// (game.LegalJSONAppender), Legal itself not made: encoded in its
	// place.
	legalJSON []byte
}

// Described is a position as its game describes it: what a game's view
// and a node of the analysis board both show.
type Described struct {
	Spec   string      `json:"spec"`
	Game   string      `json:"game"`
	Traits game.Traits `json:"traits"`
	// Position is the position in the game's text format.
	Position string `json:"position"`
	// ToAct is the player to act, -1 for chance, -2 when nobody acts (the
	// game is over, or a past ply is shown).
	ToAct  game.Player       `json:"to_act"`
	Board  game.View         `json:"board"`
	Legal  []game.ActionInfo `json:"legal"`
	Prompt game.Prompt       `json:"prompt"`
	Events []game.Event      `json:"events"`
}

// Describe describes a state, with the legal actions of the player to
// act (none for chance or at the end).
func Describe(s game.State) Described { return describe(s, nil, game.View{}, false) }

// describe is Describe with the legal actions appended to legal[:0] (nil:
// a list of their own; none with noLegal, where the caller has them
// otherwise) and the board drawn into board's lists (a zero View: lists of
// its own).
func describe(s game.State, legal []game.ActionInfo, board game.View, noLegal bool) Described {
	g := s.Game()
	d := Described{Spec: g.Spec(), Game: g.Name(), Traits: g.Traits(), Position: s.String(), ToAct: s.ToAct(),
		Board: game.AppendView(board, s), Legal: []game.ActionInfo{}, Prompt: s.Prompt(), Events: s.Events()}
	if s.ToAct() >= 0 && !noLegal {
		if legal == nil {
			d.Legal = game.DescribeLegal(s)
		} else if l := game.AppendLegal(legal[:0], s); len(l) > 0 {
			d.Legal = l
		}
	}
	return d
}

// clockView gives each player's time left now, and who is thinking.
type clockView struct {
	LeftMS  [2]int64 `json:"left_ms"`
	Running int      `json:"running"` // the player whose time runs, or -1
	BaseMS  int64    `json:"base_ms"`
	IncMS   int64    `json:"inc_ms"`
	// DaysPerMove is set for correspondence, with Deadline, when the
	// player to act runs out of time (Unix ms).
	DaysPerMove int   `json:"days_per_move,omitempty"`
	Deadline    int64 `json:"deadline,omitempty"`
}

type seatView struct {
	Kind    store.SeatKind `json:"kind"`
	Agent   string         `json:"agent,omitempty"`
	Claimed bool           `json:"claimed"`
	// Name is the account's username holding the seat; empty for an
	// anonymous player or an agent.
	Name string `json:"name,omitempty"`
	// Rating is the player's rating in a rated game, before it ended.
	Rating float64 `json:"rating,omitempty"`
	// Provisional marks a rating still uncertain.
	Provisional bool `json:"provisional,omitempty"`
	// Bot: a program's account holds the seat.
	Bot bool `json:"bot,omitempty"`
}

// snapshot is the room as a change left it: immutable once published,
// read by every reader without the room's turn.
type snapshot struct {
	// rec is a copy of the stored game (its seats and actions copied).
	rec store.Game
	// view is the view, built once; json its encoding, held weakly.
	view View
	json weakJSON
	// at is when it was built (its clock read then).
	at time.Time
	// first is the game's start: once the view is encoded, its legal
	// actions (a game's largest part), its board and its events are let
	// go, and made again from first and history when a view is asked
	// for (fullInto).
	first game.State
	// history is the state's actions, for views of past plies.
	history   []game.Action
	toAct     game.Player
	clockRuns bool
	thinking  bool
}

// publish builds the snapshot of the room as it is, stores it for the
// readers and sends it to the watchers; the turn is held.
func (r *room) publish() {
	rec := *r.rec
	// The seats are the last snapshot's where they are as they were (a
	// move changes none: a copy of them and their view was a fifth of
	// what a change's snapshot allocated), else copied.
	prev := r.snap.Load()
	var seats []seatView
	if prev != nil && slices.Equal(prev.rec.Seats, r.rec.Seats) && prev.view.Seats != nil {
		rec.Seats, seats = prev.rec.Seats, prev.view.Seats
	} else {
		rec.Seats = append([]store.Seat(nil), r.rec.Seats...)
	}
	// The actions and the history are shared, not copied (a live game's
	// second largest part, copied at every change): the room only ever
	// appends to its actions, or puts a new list in their place, and
	// never changes its state (a change makes a new one), so what the
	// snapshot holds stays as it was.
	n := len(r.rec.Actions)
	rec.Actions = r.rec.Actions[:n:n]
	if rec.Actions == nil {
		rec.Actions = []string{}
	}
	if c := r.rec.Clock; c != nil {
		cc := *c
		rec.Clock = &cc
	}
	h := r.s.History()
	sn := &snapshot{rec: rec, history: h[:len(h):len(h)], toAct: r.s.ToAct(), clockRuns: r.clockRuns(), thinking: r.thinking}
	// The legal actions are described into a list used again and again:
	// they are encoded, then let go (made again if a reader asks).
	legal := legalLists.get()
	// So is the board: the lobby draws its boards again when it asks
	// (snapshot.board).
	board := viewBoards.get()
	defer func() {
		putLegal(legal)
		clear(board.Pieces[:cap(board.Pieces)])
		clear(board.Regions[:cap(board.Regions)])
		*board = game.View{Pieces: board.Pieces[:0], Regions: board.Regions[:0]}
		viewBoards.put(board)
	}()
	// A game that writes its legal actions in JSON itself does so, into
	// a buffer lent for it: describing them, then encoding the list,
	// was a tenth of a server's processor time at 1,000 live games.
	var legalJSON []byte
	if j, ok := r.s.(game.LegalJSONAppender); ok && r.s.ToAct() >= 0 && rec.Status == store.StatusPlaying {
		buf := legalJSONs.Get().(*[]byte)
		defer legalJSONs.Put(buf)
		if out, ok := j.AppendLegalJSON((*buf)[:0]); ok {
			*buf, legalJSON = out, out
		}
	}
	v := viewOf(&sn.rec, r.s, r.moveList().list(), (*legal)[:0], legalJSON, *board, seats)
	if len(v.Legal) > 0 {
		*legal = v.Legal // grown
	}
	board.Pieces, board.Regions = v.Board.Pieces, v.Board.Regions
	v.History, v.Updated = rec.Actions, rec.Updated.UnixMilli()
	v.Thinking = r.thinking
	v.CanAbort, v.Rematch = r.canAbort(), rec.Rematch
	v.Takeback = [2]int{r.takebackTo(0), r.takebackTo(1)}
	if rec.Status != store.StatusPlaying {
		v.Legal, v.ToAct = []game.ActionInfo{}, game.Terminal
		if !r.s.IsTerminal() {
			// Resigned, agreed or lost on time: the room's ending, not the
			// rules'.
			v.Prompt = game.Prompt{Player: game.Terminal, Text: endSentence(r.g, &rec)}
		}
	}
	sn.view = v
	sn.at = time.Now()
	sn.view.Clock = sn.clock(sn.at)
	// The view is encoded into a buffer lent to the watchers' outboxes,
	// which goes back to be written again once each has sent it (a new
	// slice a change was two fifths of what a server allocated); a
	// reader who asks for the snapshot's JSON (a new watcher, a GET, the
	// answer to a posted move) has it encoded again (encoded).
	buf := viewLends.Get().(*[]byte)
	*buf = append(appendView((*buf)[:0], &sn.view), '\n')
	lent := httpx.Lend(*buf, func(b []byte) {
		*buf = b[:0]
		viewLends.Put(buf)
	})
	// Let go once encoded: made again when asked for (fullInto).
	sn.first = r.first
	if len(sn.view.Legal) > 0 || len(sn.view.legalJSON) > len("[]") {
		sn.view.Legal = nil
	} else {
		sn.view.Legal = []game.ActionInfo{}
	}
	sn.view.legalJSON = nil
	sn.view.Board, sn.view.Events = game.View{}, nil
	r.snap.Store(sn)
	r.broadcast(lent)
	lent.Release()
	if betweenPeople(&rec) {
		r.gs.cfg.Events.GameChanged(events.GameChanged{Game: r.id}) // its board in the lobby's list of games
	}
}

// marshalView encodes a view to be kept (in the room's snapshot, until
// the next change): by hand (viewjson.go), in a buffer used again and
// again, then copied to a slice of its exact length, so that a live game
// holds no buffer's spare room, and a change leaves no grown buffers
// behind. It ends with a newline, as encoding/json's Encoder ends it.
func (gs *Games) marshalView(v View) []byte {
	var out []byte
	encodeView(&v, func(b []byte) { out = bytes.Clone(b) })
	return out
}

// encodeView encodes v as marshalView does, into a buffer of viewBuffers
// lent to use while it runs.
func encodeView(v *View, use func([]byte)) {
	buf := viewBuffers.Get().(*[]byte)
	defer viewBuffers.Put(buf)
	*buf = append(appendView((*buf)[:0], v), '\n')
	use(*buf)
}

var viewBuffers = sync.Pool{New: func() any { return new([]byte) }}

// legalJSONs are the buffers publish has a game write its legal actions
// into (game.LegalJSONAppender).
var legalJSONs = sync.Pool{New: func() any { return new([]byte) }}

// viewLends are the buffers a change's view is lent to its watchers in.
var viewLends = sync.Pool{New: func() any { return new([]byte) }}

// legalLists are the lists publish describes the legal actions into,
// viewBoards the boards it draws the position into.
var (
	legalLists freeList[[]game.ActionInfo]
	viewBoards freeList[game.View]
)

// putLegal empties a list of legalLists and puts it back.
func putLegal(legal *[]game.ActionInfo) {
	clear((*legal)[:cap(*legal)])
	legalLists.put(legal)
}

// freeList keeps things for use again, as a sync.Pool would, but keeps
// them through the collections, which empty a pool: a list of a Tablut
// position's legal actions is 10–16 KB, grown to its size anew each time
// a pool had let it go (6% of what a server allocated at 1,000 live
// games, by its allocation profile). As many are kept as are in use at
// once, up to 32; whoever puts one back empties it first.
type freeList[T any] struct {
	mu    sync.Mutex
	items []*T
}

// get returns a thing used before, or a new one.
func (f *freeList[T]) get() *T {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := len(f.items); n > 0 {
		x := f.items[n-1]
		f.items[n-1] = nil
		f.items = f.items[:n-1]
		return x
	}
	return new(T)
}

// put keeps x for a later get.
func (f *freeList[T]) put(x *T) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.items) < 32 {
		f.items = append(f.items, x)
	}
}

// clock is the clock as it reads at now.
func (sn *snapshot) clock(now time.Time) *clockView {
	c := sn.rec.Clock
	if c == nil {
		return nil
	}
	cv := &clockView{LeftMS: c.LeftMS, Running: -1, BaseMS: c.BaseMS, IncMS: c.IncMS, DaysPerMove: c.DaysPerMove}
	if p := sn.toAct; p >= 0 && sn.clockRuns {
		cv.Running = int(p)
		cv.LeftMS = c.Charged(int(p), now.UnixMilli()).LeftMS
		if c.Correspondence() {
			cv.Deadline = c.Deadline(int(p))
		}
	}
	return cv
}

// current is the view now: the snapshot's, with the clock read now.
func (sn *snapshot) current() View { return sn.currentInto(nil) }

// currentInto is current with the legal actions, where they are made
// again, appended to *legal (nil: a list of their own), which then holds
// them: for a view encoded and let go.
func (sn *snapshot) currentInto(legal *[]game.ActionInfo) View {
	v := sn.fullInto(legal)
	if sn.clockRuns {
		v.Clock = sn.clock(time.Now())
	}
	return v
}

// head is the view now without what was let go once it was encoded (its
// legal actions, nil where some were, its board and events): what a
// change answers with, its JSON being the snapshot's.
func (sn *snapshot) head() View {
	v := sn.view
	if sn.clockRuns {
		v.Clock = sn.clock(time.Now())
	}
	v.published = sn
	return v
}

// state is the snapshot's state, made again from the game's start and
// its history.
func (sn *snapshot) state() game.State { return sn.stateAt(len(sn.history)) }

// stateAt is the game's state after its first ply actions.
func (sn *snapshot) stateAt(ply int) game.State {
	s := sn.first.Clone()
	for _, a := range sn.history[:ply] {
		s.Apply(a)
	}
	return s
}

// board is the position's view, made again (state): the lobby's list of
// games draws a dozen of them, at most once a second, where every change
// of a game between people had kept its board for it (a Tablut board's
// pieces and regions: 1.1 KB a view, by the allocation profile at 1,000
// live games).
func (sn *snapshot) board() game.View { return sn.state().View() }

// fullInto is the view as it was built, what was let go made again from
// the game's start and its history, its legal actions appended to *legal
// as currentInto's.
func (sn *snapshot) fullInto(legal *[]game.ActionInfo) View {
	v := sn.view
	if sn.first == nil {
		return v
	}
	s := sn.state()
	v.Board, v.Events = s.View(), s.Events()
	if v.Legal == nil {
		v.Legal = []game.ActionInfo{}
		switch {
		case s.ToAct() < 0:
		case legal == nil:
			v.Legal = game.DescribeLegal(s)
		default:
			*legal = game.AppendLegal((*legal)[:0], s)
			if len(*legal) > 0 {
				v.Legal = *legal
			}
		}
	}
	return v
}

// marshalLent encodes the view fullInto makes (current with now), its legal
// actions made in a list lent for it (a socket's first view: the start's
// legal moves were 14 MB of the lists a server allocated for 1,000 games
// at 1,000 live games, each made anew).
func (sn *snapshot) marshalLent(gs *Games, now bool) []byte {
	legal := legalLists.get()
	defer putLegal(legal)
	if now {
		return gs.marshalView(sn.currentInto(legal))
	}
	return gs.marshalView(sn.fullInto(legal))
}

// currentJSON is the view now as JSON: built once per change, and again
// for a clock running or where the collector took the encoding back.
func (sn *snapshot) currentJSON(gs *Games) []byte {
	if !sn.clockRuns {
		return sn.encoded(gs)
	}
	return sn.marshalLent(gs, true)
}

// weakJSON is a view's encoding, held weakly: a change encodes its view
// once, for its watchers and the answer to whoever made it, and the
// collector may then take it back (it is a live game's largest part, and
// mostly never read again); it is made again when asked for.
type weakJSON struct {
	mu sync.Mutex
	p  weak.Pointer[encodedView]
}

type encodedView struct{ b []byte }

// encoded is the snapshot's view as JSON, made again if it was let go.
func (sn *snapshot) encoded(gs *Games) []byte {
	sn.json.mu.Lock()
	defer sn.json.mu.Unlock()
	if e := sn.json.p.Value(); e != nil {
		return e.b
	}
	e := &encodedView{sn.marshalLent(gs, false)}
	sn.json.p = weak.Make(e)
	return e.b
}

// betweenPeople reports whether two different players hold the seats (a
// game the lobby shows).
func betweenPeople(rec *store.Game) bool {
	return len(rec.Seats) == 2 && rec.Seats[0].Player != "" && rec.Seats[1].Player != "" && rec.Seats[0].Player != rec.Seats[1].Player
}

// viewOf describes a state of a stored game, its legal actions appended
// to legal[:0] (nil: a list of their own; legalJSON, if not nil, is them
// as the game wrote them in JSON, none then made), its board drawn into
// board's lists (describe); seats, if not nil, are the view of rec's
// seats, made before.
func viewOf(rec *store.Game, s game.State, turns turnList, legal []game.ActionInfo, legalJSON []byte, board game.View, seats []seatView) View {
	v := View{
		ID: rec.ID, Described: describe(s, legal, board, legalJSON != nil), Turns: turns, legalJSON: legalJSON, Ply: len(s.History()), Status: rec.Status,
		Result: rec.Result, Reason: rec.Reason, DrawOffer: rec.DrawOffer, TakebackOffer: rec.TakebackOffer, Start: rec.Start,
		Winner: -1,
	}
	if o, err := outcome.Read(s.Game(), rec.Result, rec.Reason); err == nil && o.Kind != outcome.None {
		v.Ending, v.Winner = o.Kind.String(), o.Winner
	}
	v.Seats = seats
	if seats == nil {
		for _, seat := range rec.Seats {
			v.Seats = append(v.Seats, seatView{Kind: seat.Kind, Agent: seat.Agent, Claimed: seat.SecretHash != "" || seat.Kind == store.SeatAI, Name: seat.Name,
				Rating: seat.Rating, Provisional: seat.Rating != 0 && seat.RD > rating.ProvisionalRD, Bot: seat.Bot})
		}
	}
	v.Rated, v.RatingChanges = rec.Rated, rec.Ratings
	return v
}

// moveList is the game's turns, brought up to the game's ply first; the
// turn is held.
func (r *room) moveList() *turnLog {
	if ply := len(r.rec.Actions); r.turnsAt != ply {
		// One more action is added to the turns; anything else (a
		// takeback, a game loaded) groups them all again, in a log of
		// their own (a list given out holds the old one's bytes).
		h := r.s.History()
		if r.turnsAt < 0 || r.turns == nil || r.turnsAt != ply-1 {
			r.turns = newTurnLog(r.first)
			for _, a := range h[:ply-min(ply, 1)] {
				r.turns.add(a)
			}
		}
		if ply > 0 {
			r.turns.add(h[ply-1])
		}
		r.turnsAt = ply
	}
	return r.turns
}

// endSentence says how a game ended by resignation, time or agreement.
func endSentence(g game.Game, rec *store.Game) string {
	o, err := outcome.Read(g, rec.Result, rec.Reason)
	if err != nil {
		return rec.Result + ": " + rec.Reason + "."
	}
	return o.Sentence(g)
}

// viewAt is the view of the game as it was after ply actions, for
// stepping through it; nothing is legal there.
func (r *room) viewAt(sn *snapshot, ply int) (View, error) {
	if ply < 0 || ply > len(sn.history) {
		return View{}, httpx.WithCode(http.StatusBadRequest, fmt.Errorf("ply must be 0 to %d", len(sn.history)))
	}
	v := viewOf(&sn.rec, sn.stateAt(ply), sn.view.Turns, nil, nil, game.View{}, sn.view.Seats)
	v.Legal, v.ToAct, v.History = []game.ActionInfo{}, game.Terminal, sn.rec.Actions[:ply]
	return v, nil
}
