package otep

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/tablut"
)

// hostWithEngine hosts Muster's own engine, in process, through pipes.
func hostWithEngine(t *testing.T, g game.Game) (*Host, *bytes.Buffer) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	e := &Engine{NewPlayer: alphaBeta, MoveTime: 20 * time.Millisecond, Log: io.Discard}
	go func() {
		e.Run(context.Background(), inR, outW)
		outW.Close()
	}()
	var traffic bytes.Buffer
	h, err := NewHost(inW, outR, g, 30*time.Millisecond, &traffic)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h, &traffic
}

// TestHostPlaysAGame: the host tells an OTEP engine the rules, the
// opponent's moves with the positions after them and a clock, and the
// engine's moves come back legal, a whole game long, on either side and
// under each ruleset OTN can state.
func TestHostPlaysAGame(t *testing.T) {
	for _, ruleset := range []string{"opentafl", "linnaeus", "foteviken"} {
		for _, engineSide := range []tablut.Side{tablut.Attackers, tablut.Defenders} {
			g := tablut.MustLoad(ruleset)
			h, traffic := hostWithEngine(t, g)
			s := g.Start()
			rng := rand.New(rand.NewPCG(1, uint64(engineSide)))
			for ply := 0; !s.IsTerminal() && ply < 200; ply++ {
				p := s.Position()
				if p.ToMove() != engineSide {
					s.Apply(s.RandomAction(rng))
					continue
				}
				text, err := h.Act(context.Background(), s, 0)
				if err != nil {
					t.Fatalf("%s, engine %s, ply %d: %v\n%s", ruleset, engineSide, ply, err, traffic)
				}
				a, err := s.ParseAction(text)
				if err != nil {
					t.Fatalf("%s ply %d: the engine's move %q: %v", ruleset, ply, text, err)
				}
				s.Apply(a)
			}
			tr := traffic.String()
			if !strings.HasPrefix(tr, "> rules "+g.OTNRules()) || !strings.Contains(tr, "> play "+engineSide.String()) ||
				!strings.Contains(tr, "> clock 30* 30* 1 1 1") {
				t.Errorf("%s: traffic\n%.600s", ruleset, tr)
			}
			if engineSide == tablut.Defenders && !strings.Contains(tr, "> opponent-move ") {
				t.Errorf("%s: no opponent-move told", ruleset)
			}
		}
	}
}

// TestHostResyncs: a state that does not follow what the engine was told
// (a takeback) is sent as a position.
func TestHostResyncs(t *testing.T) {
	g := tablut.MustLoad("opentafl")
	h, traffic := hostWithEngine(t, g)
	s := g.Start()
	rng := rand.New(rand.NewPCG(5, 6))
	if _, err := h.Act(context.Background(), s, 0); err != nil {
		t.Fatal(err)
	}
	other := g.Start()
	other.Apply(other.RandomAction(rng))
	other.Apply(other.RandomAction(rng))
	if _, err := h.Act(context.Background(), other, 0); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(traffic.String(), "> position ") {
		t.Errorf("no position sent:\n%s", traffic)
	}
}

// TestHostRefuses: a game other than tafl, and Tablut rules OTN cannot
// state exactly (Bologna's camp rules), are refused before any engine
// plays them.
func TestHostRefuses(t *testing.T) {
	_, w := io.Pipe()
	r, _ := io.Pipe()
	if _, err := NewHost(w, r, lanrick.MustLoad("1893"), time.Second, nil); !errors.Is(err, ErrNotTafl) {
		t.Errorf("lanrick: %v", err)
	}
	if _, err := NewHost(w, r, tablut.MustLoad("ashton"), time.Second, nil); err == nil || !strings.Contains(err.Error(), "cannot be told") {
		t.Errorf("ashton: %v", err)
	}
}

// FuzzHostEngineLines: whatever an engine answers to "play" — a move in
// any form, garbage, an error, nothing — the host returns a legal move's
// text or an error, and never panics.
func FuzzHostEngineLines(f *testing.F) {
	f.Add("move a4-a3")
	f.Add("move a4-a3xb3 /9/9/9/9/9/9/9/9/9/")
	f.Add("status thinking\nmove e1-e9")
	f.Add("error -1 no")
	f.Add("move")
	f.Add("move \x00\xff")
	f.Fuzz(func(t *testing.T, answer string) {
		g := tablut.MustLoad("opentafl")
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		go func() {
			defer outW.Close()
			buf := make([]byte, 4096)
			var seen string
			for !strings.Contains(seen, "play ") {
				n, err := inR.Read(buf)
				if err != nil {
					return
				}
				seen += string(buf[:n])
			}
			io.WriteString(outW, answer+"\n")
			io.Copy(io.Discard, inR)
		}()
		h, err := NewHost(inW, outR, g, 10*time.Millisecond, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		s := g.Start()
		text, err := h.Act(ctx, s, 10*time.Millisecond)
		if err == nil {
			if _, perr := s.ParseAction(text); perr != nil {
				t.Fatalf("answer %q: move %q is not legal: %v", answer, text, perr)
			}
		}
	})
}
