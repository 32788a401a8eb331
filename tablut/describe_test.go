package tablut

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

func eventKinds(s *State) []string {
	var out []string
	for _, e := range s.Events() {
		out = append(out, e.Kind+":"+strings.Join(e.Squares, ","))
	}
	return out
}

// TestEventsCapture: Linnaeus rule 9, a piece trapped between two enemies
// is taken — announced as a capture credited to the mover, marked in the
// view.
func TestEventsCapture(t *testing.T) {
	s := setup(t, MustLoad("linnaeus"), "K e5; A c3 e1; D d3", Attackers)
	playAll(t, s, "e1-e3")
	if got := eventKinds(s); !slices.Equal(got, []string{"capture:d3"}) || s.Events()[0].Player != game.Player(Attackers) {
		t.Fatalf("events %v %+v, want a capture on d3 by the attackers", got, s.Events())
	}
	if v := s.View(); !slices.Equal(v.Captured, []string{"d3"}) || !slices.Equal(v.Last, []string{"e1", "e3"}) {
		t.Fatalf("view captured %v last %v", v.Captured, v.Last)
	}
}

// TestEventsKing: the king taken by two away from the castle (Linnaeus
// rule 12 as read) stays on the board, marked as taken, and the end is
// announced; the king escaping to the edge likewise.
func TestEventsKing(t *testing.T) {
	s := setup(t, MustLoad("linnaeus"), "K c7; A b7 d1; D h8", Attackers)
	playAll(t, s, "d1-d7")
	if got := eventKinds(s); !slices.Equal(got, []string{"king-captured:c7", "game-over:"}) {
		t.Fatalf("events %v", got)
	}
	if v := s.View(); !slices.Equal(v.Captured, []string{"c7"}) || !slices.ContainsFunc(v.Pieces, func(p game.Piece) bool { return p.Kind == "king" }) {
		t.Fatalf("view: %+v", v)
	}
	if p := s.Prompt(); p.Player != game.Terminal || !strings.Contains(p.Text, "king was captured") {
		t.Fatalf("prompt %+v", p)
	}
	s = setup(t, MustLoad("linnaeus"), "K c7; A a1; D h8", Defenders)
	playAll(t, s, "c7-c9")
	if got := eventKinds(s); !slices.Equal(got, []string{"king-escaped:c9", "game-over:"}) {
		t.Fatalf("events %v", got)
	}
}

// TestPromptNamesMovers: the prompt's squares are the pieces of the side
// to move that have a move.
func TestPromptNamesMovers(t *testing.T) {
	s := setup(t, MustLoad("linnaeus"), "K e5; A a1 b1; D e4 e6 d5 f5", Defenders)
	p := s.Prompt()
	if p.Player != game.Player(Defenders) || !slices.Equal(p.Squares, []string{"e4", "d5", "f5", "e6"}) {
		t.Fatalf("prompt %+v", p)
	}
}

func playAll(t *testing.T, s *State, moves string) {
	t.Helper()
	if err := game.ApplyNotation(s, strings.Fields(moves)); err != nil {
		t.Fatal(err)
	}
}

// TestTurnNumbersAreTheRecords: the turns a page numbers are numbered as
// the written record numbers them, a number for each pair of moves: each
// turn's move stands on the record's line of its number.
func TestTurnNumbersAreTheRecords(t *testing.T) {
	g := MustLoad("linnaeus")
	rng := rand.New(rand.NewPCG(3, 4))
	s := g.Start()
	for n := 0; n < 60 && !s.IsTerminal(); n++ {
		legal := s.LegalActions(nil)
		s.Apply(legal[rng.IntN(len(legal))])
	}
	rec := &game.Record{Spec: g.Spec(), Actions: game.Notation(g.Start(), s.History())}
	var b strings.Builder
	if err := g.WriteRecord(&b, rec); err != nil {
		t.Fatal(err)
	}
	lines := map[int][]string{}
	for _, line := range strings.Split(b.String(), "\n") {
		var n int
		if _, err := fmt.Sscanf(line, "%d.", &n); err == nil {
			lines[n] = strings.Fields(line)[1:]
		}
	}
	turns := game.Turns(g.Start(), s.History())
	if len(turns) < 2 {
		t.Fatal("no game played")
	}
	for _, tu := range turns {
		if !slices.Contains(lines[tu.Number], tu.Actions[0]) {
			t.Fatalf("turn %d (%s) is not on the record's line %d: %q", tu.First+1, tu.Actions[0], tu.Number, lines[tu.Number])
		}
	}
}

// TestMoveSquaresAreTheMovesSquares: the shared squares of each move along
// a rank or a file are its own, two of them, with no room to append in
// place; any other pair gets a list of its own.
func TestMoveSquaresAreTheMovesSquares(t *testing.T) {
	n := 0
	for from := Square(0); from < Squares; from++ {
		for to := Square(0); to < Squares; to++ {
			got := moveSquares(from, to)
			if len(got) != 2 || got[0] != from.String() || got[1] != to.String() {
				t.Fatalf("moveSquares(%s, %s) = %q", from, to, got)
			}
			if name := moveName(from, to); name != "" {
				if name != from.String()+"-"+to.String() {
					t.Fatalf("the move from %s to %s is named %q", from, to, name)
				}
				n++
				if cap(got) != 2 {
					t.Fatalf("moveSquares(%s, %s) has room for %d", from, to, cap(got))
				}
			}
		}
	}
	if want := Squares * 2 * (Size - 1); n != want {
		t.Fatalf("%d moves along a line, want %d", n, want)
	}
}

// TestAppendViewIsView: a view drawn into the lists of the view before
// it (as a room draws each change's) is the view drawn afresh, for every
// position of random games under every ruleset.
func TestAppendViewIsView(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, rs := range rulesets {
		s := MustLoad(rs).Start()
		var reused game.View
		for i := 0; !s.over && i < 200; i++ {
			reused = s.AppendView(reused)
			if want := s.View(); !reflect.DeepEqual(reused, want) {
				t.Fatalf("%s, ply %d: AppendView %+v, View %+v", rs, i, reused, want)
			}
			var buf [MaxMoves]Move
			moves := s.LegalMoves(buf[:0])
			s.ApplyMove(moves[rng.IntN(len(moves))])
		}
	}
}

// TestLegalJSONIsEncodingJSON: the legal moves written as JSON
// (AppendLegalJSON, after what b held) are, byte for byte, encoding/json's
// list of their descriptions, captures in their notation included, for
// every position of random games under every ruleset; where a pass is
// legal it writes nothing and says so.
func TestLegalJSONIsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	captures := 0
	for _, rs := range rulesets {
		for range 5 {
			s := MustLoad(rs).Start()
			for i := 0; !s.over && i < 300; i++ {
				got, ok := s.AppendLegalJSON([]byte("before:"))
				legal := game.DescribeLegal(s)
				switch {
				case !ok && slices.ContainsFunc(legal, func(a game.ActionInfo) bool { return a.Kind == "pass" }) && string(got) == "before:":
				case !ok:
					t.Fatalf("%s, ply %d: not written (%q), no pass among %v", rs, i, got, legal)
				default:
					want, err := json.Marshal(legal)
					if err != nil {
						t.Fatal(err)
					}
					if string(got) != "before:"+string(want) {
						t.Fatalf("%s, ply %d: written\n%s\nencoding/json\n%s", rs, i, got, want)
					}
					for _, a := range legal {
						if strings.Contains(a.Text, "x") {
							captures++
						}
					}
				}
				var buf [MaxMoves]Move
				moves := s.LegalMoves(buf[:0])
				s.ApplyMove(moves[rng.IntN(len(moves))])
			}
		}
	}
	if captures == 0 {
		t.Fatal("no legal move took a piece: the captures' notation went untested")
	}
}
