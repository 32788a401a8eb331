// Package loadtest plays many games at once against a running Muster
// server, over HTTP and WebSocket, as browsers do: each game is created
// for two people at one screen (or, with Lobby, challenged in the lobby by
// one player and accepted by another, each with his own session), watched
// over a WebSocket (on a second server sharing the database, with Watch),
// and played with random legal actions (or, with Computer, one seat by a
// person playing random actions against the server's computer). It
// measures the actions per
// second, the latency from sending an action to seeing it come back on
// the WebSocket, the errors, and whether any action was lost; with
// LobbyWatchers, browsers also keep the lobby open and count its updates;
// with Browse, finished games are opened one after the other, as visitors
// browsing old games do; with PID, the server's memory is read (on this
// machine) after the games and after the browsing.
package loadtest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Config is a load test.
type Config struct {
	URL     string // the server, e.g. http://127.0.0.1:8080
	Game    string // e.g. tablut or lanrick
	Games   int    // games played at once
	Actions int    // actions per game
	Seed    uint64
	// Watch, if set, is another server on the same database: the games'
	// WebSockets go there, so the latency is a move's from one server to
	// a watcher of the other.
	Watch string
	// Lobby makes each game by a challenge and its acceptance;
	// LobbyWatchers browsers keep the lobby open meanwhile.
	Lobby         bool
	LobbyWatchers int
	// Pace, if set, is how long a player thinks before each action (from
	// half to one and a half times it, at random), as in live games; zero
	// plays as fast as the server answers.
	Pace time.Duration
	// Computer, if set, is a level: each game is a person against the
	// computer at that level, and the computer's replies are timed.
	Computer string
	// Browse makes this many games against the computer, each ended at
	// once by its person, and then opens each of them.
	Browse int
	// Post, if set, posts each action (POST /api/games/{id}/act, answered
	// with the view) rather than sending it on the game's WebSocket, as
	// the game page does while its socket is open.
	Post bool
	// PID, if set, is the server's process, whose memory is reported.
	PID int
	// Ramp spreads the games' beginnings evenly over this long (0: all at
	// once), as players arrive over time rather than in the same instant.
	Ramp time.Duration
}

// Report is what a load test measured.
type Report struct {
	Games, Actions int
	// MaxLive is the most games under way at once (made, not yet played
	// out and checked): with Ramp, fewer than Games where the first end
	// before the last begin.
	MaxLive   int
	Errors    []string
	Lost      int // actions accepted but missing from the stored game
	Elapsed   time.Duration
	Latencies []time.Duration
	// Arrivals are the same actions' times to the moment their view's
	// frame came off the WebSocket, before this client decoded it and
	// handed it to the player: the latency less the client's own part.
	Arrivals []time.Duration
	// LobbyUpdates counts the lobby views the lobby's watchers received.
	LobbyUpdates int
	// Replies are the computer's reply times: from a person's action
	// accepted to the computer's answer seen on the WebSocket.
	Replies []time.Duration
	// Browsed counts the finished games opened, BrowseElapsed their time.
	Browsed       int
	BrowseElapsed time.Duration
	// RSS and PeakRSS are the server's resident memory (kB) after the
	// games, BrowseRSS after the browsing (0: not measured).
	RSS, PeakRSS, BrowseRSS int
	// StartRSS is the server's resident memory (kB) before the games,
	// LiveRSS the most it held while they were played (sampled twice a
	// second): their difference, by the games, is a live game's share.
	StartRSS, LiveRSS int
	// CPU is the server's processor time (user and system) while the
	// games were played (0: not measured).
	CPU time.Duration
	// ClientCPU is this load client's own processor time meanwhile (0:
	// not read): on a machine shared with the server, what the client
	// takes is not the server's.
	ClientCPU time.Duration
	// PlayCPU is the server's processor time while every game was in
	// play, and PlayActions the actions played meanwhile: from the
	// moment the last game began (made, its sockets open, its first view
	// come) to the moment the first had played out. What a move costs
	// once the games are made, the games' making left out (0: not
	// measured, or no moment had every game in play).
	PlayCPU     time.Duration
	PlayActions int
}

// inPlay measures the server's processor time while every game is in
// play (Report.PlayCPU).
type inPlay struct {
	pid, games int
	begun      atomic.Int64
	actions    atomic.Int64

	mu           sync.Mutex
	open, closed bool
	cpu0, cpu    time.Duration
	act0, acts   int64
}

// began notes that a game is in play; the last opens the window.
func (p *inPlay) began() {
	if int(p.begun.Add(1)) != p.games || p.pid <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.open, p.cpu0, p.act0 = true, cpuTime(p.pid), p.actions.Load()
	}
}

// acted counts an action played.
func (p *inPlay) acted() { p.actions.Add(1) }

// ended notes that a game is out of play; the first closes the window.
func (p *inPlay) ended() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.closed = true
	if p.open {
		if c := cpuTime(p.pid); c > p.cpu0 {
			p.cpu = c - p.cpu0
		}
		p.acts = p.actions.Load() - p.act0
	}
}

// Percentile returns the p-th percentile of the latencies.
func (r *Report) Percentile(p float64) time.Duration { return percentile(r.Latencies, p) }

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	l := slices.Clone(ds)
	slices.Sort(l)
	i := int(p / 100 * float64(len(l)-1))
	return l[i]
}

// String writes the report, one "name: value" a line.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "games: %d\ngames_live_max: %d\nactions: %d\nseconds: %.2f\nactions_per_second: %.0f\n", r.Games, r.MaxLive, r.Actions, r.Elapsed.Seconds(), float64(r.Actions)/r.Elapsed.Seconds())
	fmt.Fprintf(&b, "latency_p50_ms: %.1f\nlatency_p90_ms: %.1f\nlatency_p99_ms: %.1f\n", ms(r.Percentile(50)), ms(r.Percentile(90)), ms(r.Percentile(99)))
	if len(r.Arrivals) > 0 {
		fmt.Fprintf(&b, "arrival_p50_ms: %.1f\narrival_p99_ms: %.1f\n", ms(percentile(r.Arrivals, 50)), ms(percentile(r.Arrivals, 99)))
	}
	if len(r.Replies) > 0 {
		fmt.Fprintf(&b, "computer_replies: %d\ncomputer_p50_ms: %.1f\ncomputer_p90_ms: %.1f\ncomputer_p99_ms: %.1f\n", len(r.Replies),
			ms(percentile(r.Replies, 50)), ms(percentile(r.Replies, 90)), ms(percentile(r.Replies, 99)))
	}
	if r.CPU > 0 && r.Actions > 0 {
		fmt.Fprintf(&b, "server_cpu_s: %.2f\nserver_cpu_ms_per_action: %.3f\n", r.CPU.Seconds(), ms(r.CPU)/float64(r.Actions))
	}
	if r.PlayCPU > 0 && r.PlayActions > 0 {
		fmt.Fprintf(&b, "server_cpu_ms_per_action_in_play: %.3f\nactions_in_play: %d\n", ms(r.PlayCPU)/float64(r.PlayActions), r.PlayActions)
	}
	if r.ClientCPU > 0 && r.Actions > 0 {
		fmt.Fprintf(&b, "client_cpu_s: %.2f\nclient_cpu_ms_per_action: %.3f\n", r.ClientCPU.Seconds(), ms(r.ClientCPU)/float64(r.Actions))
	}
	if r.RSS > 0 {
		fmt.Fprintf(&b, "server_rss_mb: %.1f\nserver_peak_rss_mb: %.1f\n", float64(r.RSS)/1024, float64(r.PeakRSS)/1024)
	}
	if r.LiveRSS > 0 && r.Games > 0 {
		fmt.Fprintf(&b, "server_rss_before_mb: %.1f\nserver_rss_live_mb: %.1f\nserver_rss_per_live_game_kb: %.1f\n",
			float64(r.StartRSS)/1024, float64(r.LiveRSS)/1024, float64(r.LiveRSS-r.StartRSS)/float64(r.Games))
	}
	if r.Browsed > 0 {
		fmt.Fprintf(&b, "browsed: %d\nbrowse_per_second: %.0f\n", r.Browsed, float64(r.Browsed)/r.BrowseElapsed.Seconds())
	}
	if r.BrowseRSS > 0 {
		fmt.Fprintf(&b, "server_rss_after_browsing_mb: %.1f\n", float64(r.BrowseRSS)/1024)
	}
	fmt.Fprintf(&b, "lobby_updates: %d\nerrors: %d\nlost: %d\n", r.LobbyUpdates, len(r.Errors), r.Lost)
	for i, e := range r.Errors {
		if i == 5 {
			fmt.Fprintf(&b, "  …\n")
			break
		}
		fmt.Fprintf(&b, "  %s\n", e)
	}
	return b.String()
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Run plays the games and reports.
func Run(ctx context.Context, cfg Config) *Report {
	rep := &Report{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var cpu0 time.Duration
	sampled := make(chan struct{})
	if cfg.PID > 0 {
		cpu0 = cpuTime(cfg.PID)
		rep.StartRSS, _ = memory(cfg.PID)
		sctx, stop := context.WithCancel(ctx)
		defer stop()
		go func() {
			defer close(sampled)
			t := time.NewTicker(500 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-sctx.Done():
					return
				case <-t.C:
					if rss, _ := memory(cfg.PID); rss > 0 {
						mu.Lock()
						rep.LiveRSS = max(rep.LiveRSS, rss)
						mu.Unlock()
					}
				}
			}
		}()
		defer func() { stop(); <-sampled }()
	} else {
		close(sampled)
	}
	start, client0 := time.Now(), cpuTime(os.Getpid())
	lctx, stopLobby := context.WithCancel(ctx)
	var lobbyWG sync.WaitGroup
	for i := 0; i < cfg.LobbyWatchers; i++ {
		lobbyWG.Add(1)
		go func() {
			defer lobbyWG.Done()
			n, err := watchLobby(lctx, cfg.watchURL())
			mu.Lock()
			defer mu.Unlock()
			rep.LobbyUpdates += n
			if err != nil && lctx.Err() == nil {
				rep.Errors = append(rep.Errors, err.Error())
			}
		}()
	}
	play := &inPlay{pid: cfg.PID, games: cfg.Games}
	var live, maxLive atomic.Int64 // games under way: made and not yet played out
	for i := 0; i < cfg.Games; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if cfg.Ramp > 0 {
				// Game i begins i/Games of the way through the ramp.
				select {
				case <-ctx.Done():
				case <-time.After(cfg.Ramp * time.Duration(i) / time.Duration(cfg.Games)):
				}
			}
			for n := live.Add(1); ; {
				if m := maxLive.Load(); n <= m || maxLive.CompareAndSwap(m, n) {
					break
				}
			}
			g, err := playGame(ctx, cfg, rand.New(rand.NewPCG(cfg.Seed, uint64(i))), play)
			live.Add(-1)
			mu.Lock()
			defer mu.Unlock()
			rep.Latencies = append(rep.Latencies, g.latencies...)
			rep.Arrivals = append(rep.Arrivals, g.arrivals...)
			rep.Replies = append(rep.Replies, g.replies...)
			rep.Actions += g.played
			rep.Lost += g.lost
			rep.Games++
			if err != nil {
				rep.Errors = append(rep.Errors, err.Error())
			}
		}(i)
	}
	wg.Wait()
	rep.Elapsed = time.Since(start)
	rep.PlayCPU, rep.PlayActions = play.cpu, int(play.acts)
	rep.MaxLive = int(maxLive.Load())
	if c := cpuTime(os.Getpid()); c > client0 {
		rep.ClientCPU = c - client0
	}
	stopLobby()
	lobbyWG.Wait()
	if cfg.PID > 0 {
		if c := cpuTime(cfg.PID); c > cpu0 {
			rep.CPU = c - cpu0
		}
		rep.RSS, rep.PeakRSS = memory(cfg.PID)
		mu.Lock()
		rep.LiveRSS = max(rep.LiveRSS, rep.RSS) // games too short for a sample
		mu.Unlock()
	}
	if cfg.Browse > 0 {
		browse(ctx, cfg, rep)
		if cfg.PID > 0 {
			rep.BrowseRSS, _ = memory(cfg.PID)
		}
	}
	return rep
}

// browse makes cfg.Browse games against the computer, each resigned at
// once, then opens each of them (its view), as visitors browsing finished
// games do.
func browse(ctx context.Context, cfg Config, rep *Report) {
	level := cmp.Or(cfg.Computer, "easy")
	var ids []string
	for range cfg.Browse {
		var c struct {
			ID     string `json:"id"`
			Secret string `json:"secret"`
		}
		if err := post(ctx, cfg.URL+"/api/games", map[string]string{"game": cfg.Game, "opponent": "ai", "level": level, "side": "random"}, &c); err != nil {
			rep.Errors = append(rep.Errors, err.Error())
			return
		}
		if err := post(ctx, cfg.URL+"/api/games/"+c.ID+"/resign", map[string]string{"secret": c.Secret}, &view{}); err != nil {
			rep.Errors = append(rep.Errors, err.Error())
			return
		}
		ids = append(ids, c.ID)
	}
	start := time.Now()
	for _, id := range ids {
		var v view
		if err := get(ctx, cfg.URL+"/api/games/"+id, &v); err != nil || v.Status != "over" {
			rep.Errors = append(rep.Errors, fmt.Sprintf("browsing %s: %v (status %q)", id, err, v.Status))
			continue
		}
		rep.Browsed++
	}
	rep.BrowseElapsed = time.Since(start)
}

// memory reads a process's resident memory now and at its peak, in kB
// (Linux's /proc).
func memory(pid int) (rss, peak int) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, ":")
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		switch k {
		case "VmRSS":
			rss = n
		case "VmHWM":
			peak = n
		}
	}
	return rss, peak
}

// cpuTime reads a process's processor time, user and system, from
// /proc/PID/stat (fields 14 and 15, in clock ticks of 1/100 s); 0 where it
// cannot.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command's name, in parentheses, may hold spaces: count the
	// fields after its closing parenthesis (field 3 is the first).
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(user+sys) * 10 * time.Millisecond
}

func (c Config) watchURL() string {
	if c.Watch != "" {
		return c.Watch
	}
	return c.URL
}

// watchLobby keeps the lobby open and counts its views until ctx ends.
func watchLobby(ctx context.Context, base string) (int, error) {
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws/lobby", nil)
	if err != nil {
		return 0, err
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 22)
	n := 0
	for {
		if _, _, err := conn.Read(ctx); err != nil {
			return n, nil
		}
		n++
	}
}

// transport keeps its connections open between requests, as a browser
// does, however many games run at once. (Go's default keeps two idle
// connections a host: with hundreds of players most actions would open a
// new connection, which no browser does, and the server's cost per action
// would be mostly connecting.)
var transport = func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 0 // no limit
	t.MaxIdleConnsPerHost = 1 << 16
	t.IdleConnTimeout = 2 * time.Minute
	return t
}()

// client is the players' HTTP client where no session is needed (two
// players at one screen hold their seats by their secrets).
var client = &http.Client{Transport: transport}

// browser is an HTTP client with its own cookies: its own session.
func browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Transport: transport}
}

func get(ctx context.Context, url string, out any) error {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %d", url, res.StatusCode)
	}
	return json.NewDecoder(res.Body).Decode(out)
}

func post(ctx context.Context, url string, body, out any) error {
	return postAs(ctx, client, url, body, out)
}

func postAs(ctx context.Context, c *http.Client, url string, body, out any) error {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		var e struct {
			Error string `json:"error"`
		}
		json.NewDecoder(res.Body).Decode(&e)
		return fmt.Errorf("%s: %d %s", url, res.StatusCode, e.Error)
	}
	if out == nil {
		_, err = io.Copy(io.Discard, res.Body)
		return err
	}
	return json.NewDecoder(res.Body).Decode(out)
}

// seatHolder is who plays a seat: a browser and the seat's secret.
type seatHolder struct {
	c      *http.Client
	secret string
}

// newGame makes a game for two at one screen, or by a challenge in the
// lobby accepted by another browser; it returns the game's id and who
// plays each seat.
func newGame(ctx context.Context, cfg Config) (string, [2]seatHolder, error) {
	var seats [2]seatHolder
	if cfg.Computer != "" {
		var created struct {
			ID     string `json:"id"`
			Seat   int    `json:"seat"`
			Secret string `json:"secret"`
		}
		if err := post(ctx, cfg.URL+"/api/games", map[string]string{"game": cfg.Game, "opponent": "ai", "level": cfg.Computer, "side": "random"}, &created); err != nil {
			return "", seats, err
		}
		seats[created.Seat] = seatHolder{client, created.Secret}
		return created.ID, seats, nil
	}
	if !cfg.Lobby {
		var created struct {
			ID      string   `json:"id"`
			Secrets []string `json:"secrets"`
		}
		if err := post(ctx, cfg.URL+"/api/games", map[string]string{"game": cfg.Game, "opponent": "local", "side": "random"}, &created); err != nil {
			return "", seats, err
		}
		for i := range seats {
			seats[i] = seatHolder{client, created.Secrets[i]}
		}
		return created.ID, seats, nil
	}
	a, b := browser(), browser()
	var ch struct {
		ID string `json:"id"`
	}
	if err := postAs(ctx, a, cfg.URL+"/api/challenges", map[string]string{"game": cfg.Game, "side": "random"}, &ch); err != nil {
		return "", seats, err
	}
	var acc struct {
		ID     string `json:"id"`
		Seat   int    `json:"seat"`
		Secret string `json:"secret"`
	}
	if err := postAs(ctx, b, cfg.URL+"/api/challenges/"+ch.ID+"/accept", struct{}{}, &acc); err != nil {
		return "", seats, err
	}
	// The challenger holds his seat by his session alone.
	seats[acc.Seat] = seatHolder{b, acc.Secret}
	seats[1-acc.Seat] = seatHolder{a, ""}
	return acc.ID, seats, nil
}

// played is what a game measured.
type played struct {
	latencies, arrivals, replies []time.Duration
	played, lost                 int
}

// playGame makes a game and plays it: both seats, or against the
// computer the person's; p is told when it is in play, of each action,
// and when it is out of play.
func playGame(ctx context.Context, cfg Config, rng *rand.Rand, p *inPlay) (g played, err error) {
	defer p.ended()
	id, seats, err := newGame(ctx, cfg)
	if err != nil {
		return g, err
	}
	// Each browser of the game keeps its socket open, as the game page
	// does, with its session: a seat held by a session alone (a lobby
	// game's challenger) is played on its holder's socket.
	w := &watcher{id: id}
	defer w.close()
	for _, st := range seats {
		if st.c == nil {
			continue // the computer's seat
		}
		if err := w.open(ctx, cfg.watchURL(), st.c); err != nil {
			return g, err
		}
	}
	v, err := w.next(nil, 0)
	if err != nil {
		return g, err
	}
	p.began()
	sent := map[int]string{} // by ply
	var pace *time.Timer
	var act []byte
	for g.played < cfg.Actions && v.Status == "playing" {
		if v.ToAct < 0 || v.ToAct > 1 || seats[v.ToAct].c == nil || len(v.legal) == 0 {
			// The computer (or the dice) acts: wait for its action.
			t0 := time.Now()
			if v, err = w.next(nil, v.Ply+1); err != nil {
				return g, err
			}
			g.replies = append(g.replies, time.Since(t0))
			continue
		}
		seat := v.ToAct
		text, err := actionText(v.legal[rng.IntN(len(v.legal))])
		if err != nil {
			return g, fmt.Errorf("game %s: a legal action: %w", id, err)
		}
		if cfg.Pace > 0 {
			d := cfg.Pace/2 + time.Duration(rng.Int64N(int64(cfg.Pace)))
			if pace == nil {
				pace = time.NewTimer(d)
			} else {
				pace.Reset(d)
			}
			select {
			case <-ctx.Done():
				return g, ctx.Err()
			case <-pace.C:
			}
		}
		t0 := time.Now()
		mine := w.socketOf(seats[seat].c)
		if cfg.Post {
			// The answer (the new view) is read but not decoded: the
			// WebSocket brings the same view, which the game goes on
			// from.
			err = postAs(ctx, seats[seat].c, cfg.URL+"/api/games/"+id+"/act", actMessage{Secret: seats[seat].secret, Action: text, Ply: v.Ply}, nil)
		} else {
			act = appendAct(act[:0], seats[seat].secret, text, v.Ply)
			err = mine.conn.writeText(act)
		}
		if err != nil {
			return g, err
		}
		sent[v.Ply] = text
		if v, err = w.next(mine, v.Ply+1); err != nil {
			return g, err
		}
		g.latencies = append(g.latencies, time.Since(t0))
		if !v.at.IsZero() {
			g.arrivals = append(g.arrivals, v.at.Sub(t0))
		}
		g.played++
		p.acted()
	}
	p.ended()
	g.lost, err = missing(ctx, cfg.URL, id, sent)
	return g, err
}

// actMessage is an action, as posted and as sent on a game's socket.
type actMessage struct {
	Secret string `json:"secret"`
	Action string `json:"action"`
	Ply    int    `json:"ply"`
}

// appendAct appends the socket's message of an action, {"act": …}, as
// encoding/json writes it, with no allocation once b is large enough.
func appendAct(b []byte, secret, action string, ply int) []byte {
	b = append(b, `{"act":{"secret":`...)
	b = strconv.AppendQuote(b, secret)
	b = append(b, `,"action":`...)
	b = strconv.AppendQuote(b, action)
	b = append(b, `,"ply":`...)
	b = strconv.AppendInt(b, int64(ply), 10)
	return append(b, "}}"...)
}

// gameSocket is a browser's WebSocket of a game.
type gameSocket struct {
	browser *http.Client
	conn    *wsConn
	// legal holds the last view's legal actions, slices of the message
	// the connection read (valid until its next read), used again for
	// the next: a view is done with once its action is chosen, before the
	// next is read.
	legal [][]byte
}

// watcher holds a game's WebSockets, one a browser, read in turn by the
// game's player.
type watcher struct {
	id      string
	sockets []*gameSocket
}

// open opens a WebSocket of the game on base for browser c, unless it has
// one.
func (w *watcher) open(ctx context.Context, base string, c *http.Client) error {
	if w.socketOf(c) != nil {
		return nil
	}
	conn, err := dialWS(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws/games/"+w.id, c)
	if err != nil {
		return err
	}
	w.sockets = append(w.sockets, &gameSocket{browser: c, conn: conn})
	return nil
}

// socketOf is browser c's socket, or nil.
func (w *watcher) socketOf(c *http.Client) *gameSocket {
	for _, s := range w.sockets {
		if s.browser == c {
			return s
		}
	}
	return nil
}

// close closes the watcher's sockets.
func (w *watcher) close() {
	for _, s := range w.sockets {
		s.conn.close()
	}
}

// next waits up to 10 seconds for a view of the game at ply or later on
// each socket, first (where given) the socket of the player who acted,
// whose view it returns, with when its frame came off the socket; an
// action the server refused fails it.
func (w *watcher) next(first *gameSocket, ply int) (view, error) {
	deadline := time.Now().Add(10 * time.Second)
	var got view
	seen := false
	for i := -1; i < len(w.sockets); i++ {
		s := first
		if i >= 0 {
			s = w.sockets[i]
		}
		if s == nil || i >= 0 && s == first {
			continue
		}
		v, err := s.await(w.id, ply, deadline)
		if err != nil {
			return view{}, err
		}
		if !seen {
			got, seen = v, true
		}
	}
	return got, nil
}

// await reads the socket's messages until a view at ply or later.
func (s *gameSocket) await(id string, ply int, deadline time.Time) (view, error) {
	for {
		data, err := s.conn.read(deadline)
		at := time.Now()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return view{}, fmt.Errorf("game %s: ply %d never came on the WebSocket", id, ply)
			}
			return view{}, fmt.Errorf("game %s: the WebSocket closed: %v", id, err)
		}
		if bytes.HasPrefix(data, []byte(`{"error":`)) {
			return view{}, fmt.Errorf("game %s: an action sent on the WebSocket was refused: %s", id, data)
		}
		v, err := readViewTo(data, s.legal)
		if err != nil || v.Ply < ply {
			continue // not a view (a chat line), or one before the action
		}
		s.legal = v.legal
		v.at = at
		return v, nil
	}
}

// missing counts the accepted actions, by ply, that are not in the stored
// game.
func missing(ctx context.Context, base, id string, sent map[int]string) (int, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/games/"+id, nil)
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err != nil {
		return 0, err
	}
	history, err := readHistory(data)
	if err != nil {
		return 0, fmt.Errorf("game %s: the stored game: %w", id, err)
	}
	lost := 0
	for i, a := range sent {
		if i >= len(history) || history[i] != a {
			lost++
		}
	}
	return lost, nil
}
