package game

import (
	"errors"
	"fmt"
)

// Player identifies who acts at a point of the game. Players are numbered
// from 0; Chance and Terminal are the two pseudo-players.
type Player int

const (
	// Chance is the pseudo-player that acts when the next action is drawn at
	// random (Lanrick's 1879 dice).
	Chance Player = -1
	// Terminal is returned by State.ToAct when the game is over.
	Terminal Player = -2
)

// Action is one atomic step of a game, packed into an integer by the game
// that defines it. A turn is the run of actions by one player, which may be
// several actions long.
type Action uint32

// Outcome is one chance action with its probability.
type Outcome struct {
	Action Action
	Prob   float64
}

// Result says how a finished game ended.
type Result struct {
	// Winner is the winning player, or -1 for a draw or a result that is
	// only a score.
	Winner Player
	// Scores holds the final scores in versions that score, else nil.
	Scores []int
	// Reason says in a few words why the game ended ("king escaped").
	Reason string
	// History says the result was decided by the game's history — a
	// repeated position, a limit on turns or on turns without progress —
	// rather than by the position alone. Exact solvers, whose tables forget
	// the way a position was reached, treat such an ending as unknown.
	History bool
}

// Draw reports whether the result is a draw.
func (r Result) Draw() bool { return r.Winner < 0 && r.Scores == nil }

// Game is a game with its rules fixed: a ruleset and options. A Game is
// immutable and safe to share between goroutines.
type Game interface {
	// Name is the registered name of the game, such as "tablut".
	Name() string
	// Spec is the canonical string that loads this exact game again,
	// such as "tablut(linnaeus)" or "tablut(linnaeus,king_capture=strong)".
	Spec() string
	// NumPlayers is the number of players, not counting chance.
	NumPlayers() int
	// PlayerName is the name of a player in notation and results
	// ("attackers", "black").
	PlayerName(p Player) string
	// ParsePlayer is the inverse of PlayerName.
	ParsePlayer(s string) (Player, error)
	// MaxActions bounds the number of legal actions in any state, so that
	// callers can size their buffers once.
	MaxActions() int
	// SplitActions splits a list of actions written with spaces between
	// them into one string per action (some games write one action as
	// several words).
	SplitActions(text string) []string
	// NewState returns the start of a game.
	NewState() State
	// ParseState reads a position in the game's text format (the format
	// State.String writes); the state starts a fresh history there.
	ParseState(text string) (State, error)
	// Traits describe the game under its ruleset: players, board, pieces,
	// regions, whether chance acts.
	Traits() Traits
}

// State is a position of a game with the history that the rules need.
//
// Apply is the fast, unchecked entry point for search: the action must be
// one that LegalActions (or ChanceOutcomes) returned. Play checks the action
// first and is the entry point for input from people and the network.
type State interface {
	Game() Game
	// ToAct is the player to act, Chance, or Terminal when the game is over.
	ToAct() Player
	// LegalActions appends the legal actions of the player to act to dst
	// and returns it; it appends nothing in a terminal or chance state.
	LegalActions(dst []Action) []Action
	// ChanceOutcomes appends the chance actions with their probabilities
	// when ToAct is Chance; otherwise it appends nothing.
	ChanceOutcomes(dst []Outcome) []Outcome
	// Apply plays a legal action without checking it.
	Apply(a Action)
	// Play checks that the action is legal, then plays it.
	Play(a Action) error
	// Clone returns an independent copy.
	Clone() State
	// IsTerminal reports whether the game is over.
	IsTerminal() bool
	// Result is how the game ended; it is meaningful only when IsTerminal.
	Result() Result
	// Returns are the players' payoffs at the end: +1 win, -1 loss, 0 draw
	// (or scaled scores); all zero before the end.
	Returns() []float64
	// ActionString writes an action, legal in this state, in the game's
	// notation (with the effects that notation records, such as captures).
	ActionString(a Action) string
	// ParseAction reads an action in the game's notation and checks that it
	// is legal in this state.
	ParseAction(s string) (Action, error)
	// String writes the position in the game's text format.
	String() string
	// Hash is a Zobrist hash of the position (board and player to act).
	Hash() uint64
	// History is the actions applied since the state was made.
	History() []Action
	// Describer says what the state and its actions mean for people.
	Describer
}

// ErrIllegal is wrapped by the errors that reject an action.
var ErrIllegal = errors.New("illegal action")

// ErrSyntax is wrapped by the errors that reject malformed text.
var ErrSyntax = errors.New("syntax error")

// ResultName is the result as the command line and the server print it:
// the winner's name, "draw", or the scores as "name score, name score".
func ResultName(s State) string {
	if !s.IsTerminal() {
		return ""
	}
	r := s.Result()
	g := s.Game()
	if r.Scores != nil {
		out := ""
		for p, sc := range r.Scores {
			if p > 0 {
				out += ", "
			}
			out += fmt.Sprintf("%s %d", g.PlayerName(Player(p)), sc)
		}
		return out
	}
	if r.Winner < 0 {
		return "draw"
	}
	return g.PlayerName(r.Winner)
}

// ApplyNotation parses each action in moves (already split) and plays it,
// returning an error that names the first action that fails.
func ApplyNotation(s State, moves []string) error {
	for i, m := range moves {
		if s.IsTerminal() {
			return fmt.Errorf("action %d %q: %w: the game is over (%s)", i+1, m, ErrIllegal, ResultName(s))
		}
		a, err := s.ParseAction(m)
		if err != nil {
			return fmt.Errorf("action %d %q: %w", i+1, m, err)
		}
		s.Apply(a)
	}
	return nil
}

// Notation writes actions, played in turn from s, in the game's notation;
// s is not changed.
func Notation(s State, actions []Action) []string {
	c := s.Clone()
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = c.ActionString(a)
		c.Apply(a)
	}
	return out
}
