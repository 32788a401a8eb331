package events

import (
	"context"
	"sync/atomic"
	"testing"
)

// TestListenersHearEachEventOnce: every listener hears each event once,
// outside the publisher (which goes on at once); a nil hub or a stopped
// one tells nobody.
func TestListenersHearEachEventOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	h := New(ctx)
	var a, b atomic.Int32
	release := make(chan struct{})
	h.OnGameFinished(func(_ context.Context, e GameFinished) {
		<-release
		if e.Game == "g1" {
			a.Add(1)
		}
	})
	h.OnGameFinished(func(context.Context, GameFinished) { b.Add(1) })
	h.GameFinished(GameFinished{Game: "g1"}) // returns though the first listener waits
	close(release)
	h.Wait()
	if a.Load() != 1 || b.Load() != 1 {
		t.Fatalf("heard %d and %d times, want once each", a.Load(), b.Load())
	}
	var none *Hub
	none.GameFinished(GameFinished{Game: "g2"})
	cancel()
	h.GameFinished(GameFinished{Game: "g3"})
	h.Wait()
	if b.Load() != 1 {
		t.Fatalf("a stopped hub told its listeners: %d", b.Load())
	}
}
