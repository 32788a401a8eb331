package game

import (
	"fmt"
	"slices"
	"strings"
)

// This file holds the parts that most games write the same way, to embed
// in a game's own types so that a new game writes only what is its own:
//
//	type Game struct {
//		game.Preset // Name, Spec, Ruleset, Option
//		game.Sides  // NumPlayers, PlayerName, ParsePlayer
//		game.Words  // SplitActions
//		…
//	}
//
//	type State struct {
//		game.Played   // History
//		game.NoChance // ChanceOutcomes
//		…
//	}
//
// and, for a Play that checks against the legal actions, a ParseAction
// that reads any legal action's notation back, and the returns of a game
// won or drawn, the functions PlayLegal, ParseLegal and WinReturns.
// docs/new-game.md walks through a game built this way.

// Preset is a game's ruleset with the value of every option, resolved
// against its Info. Embedded in a Game, it gives Name, Spec, Ruleset and
// Option.
type Preset struct {
	info    *Info
	ruleset string
	values  map[string]string
}

// Preset resolves a ruleset name ("" for the default) and option settings
// as Resolve does: unknown names and values are errors that list the known
// ones. info must outlive the preset (a package variable).
func (info *Info) Preset(ruleset string, opts []KV) (Preset, error) {
	id, values, err := info.Resolve(ruleset, opts)
	if err != nil {
		return Preset{}, err
	}
	return Preset{info: info, ruleset: id, values: values}, nil
}

// Name is the game's registered name.
func (p Preset) Name() string { return p.info.Name }

// Spec is the canonical game string: the ruleset and the options that
// differ from its preset.
func (p Preset) Spec() string {
	return Spec{Name: p.info.Name, Ruleset: p.ruleset, Options: p.info.Diff(p.ruleset, p.values)}.String()
}

// Ruleset is the id of the ruleset.
func (p Preset) Ruleset() string { return p.ruleset }

// Option is the value of a named option ("" for an option the game does
// not have).
func (p Preset) Option(key string) string { return p.values[key] }

// Sides are the players' names in notation and results, in player order.
// Embedded in a Game, they give NumPlayers, PlayerName and ParsePlayer.
type Sides []string

// NumPlayers is the number of sides.
func (s Sides) NumPlayers() int { return len(s) }

// PlayerName is the side's name, or "player N" for a number that is none.
func (s Sides) PlayerName(p Player) string {
	if p >= 0 && int(p) < len(s) {
		return s[p]
	}
	return fmt.Sprintf("player %d", p)
}

// ParsePlayer reads a side's name (in any case) or its number from 1.
func (s Sides) ParsePlayer(text string) (Player, error) {
	for i, n := range s {
		if strings.EqualFold(text, n) || text == fmt.Sprint(i+1) {
			return Player(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown side %q (known: %s)", ErrSyntax, text, strings.Join(s, ", "))
}

// Words split a list of actions at spaces: embedded in a Game whose
// actions are single words, it gives SplitActions.
type Words struct{}

// SplitActions splits at runs of white space.
func (Words) SplitActions(text string) []string { return strings.Fields(text) }

// Played is the actions applied to a state since it was made. Embedded in
// a State, it gives History; the state calls Add from its Apply and copies
// it in Clone with Copy.
type Played struct{ actions []Action }

// History is the actions applied, oldest first.
func (p *Played) History() []Action { return p.actions }

// Add records an applied action.
func (p *Played) Add(a Action) { p.actions = append(p.actions, a) }

// Undo forgets the last action, for states that take one back.
func (p *Played) Undo() { p.actions = p.actions[:len(p.actions)-1] }

// Copy is an independent copy, for Clone.
func (p Played) Copy() Played { return Played{slices.Clone(p.actions)} }

// NoChance is embedded in the State of a game in which chance never acts:
// it gives ChanceOutcomes.
type NoChance struct{}

// ChanceOutcomes appends nothing.
func (NoChance) ChanceOutcomes(dst []Outcome) []Outcome { return dst }

// Positions are the hashes of the positions since the last action that
// cannot be undone (a capture, a pawn's step), for a repetition rule.
type Positions struct{ hashes []uint64 }

// Add records the position reached; irreversible says the action that
// reached it can never be undone, so no earlier position can recur.
func (r *Positions) Add(hash uint64, irreversible bool) {
	if irreversible {
		r.hashes = r.hashes[:0]
	}
	r.hashes = append(r.hashes, hash)
}

// Count is how many times the position has occurred.
func (r *Positions) Count(hash uint64) int {
	n := 0
	for _, h := range r.hashes {
		if h == hash {
			n++
		}
	}
	return n
}

// Copy is an independent copy, for Clone.
func (r Positions) Copy() Positions { return Positions{slices.Clone(r.hashes)} }

// PlayLegal plays a if it is one of s's legal actions, else returns an
// error wrapping ErrIllegal: the whole of Play for a game whose legal
// actions are few enough to list for every check.
func PlayLegal(s State, a Action) error {
	if s.IsTerminal() {
		return fmt.Errorf("%s: %w: the game is over", s.Game().Name(), ErrIllegal)
	}
	if s.ToAct() != Chance && !slices.Contains(s.LegalActions(nil), a) {
		return fmt.Errorf("%s: %w action %d", s.Game().Name(), ErrIllegal, a)
	}
	if s.ToAct() == Chance && !slices.ContainsFunc(s.ChanceOutcomes(nil), func(o Outcome) bool { return o.Action == a }) {
		return fmt.Errorf("%s: %w chance action %d", s.Game().Name(), ErrIllegal, a)
	}
	s.Apply(a)
	return nil
}

// ParseLegal reads an action by finding the legal action that the game
// writes as text (ignoring case and surrounding spaces): a ParseAction for
// a game whose notation has one spelling per action. The error lists a few
// of the legal actions.
func ParseLegal(s State, text string) (Action, error) {
	text = strings.TrimSpace(text)
	if s.IsTerminal() {
		return 0, fmt.Errorf("%s: %w %q: the game is over", s.Game().Name(), ErrIllegal, text)
	}
	legal := s.LegalActions(nil)
	var some []string
	for _, a := range legal {
		w := s.ActionString(a)
		if strings.EqualFold(w, text) {
			return a, nil
		}
		if len(some) < 8 {
			some = append(some, w)
		}
	}
	more := ""
	if len(legal) > len(some) {
		more = fmt.Sprintf(", and %d more", len(legal)-len(some))
	}
	return 0, fmt.Errorf("%s: %w %q (legal: %s%s)", s.Game().Name(), ErrIllegal, text, strings.Join(some, ", "), more)
}

// WinReturns are the returns of a game of n players over with result r:
// +1 to the winner and -1 shared among the others (so that they sum to
// zero), all 0 for a draw or before the end.
func WinReturns(n int, over bool, r Result) []float64 {
	out := make([]float64, n)
	if !over || r.Winner < 0 {
		return out
	}
	for p := range out {
		out[p] = -1 / float64(n-1)
	}
	out[r.Winner] = 1
	return out
}

// Undescribed is embedded in a State whose description (View, Describe,
// Prompt, Events) is not written yet, so that the rules can be built and
// checked first with gametest.RunRules. gametest.Run and RunDescription
// fail while it is there: it is scaffolding, never a finished game.
type Undescribed struct{}

func (Undescribed) View() View                 { return View{} }
func (Undescribed) Describe(Action) ActionInfo { return ActionInfo{} }
func (Undescribed) Prompt() Prompt             { return Prompt{} }
func (Undescribed) Events() []Event            { return nil }
