package players

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
	_ "github.com/muster-games/muster/tablut"
)

// viewer is a fake identity: the header X-Player names the player.
type viewer struct{ st *store.Store }

func (v viewer) Me(r *http.Request) (*store.Player, error) {
	id := r.Header.Get("X-Player")
	if id == "" {
		return nil, nil
	}
	return v.st.Player(r.Context(), id)
}

// TestPlayerPageAndLeaderboard: an account's page lists its games in play
// and ended, says "your turn" to its owner alone, and unknown names are
// 404; the leaderboard lists established ratings only.
func TestPlayerPageAndLeaderboard(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "muster.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for _, n := range []string{"ann", "ben"} {
		st.CreatePlayer(ctx, &store.Player{ID: n})
		if err := st.Register(ctx, n, n, n, "hash"); err != nil {
			t.Fatal(err)
		}
	}
	playing := &store.Game{ID: "g1", Spec: "tablut", DrawOffer: -1, TakebackOffer: -1, ToAct: "ann",
		Seats: []store.Seat{{Kind: store.SeatHuman, Player: "ann", Name: "ann"}, {Kind: store.SeatHuman, Player: "ben", Name: "ben"}}}
	ended := &store.Game{ID: "g2", Spec: "tablut", DrawOffer: -1, TakebackOffer: -1, Status: store.StatusOver, Result: "attackers",
		Seats: []store.Seat{{Kind: store.SeatHuman, Player: "ann", Name: "ann"}, {Kind: store.SeatAI, Agent: "easy"}}}
	for _, g := range []*store.Game{playing, ended} {
		if err := st.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	api := &httpx.API{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 16}
	mux := http.NewServeMux()
	New(st, api, viewer{st}).Routes(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	page := func(name, as string) (int, playerView) {
		req, _ := http.NewRequest("GET", srv.URL+"/api/players/"+name, nil)
		req.Header.Set("X-Player", as)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var v playerView
		json.NewDecoder(res.Body).Decode(&v)
		return res.StatusCode, v
	}
	code, v := page("Ann", "ann")
	if code != http.StatusOK || !v.Me || len(v.Playing) != 1 || len(v.Finished) != 1 || !v.Playing[0].YourTurn {
		t.Fatalf("ann's own page: %d %+v", code, v)
	}
	if _, v := page("ann", "ben"); v.Me || v.Playing[0].YourTurn {
		t.Fatalf("ann's page as ben sees it: %+v", v)
	}
	if code, _ := page("nobody", ""); code != http.StatusNotFound {
		t.Fatalf("an unknown name: %d", code)
	}
	// Ratings, as a rated game's end stores them: ann's established, ben's
	// provisional.
	rated := &store.Game{ID: "r1", Spec: "tablut", DrawOffer: -1, TakebackOffer: -1, Rated: true,
		Seats: []store.Seat{{Kind: store.SeatHuman, Player: "ann"}, {Kind: store.SeatHuman, Player: "ben"}}}
	if err := st.Create(ctx, rated); err != nil {
		t.Fatal(err)
	}
	rated.Status, rated.Result = store.StatusOver, "attackers"
	if err := st.FinishRated(ctx, rated, 0, []store.Rating{
		{Player: "ann", Game: "tablut", R: 1650, RD: 60, Vol: 0.06, Games: 20, Updated: time.Now()},
		{Player: "ben", Game: "tablut", R: 1700, RD: 300, Vol: 0.06, Games: 1, Updated: time.Now()},
	}); err != nil {
		t.Fatal(err)
	}
	res, err := http.Get(srv.URL + "/api/leaderboard/tablut")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var rows []leaderRow
	json.NewDecoder(res.Body).Decode(&rows)
	if len(rows) != 1 || rows[0].Username != "ann" || rows[0].Rating != 1650 {
		t.Fatalf("the leaderboard: %+v, want ann alone (ben is provisional)", rows)
	}
	if res, _ := http.Get(srv.URL + "/api/leaderboard/chess"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("an unknown game's leaderboard: %d", res.StatusCode)
	}
	if _, v := page("ben", ""); !v.Ratings["tablut"].Provisional || v.Ratings["tablut"].Games != 1 {
		t.Fatalf("ben's rating on his page: %+v", v.Ratings)
	}
}
