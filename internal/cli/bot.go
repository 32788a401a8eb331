package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/bot"
	"github.com/muster-games/muster/otep"
)

const botHelp = `Plays a bot account on a Muster server (muster serve) with one of Muster's
agents, or with any engine for OpenTafl's engine protocol (--otep). Make the account a bot and a token for it on the account page
(/account), then run this with the token: in --token, or in the environment
variable MUSTER_BOT_TOKEN, which other users of the machine cannot read in
the process list.

The bot reads its account's event stream, accepts the challenges made to it
by name that --accept allows (casual, rated, or both; --games bounds the games
at once) and declines the others, and plays each game with a fresh --agent
(default hard): whenever the account is to act, it builds the game from the
view's history and sends the agent's action. On a live clock it gives a move
at most a thirtieth of the time left and four fifths of the increment (the
agent's own limit applies too). A dropped connection is made again after two
seconds; stopped and started again, it takes up its games in play. It stops
on Ctrl-C, or when the server refuses the token (revoked).

--otep COMMAND plays with an OpenTafl engine instead — OpenTafl's own AI, or any
engine written for OpenTafl: a process per game, run by the shell, to which
Muster speaks as OpenTafl does (the rules in OpenTafl's notation, the
opponent's moves with the position after each, a clock, "play"; the engine's
"move" is sent to the server). Only tafl games whose rules that notation states
exactly are accepted (not ashton's camps, say); --movetime is a move's time
without a clock; --traffic FILE keeps every line to and from the engines
(> to, < from), each marked with its game's id.`

func runBot(env *Env, args []string) error {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	url := fs.String("url", "http://127.0.0.1:8080", "the server's address")
	tok := fs.String("token", "", "the bot's token (default: $MUSTER_BOT_TOKEN)")
	spec := fs.String("agent", "hard", "agent spec or level that plays the games")
	accept := fs.String("accept", "casual,rated", "challenges to accept: casual, rated, or both (comma-separated)")
	games := fs.Int("games", 4, "games at once; challenges beyond are declined")
	seed := fs.Uint64("seed", 1, "seed of the agents' random choices")
	engine := fs.String("otep", "", "play with an OpenTafl engine instead: the command that runs it (OpenTafl's engine protocol); tafl games only")
	moveTime := fs.Duration("movetime", 5*time.Second, "with --otep, a move's time in games without a clock")
	traffic := fs.String("traffic", "", "with --otep, a file to append every line to and from the engine to")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, pos)
	}
	if *tok == "" {
		*tok = os.Getenv("MUSTER_BOT_TOKEN")
	}
	if *tok == "" {
		return fmt.Errorf("%w: give the bot's token with --token or MUSTER_BOT_TOKEN (make one on the account page)", errUsage)
	}
	kinds := strings.Split(*accept, ",")
	for _, k := range kinds {
		if k != "casual" && k != "rated" {
			return fmt.Errorf("%w: --accept %q: casual, rated or both", errUsage, *accept)
		}
	}
	if *games < 1 {
		return fmt.Errorf("%w: --games must be at least 1", errUsage)
	}
	var logw io.Writer
	if *traffic != "" {
		f, err := os.OpenFile(*traffic, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		logw = &lockedWriter{w: f}
	}
	log := slog.New(slog.NewTextHandler(env.Stderr, nil))
	var n atomic.Uint64
	c := &bot.Client{URL: *url, Token: *tok, MaxGames: *games, Log: log}
	policy := func(ch bot.Challenge) string {
		if ch.Rated && !slices.Contains(kinds, "rated") {
			return "this bot plays casual games only"
		}
		if !ch.Rated && !slices.Contains(kinds, "casual") {
			return "this bot plays rated games only"
		}
		return ""
	}
	player := *spec
	if *engine != "" {
		player = "the engine " + *engine
		c.NewPlayer = func(id, gameSpec string) (bot.Player, error) {
			g, err := game.Load(gameSpec)
			if err != nil {
				return nil, err
			}
			var w io.Writer
			if logw != nil {
				w = &prefixWriter{prefix: "[" + id + "] ", w: logw}
			}
			return otep.StartHost(*engine, g, *moveTime, w)
		}
		c.Accept = func(ch bot.Challenge) string {
			g, err := game.Load(ch.Spec)
			if err != nil {
				return err.Error()
			}
			if err := otep.Playable(g); err != nil {
				return err.Error()
			}
			return policy(ch)
		}
	} else {
		// The agent's spec is checked on every game before the bot
		// connects.
		for _, name := range game.Names() {
			g, err := game.Load(name)
			if err != nil {
				return err
			}
			if err := agent.Check(*spec, g); err != nil {
				return fmt.Errorf("%w: --agent: %v", errUsage, err)
			}
		}
		c.NewPlayer = func(_, gameSpec string) (bot.Player, error) {
			g, err := game.Load(gameSpec)
			if err != nil {
				return nil, err
			}
			a, err := agent.New(*spec, g, *seed+n.Add(1))
			if err != nil {
				return nil, err
			}
			return agentPlayer{a}, nil
		}
		c.Accept = policy
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(env.Stderr, "bot: playing %s on %s with %s (Ctrl-C stops)\n", strings.Join(kinds, " and "), *url, player)
	return c.Run(ctx)
}

// lockedWriter lets several games' engines log to one file.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// prefixWriter marks each line a game's engine logs with the game's id.
type prefixWriter struct {
	prefix string
	w      io.Writer
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	var out []byte
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line != "" {
			out = append(append(out, p.prefix...), line...)
		}
	}
	if _, err := p.w.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}

// agentPlayer plays a bot's game with one of Muster's agents.
type agentPlayer struct{ a agent.Agent }

func (p agentPlayer) Act(ctx context.Context, s game.State, budget time.Duration) (string, error) {
	if budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	res, err := p.a.Act(ctx, s)
	if err != nil {
		return "", err
	}
	return s.ActionString(res.Action), nil
}
