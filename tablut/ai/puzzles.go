package ai

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/tablut"
)

// Tablut's puzzles are positions of real games (games played by a cautious
// player of Muster's, below) where the side to move wins in two of its
// turns whatever the other does: a move after which every reply allows a
// winning move (the king's escape or his capture). The oracle proves them
// by searching every move and every reply; it knows a position exactly
// where the side to move wins at once, loses at once whatever it does, or
// wins in two turns, and nothing elsewhere.

// oracle is the exact value of a Tablut position within two turns of its
// end, for the puzzles' verdicts.
func oracle(s game.State) (search.Result, bool) {
	ts, ok := s.(*tablut.State)
	if !ok || ts.IsTerminal() {
		return search.Result{}, false
	}
	start := time.Now()
	c := ts.Copy()
	proved := func(m tablut.Move, v, turns int) (search.Result, bool) {
		o := float64(v)
		return search.Result{Kind: search.Verdict, Action: game.Action(m), PV: []game.Action{game.Action(m)}, Value: o, Proven: v, Turns: turns,
			Exact: true, Lo: o, Hi: o, Elapsed: time.Since(start), Source: "a search of every move and reply"}, true
	}
	if m, ok := winNow(c); ok {
		return proved(m, 1, 1)
	}
	if m, ok := losesNow(c); ok {
		return proved(m, -1, 2)
	}
	if m, ok := winInTwo(c); ok {
		return proved(m, 1, 3)
	}
	return search.Result{}, false
}

// winNow finds a move of the side to move that wins the game at once.
func winNow(s *tablut.State) (tablut.Move, bool) {
	var buf [tablut.MaxMoves]tablut.Move
	mover := s.ToAct()
	for _, m := range s.LegalMoves(buf[:0]) {
		s.ApplyMove(m)
		won := s.IsTerminal() && s.Returns()[mover] > 0
		s.Undo()
		if won {
			return m, true
		}
	}
	return 0, false
}

// losesNow reports whether every move of the side to move lets the other
// win at once (and returns one of them); a move that ends the game
// otherwise does not.
func losesNow(s *tablut.State) (tablut.Move, bool) {
	var buf [tablut.MaxMoves]tablut.Move
	moves := s.LegalMoves(buf[:0])
	if len(moves) == 0 {
		return 0, false
	}
	mover := s.ToAct()
	for _, m := range moves {
		s.ApplyMove(m)
		lost := false
		if s.IsTerminal() {
			lost = s.Returns()[mover] < 0
		} else {
			_, lost = winNow(s)
		}
		s.Undo()
		if !lost {
			return 0, false
		}
	}
	return moves[0], true
}

// winInTwo finds a move of the side to move after which the other loses
// at once whatever it does (or which wins at once).
func winInTwo(s *tablut.State) (tablut.Move, bool) {
	var buf [tablut.MaxMoves]tablut.Move
	for _, m := range s.LegalMoves(buf[:0]) {
		if winsInTwo(s, m) {
			return m, true
		}
	}
	return 0, false
}

// winsInTwo reports whether move m of the side to move wins at once, or
// leaves the other losing at once whatever it does.
func winsInTwo(s *tablut.State, m tablut.Move) bool {
	mover := s.ToAct()
	s.ApplyMove(m)
	defer s.Undo()
	if s.IsTerminal() {
		return s.Returns()[mover] > 0
	}
	_, lost := losesNow(s)
	return lost
}

// winningMoves counts the moves of the side to move that win in two
// turns, and its moves in all: the fewer the first among the second, the
// harder the puzzle.
func winningMoves(s *tablut.State) (int, int) {
	var buf [tablut.MaxMoves]tablut.Move
	moves := s.LegalMoves(buf[:0])
	n := 0
	for _, m := range moves {
		if winsInTwo(s, m) {
			n++
		}
	}
	return n, len(moves)
}

// themesOf names what a puzzle of s (the side to move winning in two) is
// about: how its wins end, the king's escape or his capture, and a
// tuichu where the winning move opens two lines for the king.
func themesOf(s *tablut.State) []string {
	m, _ := winInTwo(s)
	mover := s.ToAct()
	s.ApplyMove(m)
	defer s.Undo()
	var themes []string
	if pos := s.Position(); !s.IsTerminal() && mover == game.Player(tablut.Defenders) &&
		s.Game().(*tablut.Game).Rules.EscapeRoutes(&pos) >= 2 {
		themes = append(themes, "tuichu")
	}
	escape, capture := false, false
	var buf [tablut.MaxMoves]tablut.Move
	for _, r := range s.LegalMoves(buf[:0]) {
		s.ApplyMove(r)
		if !s.IsTerminal() {
			e, c := winsNowBy(s, mover)
			escape, capture = escape || e, capture || c
		}
		s.Undo()
	}
	if escape {
		themes = append(themes, "escape")
	}
	if capture {
		themes = append(themes, "king capture")
	}
	return themes
}

// winsNowBy says how mover, to move in s, can win at once: by the king's
// escape, by his capture.
func winsNowBy(s *tablut.State, mover game.Player) (escape, capture bool) {
	var buf [tablut.MaxMoves]tablut.Move
	for _, w := range s.LegalMoves(buf[:0]) {
		s.ApplyMove(w)
		if s.IsTerminal() && s.Returns()[mover] > 0 {
			reason := s.Result().Reason
			escape = escape || strings.Contains(reason, "escape")
			capture = capture || strings.Contains(reason, "captured")
		}
		s.Undo()
	}
	return escape, capture
}

// cautiousMove is the move of a careful beginner: one that wins at once
// if there is one, else one after which the other cannot win at once,
// chosen at random (any move where none is safe).
func cautiousMove(s *tablut.State, rng *rand.Rand) tablut.Move {
	if m, ok := winNow(s); ok {
		return m
	}
	var buf [tablut.MaxMoves]tablut.Move
	moves := s.LegalMoves(buf[:0])
	rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	for _, m := range moves {
		s.ApplyMove(m)
		_, loses := winNow(s)
		over := s.IsTerminal()
		s.Undo()
		if !loses || over {
			return m
		}
	}
	return moves[0]
}

// GeneratePuzzles plays games of linnaeus between two cautious players
// (seed makes them repeatable) and keeps, of each game, the first
// position where the side to move wins in two turns but not in one: at
// most n puzzles, easiest first.
func GeneratePuzzles(n int, seed uint64) []agent.Puzzle {
	g := tablut.MustLoad("linnaeus")
	rng := rand.New(rand.NewPCG(seed, 1732))
	var out []agent.Puzzle
	seen := map[string]bool{}
	for games := 0; len(out) < n && games < 50*n; games++ {
		s := g.Start()
		for ply := 0; ply < 200 && !s.IsTerminal(); ply++ {
			if _, now := winNow(s); !now && ply > 4 {
				if _, ok := winInTwo(s); ok {
					pos := s.String()
					if !seen[pos] {
						seen[pos] = true
						good, all := winningMoves(s)
						side := g.PlayerName(s.ToAct())
						themes := themesOf(s)
						out = append(out, agent.Puzzle{
							ID: fmt.Sprintf("tablut-%d-%d", seed, len(out)+1), Spec: g.Spec(), Position: pos, Side: side, Turns: 2,
							// From 700 for a puzzle every move solves, 170 more
							// for each halving of the winning moves' share.
							Rating:  700 + int(math.Round(170*math.Log2(float64(all)/float64(max(good, 1))))),
							Context: fmt.Sprintf("Linnaeus's Tablut, from a game of Muster's: the %s to play and win in 2 turns, whatever the other side does (%d of %d moves win).", side, good, all),
							Themes:  themes,
						})
					}
					break
				}
			}
			s.ApplyMove(cautiousMove(s, rng))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rating < out[j].Rating })
	return out
}

//go:embed puzzles.json
var puzzlesJSON []byte

// puzzles gives the puzzles generated once (GeneratePuzzles(60, 1), kept
// in puzzles.json: TestPuzzlesFile proves each again, and with -update
// writes the file anew), the n easiest; seed is not used.
func puzzles(n int, seed uint64) ([]agent.Puzzle, error) {
	var ps []agent.Puzzle
	if err := json.Unmarshal(puzzlesJSON, &ps); err != nil {
		return nil, fmt.Errorf("tablut: puzzles.json: %w", err)
	}
	if n < len(ps) {
		ps = ps[:n]
	}
	return ps, nil
}
