package server

import (
	"context"
	"testing"
	"time"
)

// TestPonderOnPersonsTime: the max level, whose moves have a time to
// fill, thinks on the person's time after its move, holding one engine
// token; the person's move stops it and frees the token; a level that
// searches to a fixed depth does not ponder.
func TestPonderOnPersonsTime(t *testing.T) {
	for _, c := range []struct {
		level  string
		ponder bool
	}{{"max", true}, {"hard", false}} {
		h := newHarness(t, "", testConfig())
		var cr createResponse
		if code := h.call("POST", "/api/games", createRequest{Game: "tablut", Opponent: "ai", Level: c.level, Side: "defenders"}, &cr); code != 201 {
			t.Fatalf("create: %d", code)
		}
		h.waitPly(cr.ID, 1) // the computer attacks first
		r, err := h.srv.room(context.Background(), cr.ID)
		if err != nil {
			t.Fatal(err)
		}
		r.mu.Lock()
		pondering := r.pondering.done != nil
		r.mu.Unlock()
		if pondering != c.ponder || (h.srv.ponders.Load() == 1) != c.ponder || (len(h.srv.engines) == 1) != c.ponder {
			t.Fatalf("%s: pondering %v, %d ponders, %d engine tokens taken", c.level, pondering, h.srv.ponders.Load(), len(h.srv.engines))
		}
		var v view
		if code := h.call("POST", "/api/games/"+cr.ID+"/act", actRequest{Secret: cr.Secret, Action: v0(h, cr.ID), Ply: at(1)}, &v); code != 200 {
			t.Fatalf("%s: move: %d", c.level, code)
		}
		r.mu.Lock()
		pondering = r.pondering.done != nil
		r.mu.Unlock()
		if pondering {
			t.Errorf("%s: still pondering after the person's move", c.level)
		}
		deadline := time.Now().Add(2 * time.Second)
		for len(h.srv.engines) != 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := len(h.srv.engines); n != 0 {
			t.Errorf("%s: %d engine tokens held while the computer thinks", c.level, n)
		}
		h.close()
	}
}

// v0 is the first legal action of a game's view.
func v0(h *harness, id string) string {
	var v view
	h.call("GET", "/api/games/"+id, nil, &v)
	return v.Legal[0].Text
}
