package server

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/store"
)

// catalogue lists the games, their rulesets, options and traits, and the
// agent levels, for the home page.
func (s *Server) catalogue(w http.ResponseWriter, r *http.Request) {
	var games []game.Info
	for _, n := range game.Names() {
		info, _ := game.Lookup(n)
		games = append(games, info)
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"games": games, "levels": agent.Levels, "reports": s.cfg.Reports != ""})
}

// figureView is a diagram of the rules page, drawn as a board.
type figureView struct {
	game.Figure
	Traits game.Traits `json:"traits"`
	Board  game.View   `json:"board"`
}

// figures sends the diagrams of a game's rules page, each position
// described by the game itself.
func (s *Server) figures(w http.ResponseWriter, r *http.Request) {
	info, err := game.Lookup(r.PathValue("game"))
	if err != nil {
		s.writeError(w, r, withCode(http.StatusNotFound, err))
		return
	}
	out := []figureView{}
	for _, f := range info.Figures {
		g, err := game.Load(specOf(info.Name, f.Ruleset))
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		st, err := f.State(g)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		out = append(out, figureView{Figure: f, Traits: g.Traits(), Board: st.View()})
	}
	s.writeJSON(w, http.StatusOK, out)
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

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if err := s.decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	g, err := game.Load(specOf(req.Game, req.Ruleset))
	if err != nil {
		s.writeError(w, r, withCode(http.StatusBadRequest, err))
		return
	}
	me, err := s.identify(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	resp, err := s.newGame(r, me, g, req, req.Position, nil)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, http.StatusCreated, resp)
}

func specOf(name, ruleset string) string {
	if ruleset == "" {
		return name
	}
	return name + "(" + ruleset + ")"
}

// newGame makes a game for player me from a request, with actions already
// played (an import), stores it and starts its room.
func (s *Server) newGame(r *http.Request, me *store.Player, g game.Game, req createRequest, start string, actions []string) (createResponse, error) {
	owner := client(r)
	if n, err := s.store.CountSince(r.Context(), owner, time.Now().Add(-time.Hour)); err != nil {
		return createResponse{}, err
	} else if n >= s.cfg.GamesPerHour {
		return createResponse{}, withCode(http.StatusTooManyRequests, fmt.Errorf("at most %d new games an hour from one address", s.cfg.GamesPerHour))
	}
	rec := &store.Game{ID: newID(), Spec: g.Spec(), Owner: owner, Actions: actions, DrawOffer: -1, TakebackOffer: -1, Start: start}
	resp, err := seatsFor(g, req, rec, me)
	if err != nil {
		return createResponse{}, withCode(http.StatusBadRequest, err)
	}
	if rec.Clock, err = clockFor(req); err != nil {
		return createResponse{}, withCode(http.StatusBadRequest, err)
	}
	st, err := initial(g, rec)
	if err != nil {
		return createResponse{}, withCode(http.StatusBadRequest, err)
	}
	if err := game.ApplyNotation(st, actions); err != nil {
		return createResponse{}, withCode(http.StatusBadRequest, err)
	}
	if st.IsTerminal() {
		rec.Status, rec.Result, rec.Reason = store.StatusOver, game.ResultName(st), st.Result().Reason
	}
	rec.ToAct = toActOf(rec, st)
	if err := s.store.Create(r.Context(), rec); err != nil {
		return createResponse{}, err
	}
	resp.ID = rec.ID
	if resp.Invite != "" {
		resp.Invite = fmt.Sprintf(resp.Invite, rec.ID)
	}
	room, err := s.room(r.Context(), rec.ID)
	if err != nil {
		return createResponse{}, err
	}
	room.start()
	return resp, nil
}

// seatsFor fills the seats of a new game: the creator's on his side, the
// other the agent's, a friend's or the creator's too.
func seatsFor(g game.Game, req createRequest, rec *store.Game, me *store.Player) (createResponse, error) {
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
		seat = int(randomToken(1)[0]) % 2
	case seat < 0:
		return createResponse{}, fmt.Errorf("unknown side %q (known: %s, random)", req.Side, strings.Join(names, ", "))
	}
	secret := randomToken(16)
	rec.Seats = make([]store.Seat, 2)
	rec.Seats[seat] = store.Seat{Kind: store.SeatHuman, SecretHash: hashSecret(secret), Player: me.ID, Name: me.Username}
	resp := createResponse{Seat: seat, Secret: secret}
	other := 1 - seat
	switch req.Opponent {
	case opponentAI, "":
		level := req.Level
		if level == "" {
			level = "medium"
		}
		if _, err := agent.New(level, g, 1); err != nil {
			return createResponse{}, err
		}
		rec.Seats[other] = store.Seat{Kind: store.SeatAI, Agent: level}
	case opponentFriend:
		token := randomToken(16)
		rec.Seats[other] = store.Seat{Kind: store.SeatHuman, JoinHash: hashSecret(token)}
		resp.Invite = "/g/%s?join=" + token
	case opponentLocal:
		second := randomToken(16)
		rec.Seats[other] = store.Seat{Kind: store.SeatHuman, SecretHash: hashSecret(second), Player: me.ID, Name: me.Username}
		resp.Secrets = make([]string, 2)
		resp.Secrets[seat], resp.Secrets[other] = secret, second
	default:
		return createResponse{}, fmt.Errorf("unknown opponent %q (known: ai, friend, local)", req.Opponent)
	}
	return resp, nil
}

// correspondenceDays are the days a move a correspondence game may give.
var correspondenceDays = []int{1, 2, 3, 5, 7, 14}

// clockFor reads a request's time control.
func clockFor(req createRequest) (*store.Clock, error) {
	if req.Days != 0 {
		if !slices.Contains(correspondenceDays, req.Days) || req.Minutes != 0 {
			return nil, fmt.Errorf("correspondence is 1, 2, 3, 5, 7 or 14 days a move, without minutes (asked: %d days)", req.Days)
		}
		day := int64(24 * time.Hour / time.Millisecond)
		base := int64(req.Days) * day
		return &store.Clock{BaseMS: base, LeftMS: [2]int64{base, base}, SinceMS: time.Now().UnixMilli(), DaysPerMove: req.Days}, nil
	}
	switch {
	case req.Minutes < 0 || req.Minutes > 600 || req.Increment < 0 || req.Increment > 600:
		return nil, errors.New("a clock is 0 to 600 minutes with 0 to 600 seconds a turn")
	case req.Minutes == 0:
		return nil, nil
	}
	base := int64(req.Minutes * 60000)
	return &store.Clock{BaseMS: base, IncMS: int64(req.Increment * 1000), LeftMS: [2]int64{base, base}, SinceMS: time.Now().UnixMilli()}, nil
}

type importRequest struct {
	createRequest
	Record string `json:"record"`
}

// importRecord starts a game from a record (its moves replayed and checked).
func (s *Server) importRecord(w http.ResponseWriter, r *http.Request) {
	var req importRequest
	if err := s.decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	g, rec, err := readRecord(req.Game, req.Record)
	if err != nil {
		s.writeError(w, r, withCode(http.StatusBadRequest, err))
		return
	}
	me, err := s.identify(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	resp, err := s.newGame(r, me, g, req.createRequest, rec.Start, rec.Actions)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, http.StatusCreated, resp)
}

// readRecord reads a record in the format of the named game and returns
// the game it was played under.
func readRecord(name, text string) (game.Game, *game.Record, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil, errors.New("the record is empty: paste a game record")
	}
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

func (s *Server) roomOf(r *http.Request) (*room, error) {
	rm, err := s.room(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNoGame
	}
	return rm, err
}

// get sends the game's view now, or as it was after ?ply=N actions.
func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	rm, err := s.roomOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var v view
	if q := r.URL.Query().Get("ply"); q != "" {
		ply, perr := strconv.Atoi(q)
		v, err = rm.viewAtPly(ply, perr)
	} else {
		v = rm.current()
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if me := s.me(r); me != nil {
		v.MySeats = rm.seatsOf(me.ID)
	}
	s.writeJSON(w, http.StatusOK, v)
}

// record sends the game's record in the game's own format.
func (s *Server) record(w http.ResponseWriter, r *http.Request) {
	rm, err := s.roomOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var b bytes.Buffer
	if err := rm.writeRecord(&b); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", rm.id()+".txt"))
	w.Write(b.Bytes())
}
