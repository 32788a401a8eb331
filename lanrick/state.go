package lanrick

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/muster-games/muster/game"
)

// Players.
const (
	Black = 0
	White = 1
)

func colourName(p int) string {
	if p == Black {
		return "black"
	}
	return "white"
}

// Phase is what the next action is.
type Phase int8

const (
	PhasePlace       Phase = iota // @sq
	PhaseRoll                     // roll n (chance)
	PhaseMark                     // mark sq [dir]
	PhaseInterchange              // interchange / no-interchange
	PhaseSwap                     // swap sq
	PhaseMove                     // man moves, slides, mark moves, end, pass
	PhaseRemove                   // x sq: remove or convert a man
	PhaseRelocate                 // a-b: the winner moves the loser's wanderers to the border (1880–1881)
	PhaseSetIn                    // a-b: the winner sets the wanderers in the rendezvous (1879-03 Rule 5)
	PhaseRadiate                  // a-b: the centre man's owner picks his line (1879-03 Rule 6)
	PhaseBonus                    // a-b or end: the winner's bonus moves (1879-03 Rule 7)
	PhaseEqualise                 // a-b: the player with more men in the field moves one to the border (1881 Rule 7)
	PhaseMarshal                  // a-b: alternately, a man from the field to the border (1881 Rule 8)
	PhaseOver
)

var phaseNames = []string{"place", "roll", "mark", "interchange", "swap", "move", "remove", "relocate", "setin", "radiate", "bonus", "equalise", "marshal", "over"}

func (p Phase) String() string { return phaseNames[p] }

// MaxActions bounds the legal actions of any state.
const MaxActions = 1024

// Game is Lanrick under one ruleset with its options; it implements
// game.Game.
type Game struct {
	ruleset string
	values  map[string]string
	Rules   Rules
	// spec is Spec's text, made once: every view of a game names it.
	spec string
}

func init() {
	game.Register(Info, func(ruleset string, opts []game.KV) (game.Game, error) {
		return Load(ruleset, opts...)
	})
}

// Load builds Lanrick under a ruleset ("" for the default, 1893) with
// option settings on top.
func Load(ruleset string, opts ...game.KV) (*Game, error) {
	id, values, err := Info.Resolve(ruleset, opts)
	if err != nil {
		return nil, err
	}
	if err := checkApplies(id, opts); err != nil {
		return nil, err
	}
	g := &Game{ruleset: id, values: values, Rules: compile(versionOf(id), values)}
	g.spec = game.Spec{Name: Info.Name, Ruleset: g.ruleset, Options: Info.Diff(g.ruleset, g.values)}.String()
	return g, nil
}

// MustLoad is Load for rulesets known to be valid.
func MustLoad(ruleset string, opts ...game.KV) *Game {
	g, err := Load(ruleset, opts...)
	if err != nil {
		panic(err)
	}
	return g
}

func (g *Game) Name() string           { return Info.Name }
func (g *Game) NumPlayers() int        { return 2 }
func (g *Game) MaxActions() int        { return MaxActions }
func (g *Game) Ruleset() string        { return g.ruleset }
func (g *Game) Option(k string) string { return g.values[k] }

func (g *Game) Spec() string { return g.spec }

func (g *Game) PlayerName(p game.Player) string {
	if p == Black || p == White {
		return colourName(int(p))
	}
	return fmt.Sprintf("player %d", p)
}

// ParsePlayer reads black or white (yellow, the 1893 first edition's name
// for white, is accepted).
func (g *Game) ParsePlayer(s string) (game.Player, error) {
	switch strings.ToLower(s) {
	case "black":
		return Black, nil
	case "white", "yellow":
		return White, nil
	}
	return 0, fmt.Errorf("lanrick: %w: unknown player %q (known: black, white)", game.ErrSyntax, s)
}

func (g *Game) SplitActions(text string) []string { return splitActions(text) }

// State is a game of Lanrick in progress; it implements game.State.
type State struct {
	g *Game
	// men are each player's men; setMen writes them and keeps key, their
	// Zobrist hash, up to date.
	men   [2]Bitboard
	key   uint64
	phase Phase
	toAct int8 // the player to act; -1 chance
	mark  Square
	shape Shape
	rdv   Bitboard
	// setter set the current mark (-1 before the first).
	setter int8
	// rendezvous counts the rendezvous begun, the first being 1.
	rendezvous int16
	// Turn: squares left, the men moved (their squares now), whether a
	// man has moved, and whether this is a 2-square opening turn.
	budget   int8
	moved    Bitboard
	movedAny bool
	opening  bool
	// openingDone[p]: p has had his first turn of this rendezvous
	// (opening_turn=each_player).
	openingDone [2]bool
	// lone is the square of the mover's only man outside at the start of
	// the turn (cap_check=start_of_turn), or NoSquare.
	lone Square
	// swapLeft and swapped: the setter's choice in an interchange.
	swapLeft int8
	swapped  Bitboard
	// lastLoser lost the last man (Rule 8's tie-break, and the loser of
	// the last rendezvous in 1879–1881).
	lastLoser int8
	// early holds what only the 3×3 versions, 1879–1881, need.
	early

	passes int8
	// noProgress counts turns completed since the last progress.
	noProgress int16

	// removed and converted are the squares whose man the last action
	// took off or turned; wonBy is 1 + the player who won a rendezvous by
	// it (0: none), began says it began a rendezvous, scored that it
	// ended a scored round. They are for descriptions only: not in the
	// position text, reset by every action.
	removed, converted Bitboard
	wonBy              int8
	began, scored      bool

	hashes []uint64 // the hash after every action since the last progress
	// seen has a bit set for every hash in hashes (and maybe others): a
	// hash whose bit is clear has not come since the last progress.
	seen    hashFilter
	actions []game.Action
	over    bool
	result  game.Result
}

// early is the state of the 1879–1881 rules.
type early struct {
	// placer places first in this setting and placed counts
	// the men set; first is the 'first Player' (1879-03); budgets are the
	// 1879-01 budgets of each player for this rendezvous; privilege says
	// the 1880-12 non-selector has not yet moved a man; bonus is the
	// 1879-03 Rule 7 squares left; roll is a pending throw (the row, or a
	// low first throw of the March 1879 N.B.), 0 for none; rollRow the row
	// fixed by the first throw; scores are the 1879-03 marks; wanderers
	// counts the men set in at the last 1879-03 win.
	placer, placed, first int8
	budgets               [2]int8
	privilege             bool
	bonus                 int8
	roll, rollRow         int8
	scores                [2]int8
	wanderers             int8
	// lines records, for 1881's repeated moves of a man along one line,
	// the direction each moved man took (indexed by his square now).
	lines [Squares]int8
	// prevRdv is the last rendezvous (1880-10's "clear of the old one");
	// marshalStart began 1881's re-marshalling and sets the next mark.
	prevRdv      Bitboard
	marshalStart int8
}

// Start returns the start of a game.
func (g *Game) Start() *State {
	s := &State{g: g, mark: NoSquare, setter: -1, lastLoser: -1, lone: NoSquare}
	switch g.Rules.Version {
	case V1893, V1899:
		for _, n := range []string{"b8", "h8", "a4", "h2", "d1"} {
			q, _ := ParseSquare(n)
			s.setMen(Black, s.men[Black]|bitOf(q))
		}
		for _, n := range []string{"e8", "a7", "h5", "a1", "g1"} {
			q, _ := ParseSquare(n)
			s.setMen(White, s.men[White]|bitOf(q))
		}
		s.beginRendezvous(int8(g.Rules.First))
	default:
		s.first = int8(g.Rules.First)
		s.budgets = [2]int8{6, 6} // 1879-01 Rule 3: 6 squares for the first rendezvous
		s.marshalStart = -1
		s.startSetting(int8(g.Rules.First))
	}
	s.remember(s.Hash())
	return s
}

func (g *Game) NewState() game.State { return g.Start() }

func (s *State) Game() game.Game { return s.g }

func (s *State) ToAct() game.Player {
	switch {
	case s.over:
		return game.Terminal
	case s.toAct < 0:
		return game.Chance
	}
	return game.Player(s.toAct)
}

func (s *State) IsTerminal() bool       { return s.over }
func (s *State) Result() game.Result    { return s.result }
func (s *State) History() []game.Action { return s.actions }

// Men returns the squares of a player's men.
func (s *State) Men(p int) Bitboard { return s.men[p] }

// RendezvousSquares returns the squares of the current rendezvous.
func (s *State) RendezvousSquares() Bitboard { return s.rdv }

// Phase returns what the next action is.
func (s *State) Phase() Phase { return s.phase }

func (s *State) Returns() []float64 {
	r := []float64{0, 0}
	if s.over && s.result.Winner >= 0 {
		r[s.result.Winner] = 1
		r[1-s.result.Winner] = -1
	}
	return r
}

func (s *State) Clone() game.State { return s.Copy() }

// Copy is Clone with the concrete type.
func (s *State) Copy() *State {
	c := *s
	c.hashes = append([]uint64(nil), s.hashes...)
	c.actions = append([]game.Action(nil), s.actions...)
	return &c
}

func (s *State) all() Bitboard { return s.men[Black] | s.men[White] }

// allIn reports whether every man of p stands in the rendezvous.
func (s *State) allIn(p int) bool { return s.men[p] != 0 && s.men[p]&^s.rdv == 0 }

// clearTurn forgets the turn in progress when play for a rendezvous stops.
func (s *State) clearTurn() {
	for w := s.moved; w != 0; w &= w - 1 {
		s.lines[trailing(w)] = 0
	}
	s.moved, s.movedAny, s.budget, s.lone, s.opening = 0, false, 0, NoSquare, false
}

// beginRendezvous asks setter for the next mark.
func (s *State) beginRendezvous(setter int8) {
	s.clearTurn()
	s.rendezvous++
	s.began = true
	s.setter = setter
	s.phase = PhaseMark
	s.toAct = setter
	s.mark, s.rdv = NoSquare, 0
	s.shape = Shape{Size: s.all().count() - 1, Line: -1}
	if s.g.Rules.old() {
		s.shape.Size = 9
	}
	s.openingDone = [2]bool{}
}

// turnBudget is the squares a player may move in a turn that is not an
// opening one (1893 Rule 3: 5, 4 or 3 as he has more than 4, 4 or fewer
// than 4 men).
func (s *State) turnBudget(p int) int8 {
	n := s.men[p].count()
	switch {
	case n > 4:
		return 5
	case n == 4:
		return 4
	}
	return 3
}

// budgetFor returns the squares p may move in the turn he begins.
func (s *State) budgetFor(p int8) int8 {
	if s.opening {
		return 2 // 1881 Rule 4, 1893 Rule 3
	}
	switch s.g.Rules.Version {
	case V1879Jan: // Rule 3: 6; Rule 4: his men in the last rendezvous, and one
		return s.budgets[p]
	case V1879Mar: // Rule 4: as many as the men of the one who has fewest
		return int8(min(s.men[Black].count(), s.men[White].count()))
	case V1880Oct, V1880Dec, V1881: // as many as he has men
		return int8(s.men[p].count())
	}
	return s.turnBudget(int(p))
}

// startTurn gives the move to p.
func (s *State) startTurn(p int8) {
	s.phase = PhaseMove
	s.toAct = p
	s.moved, s.movedAny = 0, false
	r := &s.g.Rules
	s.opening = false
	if r.OpeningEachPlayer {
		s.opening = !s.openingDone[p]
	} else {
		s.opening = !s.openingDone[0] && !s.openingDone[1]
	}
	s.openingDone[p] = true
	if r.Version < V1881 {
		s.opening = false // no 2-square opening turn before 1881
	}
	s.budget = s.budgetFor(p)
	s.lone = NoSquare
	if out := s.men[p] &^ s.rdv; out.count() == 1 {
		s.lone = Square(trailing(out))
	}
}

func trailing(b Bitboard) int {
	if b == 0 {
		return -1
	}
	return bits.TrailingZeros64(uint64(b))
}

// endTurn passes the move to the other player.
func (s *State) endTurn() {
	s.noProgress++
	if lim := s.g.Rules.NoProgress; lim > 0 && int(s.noProgress) >= lim {
		s.stalled(fmt.Sprintf("%d turns without progress", lim))
		return
	}
	s.startTurn(1 - s.toAct)
}

// progress marks an irreversible event: earlier states cannot recur.
func (s *State) progress() {
	s.noProgress = 0
	s.hashes, s.seen = s.hashes[:0], hashFilter{}
}

// remember adds h to the hashes since the last progress.
func (s *State) remember(h uint64) {
	s.hashes = append(s.hashes, h)
	s.seen.add(h)
}

// hashFilter is a set of 1,024 bits, one for each hash by its low bits:
// most positions that have not come before are told so by one bit, not a
// scan of the hashes since the last progress (a quarter of a playout's
// time under 1893's rules, which draw on a threefold repetition).
type hashFilter [16]uint64

func (f *hashFilter) add(h uint64) { f[h>>6&15] |= 1 << (h & 63) }

func (f *hashFilter) has(h uint64) bool { return f[h>>6&15]&(1<<(h&63)) != 0 }

// stalled ends a stalled game in a draw (A9) or, under 1879-03's
// stalled_round=replay, sets the men again for a new round.
func (s *State) stalled(reason string) {
	if s.g.Rules.Version == V1879Mar && s.g.Rules.ReplayStalled {
		s.progress()
		s.clearTurn()
		s.first = 1 - s.placer
		s.startSetting(1 - s.placer)
		return
	}
	s.finish(-1, reason)
	s.result.History = true
}

func (s *State) finish(winner int, reason string) {
	s.over = true
	s.phase, s.toAct = PhaseOver, -2
	s.result = game.Result{Winner: game.Player(winner), Reason: reason}
}

// cap returns the most squares the man on from may move now.
func (s *State) cap(from Square) int8 {
	p := int(s.toAct)
	lone := false
	if s.g.Rules.CapAtStart {
		lone = from == s.lone
	} else {
		out := s.men[p] &^ s.rdv
		lone = out == bitOf(from)
	}
	if lone || s.budget < 3 || s.g.Rules.old() {
		return s.budget
	}
	return 3
}

// Reset makes s a copy of from, which must be a Lanrick state, reusing
// s's buffers; it implements game.Resetter.
func (s *State) Reset(other game.State) {
	from := other.(*State)
	h, a := s.hashes, s.actions
	*s = *from
	s.hashes = append(h[:0], from.hashes...)
	s.actions = append(a[:0], from.actions...)
}

// TurnStart reports whether the player to act is at the start of a turn
// of man-moves, none made yet.
func (s *State) TurnStart() bool { return s.phase == PhaseMove && !s.movedAny && !s.over }

// Opening reports whether the turn is a rendezvous' 2-square opening turn.
func (s *State) Opening() bool { return s.opening }

// Budget returns the squares left in the turn.
func (s *State) Budget() int { return int(s.budget) }

// Setter returns the player who set the current mark, or -1.
func (s *State) Setter() int { return int(s.setter) }

// RendezvousWinner returns the player who won a rendezvous by the last
// action, or -1 where it won none.
func (s *State) RendezvousWinner() int { return int(s.wonBy) - 1 }
