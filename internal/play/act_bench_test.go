package play

import (
	"math/rand/v2"
	"net/http/httptest"
	"testing"

	"github.com/muster-games/muster/game"
)

// BenchmarkAct is what the server spends on a move in a live game, less
// the sockets: Games.Act, as a game's WebSocket calls it, with the
// room's turn, the move's database write (SQLite) and the view published.
// Each game of two people at one screen is played 30 random actions in,
// as muster loadtest plays it, then another is made (not timed).
func BenchmarkAct(b *testing.B) {
	cfg := testConfig
	cfg.ChangesPerMinute = 1 << 30
	h := newHarnessConfig(b, 1, 1, cfg)
	g, err := game.Load("tablut")
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	req := httptest.NewRequest("POST", "/ws/games", nil)
	var (
		id      string
		secrets []string
		s       game.State
		buf     []game.Action
	)
	next := func() {
		c := h.create(createRequest{Game: "tablut", Opponent: opponentLocal})
		id, secrets, s = c.ID, c.Secrets, g.NewState()
	}
	next()
	b.ReportAllocs()
	for b.Loop() {
		if len(s.History()) == 30 || s.IsTerminal() {
			b.StopTimer()
			next()
			b.StartTimer()
		}
		var a game.Action
		a, buf = game.RandomAction(s, rng, buf)
		text := s.ActionString(a)
		ply := len(s.History())
		if err := h.gs.Act(req, id, secrets[s.ToAct()], text, &ply); err != nil {
			b.Fatal(err)
		}
		s.Apply(a)
	}
}
