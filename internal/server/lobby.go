package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/store"
)

// The lobby: open challenges anyone may accept (or one player), and the
// games people are playing now, to watch. Its view is made for each
// watcher (a challenge to one player is shown to him and its creator
// alone) and sent again whenever a challenge or a game between people
// changes, at most every lobbyEvery.
const (
	lobbyEvery = time.Second
	// Open challenges last a day (a correspondence one a week).
	challengeLife       = 24 * time.Hour
	correspondenceLife  = 7 * 24 * time.Hour
	maxOpenChallenges   = 5
	lobbyLiveGames      = 12
	lobbyChallengesShow = 50
)

var (
	errOwnChallenge  = errors.New("this is your own challenge: wait for someone to accept it, or cancel it")
	errRatedAccount  = errors.New("rated games are between accounts: register or sign in first")
	errNotYours      = errors.New("only its creator or the player challenged may cancel a challenge")
	errChallengeGone = errors.New("this challenge is no longer open")
)

// challengeRequest is the body of POST /api/challenges.
type challengeRequest struct {
	Game      string  `json:"game"`
	Ruleset   string  `json:"ruleset"`
	Minutes   float64 `json:"minutes,omitempty"`
	Increment float64 `json:"increment,omitempty"`
	Days      int     `json:"days,omitempty"`
	Rated     bool    `json:"rated,omitempty"`
	// Side is the creator's side or "random".
	Side string `json:"side"`
	// Opponent, if set, is the username of the one player challenged.
	Opponent string `json:"opponent,omitempty"`
}

// challengeView is a challenge as the lobby shows it.
type challengeView struct {
	ID      string  `json:"id"`
	Spec    string  `json:"spec"`
	Game    string  `json:"game"`
	Creator string  `json:"creator"` // a username or "Anonymous"
	Rating  float64 `json:"rating,omitempty"`
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
}

// liveGame is a game people are playing, with its board.
type liveGame struct {
	gameSummary
	Traits game.Traits `json:"traits"`
	Board  game.View   `json:"board"`
}

// lobbyView is what the lobby page shows.
type lobbyView struct {
	Challenges []challengeView `json:"challenges"`
	Live       []liveGame      `json:"live"`
	// Mine are the viewer's games in play.
	Mine []gameSummary `json:"mine"`
	Me   meView        `json:"me"`
}

// lobbyFor makes the lobby as player p (nil: nobody yet) sees it.
func (s *Server) lobbyFor(ctx context.Context, p *store.Player) (lobbyView, error) {
	v := lobbyView{Challenges: []challengeView{}, Live: []liveGame{}, Mine: []gameSummary{}, Me: meView{Anonymous: true}}
	id := ""
	if p != nil {
		id = p.ID
		v.Me = s.meOf(ctx, p)
	}
	cs, err := s.store.OpenChallenges(ctx, id, time.Now().Add(-correspondenceLife), lobbyChallengesShow)
	if err != nil {
		return v, err
	}
	if id != "" {
		mine, err := s.store.AcceptedFor(ctx, id, time.Now().Add(-time.Minute))
		if err != nil {
			return v, err
		}
		cs = append(mine, cs...)
		games, err := s.store.PlayerGames(ctx, id, 20)
		if err != nil {
			return v, err
		}
		for _, g := range games {
			if g.Status == store.StatusPlaying {
				v.Mine = append(v.Mine, summarize(g, id))
			}
		}
	}
	for _, c := range cs {
		if c.Status == store.ChallengeOpen && c.Days == 0 && time.Since(c.Created) > challengeLife {
			continue
		}
		v.Challenges = append(v.Challenges, s.challengeView(ctx, c, id))
	}
	games, err := s.store.Live(ctx, lobbyLiveGames)
	if err != nil {
		return v, err
	}
	for _, g := range games {
		rm, err := s.room(ctx, g.ID)
		if err != nil {
			continue
		}
		cur := rm.current()
		lg := liveGame{gameSummary: summarize(g, id), Traits: cur.Traits, Board: cur.Board}
		v.Live = append(v.Live, lg)
	}
	return v, nil
}

func (s *Server) challengeView(ctx context.Context, c *store.Challenge, viewer string) challengeView {
	cv := challengeView{ID: c.ID, Spec: c.Spec, Creator: c.CreatorName, Minutes: c.Minutes, Increment: c.Increment,
		Days: c.Days, Rated: c.Rated, Side: c.Side, Target: c.TargetName, Mine: c.Creator == viewer, ForMe: c.Target != "" && c.Target == viewer,
		Created: c.Created.UnixMilli(), Status: c.Status}
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
			if rs, err := s.store.Ratings(ctx, c.Creator); err == nil {
				cur, _ := currentRating(rs, g.Name(), time.Now())
				cv.Rating, cv.Provisional = cur.R, cur.Provisional()
			}
		}
	}
	return cv
}

// lobby sends the lobby as the asking browser sees it.
func (s *Server) lobby(w http.ResponseWriter, r *http.Request) {
	v, err := s.lobbyFor(r.Context(), s.me(r))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, http.StatusOK, v)
}

// createChallenge offers a game in the lobby, or to one player.
func (s *Server) createChallenge(w http.ResponseWriter, r *http.Request) {
	var req challengeRequest
	if err := s.decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	g, err := game.Load(specOf(req.Game, req.Ruleset))
	if err != nil {
		s.writeError(w, r, withCode(http.StatusBadRequest, err))
		return
	}
	if _, err := clockFor(createRequest{Minutes: req.Minutes, Increment: req.Increment, Days: req.Days}); err != nil {
		s.writeError(w, r, withCode(http.StatusBadRequest, err))
		return
	}
	if req.Side != "random" && req.Side != "" {
		if _, err := g.ParsePlayer(req.Side); err != nil {
			s.writeError(w, r, withCode(http.StatusBadRequest, err))
			return
		}
	}
	me, err := s.identify(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Rated && me.Anonymous() {
		s.writeError(w, r, withCode(http.StatusForbidden, errRatedAccount))
		return
	}
	if n, err := s.store.ChallengesSince(r.Context(), me.ID, client(r), time.Now().Add(-time.Hour)); err != nil {
		s.writeError(w, r, err)
		return
	} else if n >= s.cfg.ChallengesPerHour {
		s.writeError(w, r, withCode(http.StatusTooManyRequests, fmt.Errorf("at most %d challenges an hour", s.cfg.ChallengesPerHour)))
		return
	}
	open, err := s.store.OpenChallenges(r.Context(), me.ID, time.Now().Add(-correspondenceLife), lobbyChallengesShow)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	mine := 0
	for _, c := range open {
		if c.Creator == me.ID {
			mine++
		}
	}
	if mine >= maxOpenChallenges {
		s.writeError(w, r, withCode(http.StatusTooManyRequests, fmt.Errorf("at most %d open challenges at once: cancel one first", maxOpenChallenges)))
		return
	}
	c := &store.Challenge{ID: newID(), Creator: me.ID, CreatorName: me.Username, Spec: g.Spec(), Minutes: req.Minutes, Increment: req.Increment,
		Days: req.Days, Rated: req.Rated, Side: req.Side, Address: client(r)}
	if c.Side == "" {
		c.Side = "random"
	}
	if req.Opponent != "" {
		t, err := s.store.PlayerNamed(r.Context(), auth.UsernameKey(req.Opponent))
		if errors.Is(err, store.ErrNoPlayer) {
			s.writeError(w, r, withCode(http.StatusNotFound, fmt.Errorf("no player is called %q", req.Opponent)))
			return
		} else if err != nil {
			s.writeError(w, r, err)
			return
		}
		if t.ID == me.ID {
			s.writeError(w, r, withCode(http.StatusBadRequest, errors.New("you cannot challenge yourself")))
			return
		}
		c.Target, c.TargetName = t.ID, t.Username
	}
	if err := s.store.CreateChallenge(r.Context(), c); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.lobbyChanged()
	s.writeJSON(w, http.StatusCreated, s.challengeView(r.Context(), c, me.ID))
}

// acceptChallenge starts the challenge's game between its creator and the
// accepting player, each holding his seat by his session.
func (s *Server) acceptChallenge(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	c, err := s.store.Challenge(ctx, r.PathValue("id"))
	if err != nil || c.Status != store.ChallengeOpen {
		s.writeError(w, r, withCode(http.StatusNotFound, errChallengeGone))
		return
	}
	me, err := s.identify(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	switch {
	case c.Creator == me.ID:
		s.writeError(w, r, withCode(http.StatusBadRequest, errOwnChallenge))
		return
	case c.Target != "" && c.Target != me.ID:
		s.writeError(w, r, withCode(http.StatusForbidden, errors.New("this challenge is for another player")))
		return
	case c.Rated && me.Anonymous():
		s.writeError(w, r, withCode(http.StatusForbidden, errRatedAccount))
		return
	}
	g, err := game.Load(c.Spec)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	creatorSeat := int(randomToken(1)[0]) % 2
	if pl, err := g.ParsePlayer(c.Side); err == nil {
		creatorSeat = int(pl)
	}
	secret := randomToken(16)
	rec := &store.Game{ID: newID(), Spec: g.Spec(), Owner: c.Address, DrawOffer: -1, TakebackOffer: -1, Rated: c.Rated, Seats: make([]store.Seat, 2)}
	rec.Seats[creatorSeat] = store.Seat{Kind: store.SeatHuman, Player: c.Creator, Name: c.CreatorName, SecretHash: hashSecret(randomToken(16))}
	rec.Seats[1-creatorSeat] = store.Seat{Kind: store.SeatHuman, Player: me.ID, Name: me.Username, SecretHash: hashSecret(secret)}
	if rec.Clock, err = clockFor(createRequest{Minutes: c.Minutes, Increment: c.Increment, Days: c.Days}); err != nil {
		s.writeError(w, r, err)
		return
	}
	if rec.Rated {
		if err := s.snapshotRatings(ctx, rec); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	// Close the challenge first: of two accepting at once, one wins.
	if err := s.store.CloseChallenge(ctx, c.ID, store.ChallengeAccepted, rec.ID); err != nil {
		s.writeError(w, r, withCode(http.StatusConflict, errChallengeGone))
		return
	}
	rec.ToAct = toActOf(rec, g.NewState())
	if err := s.store.Create(ctx, rec); err != nil {
		s.writeError(w, r, err)
		return
	}
	rm, err := s.room(ctx, rec.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rm.start()
	s.lobbyChanged()
	s.writeJSON(w, http.StatusCreated, createResponse{ID: rec.ID, Seat: 1 - creatorSeat, Secret: secret})
}

// cancelChallenge withdraws a challenge (its creator) or declines it (the
// player challenged).
func (s *Server) cancelChallenge(w http.ResponseWriter, r *http.Request) {
	c, err := s.store.Challenge(r.Context(), r.PathValue("id"))
	if err != nil || c.Status != store.ChallengeOpen {
		s.writeError(w, r, withCode(http.StatusNotFound, errChallengeGone))
		return
	}
	me := s.me(r)
	if me == nil || (me.ID != c.Creator && me.ID != c.Target) {
		s.writeError(w, r, withCode(http.StatusForbidden, errNotYours))
		return
	}
	if err := s.store.CloseChallenge(r.Context(), c.ID, store.ChallengeCancelled, ""); err != nil {
		s.writeError(w, r, withCode(http.StatusConflict, errChallengeGone))
		return
	}
	s.lobbyChanged()
	s.writeJSON(w, http.StatusOK, map[string]string{"status": store.ChallengeCancelled})
}

// lobbyHub tells the lobby's watchers that it changed, at most every
// lobbyEvery: signals coalesce in kick, and in each watcher's channel.
type lobbyHub struct {
	kick chan struct{}
	mu   sync.Mutex
	subs map[chan struct{}]struct{}
}

// lobbyChanged marks the lobby changed on this server and on every other
// server sharing the database.
func (s *Server) lobbyChanged() {
	s.publish(topicLobby, "")
}

// signalLobby wakes this server's lobby watchers soon.
func (s *Server) signalLobby() {
	select {
	case s.lobbyHub.kick <- struct{}{}:
	default:
	}
}

// lobbyLoop sends the lobby's signals on, at most every period.
func (s *Server) lobbyLoop(period time.Duration) {
	defer s.wg.Done()
	h := &s.lobbyHub
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-h.kick:
		}
		h.mu.Lock()
		for ch := range h.subs {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
		h.mu.Unlock()
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(period):
		}
	}
}

// watchLobby keeps a browser's lobby live over a WebSocket.
func (s *Server) watchLobby(w http.ResponseWriter, r *http.Request) {
	s.socket(w, r, lobbyConns, func(ctx context.Context, send func([]byte) error) {
		ch := make(chan struct{}, 1)
		ch <- struct{}{} // the lobby as it is now
		h := &s.lobbyHub
		h.mu.Lock()
		h.subs[ch] = struct{}{}
		h.mu.Unlock()
		defer func() {
			h.mu.Lock()
			delete(h.subs, ch)
			h.mu.Unlock()
		}()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ch:
			}
			// Who the viewer is may change (he signs in elsewhere): read it
			// again each time.
			v, err := s.lobbyFor(ctx, s.me(r))
			if err != nil {
				continue
			}
			b, err := marshal(v)
			if err != nil {
				continue
			}
			if send(b) != nil {
				return
			}
		}
	})
}
