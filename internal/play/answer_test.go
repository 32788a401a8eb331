package play

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestAnswerIsTheChangesOwnView: a change is answered with the view it
// published, though the game changed again before the answer was written
// (the computer's quick reply, once the room's turn is let go): the
// answer to a move at ply 0 is the view at ply 1.
func TestAnswerIsTheChangesOwnView(t *testing.T) {
	h := newHarness(t, 2, 16)
	c := h.create(createRequest{Game: "tablut", Opponent: "local", Side: "attackers"})
	first := h.view(c.ID).Legal[0].Text
	r := httptest.NewRequest("POST", "/api/games/"+c.ID+"/act", nil)
	r.SetPathValue("id", c.ID)
	w := httptest.NewRecorder()
	err := h.gs.answer(w, r, func(rm *room) (View, error) {
		v, err := rm.play(r.Context(), holder{secret: c.Secrets[0]}, first, 0)
		if err != nil {
			return v, err
		}
		// Another change, made before the answer is written.
		next := game.DescribeLegal(rm.s)[0].Text
		if _, err := rm.play(r.Context(), holder{secret: c.Secrets[1]}, next, 1); err != nil {
			t.Fatal(err)
		}
		return v, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var got View
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || w.Code != http.StatusOK {
		t.Fatalf("answer %d %v", w.Code, err)
	}
	if got.Ply != 1 || len(got.History) != 1 || got.History[0] != first {
		t.Fatalf("answer at ply %d, history %v; want the move's own view, ply 1, [%s]", got.Ply, got.History, first)
	}
	if v := h.view(c.ID); v.Ply != 2 {
		t.Fatalf("the game at ply %d, want 2", v.Ply)
	}
}
