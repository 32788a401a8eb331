package server

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/rating"
)

// view is what every client receives: the game's own description (traits,
// board, legal actions with their squares, prompt, events, turns) and the
// room's (seats, status, clock, draw offer).
type view struct {
	ID string `json:"id"`
	described
	Seats   []seatView   `json:"seats"`
	Turns   []game.Turn  `json:"turns"`
	History []string     `json:"history"`
	Ply     int          `json:"ply"`
	Status  store.Status `json:"status"`
	Result  string       `json:"result,omitempty"`
	Reason  string       `json:"reason,omitempty"`
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
}

// described is a position as its game describes it: what a game's view
// and a node of the analysis board both show.
type described struct {
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

// describe describes a state, with the legal actions of the player to
// act (none for chance or at the end).
func describe(s game.State) described {
	g := s.Game()
	d := described{Spec: g.Spec(), Game: g.Name(), Traits: g.Traits(), Position: s.String(), ToAct: s.ToAct(),
		Board: s.View(), Legal: []game.ActionInfo{}, Prompt: s.Prompt(), Events: s.Events()}
	if s.ToAct() >= 0 {
		d.Legal = game.DescribeLegal(s)
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
}

// view is the current view; the mutex is held.
func (r *room) view() view {
	r.used = time.Now()
	v := r.viewOf(r.s)
	v.History = append([]string{}, r.rec.Actions...)
	v.Thinking = r.thinking
	v.CanAbort, v.Rematch = r.canAbort(), r.rec.Rematch
	v.Takeback = [2]int{r.takebackTo(0), r.takebackTo(1)}
	v.Updated = r.rec.Updated.UnixMilli()
	if r.rec.Status != store.StatusPlaying {
		v.Legal, v.ToAct = []game.ActionInfo{}, game.Terminal
		if !r.s.IsTerminal() {
			// Resigned, agreed or lost on time: the room's ending, not the
			// rules'.
			v.Prompt = game.Prompt{Player: game.Terminal, Text: endSentence(r.rec)}
		}
	}
	if c := r.rec.Clock; c != nil {
		cv := &clockView{LeftMS: c.LeftMS, Running: -1, BaseMS: c.BaseMS, IncMS: c.IncMS, DaysPerMove: c.DaysPerMove}
		if p := r.s.ToAct(); p >= 0 && r.clockRuns() {
			cv.Running = int(p)
			cv.LeftMS = c.Charged(int(p), time.Now().UnixMilli()).LeftMS
			if c.Correspondence() {
				cv.Deadline = c.Deadline(int(p))
			}
		}
		v.Clock = cv
	}
	return v
}

// seatsOf lists the seats a player holds by his session.
func (r *room) seatsOf(player string) []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []int
	for p, seat := range r.rec.Seats {
		if player != "" && seat.Kind == store.SeatHuman && seat.Player == player && seat.JoinHash == "" {
			out = append(out, p)
		}
	}
	return out
}

// viewOf describes a state of the room's game; the mutex is held.
func (r *room) viewOf(s game.State) view {
	v := view{
		ID: r.rec.ID, described: describe(s), Turns: r.moveList(), Ply: len(s.History()), Status: r.rec.Status,
		Result: r.rec.Result, Reason: r.rec.Reason, DrawOffer: r.rec.DrawOffer, TakebackOffer: r.rec.TakebackOffer,
	}
	for _, seat := range r.rec.Seats {
		v.Seats = append(v.Seats, seatView{Kind: seat.Kind, Agent: seat.Agent, Claimed: seat.SecretHash != "" || seat.Kind == store.SeatAI, Name: seat.Name,
			Rating: seat.Rating, Provisional: seat.Rating != 0 && seat.RD > rating.ProvisionalRD})
	}
	v.Rated, v.RatingChanges = r.rec.Rated, r.rec.Ratings
	return v
}

// moveList is the game's turns, made again only when the game has moved.
func (r *room) moveList() []game.Turn {
	if ply := len(r.rec.Actions); r.turnsAt != ply {
		r.turns, r.turnsAt = game.Turns(r.first, r.s.History()), ply
	}
	return r.turns
}

// endSentence says how a game ended by resignation, time or agreement.
func endSentence(rec *store.Game) string {
	if rec.Result == "draw" {
		return "Draw: " + rec.Reason + "."
	}
	return strings.ToUpper(rec.Result[:1]) + rec.Result[1:] + " won: " + rec.Reason + "."
}

// viewAt is the view of the game as it was after ply actions, for
// stepping through it; nothing is legal there.
func (r *room) viewAt(ply int) view {
	s := r.first.Clone()
	for _, a := range r.s.History()[:ply] {
		s.Apply(a)
	}
	v := r.viewOf(s)
	v.Legal, v.ToAct, v.History = []game.ActionInfo{}, game.Terminal, r.rec.Actions[:ply]
	return v
}

func (r *room) viewJSON() []byte {
	b, err := marshal(r.view())
	if err != nil {
		r.srv.log.Error("encoding a view", "game", r.rec.ID, "err", err)
		return []byte(`{"error":"internal error"}`)
	}
	return b
}

// current is the view now.
func (r *room) current() view {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.view()
}

// viewAtPly is the view after ply actions, for a ply read from a request.
func (r *room) viewAtPly(ply int, parseErr error) (view, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if parseErr != nil || ply < 0 || ply > len(r.rec.Actions) {
		return view{}, withCode(http.StatusBadRequest, fmt.Errorf("ply must be 0 to %d", len(r.rec.Actions)))
	}
	return r.viewAt(ply), nil
}
