package lobby

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/moderation"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

var (
	errOwnChallenge  = httpx.NewError(http.StatusBadRequest, "this is your own challenge: wait for someone to accept it, or cancel it")
	errRatedAccount  = httpx.NewError(http.StatusForbidden, "rated games are between accounts: register or sign in first")
	errNotYours      = httpx.NewError(http.StatusForbidden, "only its creator or the player challenged may cancel a challenge")
	errChallengeGone = httpx.NewError(http.StatusNotFound, "this challenge is no longer open")
	errTaken         = httpx.NewError(http.StatusConflict, "this challenge is no longer open")
	// A bot never enters the people's lobby unasked: it plays those who
	// challenge it by name, and challenges by name.
	errBotOpen   = httpx.NewError(http.StatusForbidden, "a bot challenges players by name only, never the whole lobby")
	errBotAccept = httpx.NewError(http.StatusForbidden, "a bot accepts only the challenges made to it by name")
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

// createChallenge offers a game in the lobby, or to one player.
func (l *Lobby) createChallenge(w http.ResponseWriter, r *http.Request) error {
	var req challengeRequest
	if err := l.api.Decode(w, r, &req); err != nil {
		return err
	}
	g, err := game.Load(play.SpecOf(req.Game, req.Ruleset))
	if err != nil {
		return httpx.WithCode(http.StatusBadRequest, err)
	}
	if _, err := play.ClockFor(req.Minutes, req.Increment, req.Days); err != nil {
		return httpx.WithCode(http.StatusBadRequest, err)
	}
	if req.Side != "random" && req.Side != "" {
		if _, err := g.ParsePlayer(req.Side); err != nil {
			return httpx.WithCode(http.StatusBadRequest, err)
		}
	}
	// Who asks, if anybody yet: a player is made for a browser without
	// one only once every check and limit has passed (a client without
	// cookies is a new player every time), so that a refused request
	// makes nobody.
	cur, err := l.ids.Me(r)
	if err != nil {
		return err
	}
	pid := ""
	if cur != nil {
		pid = cur.ID
	}
	switch {
	case req.Rated && (cur == nil || cur.Anonymous()):
		return errRatedAccount
	case cur != nil && cur.Bot && req.Opponent == "":
		return errBotOpen
	}
	if err := moderation.Check(cur, false); err != nil {
		return err
	}
	ctx := r.Context()
	// Counted and made under the address's lock: challenges made at once
	// pass the limits one by one.
	defer l.creating.Lock(httpx.Client(r))()
	if n, err := l.store.ChallengesSince(ctx, pid, httpx.Client(r), time.Now().Add(-time.Hour)); err != nil {
		return httpx.Unavailable(err)
	} else if n >= l.cfg.ChallengesPerHour {
		return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("at most %d challenges an hour", l.cfg.ChallengesPerHour))
	}
	// Open at once: per player and per address.
	if n, err := l.store.OpenCount(ctx, pid, httpx.Client(r), time.Now().Add(-correspondenceLife)); err != nil {
		return httpx.Unavailable(err)
	} else if n >= l.cfg.OpenPerPlayer {
		return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("at most %d open challenges at once from one player or address: cancel one first", l.cfg.OpenPerPlayer))
	}
	var target *store.Player
	if req.Opponent != "" {
		t, err := l.store.PlayerNamed(ctx, auth.UsernameKey(req.Opponent))
		if errors.Is(err, store.ErrNoPlayer) {
			return httpx.WithCode(http.StatusNotFound, fmt.Errorf("no player is called %q", req.Opponent))
		} else if err != nil {
			return httpx.Unavailable(err)
		}
		if t.ID == pid {
			return httpx.WithCode(http.StatusBadRequest, errors.New("you cannot challenge yourself"))
		}
		target = t
	}
	me, err := l.ids.Identify(w, r)
	if err != nil {
		return err
	}
	c := &store.Challenge{ID: token.ID(), Creator: me.ID, CreatorName: me.Username, Spec: g.Spec(), Minutes: req.Minutes, Increment: req.Increment,
		Days: req.Days, Rated: req.Rated, Side: req.Side, Address: httpx.Client(r), Created: time.Now()}
	if c.Side == "" {
		c.Side = "random"
	}
	if target != nil {
		c.Target, c.TargetName = target.ID, target.Username
	}
	if err := l.store.CreateChallenge(ctx, c); err != nil {
		return httpx.Unavailable(err)
	}
	l.Changed()
	views, err := l.challengeViews(ctx, []*store.Challenge{c})
	if err != nil {
		return err
	}
	cv := views[0]
	cv.Mine = true
	return l.api.JSON(w, http.StatusCreated, cv)
}

// acceptResponse is the seat the accepting player holds in the game.
type acceptResponse struct {
	ID     string `json:"id"`
	Seat   int    `json:"seat"`
	Secret string `json:"secret"`
}

// acceptChallenge starts the challenge's game between its creator and the
// accepting player, each holding his seat by his session.
func (l *Lobby) acceptChallenge(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c, err := l.store.Challenge(ctx, r.PathValue("id"))
	if err != nil || c.Status != store.ChallengeOpen {
		return errChallengeGone
	}
	me, err := l.ids.Identify(w, r)
	if err != nil {
		return err
	}
	switch {
	case c.Creator == me.ID:
		return errOwnChallenge
	case c.Target != "" && c.Target != me.ID:
		return httpx.WithCode(http.StatusForbidden, errors.New("this challenge is for another player"))
	case c.Rated && me.Anonymous():
		return errRatedAccount
	case me.Bot && c.Target != me.ID:
		return errBotAccept
	}
	if err := moderation.Check(me, false); err != nil {
		return err
	}
	creatorBot := false
	switch creator, err := l.store.Player(ctx, c.Creator); {
	case err == nil:
		creatorBot = creator.Bot
	case !errors.Is(err, store.ErrNoPlayer):
		return httpx.Unavailable(err)
	}
	g, err := game.Load(c.Spec)
	if err != nil {
		return err
	}
	creatorSeat := int(token.New(1)[0]) % 2
	if pl, err := g.ParsePlayer(c.Side); err == nil {
		creatorSeat = int(pl)
	}
	secret := token.New(16)
	rec := &store.Game{ID: token.ID(), Spec: g.Spec(), Owner: c.Address, DrawOffer: -1, TakebackOffer: -1, Rated: c.Rated, Seats: make([]store.Seat, 2)}
	rec.Seats[creatorSeat] = store.Seat{Kind: store.SeatHuman, Player: c.Creator, Name: c.CreatorName, SecretHash: token.Hash(token.New(16)), Bot: creatorBot}
	rec.Seats[1-creatorSeat] = store.Seat{Kind: store.SeatHuman, Player: me.ID, Name: me.Username, SecretHash: token.Hash(secret), Bot: me.Bot}
	if rec.Clock, err = play.ClockFor(c.Minutes, c.Increment, c.Days); err != nil {
		return err
	}
	if rec.Rated {
		if err := l.games.SnapshotRatings(ctx, rec); err != nil {
			return err
		}
	}
	// Close the challenge first: of two accepting at once, one wins.
	if err := l.store.CloseChallenge(ctx, c.ID, store.ChallengeAccepted, rec.ID); err != nil {
		return errTaken
	}
	rec.ToAct = play.ToActOf(rec, g.NewState())
	if err := l.games.Start(ctx, rec); err != nil {
		return err
	}
	l.Changed()
	return l.api.JSON(w, http.StatusCreated, acceptResponse{ID: rec.ID, Seat: 1 - creatorSeat, Secret: secret})
}

// cancelChallenge withdraws a challenge (its creator) or declines it (the
// player challenged).
func (l *Lobby) cancelChallenge(w http.ResponseWriter, r *http.Request) error {
	c, err := l.store.Challenge(r.Context(), r.PathValue("id"))
	if err != nil || c.Status != store.ChallengeOpen {
		return errChallengeGone
	}
	me, err := l.ids.Me(r)
	if err != nil {
		return err
	}
	if me == nil || (me.ID != c.Creator && me.ID != c.Target) {
		return errNotYours
	}
	if err := l.store.CloseChallenge(r.Context(), c.ID, store.ChallengeCancelled, ""); err != nil {
		return errTaken
	}
	l.Changed()
	return l.api.JSON(w, http.StatusOK, map[string]string{"status": store.ChallengeCancelled})
}
