package game

import (
	"fmt"
	"slices"
	"strconv"
)

// This file is the part of the contract that people and tools read: what a
// game is (Traits), what a position looks like (View), what each legal
// action picks on the board (ActionInfo), what the player to act is asked
// to do (Prompt) and what the last action did (Event). The server, the
// metrics and the page use these and never a game's notation or concrete
// types.
//
// Squares are named as on a chess board: a file letter from 'a' and a rank
// number from 1, a1 being the bottom-left square seen from the first
// player's side. SquareName and ParseSquareName convert.

// Traits describe a game for people and tools.
type Traits struct {
	// Players are the sides, in player order.
	Players []PlayerTraits `json:"players"`
	// Chance says whether chance acts in some ruleset (RulesetInfo.Chance
	// says which).
	Chance bool `json:"chance"`
	// Width and Height are the board's files and ranks.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Chequered says the board's squares alternate light and dark.
	Chequered bool `json:"chequered"`
	// Premove says a turn is one move of a piece, so that a page may let
	// a player choose his next one while the other thinks (a premove).
	Premove bool `json:"premove"`
	// TurnPairs says the game's records number its turns by pairs, one
	// number for both players' moves ("1. a4-a3 e3-d3"), counted from the
	// record's start; else one number for each change of player.
	TurnPairs bool `json:"turn_pairs,omitempty"`
	// Bottom is the player who sits at rank 1, the bottom of the board
	// as diagrams draw it; a page turns the board for the other.
	Bottom Player `json:"bottom"`
	// Pieces are the kinds of pieces on the board.
	Pieces []PieceTraits `json:"pieces"`
	// Regions are the kinds of regions a View may hold, with their
	// meaning in words.
	Regions []RegionTraits `json:"regions"`
}

// PlayerTraits describe one side.
type PlayerTraits struct {
	// Name is the side's name in notation and results ("attackers").
	Name string `json:"name"`
	// Title is the name for people ("Attackers (Muscovites)").
	Title string `json:"title"`
	// Colour is the colour of the side's pieces: "dark" or "light".
	Colour string `json:"colour"`
}

// PieceTraits describe one kind of piece.
type PieceTraits struct {
	Kind string `json:"kind"` // as in View.Pieces, e.g. "king"
	Name string `json:"name"` // for people, e.g. "the king"
	Side Player `json:"side"`
	// Emblem is drawn on the piece to tell its kind from the side's
	// others: EmblemCrown, or "" for none.
	Emblem string `json:"emblem,omitempty"`
}

// Piece emblems a page draws.
const EmblemCrown = "crown"

// RegionTraits describe one kind of region and how a page draws it.
type RegionTraits struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Style is how the region is drawn: StyleFill (its squares tinted
	// with Tint), StyleMarker (each square ringed, with a coin) or
	// StyleLine (a line along its squares).
	Style string `json:"style"`
	// Tint is a fill's colour, one of Tints.
	Tint string `json:"tint,omitempty"`
	// Short names one square of it for screen readers ("the mark"), if
	// the page should say so.
	Short string `json:"short,omitempty"`
}

// Region styles a page draws.
const (
	StyleFill   = "fill"
	StyleMarker = "marker"
	StyleLine   = "line"
)

// Tints are the colours a page fills regions with (each with a shade for
// a chequered board's dark squares, and for every theme).
var Tints = []string{"green", "gold", "sand", "blue"}

// View is a position as a board display needs it.
type View struct {
	Width  int     `json:"width"`
	Height int     `json:"height"`
	Pieces []Piece `json:"pieces"`
	// Regions are marked areas of the board: a castle, camps, the
	// rendezvous, the mark, lines. Their kinds are listed in Traits.
	Regions []Region `json:"regions"`
	// Last are the squares of the last action (from and to), if it had
	// any.
	Last []string `json:"last,omitempty"`
	// Captured, Removed and Converted are the squares whose piece the last
	// action took, took off, or turned to the other side.
	Captured  []string `json:"captured,omitempty"`
	Removed   []string `json:"removed,omitempty"`
	Converted []string `json:"converted,omitempty"`
	// Facts are the state's other facts for people, in order ("Budget":
	// "3 squares left").
	Facts []Fact `json:"facts,omitempty"`
	// Meter is a budget of the turn, if the game has one.
	Meter *Meter `json:"meter,omitempty"`
}

// Piece is one piece on the board.
type Piece struct {
	Square string `json:"square"`
	Side   Player `json:"side"`
	Kind   string `json:"kind"`
	// Spent marks a piece that may not act again this turn.
	Spent bool `json:"spent,omitempty"`
}

// Region is a set of squares with a kind the page styles.
type Region struct {
	Kind    string   `json:"kind"`
	Label   string   `json:"label,omitempty"`
	Squares []string `json:"squares"`
}

// Fact is one line of a position's facts.
type Fact struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Value string `json:"value"`
}

// Meter is a budget: Left of Total units, with a cap on what one piece
// may use (0: none).
type Meter struct {
	Label string `json:"label"`
	Left  int    `json:"left"`
	Total int    `json:"total"`
	Cap   int    `json:"cap,omitempty"`
}

// ActionInfo describes one legal action for a board: what a click picks.
type ActionInfo struct {
	// Text is the action in the game's notation, as Play takes it.
	Text string `json:"text"`
	// Kind names the action's kind within its game ("move", "mark",
	// "remove", "end").
	Kind string `json:"kind"`
	// Squares are the squares a click picks, in order: none for a button,
	// one for a square to click, two for a piece and where it goes.
	Squares []string `json:"squares,omitempty"`
	// Label is a short text for a button or a choice ("End turn",
	// "line north–south").
	Label string `json:"label"`
	// EndsTurn says that the action ends its player's turn.
	EndsTurn bool `json:"ends_turn"`
	// Note says what the action costs or does, where actions on the same
	// squares differ ("2 squares", "1 square, along the border").
	Note string `json:"note,omitempty"`
	// Path are the squares a piece passes, from its start to its end, for
	// a move that is not along one line (a slide round a corner).
	Path []string `json:"path,omitempty"`
	// Preview are squares the action would make a region of (the
	// rendezvous a mark would make), for a page to show before it is
	// chosen.
	Preview []string `json:"preview,omitempty"`
	// After names the position the action leads to (a hash, in hex;
	// empty where the game does not say): actions on the same squares
	// with the same After end alike, and a page plays either without
	// asking which.
	After string `json:"after,omitempty"`
}

// Prompt is what the player to act is asked to do now.
type Prompt struct {
	Player Player `json:"player"`
	// Text is a sentence ("Set the mark on one of the four squares
	// shown").
	Text string `json:"text"`
	// Squares are the squares that answer it: the first square of every
	// legal action that has one.
	Squares []string `json:"squares,omitempty"`
}

// Event is something an action did.
type Event struct {
	// Kind names the event ("capture", "king-escaped", "rendezvous-won",
	// "converted", "removed", "dice", "score", "game-over").
	Kind string `json:"kind"`
	// Player is the side it is credited to, or -1.
	Player Player `json:"player"`
	// Squares are where it happened.
	Squares []string `json:"squares,omitempty"`
	// Text says it in a sentence.
	Text string `json:"text"`
	// Dice are the faces thrown, for a "dice" event.
	Dice []int `json:"dice,omitempty"`
}

// Describer is the part of State that describes it for people.
type Describer interface {
	// View is the position for a board display.
	View() View
	// Describe describes an action legal in this state (or a chance
	// action).
	Describe(a Action) ActionInfo
	// Prompt is what the player to act is asked to do; its Text says who
	// has won when the game is over.
	Prompt() Prompt
	// Events are what the last action did, in order; none at the start.
	Events() []Event
}

// SquareName names the square on a file and rank counted from 0.
func SquareName(file, rank int) string {
	return string(rune('a'+file)) + strconv.Itoa(rank+1)
}

// ParseSquareName reads a square name on a board of the given size.
func ParseSquareName(name string, width, height int) (file, rank int, err error) {
	if len(name) < 2 || len(name) > 3 {
		return 0, 0, fmt.Errorf("game: %w: bad square %q", ErrSyntax, name)
	}
	file = int(name[0]) - 'a'
	rank, err = strconv.Atoi(name[1:])
	rank--
	if err != nil || name[1] == '+' || file < 0 || file >= width || rank < 0 || rank >= height {
		return 0, 0, fmt.Errorf("game: %w: no square %q on a %d×%d board", ErrSyntax, name, width, height)
	}
	return file, rank, nil
}

// A LegalDescriber describes all its legal actions at once, appended to
// dst, as Describe would one by one, for less than the sum (no memory of
// their own for their squares, say): a view describes them after every
// action of a game in play, and may hand the same slice back each time.
type LegalDescriber interface {
	AppendLegal(dst []ActionInfo) []ActionInfo
}

// A LegalJSONAppender writes its legal actions' descriptions as JSON
// itself, for less than describing them (LegalDescriber) and encoding the
// list: a game's room sends them with every view. AppendLegalJSON
// appends to b, byte for byte, the list encoding/json writes of
// DescribeLegal's, and reports true; or reports false, b as it was, for
// a position whose it does not write (a pass, say).
type LegalJSONAppender interface {
	AppendLegalJSON(b []byte) ([]byte, bool)
}

// A ViewAppender draws its view into the lists of dst (its pieces and
// regions, their room used again), as View draws it: a game in play is
// drawn after every action, and the view let go once encoded.
type ViewAppender interface {
	AppendView(dst View) View
}

// AppendView is s's view, drawn into dst's lists where s is a
// ViewAppender, else View's own.
func AppendView(dst View, s State) View {
	if a, ok := s.(ViewAppender); ok {
		return a.AppendView(dst)
	}
	return s.View()
}

// DescribeLegal describes every legal action of s, in LegalActions'
// order (an empty list, not nil, where there is none).
func DescribeLegal(s State) []ActionInfo {
	if out := AppendLegal(nil, s); out != nil {
		return out
	}
	return []ActionInfo{}
}

// AppendLegal appends to dst what DescribeLegal gives.
func AppendLegal(dst []ActionInfo, s State) []ActionInfo {
	if d, ok := s.(LegalDescriber); ok {
		return d.AppendLegal(dst)
	}
	legal := s.LegalActions(nil)
	dst = slices.Grow(dst, len(legal))
	for _, a := range legal {
		dst = append(dst, s.Describe(a))
	}
	return dst
}

// Turn is one turn of a game: the actions one player made in a row, with
// the chance actions that came before them.
type Turn struct {
	// Number is the turn's number as the game's records write it: from 1,
	// one more for each change of player (or each pair of moves, where the
	// traits say TurnPairs).
	Number int `json:"number"`
	// Player made the turn; Chance for a turn of chance actions alone.
	Player Player `json:"player"`
	// First is the ply of the turn's first action (0-based).
	First int `json:"first"`
	// Actions are the turn's actions in notation.
	Actions []string `json:"actions"`
	// Labels are the actions' short labels.
	Labels []string `json:"labels"`
	// Squares are the squares each action picked (a man and where he
	// went, a square marked), for a page to show the whole turn.
	Squares [][]string `json:"squares"`
	// Paths are the squares each action's piece passed where not along
	// one line (ActionInfo.Path), else nil; Paths is nil where no action
	// of the turn has one (a Tablut turn's).
	Paths [][]string `json:"paths,omitempty"`
	// Events are what the turn's actions did, in order.
	Events []Event `json:"events,omitempty"`
}

// Turns replays the actions from start and groups them into turns: a turn
// ends with an action that ends it or when the player to act changes.
// Chance actions join the turn of the player who acts after them.
func Turns(start State, actions []Action) []Turn {
	b := NewTurnBuilder(start)
	for _, a := range actions {
		b.Add(a)
	}
	return b.Turns()
}

// TurnBuilder groups actions into turns as they are played, as Turns does
// all at once, so that a game in play describes each action once. A slice
// Turns returned is never changed by later actions: it may be shared with
// readers while the game goes on.
//
// Settle hands over the turns that can no longer change (all but the
// last) and forgets them, for a caller that keeps them in a form of its
// own (a game in play keeps them encoded).
type TurnBuilder struct {
	s     State // nil once AddPlayed is used
	g     Game
	toAct Player // who acts after the last action
	turns []Turn // the turns not settled
	open  bool
	n     int
	// settled counts the turns Settle handed over, prev is the last of
	// them (the turn before turns[0], for the numbering).
	settled int
	prev    Turn
}

// NewTurnBuilder starts grouping the actions played from start (which it
// copies).
func NewTurnBuilder(start State) *TurnBuilder {
	return &TurnBuilder{s: start.Clone(), g: start.Game(), toAct: start.ToAct()}
}

// Len is the number of actions added.
func (b *TurnBuilder) Len() int { return b.n }

// Add plays a and puts it into its turn.
func (b *TurnBuilder) Add(a Action) {
	s := b.s
	p, info, text := s.ToAct(), s.Describe(a), s.ActionString(a)
	s.Apply(a)
	b.add(p, info, text, s.Events(), s.ToAct())
}

// AddPlayed puts a, played from before to after by the caller, into its
// turn, as Add would: for a caller that keeps the game's state, so that
// the builder need not keep one (it lets go of its own; Add may not
// follow).
func (b *TurnBuilder) AddPlayed(before State, a Action, after State) {
	b.s = nil
	b.add(before.ToAct(), before.Describe(a), before.ActionString(a), after.Events(), after.ToAct())
}

// add puts an action of player p into its turn: info describes it, text
// is its notation, events what it did, and next acts after it.
func (b *TurnBuilder) add(p Player, info ActionInfo, text string, events []Event, next Player) {
	cur := len(b.turns) - 1
	var t Turn
	switch {
	case !b.open,
		p == Chance && b.turns[cur].Player != Chance,
		p >= 0 && b.turns[cur].Player >= 0 && b.turns[cur].Player != p:
		// A new turn goes past the end of what earlier slices hold. It is
		// numbered as the game's records number it (an interchange
		// demanded and the turn played after it share one).
		t = Turn{Number: b.number(b.settled+len(b.turns), p, b.n), Player: p, First: b.n}
	default:
		// The turn goes on: a new copy of it, in a new slice of turns,
		// leaves the slices given out before as they were.
		t = b.turns[cur]
		if t.Player == Chance && p >= 0 {
			t.Player = p
			t.Number = b.number(b.settled+cur, p, t.First)
		}
		t.Actions = t.Actions[:len(t.Actions):len(t.Actions)]
		t.Labels = t.Labels[:len(t.Labels):len(t.Labels)]
		t.Squares = t.Squares[:len(t.Squares):len(t.Squares)]
		t.Paths = t.Paths[:len(t.Paths):len(t.Paths)]
		t.Events = t.Events[:len(t.Events):len(t.Events)]
		b.turns = b.turns[:cur:cur]
	}
	t.Actions = append(t.Actions, text)
	t.Labels = append(t.Labels, info.Label)
	t.Squares = append(t.Squares, info.Squares)
	if info.Path != nil || len(t.Paths) > 0 {
		// Paths has one per action, from the first that has one.
		for len(t.Paths) < len(t.Actions)-1 {
			t.Paths = append(t.Paths, nil)
		}
		t.Paths = append(t.Paths, info.Path)
	}
	b.open = !info.EndsTurn
	b.toAct = next
	t.Events = append(t.Events, events...)
	b.turns = append(b.turns, t)
	b.n++
}

// Turns are the turns so far, less those Settle handed over; throws that
// open a turn not yet played belong to the player who acts next.
func (b *TurnBuilder) Turns() []Turn {
	out := b.turns
	if n := len(out) - 1; n >= 0 && out[n].Player == Chance && b.toAct >= 0 {
		last := out[n]
		last.Player = b.toAct
		last.Number = b.number(b.settled+n, last.Player, last.First)
		out = append(out[:n:n], last)
	}
	return out
}

// Settle calls f with each turn that later actions can no longer change,
// in order (every turn but the last), and forgets them: Turns no longer
// returns them. It returns how many turns have been settled in all.
func (b *TurnBuilder) Settle(f func(t *Turn)) int {
	if k := len(b.turns) - 1; k > 0 {
		for i := range k {
			f(&b.turns[i])
		}
		b.prev = b.turns[k-1]
		// Those handed over are let go once the list next grows (the
		// array is then copied from here on): no list given out is
		// written, as add writes only past the end of the list (a copy
		// of the rest at each settling, with add's own copy, was two
		// lists made for every action).
		b.turns = b.turns[k:]
		b.settled += k
	}
	return b.settled
}

// number is the number of turn i, player p's, beginning at ply first:
// one for each pair of moves where the traits say so, else the turn
// before's, one more where the player changes.
func (b *TurnBuilder) number(i int, p Player, first int) int {
	if b.g.Traits().TurnPairs {
		return first/2 + 1
	}
	if i == 0 {
		return 1
	}
	prev := b.prev
	if i-1 >= b.settled {
		prev = b.turns[i-1-b.settled]
	}
	if prev.Player != p {
		return prev.Number + 1
	}
	return prev.Number
}
