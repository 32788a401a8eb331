package lanrick

import (
	"fmt"
	"strings"

	"github.com/muster-games/muster/game"
)

// traits are Lanrick's for people and tools; Chance is set per version.
var traits = game.Traits{
	Players: []game.PlayerTraits{
		{Name: "black", Title: "Black", Colour: "dark"},
		{Name: "white", Title: "White", Colour: "light"},
	},
	Chance: true,
	Width:  Size, Height: Size, Chequered: true,
	Bottom: White, // white's edge is rank 1 (the package comment)
	Pieces: []game.PieceTraits{
		{Kind: "man", Name: "a black man", Side: Black},
		{Kind: "man", Name: "a white man", Side: White},
	},
	Regions: []game.RegionTraits{
		{Kind: "rendezvous", Name: "the rendezvous, which each side tries to fill with all its men", Style: game.StyleFill, Tint: "green"},
		{Kind: "mark", Name: "the mark (the coin) that fixes the rendezvous", Style: game.StyleMarker, Short: "the mark"},
		{Kind: "swap", Name: "the men chosen so far for the interchange", Style: game.StyleFill, Tint: "blue"},
	},
}

// Traits describe Lanrick under its version: black and white men on a
// chess-board, with dice in the 1879 versions.
func (g *Game) Traits() game.Traits {
	t := traits
	t.Chance = g.Rules.Version <= V1879Mar
	return t
}

func squareList(b Bitboard) []string {
	out := []string{}
	for w := b; w != 0; w &= w - 1 {
		out = append(out, Square(trailing(w)).String())
	}
	return out
}

// View describes the state for a board display: the men (those moved this
// turn spent), the rendezvous and the mark, the last action's squares and
// the men it removed or converted, the facts of the rendezvous and the
// turn's budget.
func (s *State) View() game.View {
	v := game.View{Width: Size, Height: Size, Pieces: []game.Piece{}}
	for p := Black; p <= White; p++ {
		for w := s.men[p]; w != 0; w &= w - 1 {
			q := Square(trailing(w))
			v.Pieces = append(v.Pieces, game.Piece{Square: q.String(), Side: game.Player(p), Kind: "man", Spent: s.moved.has(q) && s.phase == PhaseMove})
		}
	}
	if s.rdv != 0 {
		v.Regions = append(v.Regions, game.Region{Kind: "rendezvous", Label: s.rendezvousText(), Squares: squareList(s.rdv)})
	}
	if s.mark != NoSquare {
		v.Regions = append(v.Regions, game.Region{Kind: "mark", Squares: []string{s.mark.String()}})
	}
	if s.swapped != 0 {
		v.Regions = append(v.Regions, game.Region{Kind: "swap", Squares: squareList(s.swapped)})
	}
	if n := len(s.actions); n > 0 {
		switch k, a, b := unpack(s.actions[n-1]); k {
		case kMove, kSlide:
			v.Last = []string{Square(a).String(), Square(b).String()}
		case kPlace, kMark:
			v.Last = []string{Square(a).String()}
		case kMarkMove:
			v.Last = []string{Square(b).String()}
		}
	}
	if s.removed != 0 {
		v.Removed = squareList(s.removed)
	}
	if s.converted != 0 {
		v.Converted = squareList(s.converted)
	}
	v.Facts = s.facts()
	if s.phase == PhaseMove && !s.over {
		m := &game.Meter{Label: "Squares left this turn", Left: int(s.budget), Total: int(s.budgetFor(s.toAct))}
		if !s.g.Rules.old() {
			m.Cap = 3
		}
		v.Meter = m
	}
	return v
}

// rendezvousText says which rendezvous this is, its size and kind.
func (s *State) rendezvousText() string {
	kind := "close"
	if s.shape.Size%2 == 0 {
		kind = "open"
	}
	if s.g.Rules.old() {
		kind = "3×3"
	}
	return fmt.Sprintf("Rendezvous %d: %s, %s", s.rendezvous, squareCount(s.rdv.count()), kind)
}

func (s *State) facts() []game.Fact {
	f := []game.Fact{{Key: "men", Label: "Men", Value: fmt.Sprintf("black %d, white %d", s.men[Black].count(), s.men[White].count())}}
	if s.rdv != 0 {
		f = append(f, game.Fact{Key: "rendezvous", Label: "Rendezvous", Value: s.rendezvousText()})
	}
	switch {
	case s.mark != NoSquare && s.g.Rules.Version <= V1879Mar:
		f = append(f, game.Fact{Key: "setter", Label: "Mark set by", Value: "the dice"})
	case s.setter >= 0 && s.mark != NoSquare:
		f = append(f, game.Fact{Key: "setter", Label: "Mark set by", Value: colourName(int(s.setter))})
	}
	if s.phase == PhaseMove && s.opening {
		f = append(f, game.Fact{Key: "opening", Label: "Opening turn", Value: "2 squares only"})
	}
	if s.phase == PhaseBonus {
		f = append(f, game.Fact{Key: "bonus", Label: "Bonus", Value: squareCount(s.bonus)})
	}
	if s.g.Rules.Version == V1879Mar {
		f = append(f, game.Fact{Key: "scores", Label: "Marks", Value: fmt.Sprintf("black %d, white %d", s.scores[Black], s.scores[White])})
	}
	return f
}

var kindNames = [...]string{kPlace: "place", kRoll: "roll", kMark: "mark", kInterchange: "interchange", kNoInterchange: "no-interchange",
	kSwap: "swap", kMove: "move", kSlide: "slide", kMarkMove: "mark-move", kEnd: "end", kPass: "pass", kRemove: "remove"}

var lineNames = map[string]string{"n": "north–south", "e": "east–west", "ne": "north-east–south-west", "nw": "north-west–south-east"}

// Describe describes an action legal in this state: what it picks on the
// board, a label, and whether it ends the turn.
func (s *State) Describe(a game.Action) game.ActionInfo {
	k, x, y := unpack(a)
	info := game.ActionInfo{Text: actionText(a), Label: actionText(a)}
	if int(k) < len(kindNames) {
		info.Kind = kindNames[k]
	}
	info.Squares = s.picks(a)
	switch k {
	case kMark:
		if y > 0 {
			info.Label = "mark " + Square(x).String() + ", line " + lineNames[dirNames[y-1]]
		}
	case kSlide:
		info.Label += " (along the border)"
	case kMarkMove:
		info.Label = "move the mark to " + Square(y).String()
	case kEnd:
		info.Label = "End turn"
	case kPass:
		info.Label = "Pass (no move)"
	case kInterchange:
		info.Label = "Demand an interchange"
	case kNoInterchange:
		info.Label = "No interchange"
	case kRoll:
		info.Label = fmt.Sprintf("dice %d", x)
	case kRemove:
		info.Label = "remove " + Square(x).String()
		if !s.g.Rules.old() {
			info.Label = "convert " + Square(x).String() // 1893 Rule 7
		}
	case kPlace:
		info.Label = "set a man on " + Square(x).String()
	}
	switch k {
	case kMove:
		info.Note = squareCount(chebyshev(Square(x), Square(y))) + ", straight"
	case kSlide:
		cost := s.slideCost(Square(x), Square(y))
		info.Note = squareCount(cost) + " along the border"
		if n := len(slidePath(Square(x), Square(y))) - 1; int(cost) < n {
			info.Note = "1 square along the border: a slide that stops at or before the first rendezvous square counts one (Rule 6)"
		}
		info.Path = slidePath(Square(x), Square(y))
	}
	if k != kRoll {
		c := s.Copy()
		c.Apply(a)
		info.After = fmt.Sprintf("%016x", c.Hash())
		// A move that gets all the mover's men in leaves him to convert
		// a man (Rule 7), in the same turn: that ends it.
		info.EndsTurn = c.over || c.toAct != s.toAct || (c.phase != s.phase && c.phase != PhaseRemove) || (c.phase == PhaseMove && !c.movedAny)
		// A mark shows the rendezvous it would make.
		if k == kMark && c.rdv != 0 {
			info.Preview = squareList(c.rdv)
		}
	}
	return info
}

// slidePath lists the border squares a slide passes, from its start to
// its end, the shorter way round the ring (Rule 6).
func slidePath(a, b Square) []string {
	i, j := int(ringIndex[a]), int(ringIndex[b])
	k := (j - i + 28) % 28
	dir := 1
	if k > 14 {
		k, dir = 28-k, -1
	}
	out := make([]string, 0, k+1)
	for n := 0; n <= k; n++ {
		out = append(out, ring[(i+dir*n+28)%28].String())
	}
	return out
}

// picks are the squares a click picks for an action: the square of a man
// to set, a mark, a man to swap or remove; a man and his target; the mark
// and where it goes.
func (s *State) picks(a game.Action) []string {
	switch k, x, y := unpack(a); k {
	case kPlace, kSwap, kRemove, kMark:
		return []string{Square(x).String()}
	case kMove, kSlide:
		return []string{Square(x).String(), Square(y).String()}
	case kMarkMove:
		return []string{s.mark.String(), Square(y).String()}
	}
	return nil
}

// Prompt says what the player to act is asked to do, with the squares
// that answer it.
func (s *State) Prompt() game.Prompt {
	if s.over {
		return game.Prompt{Player: game.Terminal, Text: s.resultSentence()}
	}
	p := game.Prompt{Player: s.ToAct(), Text: s.phaseSentence()}
	seen := map[string]bool{}
	for _, a := range s.LegalActions(nil) {
		if sq := s.picks(a); len(sq) > 0 && !seen[sq[0]] {
			seen[sq[0]] = true
			p.Squares = append(p.Squares, sq[0])
		}
	}
	return p
}

func (s *State) resultSentence() string {
	r := s.result
	if r.Winner < 0 {
		return "Draw: " + r.Reason + "."
	}
	return fmt.Sprintf("%s won: %s.", capital(colourName(int(r.Winner))), r.Reason)
}

func capital(w string) string { return strings.ToUpper(w[:1]) + w[1:] }

// phaseSentence asks for the next action of the phase in words.
func (s *State) phaseSentence() string {
	me := int(s.toAct)
	switch s.phase {
	case PhasePlace:
		_, colour := s.placeTurn()
		return fmt.Sprintf("Set a %s man on one of the empty squares shown (%d of 10 men set).", colourName(colour), s.placed)
	case PhaseRoll:
		return "The dice are thrown to fix the rendezvous."
	case PhaseMark:
		return s.markSentence()
	case PhaseInterchange:
		return fmt.Sprintf("%s set the mark. Demand an interchange of men (you would play with %s's men), or play on.", capital(colourName(int(s.setter))), colourName(int(s.setter)))
	case PhaseSwap:
		return fmt.Sprintf("Interchange: choose the men of %s that become yours, %d more.", colourName(1-me), s.swapLeft)
	case PhaseMove:
		return s.moveSentence()
	case PhaseRemove:
		switch {
		case !s.g.Rules.old():
			return "All your men are in the rendezvous, and it is not yet full: choose one of the outlying men to convert to your side (Rule 7)."
		case s.g.Rules.Version == V1879Jan:
			return "You lost the rendezvous: choose one of your men outside it to remove."
		}
		return fmt.Sprintf("You won the rendezvous: choose which of %s's men outside it to remove.", colourName(1-me))
	case PhaseRelocate:
		return fmt.Sprintf("Move %s's men that stand in the field to the border, one at a time.", colourName(int(s.lastLoser)))
	case PhaseSetIn:
		return "Set the wanderers into the empty squares of the rendezvous."
	case PhaseRadiate:
		return "Your man on the centre square: choose the line he radiates along to the border."
	case PhaseBonus:
		return fmt.Sprintf("Bonus: move your men along the border, %s left, or end.", squareCount(s.bonus))
	case PhaseEqualise:
		return "You have more men in the field: move one of them to the border."
	case PhaseMarshal:
		return "Re-marshalling: move one of your men from the field to the border."
	}
	return ""
}

func (s *State) markSentence() string {
	n := 0
	seen := map[Square]bool{}
	for _, a := range s.LegalActions(nil) {
		if k, x, _ := unpack(a); k == kMark && !seen[Square(x)] {
			seen[Square(x)] = true
			n++
		}
	}
	what := fmt.Sprintf("Set the mark for rendezvous %d (%d squares) on one of the %d squares shown.", s.rendezvous, s.shape.Size, n)
	if n == 4 {
		what = fmt.Sprintf("Set the mark for rendezvous %d on one of the four squares shown.", s.rendezvous)
	}
	if s.shape.Size == 3 {
		what += " Then choose the line of its three squares."
	}
	return what
}

func (s *State) moveSentence() string {
	if s.budget <= 0 {
		return "End your turn."
	}
	what := fmt.Sprintf("Move your men along straight lines: %s left this turn", squareCount(s.budget))
	if !s.g.Rules.old() && s.budget > 3 {
		what += ", at most 3 for one man unless he is your only man outside"
	}
	if s.opening {
		what += " (the opening turn has 2)"
	}
	if s.movedAny {
		return what + "; or end your turn."
	}
	return what + "."
}

// Events are what the last action did: the dice and what they fixed, a
// rendezvous won, men converted or removed, a new rendezvous and who sets
// its mark, a scored round, the end of the game.
func (s *State) Events() []game.Event {
	n := len(s.actions)
	if n == 0 {
		return nil
	}
	var out []game.Event
	add := func(kind string, p int, b Bitboard, text string) {
		out = append(out, game.Event{Kind: kind, Player: game.Player(p), Squares: squareList(b), Text: text})
	}
	switch k, _, _ := unpack(s.actions[n-1]); {
	case k == kInterchange && s.phase == PhaseSwap:
		demander := 1 - int(s.setter)
		add("interchange", demander, 0, fmt.Sprintf("%s demanded an interchange: %s chooses %d of %s's men to take in exchange for his own.",
			capital(colourName(demander)), capital(colourName(int(s.setter))), s.swapLeft, colourName(demander)))
	case k == kInterchange:
		demander := 1 - int(s.setter)
		add("interchange", demander, s.men[Black]|s.men[White], fmt.Sprintf("%s demanded an interchange: the black and the white men changed places; each player keeps his colour.",
			capital(colourName(demander))))
	case k == kSwap && s.phase != PhaseSwap:
		add("interchange", int(s.setter), s.men[s.setter], "The interchange is made: the men chosen changed sides.")
	}
	if k, x, _ := unpack(s.actions[n-1]); k == kRoll {
		text := fmt.Sprintf("The dice show %d.", x)
		if s.mark != NoSquare && s.phase != PhaseRoll {
			text = fmt.Sprintf("The dice show %d: the rendezvous is the 3×3 round %s.", x, s.mark)
		}
		fixed := Bitboard(0)
		if s.mark != NoSquare && s.phase != PhaseRoll {
			fixed = s.rdv
		}
		add("dice", -1, fixed, text)
		out[len(out)-1].Dice = []int{x}
	}
	if s.wonBy > 0 {
		p := int(s.wonBy) - 1
		add("rendezvous-won", p, s.men[p]&s.rdvOrPrev(), fmt.Sprintf("%s won the rendezvous: all his men are in it.", capital(colourName(p))))
	}
	for w := s.converted; w != 0; w &= w - 1 {
		q := Square(trailing(w))
		owner := s.ownerOf(q)
		add("converted", owner, bitOf(q), fmt.Sprintf("The %s man on %s became %s's.", colourName(1-owner), q, colourName(owner)))
	}
	for w := s.removed; w != 0; w &= w - 1 {
		q := Square(trailing(w))
		add("removed", -1, bitOf(q), fmt.Sprintf("The man on %s was taken off the board.", q))
	}
	if s.scored {
		add("score", -1, 0, fmt.Sprintf("The round is scored: black %d, white %d marks.", s.scores[Black], s.scores[White]))
	}
	if s.began && !s.over && s.phase == PhaseMark {
		add("rendezvous-begun", int(s.setter), 0, fmt.Sprintf("Rendezvous %d begins: %s sets the mark.", s.rendezvous, colourName(int(s.setter))))
	}
	if s.over {
		add("game-over", int(s.result.Winner), 0, s.resultSentence())
	}
	return out
}

// rdvOrPrev is the rendezvous just won: the current one, or in the
// versions that clear it on a win, the previous one.
func (s *State) rdvOrPrev() Bitboard {
	if s.rdv != 0 {
		return s.rdv
	}
	return s.prevRdv
}

func (s *State) ownerOf(q Square) int {
	if s.men[White].has(q) {
		return White
	}
	return Black
}

// squareCount says n squares in words: "1 square", "3 squares".
func squareCount[N ~int | ~int8](n N) string {
	if n == 1 {
		return "1 square"
	}
	return fmt.Sprintf("%d squares", n)
}
