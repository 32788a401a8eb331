package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
)

const playHelp = `Plays a game in the terminal. Each side is a person unless an agent plays it,
named by a flag after the side (--black, --white; Tablut's --attackers and
--defenders) with a spec such as medium or mcts(iterations=5000). The board
is drawn after each action. At the prompt type actions in the game's
notation (several at once, separated by spaces), or:
  legal        list the legal actions        help     notation and commands
  undo         take back your last action    board    draw the board again
  hint         ask the medium agent          save F   write the game record to F
  load F       replay the record in F        quit     leave the game
The agents show what they found: best line, value and speed.`

// diagrammer is a state that can draw itself for a terminal.
type diagrammer interface{ Diagram() string }

func runPlay(env *Env, args []string) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	ruleset := fs.String("ruleset", "", "ruleset and options")
	sides := sideFlags(fs)
	seed := fs.Uint64("seed", 0, "random seed of the agents and the dice (0: a new one each game)")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want one GAME (known: %s)", errUsage, strings.Join(game.Names(), ", "))
	}
	g, err := loadGame(pos[0], *ruleset)
	if err != nil {
		return err
	}
	specs, err := sidesOf(g, fs, sides)
	if err != nil {
		return err
	}
	var agents [2]agent.Agent
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	for p, spec := range specs {
		if spec == "" {
			continue
		}
		if agents[p], err = agent.New(spec, g, *seed+uint64(p)); err != nil {
			return err
		}
	}
	in := env.Stdin
	if in == nil {
		in = os.Stdin
	}
	pl := &player{env: env, g: g, agents: agents, rng: rand.New(rand.NewPCG(*seed, 0x706c6179)), in: bufio.NewScanner(in)}
	pl.in.Buffer(make([]byte, 0, 4096), 1<<16)
	return pl.loop()
}

type player struct {
	env     *Env
	g       game.Game
	agents  [2]agent.Agent
	rng     *rand.Rand
	in      *bufio.Scanner
	s       game.State
	actions []game.Action
}

func (pl *player) out(format string, a ...any) { fmt.Fprintf(pl.env.Stdout, format, a...) }

func (pl *player) draw() {
	if d, ok := pl.s.(diagrammer); ok {
		pl.out("\n%s", d.Diagram())
	} else {
		pl.out("\n%s", viewDiagram(pl.g.Traits(), pl.s.View()))
	}
}

// rebuild replays the kept actions from the start.
func (pl *player) rebuild() {
	pl.s = pl.g.NewState()
	for _, a := range pl.actions {
		pl.s.Apply(a)
	}
}

func (pl *player) loop() error {
	pl.s = pl.g.NewState()
	pl.out("%s — type help for the commands\n", pl.g.Spec())
	pl.draw()
	for {
		if pl.s.IsTerminal() {
			pl.out("result: %s (%s)\n", game.ResultName(pl.s), pl.s.Result().Reason)
		}
		p := pl.s.ToAct()
		switch {
		case p == game.Chance:
			var a game.Action
			a, _ = game.RandomAction(pl.s, pl.rng, nil)
			pl.out("%s\n", pl.s.ActionString(a))
			pl.apply(a)
			continue
		case p >= 0 && pl.agents[p] != nil:
			res, err := pl.agents[p].Act(context.Background(), pl.s)
			if err != nil {
				return err
			}
			pl.out("%s (%s) plays %s — %s\n", pl.g.PlayerName(p), pl.agents[p].Spec(), pl.s.ActionString(res.Action), res.Describe(pl.s))
			pl.apply(res.Action)
			continue
		}
		prompt := "game over"
		if p >= 0 {
			prompt = pl.g.PlayerName(p)
			pl.out("%s\n", pl.s.Prompt().Text)
		}
		pl.out("%s> ", prompt)
		if !pl.in.Scan() {
			pl.out("\n")
			return pl.in.Err()
		}
		if quit := pl.command(strings.TrimSpace(pl.in.Text())); quit {
			return nil
		}
	}
}

func (pl *player) apply(a game.Action) {
	pl.s.Apply(a)
	pl.actions = append(pl.actions, a)
	pl.draw()
}

// command handles one line typed by a person; it reports quit.
func (pl *player) command(line string) bool {
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch word {
	case "":
	case "quit", "exit":
		return true
	case "help", "?":
		pl.out("%s\n", playHelp)
		if info, err := game.Lookup(pl.g.Name()); err == nil {
			pl.out("%s: %s\n", pl.g.Name(), info.Notation)
		}
	case "board":
		pl.draw()
	case "legal", "moves":
		var names []string
		for _, a := range pl.s.LegalActions(nil) {
			names = append(names, pl.s.ActionString(a))
		}
		slices.Sort(names)
		pl.out("%d legal: %s\n", len(names), strings.Join(names, "  "))
	case "undo":
		// Back to the last action a person made.
		for len(pl.actions) > 0 {
			pl.actions = pl.actions[:len(pl.actions)-1]
			pl.rebuild()
			if p := pl.s.ToAct(); p >= 0 && pl.agents[p] == nil {
				break
			}
		}
		if len(pl.actions) == 0 {
			pl.rebuild()
		}
		pl.draw()
	case "hint":
		if pl.s.IsTerminal() || pl.s.ToAct() < 0 {
			pl.out("nothing to suggest\n")
			break
		}
		a, err := agent.New("medium", pl.g, pl.rng.Uint64())
		if err != nil {
			pl.out("error: %v\n", err)
			break
		}
		res, err := a.Act(context.Background(), pl.s)
		if err != nil {
			pl.out("error: %v\n", err)
			break
		}
		pl.out("hint: %s — %s\n", pl.s.ActionString(res.Action), res.Describe(pl.s))
	case "save":
		pl.save(rest)
	case "load":
		pl.load(rest)
	default:
		if pl.s.IsTerminal() {
			pl.out("the game is over; undo, load, save or quit\n")
			break
		}
		for _, text := range pl.g.SplitActions(line) {
			p := pl.s.ToAct()
			if p < 0 || pl.agents[p] != nil {
				pl.out("not your turn: %q left unplayed\n", text)
				break
			}
			a, err := pl.s.ParseAction(text)
			if err != nil {
				pl.out("%v\n(type legal for the legal actions, help for the notation)\n", err)
				break
			}
			pl.apply(a)
		}
	}
	return false
}

func (pl *player) save(path string) {
	if path == "" {
		pl.out("save needs a file name\n")
		return
	}
	rc, ok := pl.g.(game.Recorder)
	if !ok {
		pl.out("%s has no record format\n", pl.g.Name())
		return
	}
	f, err := os.Create(path)
	if err != nil {
		pl.out("error: %v\n", err)
		return
	}
	defer f.Close()
	tags := []game.KV{{Key: "date", Value: time.Now().Format("2006.01.02")}}
	for p, a := range pl.agents {
		name := "person"
		if a != nil {
			name = a.Spec()
		}
		tags = append(tags, game.KV{Key: pl.g.PlayerName(game.Player(p)), Value: name})
	}
	if err := rc.WriteRecord(f, game.NewRecord("", pl.s, tags...)); err != nil {
		pl.out("error: %v\n", err)
		return
	}
	pl.out("saved %d actions to %s\n", len(pl.actions), path)
}

func (pl *player) load(path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		pl.out("error: %v\n", err)
		return
	}
	rc, ok := pl.g.(game.Recorder)
	if !ok {
		pl.out("%s has no record format\n", pl.g.Name())
		return
	}
	rec, err := rc.ReadRecord(strings.NewReader(string(data)))
	if err == nil && rec.Start != "" {
		err = fmt.Errorf("records from a set-up position cannot be loaded here")
	}
	var s game.State
	if err == nil {
		s, err = game.Replay(rec)
	}
	if err == nil && s.Game().Spec() != pl.g.Spec() {
		err = fmt.Errorf("the record is of %s, this game is %s", s.Game().Spec(), pl.g.Spec())
	}
	if err != nil {
		pl.out("cannot load %s: %v\n", path, err)
		return
	}
	pl.s = s
	pl.actions = append([]game.Action(nil), s.History()...)
	pl.out("loaded %d actions\n", len(pl.actions))
	pl.draw()
}

// sideFlags defines a flag for every side of every registered game, named
// after it (--black, --attackers), for the agent that plays it.
func sideFlags(fs *flag.FlagSet) map[string]*string {
	games := map[string][]string{}
	var names []string
	for _, n := range game.Names() {
		g, err := game.Load(n)
		if err != nil {
			continue
		}
		for p := range g.NumPlayers() {
			side := g.PlayerName(game.Player(p))
			if games[side] == nil {
				names = append(names, side)
			}
			games[side] = append(games[side], n)
		}
	}
	flags := map[string]*string{}
	for _, side := range names {
		flags[side] = fs.String(side, "", fmt.Sprintf("the agent playing %s (%s; empty: a person)", side, strings.Join(games[side], ", ")))
	}
	return flags
}

// sidesOf are the agents' specs for g's players, from the flags named after
// them; a flag set for a side g does not have is an error.
func sidesOf(g game.Game, fs *flag.FlagSet, flags map[string]*string) ([2]string, error) {
	var specs [2]string
	var names []string
	for p := range min(g.NumPlayers(), 2) {
		name := g.PlayerName(game.Player(p))
		names = append(names, "--"+name)
		if f := flags[name]; f != nil {
			specs[p] = *f
		}
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		if _, side := flags[f.Name]; side && !slices.Contains(names, "--"+f.Name) && err == nil {
			err = fmt.Errorf("%w: %s's sides are %s", errUsage, g.Name(), strings.Join(names, " and "))
		}
	})
	return specs, err
}

// viewDiagram draws a board from its view, for games that draw none of
// their own: the ranks from the top, each side's pieces as the first
// letter of its name (x and o where two sides share it; upper case for a
// piece with an emblem), empty squares as dots, the last action's squares
// in brackets, then the facts.
func viewDiagram(tr game.Traits, v game.View) string {
	letters := []string{"x", "o"}
	if len(tr.Players) == 2 && tr.Players[0].Name[:1] != tr.Players[1].Name[:1] {
		letters = []string{tr.Players[0].Name[:1], tr.Players[1].Name[:1]}
	}
	at := map[string]string{}
	for _, pc := range v.Pieces {
		c := "?"
		if pc.Side >= 0 && int(pc.Side) < len(letters) {
			c = letters[pc.Side]
		}
		for _, k := range tr.Pieces {
			if k.Kind == pc.Kind && k.Side == pc.Side && k.Emblem != "" {
				c = strings.ToUpper(c)
			}
		}
		at[pc.Square] = c
	}
	var b strings.Builder
	for r := v.Height - 1; r >= 0; r-- {
		fmt.Fprintf(&b, "%3d ", r+1)
		for f := 0; f < v.Width; f++ {
			sq := game.SquareName(f, r)
			c, ok := at[sq]
			if !ok {
				c = "."
			}
			if slices.Contains(v.Last, sq) {
				fmt.Fprintf(&b, "[%s]", c)
			} else {
				fmt.Fprintf(&b, " %s ", c)
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("    ")
	for f := 0; f < v.Width; f++ {
		fmt.Fprintf(&b, " %c ", 'a'+f)
	}
	b.WriteByte('\n')
	for _, fact := range v.Facts {
		fmt.Fprintf(&b, "%s: %s\n", fact.Label, fact.Value)
	}
	return b.String()
}
