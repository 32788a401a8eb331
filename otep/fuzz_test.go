package otep

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
)

// FuzzEngineLines: whatever lines come on its input — OpenTafl's, cut,
// mixed or garbled — the engine answers or refuses each without
// panicking, and leaves once its input ends. The seeds are the real
// sessions OpenTafl 0.4.8 held with Muster (testdata/*.log), whole and
// line by line.
func FuzzEngineLines(f *testing.F) {
	names, err := filepath.Glob("testdata/*.log")
	if err != nil || len(names) == 0 {
		f.Fatalf("no sessions: %v", err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		f.Add(strings.Join(lines[:min(len(lines), 12)], "\n"))
		for _, l := range lines[:min(len(lines), 30)] {
			f.Add(l)
		}
	}
	f.Add("rules dim:9\nplay attackers\n")
	f.Add("position /9/9/9/9/9/9/9/9/9/\nanalyze 3 1\n")
	quick := func(g game.Game) (Player, error) { return agent.New("alphabeta(depth=1)", g, 1) }
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 4096 {
			return
		}
		e := &Engine{NewPlayer: quick, MoveTime: time.Millisecond, Log: io.Discard}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- e.Run(ctx, strings.NewReader(in), io.Discard) }()
		select {
		case <-done:
		case <-ctx.Done():
			t.Fatalf("the engine did not leave when its input ended: %q", in)
		}
	})
}
