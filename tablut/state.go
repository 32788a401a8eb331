package tablut

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/muster-games/muster/game"
)

// MaxMoves bounds the number of legal moves in any position: each of at
// most 25 men slides along one rank and one file of 9 squares.
const MaxMoves = 25 * 16

// Game is Tablut under one ruleset with its options. It implements
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

// Load builds Tablut under a ruleset ("" for the default, linnaeus) with
// option settings on top.
func Load(ruleset string, opts ...game.KV) (*Game, error) {
	id, values, err := Info.Resolve(ruleset, opts)
	if err != nil {
		return nil, err
	}
	g := &Game{ruleset: id, values: values, Rules: compile(values)}
	g.spec = game.Spec{Name: Info.Name, Ruleset: g.ruleset, Options: Info.Diff(g.ruleset, g.values)}.String()
	return g, nil
}

// MustLoad is Load for rulesets known to be valid; it panics on error.
func MustLoad(ruleset string, opts ...game.KV) *Game {
	g, err := Load(ruleset, opts...)
	if err != nil {
		panic(err)
	}
	return g
}

// Ruleset is the id of the preset the game starts from.
func (g *Game) Ruleset() string { return g.ruleset }

// Option returns the value of a named option.
func (g *Game) Option(key string) string { return g.values[key] }

func (g *Game) Name() string    { return Info.Name }
func (g *Game) NumPlayers() int { return 2 }
func (g *Game) MaxActions() int { return MaxMoves }

func (g *Game) Spec() string { return g.spec }

func (g *Game) PlayerName(p game.Player) string {
	switch p {
	case game.Player(Attackers):
		return "attackers"
	case game.Player(Defenders):
		return "defenders"
	}
	return fmt.Sprintf("player %d", p)
}

func (g *Game) ParsePlayer(s string) (game.Player, error) {
	switch strings.ToLower(s) {
	case "attackers", "attacker", "black", "muscovites":
		return game.Player(Attackers), nil
	case "defenders", "defender", "white", "swedes":
		return game.Player(Defenders), nil
	}
	return 0, fmt.Errorf("tablut: %w: unknown side %q (known: attackers, defenders)", game.ErrSyntax, s)
}

func (g *Game) SplitActions(text string) []string { return strings.Fields(text) }

// NewState returns the start position with the ruleset's first mover.
func (g *Game) NewState() game.State { return g.Start() }

// Start returns the start position as a concrete *State.
func (g *Game) Start() *State {
	s, err := g.Parse(StartOTN + " " + g.Rules.First.String())
	if err != nil {
		panic(err)
	}
	return s
}

func (g *Game) ParseState(text string) (game.State, error) {
	s, err := g.Parse(text)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// frame is what undo restores. It holds no pointer (a copy is a plain
// copy of memory): an action is only ever applied to a game not over, so
// undo brings back a game going on, with no result.
type frame struct {
	pos       Position
	lastIrrev int
	passes    int
}

// State is a Tablut game in progress: the position with the history the
// repetition rules need. It implements game.State.
type State struct {
	g   *Game
	pos Position
	// hashes holds the hash of every position since the start, the
	// current one last; positions before lastIrrev (the last capture)
	// can never recur.
	hashes    []uint64
	lastIrrev int
	passes    int // consecutive passes
	actions   []game.Action
	undo      []frame
	over      bool
	result    game.Result
}

// Position returns the current position (a copy).
func (s *State) Position() Position { return s.pos }

func (s *State) Game() game.Game { return s.g }

func (s *State) ToAct() game.Player {
	if s.over {
		return game.Terminal
	}
	return game.Player(s.pos.toMove)
}

func (s *State) IsTerminal() bool       { return s.over }
func (s *State) Result() game.Result    { return s.result }
func (s *State) Hash() uint64           { return s.pos.hash }
func (s *State) History() []game.Action { return s.actions }

// Ply is the number of actions played since the state was made.
func (s *State) Ply() int { return len(s.actions) }

func (s *State) Returns() []float64 {
	r := []float64{0, 0}
	if s.over && s.result.Winner >= 0 {
		r[s.result.Winner] = 1
		r[1-s.result.Winner] = -1
	}
	return r
}

func (s *State) ChanceOutcomes(dst []game.Outcome) []game.Outcome { return dst }

// Clone returns an independent copy.
func (s *State) Clone() game.State { return s.Copy() }

// Copy is Clone with the concrete type.
func (s *State) Copy() *State {
	c := *s
	// Room for the move that is mostly played next on a copy (a game's
	// room copies its state for each move), which would copy the lists
	// again, twice as long.
	c.hashes = append(make([]uint64, 0, len(s.hashes)+1), s.hashes...)
	c.actions = append(make([]game.Action, 0, len(s.actions)+1), s.actions...)
	c.undo = append(make([]frame, 0, max(len(s.undo), 1)), s.undo...)
	return &c
}

// Fork returns a copy to play on that shares the lists of hashes and
// actions s holds (game.Forker): the fork's moves are appended past their
// end, which s never reads, and a second fork's over the first's. It has
// no undo frame until it plays (Apply writes the one it keeps; the frames
// of s stay its own). A game's room copied its state for each move: at
// ply 30 of a Tablut game, 1.5 KB a move, 18% of what a server allocated
// at 1,000 live games.
// A state released before (Release) is used again where there is one:
// with its own list of undo frames, the copy and the frame its move keeps
// were two fifths of what a server allocated at 1,000 live games.
func (s *State) Fork() game.State {
	c, _ := released.Get().(*State)
	if c == nil {
		c = new(State)
	}
	undo := c.undo[:0]
	*c = *s
	c.undo = undo
	return c
}

// Release gives s to a later Fork to use again (game.Releaser): its
// holder never reads s again, nor any list it returned but its history.
func (s *State) Release() {
	*s = State{undo: s.undo[:0]}
	released.Put(s)
}

// released are the states released, for Fork.
var released sync.Pool

// LegalMoves appends the legal moves (or the forced pass) to dst.
func (s *State) LegalMoves(dst []Move) []Move {
	if s.over {
		return dst
	}
	r := &s.g.Rules
	n := len(dst)
	dst = r.GenMoves(&s.pos, dst)
	if s.mustVary() {
		dst = s.filterVary(dst, n)
	}
	if len(dst) == n && r.NoMoves == NoMovesPass {
		dst = append(dst, Pass)
	}
	return dst
}

// mustVary reports whether Cartier's rule may forbid some attacker move
// here: only when some position since the last capture occurred twice.
func (s *State) mustVary() bool {
	if s.g.Rules.Repetition != RepAttackerVary || s.pos.toMove != Attackers {
		return false
	}
	w := s.hashes[s.lastIrrev:]
	if len(w) < 5 {
		return false
	}
	for i, x := range w {
		for _, y := range w[i+1:] {
			if x == y {
				return true
			}
		}
	}
	return false
}

// filterVary drops the attacker moves from dst[n:] that would make a
// position occur for the third time (Cartier's rule).
func (s *State) filterVary(dst []Move, n int) []Move {
	out := dst[:n]
	for _, m := range dst[n:] {
		p := s.pos
		caps, _ := s.g.Rules.Apply(&p, m)
		if caps.N > 0 || s.childOccurrences(p.hash) < 2 {
			out = append(out, m)
		}
	}
	return out
}

// occurrences counts the positions since the last capture with hash h,
// the current one among them: those with its side to move, every other
// one back from it (each action passes the turn).
func (s *State) occurrences(h uint64) int { return s.seen(h, len(s.hashes)-1) }

// childOccurrences is occurrences for h, the hash of a position one
// action on from the current one, before it is played.
func (s *State) childOccurrences(h uint64) int { return s.seen(h, len(s.hashes)-2) }

// seen counts h among the hashes at last, last−2, … back to the last
// capture.
func (s *State) seen(h uint64, last int) int {
	n := 0
	for i := last; i >= s.lastIrrev; i -= 2 {
		if s.hashes[i] == h {
			n++
		}
	}
	return n
}

func (s *State) LegalActions(dst []game.Action) []game.Action {
	var buf [MaxMoves]Move
	for _, m := range s.LegalMoves(buf[:0]) {
		dst = append(dst, game.Action(m))
	}
	return dst
}

// IsLegal reports whether m is legal here.
func (s *State) IsLegal(m Move) bool {
	if s.over {
		return false
	}
	r := &s.g.Rules
	if m == Pass {
		return r.NoMoves == NoMovesPass && !s.hasLegalMove()
	}
	if !r.IsMove(&s.pos, m) {
		return false
	}
	if s.mustVary() {
		var one [1]Move
		return len(s.filterVary(append(one[:0], m), 0)) == 1
	}
	return true
}

func (s *State) hasLegalMove() bool {
	r := &s.g.Rules
	if s.mustVary() {
		var buf [MaxMoves]Move
		return len(s.filterVary(r.GenMoves(&s.pos, buf[:0]), 0)) > 0
	}
	return r.HasMove(&s.pos)
}

func (s *State) Play(a game.Action) error {
	m := Move(a)
	if !s.IsLegal(m) {
		if s.over {
			return fmt.Errorf("tablut: %w %s: the game is over", game.ErrIllegal, m)
		}
		return fmt.Errorf("tablut: %w %s", game.ErrIllegal, m)
	}
	s.Apply(a)
	return nil
}

// Apply plays a legal action without checking it, keeping the undo frame
// of this action alone (what Events reads; a frame holds the whole
// position, and a game in play never takes a move back by Undo): after
// Apply, Undo takes back this action and no more.
func (s *State) Apply(a game.Action) {
	s.undo = append(s.undo[:0], frame{s.pos, s.lastIrrev, s.passes})
	s.play(Move(a))
}

// ApplyMove plays a legal move without checking it and decides whether the
// game is over; Undo takes it back.
func (s *State) ApplyMove(m Move) {
	s.undo = append(s.undo, frame{s.pos, s.lastIrrev, s.passes})
	s.play(m)
}

// play plays m and decides whether the game is over.
func (s *State) play(m Move) {
	if s.move(m) && !s.hasLegalMove() {
		s.noMoves()
	}
}

// move plays m and decides every end but that of a side left without a
// move; it reports whether the game goes on so far (that end is then
// still to be judged).
func (s *State) move(m Move) bool {
	r := &s.g.Rules
	s.actions = append(s.actions, game.Action(m))
	mover := s.pos.toMove
	caps, kingTaken := r.Apply(&s.pos, m)
	if caps.N > 0 {
		s.lastIrrev = len(s.hashes)
	}
	if m == Pass {
		s.passes++
	} else {
		s.passes = 0
	}
	s.hashes = append(s.hashes, s.pos.hash)
	switch {
	case kingTaken:
		s.end(Attackers, reasonKingCaptured)
	case m != Pass && s.pos.board[m.To()] == King && m.To().OnEdge():
		s.end(Defenders, reasonKingEscaped)
	default:
		return !s.judgeButMoves(mover)
	}
	return false
}

// judge decides the end of the game after a move by mover, or in a parsed
// position (mover is then the side not to move).
func (s *State) judge(mover Side) {
	if !s.judgeButMoves(mover) && !s.hasLegalMove() {
		s.noMoves()
	}
}

// judgeButMoves decides every end but that of a side without a move, in
// judge's order, and reports whether the game is over.
func (s *State) judgeButMoves(mover Side) bool {
	r := &s.g.Rules
	switch {
	case s.pos.king >= 0 && s.pos.king.OnEdge():
		s.end(Defenders, reasonKingEscaped)
	case r.Encirclement && mover == Attackers && s.pos.Enclosed():
		s.end(Attackers, "defenders enclosed")
	case s.passes >= 2:
		s.end(-1, "neither side can move")
	case r.Repetition == RepFirst && s.occurrences(s.pos.hash) >= 2:
		s.end(-1, "repeated position")
		s.result.History = true
	case r.Repetition == RepThird && s.occurrences(s.pos.hash) >= 3:
		s.end(-1, "threefold repetition")
		s.result.History = true
	case r.TurnLimit > 0 && len(s.actions) >= r.TurnLimit:
		s.end(-1, fmt.Sprintf("turn limit of %d", r.TurnLimit))
		s.result.History = true
	default:
		return false
	}
	return true
}

// noMoves ends the game of a side to move that has no move, where the
// rules end it (where they make it pass, the pass is its move).
func (s *State) noMoves() {
	switch s.g.Rules.NoMoves {
	case NoMovesLose:
		s.end(1-s.pos.toMove, s.pos.toMove.String()+" cannot move")
	case NoMovesDraw:
		s.end(-1, s.pos.toMove.String()+" cannot move")
	}
}

// Playout plays uniformly random moves until the game ends or maxActions
// are played, and returns the number played (it implements
// game.Playouter). It plays the moves RandomAction and ApplyMove would,
// one for one with the same random numbers, and ends the game as they
// would, but keeps no undo frames (a state cannot Undo into or past a
// playout) and counts the side to move's moves once a move: for the
// random draw and for the end of a side without one.
func (s *State) Playout(rng *rand.Rand, maxActions int) int {
	r := &s.g.Rules
	s.undo = s.undo[:0]
	if r.Repetition == RepAttackerVary {
		n := 0
		for ; !s.over && n < maxActions; n++ {
			s.ApplyMove(Move(s.RandomAction(rng)))
		}
		return n
	}
	if r.byLine && !r.Encirclement {
		return s.playByLine(rng, maxActions)
	}
	n := 0
	for !s.over {
		var counts *[2 * Size]uint8
		var c int
		if r.byLine {
			counts, c = r.countLines(&s.pos)
		} else {
			c = r.CountMoves(&s.pos)
		}
		if c == 0 && r.NoMoves != NoMovesPass {
			s.noMoves()
			break
		}
		if n >= maxActions {
			break
		}
		m := Pass
		switch {
		case c == 0:
		case r.byLine:
			m = r.pickLine(&s.pos, counts, rng.IntN(c))
		default:
			m = r.NthMove(&s.pos, rng.IntN(c))
		}
		s.move(m)
		n++
	}
	return n
}

func (s *State) end(winner Side, reason string) {
	s.over = true
	s.result = game.Result{Winner: game.Player(winner), Reason: reason}
}

// Undo takes back the last action. It reports false when there is none.
func (s *State) Undo() bool {
	n := len(s.undo)
	if n == 0 {
		return false
	}
	f := s.undo[n-1]
	s.undo = s.undo[:n-1]
	s.pos, s.lastIrrev, s.passes, s.over, s.result = f.pos, f.lastIrrev, f.passes, false, game.Result{}
	s.hashes = s.hashes[:len(s.hashes)-1]
	s.actions = s.actions[:len(s.actions)-1]
	return true
}

// RandomAction draws a legal move uniformly at random without listing the
// moves (it implements game.RandomActor).
func (s *State) RandomAction(rng *rand.Rand) game.Action {
	r := &s.g.Rules
	if s.mustVary() {
		var buf [MaxMoves]Move
		moves := s.LegalMoves(buf[:0])
		return game.Action(moves[rng.IntN(len(moves))])
	}
	if r.byLine {
		counts, n := r.countLines(&s.pos)
		if n == 0 {
			return game.Action(Pass)
		}
		return game.Action(r.pickLine(&s.pos, counts, rng.IntN(n)))
	}
	n := r.CountMoves(&s.pos)
	if n == 0 {
		return game.Action(Pass)
	}
	return game.Action(r.NthMove(&s.pos, rng.IntN(n)))
}

// Reset makes s a copy of from, which must be a Tablut state, reusing s's
// buffers (no allocation once they are large enough). It implements
// game.Resetter. The copy cannot Undo past the point it was made from:
// the undo frames are not copied (a search never needs them).
func (s *State) Reset(other game.State) {
	from := other.(*State)
	hashes, actions, undo := s.hashes, s.actions, s.undo
	*s = *from
	s.hashes = append(hashes[:0], from.hashes[from.lastIrrev:]...)
	s.lastIrrev = 0
	s.actions = append(actions[:0], from.actions...)
	s.undo = undo[:0]
}

// ToMove returns the side to move.
func (s *State) ToMove() Side { return s.pos.toMove }

// At returns the piece on a square.
func (s *State) At(q Square) Piece { return s.pos.board[q] }
