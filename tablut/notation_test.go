package tablut

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestNotation: moves are written from-to with OpenTafl's capture suffix;
// input takes a move with or without its suffix, and a wrong suffix is an
// error (docs/tablut-rules.md, Notation).
func TestNotation(t *testing.T) {
	g := MustLoad("linnaeus")
	s := setup(t, g, "K g7; A c4 e4 d3; D b4 f4 d2 d8", Defenders)
	m, err := s.ParseMove("d8-d4")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.MoveString(m); got != "d8-d4xd3/c4/e4" {
		t.Errorf("MoveString = %q, want d8-d4xd3/c4/e4 (captures in square order, rank 1 first)", got)
	}
	for _, in := range []string{"d8-d4", "d8-d4xc4/d3/e4", "d8-d4xe4/c4/d3", "d8-d4+"} {
		if got, err := s.ParseMove(in); err != nil || got != m {
			t.Errorf("ParseMove(%q) = %v, %v; want %v", in, got, err, m)
		}
	}
	for in, why := range map[string]string{
		"d8-d4xc4":    "wrong captures",
		"d8-d4xc4/d3": "wrong captures",
		"d8-d5xd6":    "wrong captures",
		"d8-d1":       "blocked at d3",
		"d8-e7":       "along a rank or a file",
		"e4-e5":       "belongs to the attackers",
		"a1-a2":       "no piece on a1",
		"d8d4":        "want from-to",
		"z9-d4":       "bad square",
		"d8-d4x":      "after the squares",
		"":            "want from-to",
	} {
		_, err := s.ParseMove(in)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseMove(%q) = %v, want an error saying %q", in, err, why)
		}
		if err != nil && !errors.Is(err, game.ErrIllegal) && !errors.Is(err, game.ErrSyntax) {
			t.Errorf("ParseMove(%q) error %v wraps neither ErrIllegal nor ErrSyntax", in, err)
		}
	}
}

// TestIllegalMoveReasons: the reasons a move is refused name the rule.
func TestIllegalMoveReasons(t *testing.T) {
	cases := []struct{ ruleset, pieces, move, why string }{
		{"linnaeus", "K h8; D c5", "c5-g5", "cross the castle"},
		{"walker", "K e3", "e3-e5", "stop on the castle"},
		{"ashton", "K g7; A a3", "a3-a4", "starts its move in a camp"},
		{"ashton", "K g7; A a4", "a4-i4", "longer than 5"},
	}
	for _, c := range cases {
		s := setup(t, MustLoad(c.ruleset), c.pieces, sideOn(t, c.pieces, c.move[:2]))
		if _, err := s.ParseMove(c.move); err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s %s: %v, want %q", c.ruleset, c.move, err, c.why)
		}
	}
}

// TestPositionText: the position format round-trips and bad positions are
// clear errors.
func TestPositionText(t *testing.T) {
	g := MustLoad("linnaeus")
	s, err := g.Parse(StartOTN)
	if err != nil {
		t.Fatal(err)
	}
	if s.String() != StartOTN+" attackers" {
		t.Errorf("start text %q", s.String())
	}
	for in, why := range map[string]string{
		"":                              "OTN board",
		"/9/9/9/9/9/9/9/9/9/":           "0 kings",
		"/9/9/9/9/4K4/9/9/9/ attackers": "8 rows",
		"/9/9/9/9/4K4/9/9/9/9/ nobody":  "unknown side",
		"/9/9/9/9/4t4/9/9/9/K8/":        "only the king may stand on the castle",
		"/9/9/9/9/4K5/9/9/9/9/":         "has 10 squares",
		"/9/9/9/9/4K4x/9/9/9/9/":        "unknown piece",
		"/9/9/9/9/4K4/9/9/9/9t/":        "more than 9",
		"/9/9/9/9/04K4/9/9/9/9/":        "bad count",
		"9/9/9/9/4K4/9/9/9/9":           "start and end",
	} {
		_, err := g.Parse(in)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("Parse(%q) = %v, want an error saying %q", in, err, why)
		}
	}
	// A king on the edge has escaped: the position is over.
	s, err = g.Parse("/9/9/9/9/9/9/9/9/K8/ attackers")
	if err != nil || !s.IsTerminal() || s.Result().Winner != 1 {
		t.Errorf("king on the edge: %v over=%v", err, s != nil && s.IsTerminal())
	}
	// Bologna forbids defenders in camps.
	if _, err := MustLoad("ashton").Parse("/3T5/9/9/9/4K4/9/9/9/9/"); err == nil {
		t.Error("ashton accepted a defender on the camp d1")
	}
}

// TestRecordRoundTrip: a game written as an OpenTafl Notation record reads
// back to the same game, moves and tags.
func TestRecordRoundTrip(t *testing.T) {
	for _, rs := range rulesets {
		g := MustLoad(rs, kv("turn_limit", "40"))
		s := g.Start()
		for i := 0; !s.over; i++ {
			var buf [MaxMoves]Move
			moves := s.LegalMoves(buf[:0])
			s.ApplyMove(moves[(i*17+3)%len(moves)])
		}
		rec := game.NewRecord("", s, game.KV{Key: "event", Value: "test [1]"})
		var b bytes.Buffer
		if err := g.WriteRecord(&b, rec); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		if !strings.Contains(text, "dim:9 esc:e") || !strings.Contains(text, "1. ") {
			t.Fatalf("%s: record lacks the OTN rules or turns:\n%s", rs, text)
		}
		back, err := ReadRecord(strings.NewReader(text))
		if err != nil {
			t.Fatalf("%s: %v\n%s", rs, err, text)
		}
		if back.Spec != g.Spec() || strings.Join(back.Actions, " ") != strings.Join(rec.Actions, " ") || back.Tag("event") != "test (1)" {
			t.Fatalf("%s: record changed:\n%s\nread as %+v", rs, text, back)
		}
		replayed, err := game.Replay(back)
		if err != nil {
			t.Fatalf("%s: replay: %v", rs, err)
		}
		if replayed.String() != s.String() || game.ResultName(replayed) != game.ResultName(s) {
			t.Fatalf("%s: replay ends at %s (%s), want %s (%s)", rs, replayed, game.ResultName(replayed), s, game.ResultName(s))
		}
	}
}

// TestRecordFromPosition: a record of a game from a set-up position keeps
// the position with its side to move.
func TestRecordFromPosition(t *testing.T) {
	g := MustLoad("walker")
	start := "/9/9/9/9/9/2T6/9/6K2/9/ defenders"
	s, err := g.Parse(start)
	if err != nil {
		t.Fatal(err)
	}
	play(t, s, "g8-g9")
	var b bytes.Buffer
	if err := g.WriteRecord(&b, game.NewRecord(start, s)); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRecord(&b)
	if err != nil {
		t.Fatal(err)
	}
	r, err := game.Replay(back)
	if err != nil || !r.IsTerminal() || game.ResultName(r) != "defenders" {
		t.Fatalf("replay: %v, %v", err, r)
	}
}

func TestRecordErrors(t *testing.T) {
	for in, why := range map[string]string{
		"[event:x\n":                           "[key:value]",
		"1 a4-a3":                              "want a turn",
		"1. a4-a3 e3-d3 a3-a4":                 "at most two moves",
		"[muster-game:tablut(nope)]\n1. a4-a3": "unknown ruleset",
		"1. a4-a3 e3-e9":                       "blocked",
	} {
		rec, err := ReadRecord(strings.NewReader(in))
		if err == nil {
			_, err = game.Replay(rec)
		}
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("record %q: %v, want an error saying %q", in, err, why)
		}
	}
}

func FuzzParsePosition(f *testing.F) {
	f.Add(StartOTN + " attackers")
	f.Add("/9/9/9/9/4K4/9/9/9/9/ defenders")
	f.Add("/3t5/9/9/9/4K4/9/9/9/9/")
	f.Add("/9/9/9/9/9/9/9/9/K8/")
	games := []*Game{MustLoad("linnaeus"), MustLoad("ashton"), MustLoad("ludii-linnaeus")}
	f.Fuzz(func(t *testing.T, text string) {
		for _, g := range games {
			s, err := g.Parse(text)
			if err != nil {
				continue
			}
			back, err := g.Parse(s.String())
			if err != nil {
				t.Fatalf("%q re-read from %q: %v", s.String(), text, err)
			}
			if back.String() != s.String() || back.Hash() != s.Hash() {
				t.Fatalf("round trip of %q changed it", text)
			}
			var buf [MaxMoves]Move
			for _, m := range s.LegalMoves(buf[:0]) {
				c := s.Copy()
				c.ApplyMove(m)
				if c.pos.hash != c.pos.recomputeHash() {
					t.Fatalf("hash drift after %s from %q", m, text)
				}
			}
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, m := range []string{"e3-e1", "e5-e8xe9", "d4-d2xd3/c2", "pass", "a4-a3+", "x", "i9-i1--", "Ke5-e6", "a5-a3xKb3", "ta4-a3", "d1-d3xTd4/Kd5", "e3^e5", "c4"} {
		f.Add(m)
	}
	g := MustLoad("linnaeus")
	start := g.Start()
	f.Fuzz(func(t *testing.T, text string) {
		s := start.Copy()
		m, err := s.ParseMove(text)
		if err != nil {
			return
		}
		if !s.IsLegal(m) {
			t.Fatalf("ParseMove(%q) returned the illegal %v", text, m)
		}
		again, err := s.ParseMove(s.MoveString(m))
		if err != nil || again != m {
			t.Fatalf("%q -> %q does not parse back: %v", text, s.MoveString(m), err)
		}
	})
}

func FuzzReadRecord(f *testing.F) {
	f.Add("[variant:Tablut]\n[muster-game:tablut(walker)]\ndim:9 start:/3ttt3/\n\n1. a4-a3 e3-d3\n2. a3-a4\n")
	f.Add("[a:b]\n/9/9/9/9/4K4/9/9/9/9/\n1. ---\n")
	for _, name := range []string{"opentafl-0.4.8-r03.otg", "opentafl-0.4.8-enclosed.otg", "opentafl-0.4.8-king-captured.otg", "opentafl-0.4.8-two-captures.otg"} {
		if otg, err := os.ReadFile("testdata/" + name); err == nil {
			f.Add(string(otg))
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := ReadRecord(strings.NewReader(text))
		if err != nil {
			return
		}
		s, err := game.Replay(rec)
		if err != nil || rec.Spec != "tablut" {
			return
		}
		var b bytes.Buffer
		g := s.Game().(*Game)
		if err := g.WriteRecord(&b, game.NewRecord(rec.Start, s)); err != nil {
			t.Fatal(err)
		}
		back, err := ReadRecord(&b)
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, b.String())
		}
		s2, err := game.Replay(back)
		if err != nil || s2.String() != s.String() {
			t.Fatalf("re-replay: %v\n%s", err, b.String())
		}
	})
}

// TestViewEscapes: the view draws the king's open lines to the edge (his
// raichi/tuichu), each from beside him to the edge square, and names the
// raichi in its facts.
func TestViewEscapes(t *testing.T) {
	s := setup(t, MustLoad("linnaeus"), "K c5; A a5 c9", Defenders)
	v := s.View()
	var lines []string
	for _, r := range v.Regions {
		if r.Kind == "open-line" {
			lines = append(lines, strings.Join(r.Squares, " "))
		}
	}
	if len(lines) != 1 || lines[0] != "c4 c3 c2 c1" {
		t.Fatalf("open lines %q, want [c4 c3 c2 c1]", lines)
	}
	if len(v.Facts) != 1 || v.Facts[0].Label != "Raichi" {
		t.Fatalf("facts %+v, want Raichi", v.Facts)
	}
}

// TestOpenTaflSavedGame reads a game OpenTafl 0.4.8 saved (.otg, from a
// real game: its AI attacking, Muster defending, 60 s + 1 s): the clock
// lines after each turn and the king's letter ("Ke5-e6") are read, the
// rules tag names the game (OpenTafl's Tablut 9x9: the opentafl ruleset),
// and the moves replay to the king's escape.
func TestOpenTaflSavedGame(t *testing.T) {
	_, rec, s := replaySavedGame(t, "opentafl-0.4.8-r03.otg")
	if rec.Spec != "tablut(opentafl)" || len(rec.Actions) != 16 || rec.Actions[9] != "Ke5-e6" || game.Notation(s.Game().NewState(), s.History())[9] != "e5-e6" {
		t.Fatalf("spec %s, %d actions: %v", rec.Spec, len(rec.Actions), rec.Actions)
	}
	if !s.IsTerminal() || game.ResultName(s) != "defenders" {
		t.Fatalf("the game ends %s (%s)", game.ResultName(s), s.Result().Reason)
	}
	// A rules tag Muster cannot play is an error naming the entry.
	_, err := ReadRecord(strings.NewReader("[rules:dim:11 esc:c]\n1. a4-a3\n"))
	if err == nil || !strings.Contains(err.Error(), "dim:11") {
		t.Fatalf("an 11×11 saved game: %v", err)
	}
}

// TestOpenTaflSavedGameEndingOnAnAttackersMove reads a real game OpenTafl
// 0.4.8 saved that ended on the attackers' move (its AI attacking, Muster
// defending, 60 s + 1 s, 2026-11-24): the last clock line holds the
// attackers' clock alone ("[23 0/0 0i ]"), and the moves replay to the
// defenders enclosed, the win OpenTafl gave the attackers.
func TestOpenTaflSavedGameEndingOnAnAttackersMove(t *testing.T) {
	data, rec, s := replaySavedGame(t, "opentafl-0.4.8-enclosed.otg")
	if !strings.Contains(data, "\n[23 0/0 0i ]\n") {
		t.Fatal("the record has no one-clock line: not the game this test is about")
	}
	if rec.Spec != "tablut(opentafl)" || len(rec.Actions) != 35 || rec.Actions[34] != "b6-c6" {
		t.Fatalf("spec %s, %d actions: %v", rec.Spec, len(rec.Actions), rec.Actions)
	}
	if !s.IsTerminal() || game.ResultName(s) != "attackers" || s.Result().Reason != "defenders enclosed" {
		t.Fatalf("the game ends %s (%s)", game.ResultName(s), s.Result().Reason)
	}
}

// replaySavedGame reads a saved game from testdata and replays it.
func replaySavedGame(t *testing.T, name string) (string, *game.Record, game.State) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ReadRecord(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := game.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	return string(data), rec, s
}

// TestOpenTaflRecordsEveryForm reads games written by OpenTafl 0.4.8's own
// GameSerializer (random games of its built-in Tablut 9x9, played by its
// engine and saved with comments; made outside the repository with a
// small Java program over OpenTafl's classes): the king's capture written
// among the captures ("a5-a3xKb3"), two captures in one move
// ("i4-e4xd4/e3"), the king's letter on his moves ("Kd2-d1"), comment lines
// with and without text ("[|note: move 4]", "[]") and the result tag.
// Each replays under the rules its tag names to the result OpenTafl wrote.
func TestOpenTaflRecordsEveryForm(t *testing.T) {
	for name, want := range map[string]struct{ result, form string }{
		"opentafl-0.4.8-king-captured.otg": {"attackers", "xK"},
		"opentafl-0.4.8-king-escaped.otg":  {"defenders", "K"},
		"opentafl-0.4.8-two-captures.otg":  {"attackers", "/"},
	} {
		data, rec, s := replaySavedGame(t, name)
		if rec.Spec != "tablut(opentafl)" {
			t.Errorf("%s: read as %s", name, rec.Spec)
		}
		if !strings.Contains(strings.Join(rec.Actions, " "), want.form) {
			t.Errorf("%s: no move written with %q: %v", name, want.form, rec.Actions)
		}
		tag := map[string]string{"1": "attackers", "-1": "defenders", "0": "draw"}
		var written string
		for _, kv := range rec.Tags {
			if kv.Key == "result" {
				written = tag[kv.Value]
			}
		}
		if !s.IsTerminal() || game.ResultName(s) != want.result || written != want.result {
			t.Errorf("%s: replays to %s (%s), OpenTafl wrote %s", name, game.ResultName(s), s.Result().Reason, written)
		}
		if !strings.Contains(data, "note: move") {
			t.Errorf("%s: no comment with text to read", name)
		}
	}
}

// TestOTNMoveForms: every form OpenTafl writes for a move is read, and what
// it says is checked: the mover's letter, the captured pieces' letters,
// the king's capture among the captures (which Muster's own notation
// leaves out), OTN's info symbols; jumps and berserk moves are OTN but not
// Tablut.
func TestOTNMoveForms(t *testing.T) {
	g := MustLoad("linnaeus")
	king, err := g.Parse("/9/9/5tK2/9/9/9/9/7t1/9/ attackers")
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"h8-h3":      "",
		"h8-h3xg3":   "",
		"h8-h3xKg3":  "",
		"th8-h3":     "",
		"h8-h3xKg3+": "",
		"h8-h3xTg3":  "names a defending taflman, but the piece taken on g3 is the king",
		"Kh8-h3":     "names the king, but the piece on h8 is an attacker",
		"h8-h3xf3":   "does not capture on f3",
		"h8^h3":      "no Tablut ruleset has one",
		"h8=h3":      "no Tablut ruleset has one",
		"h8-h3xKg3/": "want a square",
	} {
		_, err := king.ParseMove(in)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", in, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v, want an error saying %q", in, err, want)
		}
	}
	// Two captures, with and without letters, in either order.
	two, err := g.Parse("/9/6K2/2t6/2T6/1t7/2T6/2t6/9/9/ attackers")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"b5-c5xc4/c6", "b5-c5xTc6/Tc4", "tb5-c5xc6/Tc4"} {
		if _, err := two.ParseMove(in); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
	if _, err := two.ParseMove("b5-c5xc4"); err == nil || !strings.Contains(err.Error(), "also captures on c6") {
		t.Errorf("a capture left out: %v", err)
	}
}

// TestOTNRulesReadBack: the OTN rules Muster writes (in records, and to
// OpenTafl engines) read back as the same play wherever OTN can state
// the rules — the king's strength included: c on and beside the castle,
// s everywhere, as OpenTafl's RulesSerializer reads them (its n is a king
// taken by two even on the castle) — and OpenTafl's own "Tablut 9x9"
// rules line reads as the opentafl ruleset.
func TestOTNRulesReadBack(t *testing.T) {
	for _, c := range []struct {
		ruleset string
		same    bool
		ks      string
	}{
		{"opentafl", true, "ks:c"}, {"linnaeus", true, "ks:c"}, {"foteviken", true, "ks:s"},
		{"ludii-smith", false, "ks:s"}, {"ashton", false, "ks:c"},
	} {
		g := MustLoad(c.ruleset)
		text := g.OTNRules()
		if !strings.Contains(text, " "+c.ks+" ") {
			t.Errorf("%s: %s, want %s", c.ruleset, text, c.ks)
		}
		back, _, err := ReadOTNRules(text)
		if got := err == nil && back.SamePlay(g); got != c.same {
			t.Errorf("%s: read back %v (%v), want the same play %v", c.ruleset, back, err, c.same)
		}
	}
	ot, _, err := ReadOTNRules("dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/")
	if err != nil || !ot.SamePlay(MustLoad("opentafl")) {
		t.Errorf("OpenTafl's Tablut 9x9: %v %v", ot, err)
	}
}

// TestViewRegionsAndPieces: a view names the castle, the camps where the
// rules have them (and only there), every man where he stands, and the
// last move's squares, under every ruleset, from the start and after
// some moves.
func TestViewRegionsAndPieces(t *testing.T) {
	for _, rs := range rulesets {
		g := MustLoad(rs)
		s := g.NewState().(*State)
		for ply := 0; ply < 12 && !s.IsTerminal(); ply++ {
			v := s.View()
			kinds := map[string][]string{}
			for _, r := range v.Regions {
				kinds[r.Kind] = append(kinds[r.Kind], r.Squares...)
			}
			if got := kinds["castle"]; !slices.Equal(got, []string{"e5"}) {
				t.Fatalf("%s: castle %q", rs, got)
			}
			var camps []string
			if g.Rules.Camps != CampsNone {
				camps = strings.Fields("d1 e1 f1 e2 a4 i4 a5 b5 h5 i5 a6 i6 e8 d9 e9 f9") // in square order
			}
			if got := kinds["camp"]; !slices.Equal(got, camps) {
				t.Fatalf("%s: camps %q, want %q", rs, got, camps)
			}
			n := 0
			for q := Square(0); q < Squares; q++ {
				if s.pos.board[q] != Empty {
					n++
				}
			}
			if len(v.Pieces) != n {
				t.Fatalf("%s at ply %d: %d pieces, %d men on the board", rs, ply, len(v.Pieces), n)
			}
			for _, p := range v.Pieces {
				q, err := ParseSquare(p.Square)
				if err != nil || s.pos.board[q] == Empty || p.Kind != pieceKinds[s.pos.board[q]] {
					t.Fatalf("%s: piece %+v, the board has %d there", rs, p, s.pos.board[q])
				}
			}
			if m, ok := s.lastMove(); ok && !slices.Equal(v.Last, []string{m.From().String(), m.To().String()}) {
				t.Fatalf("%s: last %q after %s", rs, v.Last, m)
			}
			legal := s.LegalActions(nil)
			s.Apply(legal[(5*ply+1)%len(legal)])
		}
	}
}

// TestCapturesOfAreApplys: the captures a move's notation names, found
// without making the move (capturesOf), are those making it clears, for
// every legal move of every position of random games under every
// ruleset; and some of them capture, some beside a special square.
func TestCapturesOfAreApplys(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, rs := range rulesets {
		r := MustLoad(rs)
		captures, fellBack := 0, 0
		for game := 0; game < 12; game++ {
			s := r.Start()
			for i := 0; !s.over && i < 300; i++ {
				var buf [MaxMoves]Move
				moves := s.LegalMoves(buf[:0])
				for _, m := range moves {
					c := s.pos
					want, _ := r.Rules.apply(&c, m, false)
					got := r.Rules.capturesOf(&s.pos, m)
					if got != want {
						t.Fatalf("%s: %s in %s: capturesOf %v, apply %v", rs, m, s.pos.OTN(), got, want)
					}
					if want.N > 0 {
						captures++
						for d := 0; d < 4 && m != Pass; d++ {
							if b := beyond[m.To()][d]; b >= 0 && r.Rules.special.has(b) {
								fellBack++
								break
							}
						}
					}
				}
				s.ApplyMove(moves[rng.IntN(len(moves))])
			}
		}
		if captures == 0 || fellBack == 0 {
			t.Errorf("%s: %d capturing moves, %d beside a special square: too few to tell", rs, captures, fellBack)
		}
	}
}
