package konane

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/game/gametest"
)

// The tests are named after the rules of docs/konane.md.

func TestConformance(t *testing.T) {
	for _, spec := range []string{"konane", "konane(suggested)", "konane(size=6)", "konane(observed,size=16)"} {
		t.Run(spec, func(t *testing.T) {
			g, err := game.Load(spec)
			if err != nil {
				t.Fatal(err)
			}
			gametest.Run(t, g, gametest.Options{Games: 20, Seed: 7})
		})
	}
}

// legal writes the legal actions of s, sorted.
func legal(s game.State) []string {
	var out []string
	for _, a := range s.LegalActions(nil) {
		out = append(out, s.ActionString(a))
	}
	slices.Sort(out)
	return out
}

func play(t *testing.T, s game.State, actions ...string) {
	t.Helper()
	if err := game.ApplyNotation(s, actions); err != nil {
		t.Fatal(err)
	}
}

func parse(t *testing.T, g *Game, text string) *State {
	t.Helper()
	s, err := g.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRule1TheBoardStartsFull(t *testing.T) {
	for _, n := range []int{6, 8, 10} {
		g := MustLoad("", game.KV{Key: "size", Value: strconv.Itoa(n)})
		v := g.Start()
		if v.gaps != 0 || v.board[0] != cellOf(White) || v.board[1] != cellOf(Black) || v.board[n] != cellOf(Black) {
			t.Fatalf("%d×%d: the start %s", n, n, v)
		}
		blacks := 0
		for sq := 0; sq < n*n; sq++ {
			if v.board[sq] == cellOf(Black) {
				blacks++
			}
		}
		if blacks != n*n/2 {
			t.Fatalf("%d×%d: %d black stones, want %d", n, n, blacks, n*n/2)
		}
	}
	if got := MustLoad("suggested").Start().String(); got != "board=bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb to=black" {
		t.Fatalf("8×8 start %s", got)
	}
}

func TestRule2BlackLiftsFromACornerOrTheCentre(t *testing.T) {
	for rs, want := range map[string][]string{"observed": {"a10", "e6", "f5", "j1"}, "suggested": {"a8", "d5", "e4", "h1"}} {
		if got := legal(MustLoad(rs).NewState()); !slices.Equal(got, want) {
			t.Errorf("%s: Black may lift %v, want %v", rs, got, want)
		}
	}
}

func TestRule3WhiteLiftsBesideTheGap(t *testing.T) {
	g := MustLoad("observed")
	for lift, want := range map[string][]string{"f5": {"e5", "f4", "f6", "g5"}, "j1": {"i1", "j2"}, "a10": {"a9", "b10"}} {
		s := g.NewState()
		play(t, s, lift)
		if got := legal(s); !slices.Equal(got, want) || s.ToAct() != White {
			t.Errorf("after %s: White (to act %d) may lift %v, want %v", lift, s.ToAct(), got, want)
		}
	}
}

func TestRule4EveryMoveIsAJumpAlongARowOrColumn(t *testing.T) {
	g := MustLoad("", game.KV{Key: "size", Value: "6"})
	// Black's b2 has an empty square beside it (no slide), a white stone
	// diagonally with a gap beyond (no diagonal jump), and a white stone
	// east with a gap beyond: one jump.
	s := parse(t, g, "board=6/6/6/2w3/1bw3/6 to=black")
	if got := legal(s); !slices.Equal(got, []string{"b2-d2"}) {
		t.Fatalf("legal %v, want only the jump b2-d2", got)
	}
	play(t, s, "b2-d2")
	if s.board[1*6+1] != empty || s.board[1*6+2] != empty || s.board[1*6+3] != cellOf(Black) {
		t.Fatalf("after b2-d2: %s", s)
	}
	if want := "board=6/6/6/2w3/3b2/6 to=white"; s.String() != want || !s.IsTerminal() {
		t.Fatalf("after b2-d2: %s (over %v), want %s, over", s, s.IsTerminal(), want)
	}
}

func TestRule5AStoneJumpsOnInTheSameDirectionOnly(t *testing.T) {
	g := MustLoad("", game.KV{Key: "size", Value: "6"})
	// a1 jumps b1 to c1; from c1 it could jump d1 east, or c2 north
	// (another direction: not allowed).
	s := parse(t, g, "board=6/6/6/2w3/2w3/bw1w2 to=black")
	play(t, s, "a1-c1")
	if s.ToAct() != Black || !slices.Equal(legal(s), []string{"c1-e1", "pass"}) {
		t.Fatalf("after a1-c1: %d to act, legal %v; want Black again with c1-e1 or pass", s.ToAct(), legal(s))
	}
	if !strings.HasSuffix(s.String(), " again=c1:east") {
		t.Fatalf("the position does not say the stone may jump on: %s", s)
	}
	stop := s.Copy()
	play(t, stop, "pass")
	if stop.ToAct() != White {
		t.Fatalf("after pass, %d is to act", stop.ToAct())
	}
	play(t, s, "c1-e1")
	// No white stone beyond e1: the turn passes by itself.
	if s.ToAct() != White && !s.IsTerminal() {
		t.Fatalf("after c1-e1: %d to act", s.ToAct())
	}
}

func TestRule6WhoCannotJumpLoses(t *testing.T) {
	g := MustLoad("", game.KV{Key: "size", Value: "6"})
	s := parse(t, g, "board=6/6/6/6/bw4/6 to=white")
	if !s.IsTerminal() || s.Result().Winner != Black || s.Result().Reason != "white cannot jump" || s.ToAct() != game.Terminal {
		t.Fatalf("White cannot jump: over %v, result %+v", s.IsTerminal(), s.Result())
	}
	s = parse(t, g, "board=6/6/6/6/bw4/6 to=black")
	play(t, s, "a2-c2")
	if !s.IsTerminal() || s.Result().Winner != Black {
		t.Fatalf("after Black's last jump: over %v, %+v", s.IsTerminal(), s.Result())
	}
}

func TestPositionText(t *testing.T) {
	g := MustLoad("", game.KV{Key: "size", Value: "6"})
	for _, bad := range []string{
		"",
		"board=6/6/6/6/6/6",
		"board=6/6/6/6/6 to=black",
		"board=6/6/6/6/6/7 to=black",
		"board=6/6/6/6/6/bwx3 to=black",
		"board=bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb to=white",
		"board=bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbw1 to=black",
		"board=6/6/6/6/bw4/6 to=black again=a2:north",
		"board=6/6/6/6/bw4/6 to=white again=a2:east",
		"board=6/6/6/6/bw4/6 to=black again=a2",
		"board=6/6/6/6/bw4/6 to=red",
		"board=6/6/6/6/bw4/6 to=black colour=blue",
	} {
		if _, err := g.Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted it", bad)
		}
	}
}
