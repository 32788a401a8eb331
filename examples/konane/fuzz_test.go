package konane

import (
	"errors"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

// FuzzParseState: any text is a position that writes itself back the same,
// or an error wrapping game.ErrSyntax; never a panic.
func FuzzParseState(f *testing.F) {
	g := MustLoad("", game.KV{Key: "size", Value: "6"})
	for _, seed := range []string{g.Start().String(), "board=6/6/6/2w3/2w3/bw1w2 to=black", "board=6/6/6/6/bw4/6 to=black again=a2:east", "board=16/6 to=x", "board=99999999999999999999/6"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := g.Parse(text)
		if err != nil {
			if !errors.Is(err, game.ErrSyntax) {
				t.Fatalf("Parse(%q): %v does not wrap ErrSyntax", text, err)
			}
			return
		}
		back, err := g.Parse(s.String())
		if err != nil || back.String() != s.String() || back.Hash() != s.Hash() {
			t.Fatalf("Parse(%q) = %s, which reads back as %v (%v)", text, s, back, err)
		}
		for _, a := range s.LegalActions(nil) {
			s.Copy().Apply(a)
		}
	})
}

// FuzzParseAction: any text is a legal action that writes itself back, or
// an error wrapping game.ErrIllegal.
func FuzzParseAction(f *testing.F) {
	g := MustLoad("suggested")
	s := g.Start()
	play := []string{"e4", "e5", "c4-e4"}
	for _, seed := range append(play, "pass", "a1-a3", "", "z9", "e4-e4-e4") {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, st := range []*State{s, afterTwo(g)} {
			a, err := st.ParseAction(text)
			if err != nil {
				if !errors.Is(err, game.ErrIllegal) {
					t.Fatalf("ParseAction(%q): %v", text, err)
				}
				continue
			}
			if w := st.ActionString(a); !strings.EqualFold(w, strings.TrimSpace(text)) {
				t.Fatalf("ParseAction(%q) = %s", text, w)
			}
		}
	})
}

func afterTwo(g *Game) *State {
	s := g.Start()
	s.Apply(Lift(3*g.Size + 4)) // e4
	s.Apply(Lift(4*g.Size + 4)) // e5
	return s
}

// FuzzReadRecord: any text is a record or an error; a record read is
// written and read back to the same actions.
func FuzzReadRecord(f *testing.F) {
	g := MustLoad("suggested")
	f.Add("[game:konane(suggested)]\n\n1. black: e4\n2. white: e5\n3. black: c4-e4\n")
	f.Add("[game:konane(suggested)]\n[position:board=8/8/8/8/8/8/bw6/8 to=black]\n1. black: a2-c2\n")
	f.Add("[game:tablut]\n1. black: e4\n")
	f.Add("1. chance: x\n[x]\n")
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := g.ReadRecord(strings.NewReader(text))
		if err != nil {
			return
		}
		s, err := game.Replay(rec)
		if err != nil {
			return
		}
		var b strings.Builder
		written := game.NewRecord(rec.Start, s, rec.Tags...)
		if err := g.WriteRecord(&b, written); err != nil {
			t.Fatalf("writing the record of %q: %v", text, err)
		}
		back, err := g.ReadRecord(strings.NewReader(b.String()))
		if err != nil || strings.Join(back.Actions, " ") != strings.Join(written.Actions, " ") || len(back.Actions) != len(rec.Actions) {
			t.Fatalf("%q wrote %q, read back as %v (%v)", text, b.String(), back, err)
		}
	})
}
