package lanrick

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestRecordRoundTrip: greedy games of every ruleset written as records
// read back to the same game string, actions and end.
func TestRecordRoundTrip(t *testing.T) {
	for i, rs := range rulesets {
		g := MustLoad(rs, game.KV{Key: "no_progress", Value: "40"})
		rng := rand.New(rand.NewPCG(uint64(i), 5))
		s := g.Start()
		for !s.over {
			if s.toAct == -1 {
				outs := s.ChanceOutcomes(nil)
				s.Apply(outs[rng.IntN(len(outs))].Action)
				continue
			}
			s.Apply(greedy(s, s.LegalActions(nil), rng))
		}
		rec := game.NewRecord("", s, game.KV{Key: "event", Value: "test"}, game.KV{Key: "result", Value: game.ResultName(s)})
		var b bytes.Buffer
		if err := g.WriteRecord(&b, rec); err != nil {
			t.Fatalf("%s: %v", rs, err)
		}
		text := b.String()
		if !strings.HasPrefix(text, "[game:"+g.Spec()+"]") || !strings.Contains(text, "\n1. ") {
			t.Fatalf("%s: record:\n%s", rs, text)
		}
		back, err := g.ReadRecord(strings.NewReader(text))
		if err != nil {
			t.Fatalf("%s: %v\n%s", rs, err, text)
		}
		if back.Spec != g.Spec() || strings.Join(back.Actions, "|") != strings.Join(rec.Actions, "|") || back.Tag("event") != "test" {
			t.Fatalf("%s: read back %+v", rs, back)
		}
		r, err := game.Replay(back)
		if err != nil {
			t.Fatalf("%s: replay: %v", rs, err)
		}
		if r.String() != s.String() {
			t.Fatalf("%s: replay ends at\n%s\nwant\n%s", rs, r, s)
		}
	}
}

func TestRecordErrors(t *testing.T) {
	g := MustLoad("1893")
	for in, why := range map[string]string{
		"[game:lanrick(1893)\n":                "[key:value]",
		"1 black: mark d5":                     "want a turn",
		"2. black: mark d5":                    "want a turn such as \"1.",
		"1. green: mark d5":                    "want a turn",
		"1. black: mark a1":                    "first mark goes on c6",
		"[game:lanrick(1894)]\n1. black: pass": "unknown ruleset",
	} {
		rec, err := g.ReadRecord(strings.NewReader(in))
		if err == nil {
			_, err = game.Replay(rec)
		}
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want %q", in, err, why)
		}
	}
}

func FuzzParsePosition(f *testing.F) {
	for _, rs := range rulesets {
		f.Add(MustLoad(rs).Start().String())
	}
	f.Add("board=8/8/8/8/8/8/8/8")
	f.Add("board=1b2w2b/w7/8/7w/b7/8/7b/w2b2w1 phase=swap swap=a1/2 setter=black mark=d4 size=3 line=ne")
	for _, ph := range phaseNames {
		f.Add("board=b7/8/8/3bw3/8/8/8/7w to=black phase=" + ph + " mark=e5 setter=white placer=black placed=10 lost=white mstart=black")
	}
	games := map[string]*Game{}
	for _, rs := range rulesets {
		games[rs] = MustLoad(rs)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for rs, g := range games {
			s, err := g.Parse(text)
			if err != nil {
				continue
			}
			back, err := g.Parse(s.String())
			if err != nil {
				t.Fatalf("%s: %q re-read from %q: %v", rs, s.String(), text, err)
			}
			if back.String() != s.String() || back.Hash() != s.Hash() {
				t.Fatalf("%s: round trip of %q changed it", rs, text)
			}
			// Whatever was parsed can be played on without a panic.
			for _, a := range s.LegalActions(nil) {
				c := s.Copy()
				c.Apply(a)
				_ = c.String()
			}
			for _, o := range s.ChanceOutcomes(nil) {
				c := s.Copy()
				c.Apply(o.Action)
			}
		}
	})
}

func FuzzParseAction(f *testing.F) {
	for _, a := range []string{"@c1", "c3-e5", "c1~f1", "mark d5", "mark d5 ne", "mark>e6", "interchange", "no-interchange", "swap e8", "x e5", "end", "pass", "roll 4", "mark", "x"} {
		f.Add(a)
	}
	starts := []*State{MustLoad("1893").Start(), MustLoad("1881").Start()}
	s := MustLoad("1893").Start()
	playAll(f, s, "mark d5 no-interchange")
	starts = append(starts, s)
	f.Fuzz(func(t *testing.T, text string) {
		for _, st := range starts {
			c := st.Copy()
			a, err := c.ParseAction(text)
			if err != nil {
				continue
			}
			if !c.IsLegal(a) {
				t.Fatalf("ParseAction(%q) returned an illegal action", text)
			}
			back, err := c.ParseAction(actionText(a))
			if err != nil || back != a {
				t.Fatalf("%q -> %q does not parse back: %v", text, actionText(a), err)
			}
			for _, part := range splitActions(text) {
				_, _ = parseActionText(part)
			}
		}
	})
}

func FuzzReadRecord(f *testing.F) {
	f.Add("[game:lanrick(1893)]\n\n1. black: mark d5\n2. white: no-interchange\n3. white: a7-a5\n")
	f.Add("[game:lanrick(1881)]\n1. black: @a1\n2. white: @h1\n")
	g := MustLoad("1893")
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := g.ReadRecord(strings.NewReader(text))
		if err != nil {
			return
		}
		s, err := game.Replay(rec)
		if err != nil {
			return
		}
		lg, ok := s.Game().(*Game)
		if !ok {
			return
		}
		var b bytes.Buffer
		if err := lg.WriteRecord(&b, game.NewRecord(rec.Start, s)); err != nil {
			t.Fatal(err)
		}
		back, err := lg.ReadRecord(&b)
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, b.String())
		}
		s2, err := game.Replay(back)
		if err != nil || s2.String() != s.String() {
			t.Fatalf("re-replay: %v\n%s", err, b.String())
		}
	})
}
