package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/muster-games/muster/arena"
	"github.com/muster-games/muster/game"
)

const matchHelp = `Plays N games between two agents, A taking the first player in even games and
the second in odd ones, and prints a line per game, then as its last line
  A <wins> - <wins> B, <draws> draws, Elo <+d> ± <e>
(A's wins first; the Elo difference is A's, with the half-width of its 95%
interval). Agents: random; easy, medium, hard, max, each also with its budget
scaled, as hard(x4): the level with four times its iterations or time (or,
for an alpha-beta level bounded by depth alone, four times the nodes that
depth takes at each position, searched deeper), so that "does more search
pay" is one match: --agents 'hard(x4),hard'; mcts(iterations=N, time=D,
threads=T, c=X, playout=L, prior=V, contempt=K, transpose=yes|no, eval=fitted|hand|progress); alphabeta(depth=N, time=D,
nodes=N, effort=K, threads=T, hash=MiB, eval=fitted|hand|FILE.json, null=no, extend=no), where hash
sets the transposition table (1/64 to 4096 MiB, default 16, made at the first
search), c=X is MCTS's exploration constant (default 1; Lanrick's levels from medium up take 0.05),
playout=L cuts its playouts after L actions and evaluates (0: no playout, the new
node evaluated at once), transpose=yes makes the orders of one turn's actions that reach
the same state share its node, prior=V gives each new node of MCTS V visits at its evaluation (default
3), contempt=K makes a draw cost the searching side K (0 to 1; Lanrick's levels
take 0.3), eval=hand plays the evaluation weighed by hand rather than the weights
fitted by muster tune (MCTS: Lanrick only), eval=progress (Lanrick) the fitted
weights with the advantage drained as the turns without progress run out (a
side ahead loses a share of it with each turn it lets pass), and, for Tablut's alpha-beta,
eval=FILE.json the weights in a file of the working folder as muster tune
writes it (to try a fit before it replaces the embedded one), null=no searches without null moves
and extend=no without extending threats to Tablut's king; either with
endgame=yes plays Lanrick's last two rendezvous from the endgame tables where
muster solve tables has built them (hard and max do), and Tablut's wins and
losses within two turns as a search of every move and reply proves them; turns=N (1 to 6)
plays Lanrick's final rendezvous by a search over N whole turns wherever that
search proves a win, without the tables. Games
run in parallel on --workers (default: one per core); each game is seeded from
--seed and its number, so a match with iteration or depth limits is repeatable.
Each pair of games opens with the same --opening uniformly random actions
(default 2), sides swapped, so that deterministic agents play varied games.`

func runMatch(env *Env, args []string) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	ruleset := fs.String("ruleset", "", "ruleset and options")
	agents := fs.String("agents", "", "two agent specs, A,B")
	games := fs.Int("games", 10, "number of games")
	seed := fs.Uint64("seed", 1, "random seed")
	workers := fs.Int("workers", 0, "games played at once (0: one per core)")
	opening := fs.Int("opening", 2, "uniformly random actions that open each pair of games")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want one GAME (known: %s)", errUsage, strings.Join(game.Names(), ", "))
	}
	specs := splitAgents(*agents)
	if len(specs) != 2 {
		return fmt.Errorf("%w: --agents wants two specs separated by a comma, such as random,mcts(iterations=1000)", errUsage)
	}
	if *games < 1 {
		return fmt.Errorf("%w: --games must be at least 1", errUsage)
	}
	g, err := loadGame(pos[0], *ruleset)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	w := env.Stdout
	fmt.Fprintf(w, "match: %s, A = %s, B = %s, %d games, seed %d, %d random opening actions\n", g.Spec(), specs[0], specs[1], *games, *seed, *opening)
	played, err := arena.Match(ctx, g, specs[0], specs[1], *games, *seed, arena.Options{Workers: *workers, Opening: *opening}, func(gm arena.Game) {
		who := "draw"
		if gm.Winner >= 0 {
			who = "AB"[gm.Winner:gm.Winner+1] + " won"
		}
		fmt.Fprintf(w, "game %d: A as %s: %s (%s), %d actions\n", gm.Index+1, g.PlayerName(game.Player(gm.Seats[0])), who, gm.Result.Reason, gm.Actions)
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, arena.Tally(played).Line(specs[0], specs[1]))
	return nil
}

// splitAgents splits "A,B" at the comma outside parentheses.
func splitAgents(s string) []string {
	depth := 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				return []string{strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])}
			}
		}
	}
	return nil
}
