package tablut

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestFeaturesAtTheStart counts the features of the start by hand: 16
// attackers, 8 defenders, the king walled in on the castle by his own men
// (who would stand aside: past them the edge is open to him).
func TestFeaturesAtTheStart(t *testing.T) {
	g := MustLoad("linnaeus")
	p := g.Start().Position()
	want := Features{FAttacker: 16, FDefender: 8, FKingFriend: 4, FKingRoom: roomCap}
	if got := g.Rules.Features(&p); got != want {
		t.Errorf("features at the start %v, want %v", got, want)
	}
	if got := HandWeights.score(want); got != -160 {
		t.Errorf("hand evaluation of the start %d, want 8×100 − 16×60 = −160", got)
	}
}

// TestFeaturesOfTheKing: a king on c3 with an attacker beside him, a
// defender beside him and clear lines to a1's rank and file.
func TestFeaturesOfTheKing(t *testing.T) {
	g := MustLoad("linnaeus")
	s := setup(t, g, "K c3; A c4; D d3; A h8", Attackers)
	p := s.Position()
	f := g.Rules.Features(&p)
	// From c3: west to a3 and b3 (a3 an edge), south to c2 and c1 (c1 an
	// edge): two routes, four squares; c is two files from the edge.
	want := Features{FAttacker: 2, FDefender: 1, FRoute: 2, FKingMobile: 4, FEdgeNear: 2, FKingGuard: 1, FKingFriend: 1}
	// In two moves: from b3 to a3, b1 and b9; from a3 to a1 and a9; from
	// c2 to a2, i2 and c1; from c1 to a1 and i1: ten, counted as eight.
	want[FReach2] = 8
	// Nothing rings him: he reaches the edge everywhere, counted as eight.
	want[FKingRoom] = 8
	if f != want {
		t.Errorf("features %v, want %v", f, want)
	}
}

// TestKingRoom: the edge squares the king could reach past the attackers,
// his own men standing aside; a closed ring leaves him none.
func TestKingRoom(t *testing.T) {
	for _, c := range []struct {
		ruleset, men string
		room         int
	}{
		// A ring of eight round c3 (b2 to d4): shut in.
		{"linnaeus", "K c3; A b2; A c2; A d2; A b3; A d3; A b4; A c4; A d4", 0},
		// A diagonal ring: orthogonal steps cannot pass it.
		{"linnaeus", "K c3; A c1; A b2; A d2; A a3; A e3; A b4; A d4; A c5", 0},
		// The ring open at d3: out past it to the whole board's edge.
		{"linnaeus", "K c3; A b2; A c2; A d2; A b3; A b4; A c4; A d4", roomCap},
		// A corner walled off: a1 b1 a2 reached, nothing else (b2 free).
		{"linnaeus", "K b2; A c1; A c2; A c3; A b3; A a3", 3},
		// The king's own men do not shut him in.
		{"linnaeus", "K b2; D c1; D c2; D c3; D b3; D a3; A h8", roomCap},
		// Ashton's camps are walls to him: on b4, the west camp's a4 and
		// b5 beside him, two attackers shut him in; without camps a4 is
		// an edge square and the a-file is his.
		{"ashton", "K b4; A c4; A b3", 0},
		{"linnaeus", "K b4; A c4; A b3", roomCap},
	} {
		g := MustLoad(c.ruleset)
		s := setup(t, g, c.men, Attackers)
		p := s.Position()
		f := g.Rules.Features(&p)
		shut := 0
		if c.room == 0 {
			shut = 1
		}
		if f[FKingRoom] != c.room || f[FKingShut] != shut {
			t.Errorf("%s %s: room %d shut %d, want %d %d", c.ruleset, c.men, f[FKingRoom], f[FKingShut], c.room, shut)
		}
	}
}

// TestEvaluateWeighsTheFamilysFeatures: the evaluation is the dot product
// of the features with the weights of the rules' family, in every ruleset
// and in positions of random games.
func TestEvaluateWeighsTheFamilysFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, rs := range rulesets {
		g := MustLoad(rs)
		w := WeightsOf(g.Rules.Family())
		s := g.Start()
		for i := 0; i < 60 && !s.over; i++ {
			p := s.Position()
			if got, want := g.Rules.Evaluate(&p), w.score(g.Rules.Features(&p)); got != want {
				t.Fatalf("%s ply %d: Evaluate %d, weighed features %d", rs, i, got, want)
			}
			s.Apply(s.RandomAction(rng))
		}
	}
}

func TestFamilies(t *testing.T) {
	want := map[string]string{
		"ashton": FamilyCamps, "ludii-smith": FamilyStrongKing, "foteviken": FamilyStrongKing,
		"linnaeus": FamilyPlain, "ludii-linnaeus": FamilyPlain, "walker": FamilyPlain, "cartier": FamilyPlain, "opentafl": FamilyEncirclement,
	}
	for _, r := range Info.Rulesets {
		if got := MustLoad(r.ID).Rules.Family(); got != want[r.ID] {
			t.Errorf("%s: family %q, want %q", r.ID, got, want[r.ID])
		}
	}
}

// TestWeightsFile: the embedded weights parse, every family they name is
// one the rules give, and the unit is a defender.
func TestWeightsFile(t *testing.T) {
	for name, w := range fitted {
		found := false
		for _, f := range Families {
			found = found || f == name
		}
		if !found {
			t.Errorf("weights.json fits family %q; the families are %v", name, Families)
		}
		if w.Feature[FDefender] != 100 {
			t.Errorf("%s: a defender weighs %d, want 100 (the unit)", name, w.Feature[FDefender])
		}
	}
	if WeightsOf("no such family") != &HandWeights {
		t.Error("a family with no fit does not fall back on the hand weights")
	}
}

func TestQuiet(t *testing.T) {
	g := MustLoad("linnaeus")
	if !g.Start().Quiet() {
		t.Error("the start is not quiet")
	}
	// The attackers to move take d3 with e1-e3.
	s := setup(t, g, "K e7; A c3 e1; D d3", Attackers)
	if s.Quiet() {
		t.Error("a position where e1-e3 takes d3 is quiet")
	}
	// The defenders to move with a clear line for the king win at once.
	s = setup(t, g, "K c3; A h8", Defenders)
	if s.Quiet() {
		t.Error("a position where the king escapes at once is quiet")
	}
	// The attackers to move must close the king's line: quiet, for the
	// evaluation to weigh the line.
	s = setup(t, g, "K c3; A h8 g7", Attackers)
	if !s.Quiet() {
		t.Error("a position where the attackers must close a line is not quiet")
	}
}

// TestThreatened: the threats the search extends. The attackers are
// threatened when the king has a clear line to the edge (rule 4: he
// escapes at his next move); the defenders when an attacker can reach a
// square that takes the king (rule 9: two suffice away from the castle;
// four under king_capture=strong).
func TestThreatened(t *testing.T) {
	g := MustLoad("linnaeus")
	strong := MustLoad("linnaeus", game.KV{Key: "king_capture", Value: "strong"})
	for _, c := range []struct {
		what   string
		g      *Game
		pieces string
		side   Side
		want   bool
	}{
		{"the king's file is open to e9", g, "K e6; A a6 i6 e3", Attackers, true},
		{"every line of the king is closed", g, "K e6; A a6 i6 e3 e8", Attackers, false},
		{"c3-c6 takes the king against c8", g, "K c7; A c8 c3", Defenders, true},
		{"a defender on c5 stops c3", g, "K c7; A c8 c3; D c5", Defenders, false},
		{"i6-c6 along the rank takes him", g, "K c7; A c8 i6", Defenders, true},
		{"nothing beyond the king", g, "K c7; A c3", Defenders, false},
		{"one attacker is not four (strong king)", strong, "K c7; A c8 c3", Defenders, false},
		{"the fourth side reached (strong king)", strong, "K c7; A c8 b7 d7 c3", Defenders, true},
	} {
		s := setup(t, c.g, c.pieces, c.side)
		if got := NewSearchPosition(s, nil).Threatened(); got != c.want {
			t.Errorf("%s (%s, %v to move): Threatened() = %v, want %v", c.what, c.pieces, c.side, got, c.want)
		}
	}
}

// TestConstantIsForTheDefenders: the weights' constant (a fit's intercept)
// is added to every position for the defenders, so the search sees it
// with the sign of the side to move.
func TestConstantIsForTheDefenders(t *testing.T) {
	g := MustLoad("linnaeus")
	w := HandWeights
	w.Constant = 37
	for _, side := range []Side{Defenders, Attackers} {
		s := setup(t, g, "K e5; A a1; D i9", side)
		p := s.Position()
		want := HandWeights.score(g.Rules.Features(&p)) + 37
		if side == Attackers {
			want = -want
		}
		if got := NewSearchPosition(s, &w).Evaluate(); got != want {
			t.Errorf("%v to move: %d, want %d", side, got, want)
		}
	}
}

// TestNoisyAsTheRules: Noisy, which looks at a move's neighbours only
// where a man of the other side stands beside the square reached, says
// what the rules' own code says of the move (noisyByTheRules), for every
// move of every position of random games under every ruleset, as one
// search position makes and unmakes moves and null moves; and some moves
// are noisy, not all.
func TestNoisyAsTheRules(t *testing.T) {
	for _, rs := range Info.Rulesets {
		g := MustLoad(rs.ID)
		rng := rand.New(rand.NewPCG(3, uint64(len(rs.ID))))
		noisy, moves := 0, 0
		check := func(sp *SearchPosition) {
			for _, m := range sp.s.LegalMoves(nil) {
				got, want := sp.Noisy(game.Action(m)), noisyByTheRules(sp.s, m)
				if got != want {
					t.Fatalf("%s: %v in %s: Noisy %v, the rules %v", rs.ID, m, sp.s, got, want)
				}
				moves++
				if got {
					noisy++
				}
			}
		}
		for range 20 {
			sp := NewSearchPosition(g.Start(), nil)
			for ply := 0; ply < 200 && !sp.s.IsTerminal(); ply++ {
				check(sp)
				sp.MakeNull()
				check(sp)
				sp.UnmakeNull()
				check(sp)
				m := sp.s.RandomAction(rng)
				if ply%3 == 0 {
					sp.Make(m)
					sp.Unmake()
					check(sp)
				}
				sp.Make(m)
			}
		}
		if noisy == 0 || noisy == moves {
			t.Errorf("%s: %d of %d moves noisy", rs.ID, noisy, moves)
		}
	}
}

// noisyByTheRules is what Noisy is to say, from the rules' own code: a
// king's move to the edge or onto an open line to it; an attacker's move
// beside the king; any move that takes a man.
func noisyByTheRules(s *State, m Move) bool {
	if m == Pass {
		return false
	}
	p := &s.pos
	r := &s.g.Rules
	from, to := m.From(), m.To()
	if p.board[from] == King {
		return to.OnEdge() || r.edgeLinesFrom(p, from, to) > 0
	}
	if p.board[from] == Attacker && beside[to].has(p.king) {
		return true
	}
	return r.capturesOf(p, m).N > 0
}

// TestSquashIsTanh: Value's table of tanh gives math.Tanh's own value for
// every score, within the table and beyond it.
func TestSquashIsTanh(t *testing.T) {
	for score := -3 * squashRange; score <= 3*squashRange; score++ {
		if got, want := squash(score), math.Tanh(float64(score)/600); got != want {
			t.Fatalf("squash(%d) = %v, tanh = %v", score, got, want)
		}
	}
}
