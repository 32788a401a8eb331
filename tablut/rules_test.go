package tablut

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

// rulesets are every ruleset id of docs/tablut-rules.md.
var rulesets = []string{"linnaeus", "ludii-linnaeus", "ludii-smith", "walker", "cartier", "opentafl", "foteviken", "ashton"}

// setup builds a position from a list such as "K e5; A e6 d5 f5; D e4",
// with side to move.
func setup(t testing.TB, g *Game, pieces string, toMove Side) *State {
	t.Helper()
	var board [Squares]byte
	for _, group := range strings.Split(pieces, ";") {
		f := strings.Fields(group)
		if len(f) == 0 {
			continue
		}
		c := map[string]byte{"A": 't', "D": 'T', "K": 'K'}[f[0]]
		for _, name := range f[1:] {
			s, err := ParseSquare(name)
			if err != nil {
				t.Fatal(err)
			}
			board[s] = c
		}
	}
	var b strings.Builder
	b.WriteByte('/')
	for rank := 0; rank < Size; rank++ {
		empty := 0
		for file := 0; file < Size; file++ {
			c := board[sq(file, rank)]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		b.WriteByte('/')
	}
	s, err := g.Parse(b.String() + " " + toMove.String())
	if err != nil {
		t.Fatalf("setup %q: %v", pieces, err)
	}
	return s
}

// outcome describes what a move did, in the words of the scenario table:
// "illegal", "legal", "K✝" (king captured), "win" (king escaped), "-" (no
// capture), or "cap" followed by the captured squares.
func outcome(t testing.TB, s *State, move string) string {
	t.Helper()
	m, err := s.ParseMove(move)
	if err != nil {
		return "illegal"
	}
	before := s.pos
	s.ApplyMove(m)
	switch {
	case s.over && s.result.Reason == "king captured":
		return "K✝"
	case s.over && s.result.Reason == "king escaped":
		return "win"
	}
	var caps []string
	for sq := Square(0); sq < Squares; sq++ {
		if before.board[sq] != Empty && s.pos.board[sq] == Empty && sq != m.From() {
			caps = append(caps, sq.String())
		}
	}
	if len(caps) == 0 {
		return "-"
	}
	sort.Strings(caps)
	return "cap " + strings.Join(caps, " ")
}

// column maps our ruleset ids to the columns of docs/tablut-rules.md §8.1. The
// default linnaeus and cartier behave as walker except T14 (nobody may
// cross the empty castle).
var column = map[string]int{"ludii-linnaeus": 0, "ludii-smith": 1, "walker": 2, "opentafl": 3, "ashton": 4, "foteviken": 5, "linnaeus": 2, "cartier": 2}

// scenario is one row of §8.1: the pieces, the move, and the expected
// outcome in the columns ludii-linnaeus, ludii-smith, walker, opentafl,
// ashton, foteviken ("=" repeats the first column).
type scenario struct {
	id, rule, pieces, move string
	want                   [6]string
}

var scenarios = []scenario{
	// Linnaeus rule 10: "si quatuor hostes in 2 tum rex captus est" — with
	// four enemies on the squares beside the castle, the king is taken.
	{"T1", "KingOnCastleTakenByFour", "K e5; A e6 d5 f5 e3", "e3-e4", [6]string{"K✝", "K✝", "K✝", "K✝", "K✝", "K✝"}},
	// Rule 10, the Linnaean capture: with the king in the castle and three
	// attackers beside it, a defender on the fourth square is killed
	// between the king and an attacker.
	{"T2", "LinnaeanCapture", "K e5; A e6 d5 f5 e2; D e4", "e2-e3", [6]string{"cap e4", "cap e4", "cap e4", "cap e4", "cap e4", "-"}},
	// Rule 14: "Arx potest intercludere" — read literally (Ludii, Bologna)
	// the castle is hostile even with the king in it.
	{"T3", "OccupiedCastleHostile", "K e5; D e4; A c3", "c3-e3", [6]string{"cap e4", "cap e4", "-", "-", "cap e4", "-"}},
	// Rule 11: "Si Rex in 2, tum hostes 3" — beside the castle the king is
	// taken by three enemies and the castle.
	{"T4", "KingBesideCastleTakenByThree", "K e4; A d4 f4 e2", "e2-e3", [6]string{"K✝", "K✝", "K✝", "K✝", "K✝", "K✝"}},
	{"T5", "KingBesideCastleNotTakenByTwo", "K e4; A d4 h4", "h4-f4", [6]string{"-", "-", "-", "-", "-", "-"}},
	// Rule 9: "si quis hostem 1 inter 2 … est occisus … item Rex" — away
	// from the castle the king is taken by two, except in the four-sided
	// readings (Smith, Foteviken).
	{"T6", "KingTakenByTwoAwayFromCastle", "K c3; A b3 d7", "d7-d3", [6]string{"K✝", "-", "K✝", "K✝", "K✝", "-"}},
	{"T7", "KingTakenByFour", "K c3; A b3 c2 c4 d7", "d7-d3", [6]string{"K✝", "K✝", "K✝", "K✝", "K✝", "K✝"}},
	{"T8", "KingTakenByTwoNearEdge", "K d2; A d1 d7", "d7-d3", [6]string{"K✝", "-", "K✝", "K✝", "K✝", "-"}},
	// Bologna: a camp square serves as the second captor of the king.
	{"T8b", "CampIsAnvilAgainstKing", "K d2; A d7", "d7-d3", [6]string{"-", "-", "-", "-", "K✝", "-"}},
	// Rule 14: the empty castle is hostile, to attackers and defenders.
	{"T9", "EmptyCastleHostileToAttacker", "K h8; A d5; D c8", "c8-c5", [6]string{"cap d5", "cap d5", "cap d5", "cap d5", "cap d5", "-"}},
	{"T9b", "EmptyCastleHostileToDefender", "K h8; D d5; A c8", "c8-c5", [6]string{"cap d5", "cap d5", "cap d5", "cap d5", "cap d5", "-"}},
	// Custodial capture is made by the moving piece only: moving between
	// two enemies is safe.
	{"T10", "MovingIntoSandwichIsSafe", "K g7; A c4 e4; D d7", "d7-d4", [6]string{"-", "-", "-", "-", "-", "-"}},
	{"T11", "TripleCapture", "K g7; A c4 e4 d3; D b4 f4 d2 d8", "d8-d4", [6]string{"cap c4 d3 e4", "=", "=", "=", "=", "="}},
	// Rule 9's "quis" (anyone): the king is armed, as hammer and anvil.
	{"T12", "KingIsHammer", "A d6; D e6; K c8", "c8-c6", [6]string{"cap d6", "=", "=", "=", "=", "="}},
	{"T13", "KingIsAnvil", "A d6; K c6; D g6", "g6-e6", [6]string{"cap d6", "=", "=", "=", "=", "="}},
	// Rule 1: "arx regia … cui nullus succedere potest" — whether the empty
	// castle may be crossed is not said; the rulesets differ.
	{"T14", "CrossingEmptyCastle", "K h8; D c5", "c5-g5", [6]string{"illegal", "illegal", "legal", "legal", "illegal", "illegal"}},
	{"T15", "KingMayNotReenterCastle", "K e3", "e3-e5", [6]string{"illegal", "illegal", "illegal", "illegal", "illegal", "illegal"}},
	// Rules 3–4: the king who reaches the edge gets out; the battle is over.
	{"T16", "EdgeEscapeWins", "K c3", "c3-c1", [6]string{"win", "win", "win", "win", "win", "win"}},
	// Bologna: camps are hostile; against black, all but the four central
	// camps e1 a5 i5 e9.
	{"T17a", "CampIsAnvilAgainstAttacker", "K g7; A b4; D d4", "d4-c4", [6]string{"-", "-", "-", "-", "cap b4", "-"}},
	{"T17b", "CentralCampNotHostileToAttacker", "K g7; A a4; D c3", "c3-a3", [6]string{"-", "-", "-", "-", "-", "-"}},
	{"T17c", "CampIsAnvilAgainstDefender", "K g7; D a3; A a1", "a1-a2", [6]string{"-", "-", "-", "-", "cap a3", "-"}},
	// Camps and forts: only a piece that starts its move in one may stop on
	// or cross one; Bologna forbids camp-to-camp moves longer than 5.
	{"T18b", "NoReentryIntoCamp", "K g7; A a3", "a3-a4", [6]string{"legal", "legal", "legal", "legal", "illegal", "illegal"}},
	{"T18c", "CampToFarCamp", "K g7; A a4", "a4-i4", [6]string{"legal", "legal", "legal", "legal", "illegal", "legal"}},
	{"T18d", "MoveInsideOwnCamp", "K g7; A e2", "e2-e1", [6]string{"legal", "legal", "legal", "legal", "legal", "legal"}},
	{"T19", "NoCrossingEmptyCamp", "K g7; D c5", "c5-a5", [6]string{"legal", "legal", "legal", "legal", "illegal", "illegal"}},
	{"T20", "KingBesideCastleThreePlusCastle", "K d5; A d6 d4 c8", "c8-c5", [6]string{"K✝", "K✝", "K✝", "K✝", "K✝", "K✝"}},
}

// TestScenarios runs every row of docs/tablut-rules.md §8.1 under every ruleset.
func TestScenarios(t *testing.T) {
	for _, sc := range scenarios {
		for _, rs := range rulesets {
			t.Run(sc.id+"_"+sc.rule+"/"+rs, func(t *testing.T) {
				g := MustLoad(rs)
				want := sc.want[column[rs]]
				if want == "=" {
					want = sc.want[0]
				}
				if sc.id == "T14" && (rs == "linnaeus" || rs == "cartier") {
					want = "illegal"
				}
				from, _ := ParseSquare(sc.move[:2])
				mover := sideOn(t, sc.pieces, from.String())
				s := setup(t, g, sc.pieces, mover)
				got := outcome(t, s, sc.move)
				if want == "legal" && got != "illegal" {
					got = "legal"
				}
				if got != want {
					t.Errorf("%s %s under %s: got %s, want %s", sc.pieces, sc.move, rs, got, want)
				}
			})
		}
	}
}

// sideOn returns the side of the piece the scenario puts on square name.
func sideOn(t *testing.T, pieces, name string) Side {
	for _, group := range strings.Split(pieces, ";") {
		f := strings.Fields(group)
		for _, n := range f[1:] {
			if n == name {
				if f[0] == "A" {
					return Attackers
				}
				return Defenders
			}
		}
	}
	t.Fatalf("no piece on %s in %q", name, pieces)
	return 0
}

// TestKingReenterOption: the CS61B reading lets the king come back to the
// castle (T15's legal column), as an option on any ruleset.
func TestKingReenterOption(t *testing.T) {
	g := MustLoad("walker", kv("king_reenter", "yes"))
	s := setup(t, g, "K e3", Defenders)
	if got := outcome(t, s, "e3-e5"); got != "-" {
		t.Fatalf("K e3-e5 with king_reenter=yes: got %s, want a legal move", got)
	}
}

// TestSetup: the start has exactly 16 attackers, 8 defenders and the king
// on e5 (rule 13 "suntque 16"; the DLP record's "19" is a typo, and Ludii's
// duplicate E8 must not add a piece).
func TestSetup(t *testing.T) {
	for _, rs := range rulesets {
		p := MustLoad(rs).Start().pos
		if a, d, k := p.Count(Attacker), p.Count(Defender), p.Count(King); a != 16 || d != 8 || k != 1 {
			t.Errorf("%s: %d attackers, %d defenders, %d kings; want 16, 8, 1", rs, a, d, k)
		}
		if p.King() != Castle {
			t.Errorf("%s: king on %s, want e5", rs, p.King())
		}
		if got := p.OTN(); got != StartOTN {
			t.Errorf("%s: start %s, want %s", rs, got, StartOTN)
		}
	}
}

// TestFirstMover: attackers move first everywhere but Bologna, where white
// (the defenders) does (Server.java: state.setTurn(WHITE)); 80 attacker
// moves or 56 defender moves at the start (§8.2).
func TestFirstMover(t *testing.T) {
	for _, rs := range rulesets {
		s := MustLoad(rs).Start()
		want, moves := Attackers, 80
		if rs == "ashton" {
			want, moves = Defenders, 56
		}
		if s.pos.toMove != want {
			t.Errorf("%s: %s move first, want %s", rs, s.pos.toMove, want)
		}
		var buf [MaxMoves]Move
		if n := len(s.LegalMoves(buf[:0])); n != moves {
			t.Errorf("%s: %d legal moves at the start, want %d", rs, n, moves)
		}
	}
}

// play applies moves given in notation, failing the test on an error.
func play(t *testing.T, s *State, moves string) {
	t.Helper()
	for _, mv := range strings.Fields(moves) {
		m, err := s.ParseMove(mv)
		if err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
		s.ApplyMove(m)
	}
}

// TestRepetition: the 4-ply cycle A a4-a3, D e3-d3, A a3-a4, D d3-e3 from
// the start under each ruleset's repetition rule (§8.2).
func TestRepetition(t *testing.T) {
	const cycle = "a4-a3 e3-d3 a3-a4 d3-e3 "
	cases := []struct {
		ruleset string
		plies   int // the ply after which the game is drawn; 0: never
	}{
		{"ludii-linnaeus", 0}, // no repetition rule
		{"ludii-smith", 0},
		{"walker", 4},    // any repeated position is a draw
		{"linnaeus", 8},  // the third occurrence is a draw
		{"opentafl", 8},  // threefold repetition draws
		{"foteviken", 0}, // forts: a3-a4 re-enters a fort, illegal; tested below
		{"cartier", 0},   // the attackers must vary instead; tested below
	}
	for _, c := range cases {
		if c.ruleset == "foteviken" || c.ruleset == "cartier" {
			continue
		}
		t.Run(c.ruleset, func(t *testing.T) {
			s := MustLoad(c.ruleset).Start()
			moves := strings.Fields(strings.Repeat(cycle, 3))
			for i, mv := range moves {
				if s.over {
					if c.plies == 0 || i != c.plies {
						t.Fatalf("game over after %d plies (%s), want %d", i, s.result.Reason, c.plies)
					}
					if s.result.Winner != -1 {
						t.Fatalf("repetition gave %v, want a draw", s.result)
					}
					return
				}
				play(t, s, mv)
			}
			if c.plies != 0 {
				t.Fatalf("no draw after %d plies, want one after %d", len(moves), c.plies)
			}
		})
	}
	// Bologna: any state repeated since the last capture draws; the
	// defenders move first, so the cycle starts with them.
	t.Run("ashton", func(t *testing.T) {
		s := MustLoad("ashton").Start()
		// An attacker that has left its camp may not go back, so the
		// cycle is a3-a2-a3 after a4-a3.
		// The position after a2-a3 (ply 6) is the one after a4-a3 (ply 2).
		play(t, s, "e3-d3 a4-a3 d3-e3 a3-a2 e3-d3")
		if s.over {
			t.Fatal("over too early")
		}
		play(t, s, "a2-a3")
		if !s.over || s.result.Winner != -1 {
			t.Fatalf("want a draw on the repeated state, got over=%v %v", s.over, s.result)
		}
	})
}

// TestCartierAttackersMustVary: "If a sequence of moves repeats three
// times, the offensive player must vary" — the attackers may not make the
// move that would make a position occur a third time; the defenders may.
func TestCartierAttackersMustVary(t *testing.T) {
	s := MustLoad("cartier").Start()
	play(t, s, "a4-a3 e3-d3 a3-a4 d3-e3 a4-a3 e3-d3 a3-a4 d3-e3")
	if s.over {
		t.Fatalf("cartier has no draw by repetition, but the game ended: %s", s.result.Reason)
	}
	if _, err := s.ParseMove("a4-a3"); err == nil {
		t.Fatal("a4-a3 would make a position a third time; want it refused")
	}
	if _, err := s.ParseMove("a4-a2"); err != nil {
		t.Fatalf("a4-a2 is new and must be legal: %v", err)
	}
}

// TestNoLegalMoves: a side that cannot move loses (linnaeus, cartier,
// opentafl, foteviken, ashton), draws (walker), or passes, and two passes
// in a row draw (Ludii's forced pass).
func TestNoLegalMoves(t *testing.T) {
	// The king on b2 and his four defenders are walled in by attackers.
	const pieces = "K b2; D a2 b1 c2 b3; A a1 a3 c1 d2 c3 b4 i9"
	cases := map[string]string{
		"linnaeus": "attackers", "cartier": "attackers", "opentafl": "attackers",
		"foteviken": "attackers", "ashton": "attackers",
		"walker": "draw", "ludii-linnaeus": "pass", "ludii-smith": "pass",
	}
	for rs, want := range cases {
		t.Run(rs, func(t *testing.T) {
			s := setup(t, MustLoad(rs), pieces, Attackers)
			play(t, s, "i9-i8") // any attacker move; the defenders are stuck
			switch want {
			case "pass":
				if s.over {
					t.Fatalf("game over: %s", s.result.Reason)
				}
				var buf [MaxMoves]Move
				if got := s.LegalMoves(buf[:0]); len(got) != 1 || got[0] != Pass {
					t.Fatalf("legal moves %v, want only pass", got)
				}
				play(t, s, "pass")
				if s.over {
					t.Fatal("one pass must not end the game")
				}
				if err := s.Play(game.Action(Pass)); err == nil {
					t.Fatal("the attackers can move; a pass must be refused")
				}
			case "draw":
				if !s.over || s.result.Winner != -1 {
					t.Fatalf("got over=%v %+v, want a draw", s.over, s.result)
				}
			default:
				if !s.over || s.result.Winner != 0 {
					t.Fatalf("got over=%v %+v, want the attackers to win", s.over, s.result)
				}
			}
		})
	}
	// Ludii: if all players pass consecutively, the game is a draw. On a
	// full board nobody can move.
	t.Run("ludii-double-pass", func(t *testing.T) {
		full := "/" + strings.Repeat("ttttttttt/", 3) + "ttttTtttt/tttTKTttt/ttttTtttt/" + strings.Repeat("ttttttttt/", 3)
		s, err := MustLoad("ludii-linnaeus").Parse(full + " attackers")
		if err != nil {
			t.Fatal(err)
		}
		play(t, s, "pass")
		if s.over {
			t.Fatal("one pass must not end the game")
		}
		play(t, s, "pass")
		if !s.over || s.result.Winner != -1 {
			t.Fatalf("two passes: got over=%v %+v, want a draw", s.over, s.result)
		}
	})
}

// TestEncirclement: OpenTafl and Foteviken — the attackers win by
// enclosing every defender away from the edge (rule 12's "vel intercluso").
func TestEncirclement(t *testing.T) {
	ring := "K e5; D e4; A c4 c5 c6 d3 d7 e2 e7 f3 f7 g4 g5 h6"
	for _, rs := range []string{"opentafl", "foteviken", "linnaeus"} {
		g := MustLoad(rs)
		s := setup(t, g, ring, Attackers)
		play(t, s, "h6-g6")
		enclosed := s.over && s.result.Reason == "defenders enclosed"
		if want := rs != "linnaeus"; enclosed != want {
			t.Errorf("%s: enclosed=%v (%s), want %v", rs, enclosed, s.result.Reason, want)
		}
	}
}

// TestTurnLimit: Ludii ends a trial after 1,250 turns per player (2,500)
// as a draw.
func TestTurnLimit(t *testing.T) {
	g := MustLoad("ludii-linnaeus", kv("turn_limit", "4"))
	s := g.Start()
	play(t, s, "a4-a3 e3-d3 a3-a4")
	if s.over {
		t.Fatal("over before the limit")
	}
	play(t, s, "d3-e3")
	if !s.over || s.result.Winner != -1 || !strings.Contains(s.result.Reason, "turn limit") {
		t.Fatalf("want a draw at the turn limit, got over=%v %+v", s.over, s.result)
	}
	if MustLoad("ludii-linnaeus").Rules.TurnLimit != 2500 {
		t.Fatal("ludii-linnaeus must stop at 2,500 turns")
	}
}

// TestCaptureAndWinOnSameMove: a king move that escapes and sandwiches an
// attacker wins, and the capture stands; an attacker move that takes a
// soldier and the king does both (§8.2).
func TestCaptureAndWinOnSameMove(t *testing.T) {
	for _, rs := range rulesets {
		g := MustLoad(rs)
		s := setup(t, g, "K c5; A b1; D a1", Defenders)
		play(t, s, "c5-c1")
		if !s.over || s.result.Winner != 1 || s.pos.board[sq(1, 0)] != Empty {
			t.Errorf("%s: escape with capture: over=%v %+v, b1=%v", rs, s.over, s.result, s.pos.board[sq(1, 0)])
		}
		s = setup(t, g, "K c3; A b3 f3 d8; D e3", Attackers)
		play(t, s, "d8-d3")
		twoSided := g.Rules.KingCapture == KingNearCastle
		if s.pos.board[sq(4, 2)] != Empty {
			t.Errorf("%s: the soldier on e3 was not taken", rs)
		}
		if taken := s.over && s.result.Reason == "king captured"; taken != twoSided {
			t.Errorf("%s: king taken=%v, want %v", rs, taken, twoSided)
		}
	}
}

// TestKingOnCastleWithDefenderNotTaken: three attackers and a defender
// round the castle do not take the king (§8.2).
func TestKingOnCastleWithDefenderNotTaken(t *testing.T) {
	for _, rs := range rulesets {
		s := setup(t, MustLoad(rs), "K e5; A e6 d5 c4; D f5", Attackers)
		play(t, s, "c4-e4")
		if s.over {
			t.Errorf("%s: king taken with a defender beside him: %s", rs, s.result.Reason)
		}
	}
}

// TestNoPassiveCapture: a piece that stands between enemies after the
// capture of a neighbour is not taken; only the mover captures.
func TestNoPassiveCapture(t *testing.T) {
	for _, rs := range rulesets {
		s := setup(t, MustLoad(rs), "K g7; A c4 h2; D b4 d4", Attackers)
		play(t, s, "h2-h1")
		if s.pos.board[sq(2, 3)] != Attacker {
			t.Errorf("%s: passive capture of c4", rs)
		}
	}
}

func kv(k, v string) game.KV { return game.KV{Key: k, Value: v} }

func ExampleGame_Start() {
	g := MustLoad("linnaeus")
	s := g.Start()
	fmt.Println(s)
	// Output: /3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/ attackers
}

// TestFotevikenThreefold: under Foteviken the third occurrence of a
// position draws; the attacker must leave its fort first, as forts cannot
// be re-entered, so the cycle is a3-a2-a3. The position after a4-a3
// (ply 1) comes again after plies 5 and 9.
func TestFotevikenThreefold(t *testing.T) {
	s := MustLoad("foteviken").Start()
	play(t, s, "a4-a3 e3-d3 a3-a2 d3-e3 a2-a3 e3-d3 a3-a2 d3-e3")
	if s.over {
		t.Fatalf("over after 8 plies: %s", s.result.Reason)
	}
	play(t, s, "a2-a3")
	if !s.over || s.result.Winner != -1 {
		t.Fatalf("want a draw on the third occurrence, got over=%v %+v", s.over, s.result)
	}
}

// TestAshtonKingCannotEscapeOntoCamp: the edge squares of the camps are
// out of the king's reach; any other edge square wins (§8.2).
func TestAshtonKingCannotEscapeOntoCamp(t *testing.T) {
	g := MustLoad("ashton")
	s := setup(t, g, "K c4; A i9", Defenders)
	if _, err := s.ParseMove("c4-a4"); err == nil {
		t.Error("the king reached the camp a4")
	}
	if got := outcome(t, s, "c4-c1"); got != "win" {
		t.Errorf("c4-c1: %s, want win", got)
	}
}

// TestCapturesAsHostileJudges: the captures a move makes, found with the
// rules' capturing partners and special squares, are those hostile finds
// looking at the square beyond each soldier beside the move's end, for
// every move of positions met in random games of every ruleset.
func TestCapturesAsHostileJudges(t *testing.T) {
	for _, rs := range rulesets {
		g := MustLoad(rs)
		r := &g.Rules
		rng := rand.New(rand.NewPCG(7, 1732))
		moves, captures := 0, 0
		for range 40 {
			s := g.Start()
			for ply := 0; ply < 300 && !s.IsTerminal(); ply++ {
				var buf [MaxMoves]Move
				legal := s.LegalMoves(buf[:0])
				for _, m := range legal {
					if m == Pass {
						continue
					}
					p := s.pos
					from, to := m.From(), m.To()
					piece := p.board[from]
					p.board[from], p.board[to] = Empty, piece
					got, want := r.capturesBy(&p, to, piece), capturesByHostile(r, &p, to, piece)
					if got != want {
						t.Fatalf("%s: %s after %v: captures %v, hostile says %v", rs, m, s.History(), got, want)
					}
					moves++
					captures += got.N
				}
				if len(legal) == 0 {
					break
				}
				s.ApplyMove(legal[rng.IntN(len(legal))])
			}
		}
		if captures == 0 {
			t.Errorf("%s: no capture in %d moves looked at", rs, moves)
		}
	}
}

// capturesByHostile is capturesBy as hostile alone judges it.
func capturesByHostile(r *Rules, p *Position, to Square, piece Piece) (caps Captures) {
	if piece == King && !r.KingArmed {
		return caps
	}
	enemy := 1 - piece.side()
	for d := 0; d < 4; d++ {
		v := nb[to][d]
		if v < 0 {
			continue
		}
		if q := p.board[v]; q == Empty || q == King || q.side() != enemy {
			continue
		}
		if s := nb[v][d]; s >= 0 && r.hostile(p, s, v, enemy) {
			caps.Sq[caps.N] = v
			caps.N++
		}
	}
	return caps
}
