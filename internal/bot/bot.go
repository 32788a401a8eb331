// Package bot is the other end of Muster's bot API (package bots): a
// program that plays a bot account on a Muster server. It reads the
// account's event stream, accepts the challenges its policy allows (and
// declines the others), follows each game on its stream and, whenever
// the account is to act, asks its Player for an action and sends it. It
// connects again after a dropped stream, and a restarted bot takes up
// its games in play where they stand.
package bot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/muster-games/muster/game"
)

// Player chooses the bot's actions.
type Player interface {
	// Act returns the action (in the game's notation) for the player to
	// act in s, within budget where budget is not zero (the clock's share
	// for this move).
	Act(ctx context.Context, s game.State, budget time.Duration) (string, error)
}

// Challenge is a challenge to the bot, as the event stream tells it.
type Challenge struct {
	ID        string  `json:"id"`
	From      string  `json:"from"`
	FromBot   bool    `json:"from_bot"`
	Spec      string  `json:"spec"`
	Minutes   float64 `json:"minutes"`
	Increment float64 `json:"increment"`
	Days      int     `json:"days"`
	Rated     bool    `json:"rated"`
	Side      string  `json:"side"`
}

// Client plays a bot account.
type Client struct {
	// URL is the server's address (http://host:port), Token the bot's.
	URL, Token string
	// Player chooses the actions; NewPlayer, if set, makes one per game
	// instead (an engine process each, say), given the game's id and spec.
	Player    Player
	NewPlayer func(id, spec string) (Player, error)
	// Accept decides a challenge: "" to accept, else why it is declined.
	// Nil accepts every challenge.
	Accept func(c Challenge) string
	// MaxGames bounds the games played at once (each with its player,
	// an engine process perhaps): a challenge beyond it is declined, and
	// a game started beyond it (the server says so, after a restart or
	// by mistake) waits until one ends (0: 4).
	MaxGames int
	// HTTP is the client (nil: one with no overall timeout, for streams).
	HTTP *http.Client
	Log  *slog.Logger
	// Retry is the wait before connecting again (0: 2 s).
	Retry time.Duration

	mu    sync.Mutex
	games map[string]bool
	// waiting are the games started beyond MaxGames, in order, at most
	// maxWaiting; each starts as a game ends.
	waiting []waitingGame
}

type waitingGame struct {
	id   string
	seat int
}

// maxWaiting bounds the games the bot remembers to play later; beyond
// it, a game the server says has started is left (the server tells again
// when the stream connects again).
const maxWaiting = 256

// Lines from the server are bounded: a game's view (maxViewLine), an
// event (maxEventLine).
const (
	maxViewLine  = 1 << 20
	maxEventLine = 64 << 10
)

// event is a line of the event stream.
type event struct {
	Type      string     `json:"type"`
	Challenge *Challenge `json:"challenge"`
	Game      *struct {
		ID     string `json:"id"`
		Spec   string `json:"spec"`
		Seat   int    `json:"seat"`
		Result string `json:"result"`
	} `json:"game"`
}

// Run plays until ctx is done, connecting again whenever the event
// stream drops; it returns early only for a token the server refuses.
func (c *Client) Run(ctx context.Context) error {
	if c.HTTP == nil {
		c.HTTP = &http.Client{}
	}
	if c.Log == nil {
		c.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if c.MaxGames <= 0 {
		c.MaxGames = 4
	}
	if c.Retry <= 0 {
		c.Retry = 2 * time.Second
	}
	c.games = map[string]bool{}
	var wg sync.WaitGroup
	defer wg.Wait()
	// run plays a game, then the next one waiting.
	var run func(id string, seat int)
	run = func(id string, seat int) {
		wg.Go(func() {
			c.play(ctx, id, seat)
			if next, ok := c.stop(id); ok && ctx.Err() == nil {
				run(next.id, next.seat)
			}
		})
	}
	for {
		err := c.stream(ctx, "/api/stream/event", maxEventLine, func(line []byte) {
			var ev event
			if json.Unmarshal(line, &ev) != nil {
				return
			}
			switch {
			case ev.Type == "challenge" && ev.Challenge != nil:
				c.challenge(ctx, *ev.Challenge)
			case ev.Type == "gameStart" && ev.Game != nil:
				if c.start(ev.Game.ID, ev.Game.Seat) {
					run(ev.Game.ID, ev.Game.Seat)
				}
			}
		})
		if errors.Is(err, ErrRefused) {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
		c.Log.Warn("event stream", "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(c.Retry):
		}
	}
}

// ErrRefused is returned when the server refuses the token.
var ErrRefused = errors.New("bot: the server refuses the token (unknown or revoked)")

// start reports whether a game the server says has started is to be
// played now: not played already, and fewer than MaxGames played; a game
// beyond them waits (once, at most maxWaiting).
func (c *Client) start(id string, seat int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.games[id] {
		return false
	}
	if len(c.games) >= c.MaxGames {
		for _, w := range c.waiting {
			if w.id == id {
				return false
			}
		}
		if len(c.waiting) < maxWaiting {
			c.waiting = append(c.waiting, waitingGame{id, seat})
		} else {
			c.Log.Warn("too many games at once: one left until the server tells of it again", "game", id)
		}
		return false
	}
	c.games[id] = true
	return true
}

// stop ends a game's play and returns the game waiting that takes its
// place, if any.
func (c *Client) stop(id string) (waitingGame, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.games, id)
	for len(c.waiting) > 0 {
		next := c.waiting[0]
		c.waiting = c.waiting[1:]
		if !c.games[next.id] {
			c.games[next.id] = true
			return next, true
		}
	}
	return waitingGame{}, false
}

func (c *Client) busy() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.games)
}

// challenge accepts or declines a challenge.
func (c *Client) challenge(ctx context.Context, ch Challenge) {
	why := ""
	if _, err := game.Load(ch.Spec); err != nil {
		why = "unknown game " + ch.Spec
	} else if c.busy() >= c.MaxGames {
		why = fmt.Sprintf("playing %d games already", c.MaxGames)
	} else if c.Accept != nil {
		why = c.Accept(ch)
	}
	if why != "" {
		c.Log.Info("declining", "challenge", ch.ID, "from", ch.From, "why", why)
		if err := c.post(ctx, "/api/challenges/"+ch.ID+"/cancel", struct{}{}, nil); err != nil {
			c.Log.Warn("declining", "challenge", ch.ID, "err", err)
		}
		return
	}
	c.Log.Info("accepting", "challenge", ch.ID, "from", ch.From, "spec", ch.Spec, "rated", ch.Rated)
	if err := c.post(ctx, "/api/challenges/"+ch.ID+"/accept", struct{}{}, nil); err != nil {
		c.Log.Warn("accepting", "challenge", ch.ID, "err", err)
	}
}

// view is what the bot reads of a game's view.
type view struct {
	Spec    string   `json:"spec"`
	Start   string   `json:"start"`
	History []string `json:"history"`
	Ply     int      `json:"ply"`
	ToAct   int      `json:"to_act"`
	Status  string   `json:"status"`
	Result  string   `json:"result"`
	Clock   *struct {
		LeftMS [2]int64 `json:"left_ms"`
		IncMS  int64    `json:"inc_ms"`
		Days   int      `json:"days_per_move"`
	} `json:"clock"`
}

// play follows a game on its stream and acts whenever the bot is to.
func (c *Client) play(ctx context.Context, id string, seat int) {
	log := c.Log.With("game", id)
	pl := c.Player
	if c.NewPlayer != nil {
		var v view
		if err := c.get(ctx, "/api/games/"+id, &v); err != nil {
			log.Warn("reading the game", "err", err)
			return
		}
		p, err := c.NewPlayer(id, v.Spec)
		if err != nil {
			log.Warn("starting the player", "err", err)
			return
		}
		if cl, ok := p.(io.Closer); ok {
			defer cl.Close()
		}
		pl = p
	}
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	views := make(chan view, 1)
	go func() {
		for gctx.Err() == nil {
			err := c.stream(gctx, "/api/games/"+id+"/stream", maxViewLine, func(line []byte) {
				var v view
				if json.Unmarshal(line, &v) != nil || v.Spec == "" {
					return // a chat line
				}
				select { // the newest view only
				case <-views:
				default:
				}
				views <- v
			})
			if gctx.Err() != nil {
				return
			}
			log.Warn("game stream", "err", err)
			time.Sleep(c.Retry)
		}
	}()
	done := -1 // the last ply acted at
	var v view
	tries := 0
	for {
		var retry <-chan time.Time
		if tries > 0 && tries < maxTries {
			retry = time.After(c.Retry)
		}
		select {
		case <-ctx.Done():
			return
		case v = <-views:
			tries = 0
		case <-retry:
		}
		if v.Status == "over" {
			log.Info("game over", "result", v.Result)
			return
		}
		if v.ToAct != seat || v.Ply == done {
			continue
		}
		if err := c.act(ctx, id, v, pl); err != nil {
			tries++
			log.Warn("acting", "ply", v.Ply, "try", tries, "err", err)
			continue
		}
		done = v.Ply
	}
}

// maxTries bounds the attempts at one move (a player that fails, a
// server that refuses): then the bot waits for the game to change.
const maxTries = 3

// act builds the game's state from a view and sends the player's action.
func (c *Client) act(ctx context.Context, id string, v view, pl Player) error {
	g, err := game.Load(v.Spec)
	if err != nil {
		return err
	}
	s := g.NewState()
	if v.Start != "" {
		if s, err = g.ParseState(v.Start); err != nil {
			return err
		}
	}
	if err := game.ApplyNotation(s, v.History); err != nil {
		return err
	}
	var budget time.Duration
	if v.Clock != nil && v.Clock.Days == 0 {
		left := time.Duration(v.Clock.LeftMS[v.ToAct]) * time.Millisecond
		budget = left/30 + time.Duration(v.Clock.IncMS)*time.Millisecond*4/5
	}
	text, err := pl.Act(ctx, s, budget)
	if err != nil {
		return err
	}
	return c.post(ctx, "/api/games/"+id+"/act", map[string]any{"action": text, "ply": v.Ply}, nil)
}

// stream reads a newline-delimited JSON stream until it ends; a line
// longer than maxLine ends it with an error.
func (c *Client) stream(ctx context.Context, path string, maxLine int, line func([]byte)) error {
	req, err := http.NewRequestWithContext(ctx, "GET", strings.TrimRight(c.URL, "/")+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	res, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if err := status(res); err != nil {
		return err
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, maxLine)
	for sc.Scan() {
		if b := bytes.TrimSpace(sc.Bytes()); len(b) > 0 {
			line(b)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return io.ErrUnexpectedEOF
}

func (c *Client) get(ctx context.Context, path string, out any) error {
	return c.do(ctx, "GET", path, nil, out)
}

func (c *Client) post(ctx context.Context, path string, body, out any) error {
	return c.do(ctx, "POST", path, body, out)
}

func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.URL, "/")+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if err := status(res); err != nil {
		return err
	}
	if out != nil {
		return json.NewDecoder(res.Body).Decode(out)
	}
	return nil
}

// status turns an error answer into an error with the server's words.
func status(res *http.Response) error {
	if res.StatusCode < 300 {
		return nil
	}
	var e struct{ Error string }
	json.NewDecoder(io.LimitReader(res.Body, 1<<16)).Decode(&e)
	if res.StatusCode == http.StatusUnauthorized {
		return fmt.Errorf("%w: %s", ErrRefused, e.Error)
	}
	return fmt.Errorf("bot: %s %s: %d %s", res.Request.Method, res.Request.URL.Path, res.StatusCode, e.Error)
}
