package play

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/bus"
	"github.com/muster-games/muster/internal/engine"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

// bubble is the games of a server made inside a synctest bubble, used
// without HTTP: time there is the bubble's, and passes only when every
// goroutine waits.
type bubble struct {
	t  *testing.T
	st *store.Store
	gs *Games
}

func newBubble(t *testing.T) (*bubble, func()) {
	st, err := store.Open(filepath.Join(t.TempDir(), "muster.db"))
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	api := &httpx.API{Log: log, MaxBody: 1 << 16}
	ctx, cancel := context.WithCancel(context.Background())
	gs := New(ctx, st, api, nil, engine.New(engine.Config{Slots: 2, Queue: 16}), bus.New(st, log), testConfig)
	return &bubble{t: t, st: st, gs: gs}, func() {
		cancel()
		gs.Close()
		st.Close()
	}
}

// start stores a game between two people (seat 1 a friend's invitation
// when invite) with a clock, and returns its room and the seats' secrets.
func (b *bubble) start(spec string, clock *store.Clock, invite bool) (*room, [2]string, string) {
	b.t.Helper()
	var secrets [2]string
	rec := &store.Game{ID: token.ID(), Spec: spec, DrawOffer: -1, TakebackOffer: -1, Clock: clock, Seats: make([]store.Seat, 2)}
	for p := range 2 {
		secrets[p] = token.New(16)
		rec.Seats[p] = store.Seat{Kind: store.SeatHuman, SecretHash: token.Hash(secrets[p]), Player: token.ID()}
	}
	join := ""
	if invite {
		join = token.New(16)
		rec.Seats[1] = store.Seat{Kind: store.SeatHuman, JoinHash: token.Hash(join)}
	}
	if err := b.gs.Start(context.Background(), rec); err != nil {
		b.t.Fatal(err)
	}
	return b.gs.loaded(rec.ID), secrets, join
}

func (b *bubble) play(r *room, secret, action string) View {
	b.t.Helper()
	v, err := r.play(context.Background(), holder{secret: secret}, action, len(r.snap.Load().rec.Actions))
	if err != nil {
		b.t.Fatalf("%s: %v", action, err)
	}
	return v
}

// TestClockInTime: in the bubble's time, a friend game's clock stands
// still for an hour while the friend's seat is empty and before the
// first move; once both have happened it runs, the increment is added
// when a turn ends, and the server's timer ends the game exactly when the
// player to act runs out: still playing a second before, lost a second
// after.
func TestClockInTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, done := newBubble(t)
		defer done()
		base := int64(3 * time.Minute / time.Millisecond)
		clock := &store.Clock{BaseMS: base, IncMS: 2000, LeftMS: [2]int64{base, base}, SinceMS: time.Now().UnixMilli()}
		r, secrets, invite := b.start("tablut", clock, true)
		time.Sleep(time.Hour)
		synctest.Wait()
		if sn := r.snap.Load(); sn.rec.Status != store.StatusPlaying || sn.clockRuns {
			t.Fatalf("an hour with the friend's seat empty: %s, clock runs %v", sn.rec.Status, sn.clockRuns)
		}
		b.play(r, secrets[0], "a4-a3")
		time.Sleep(time.Hour)
		synctest.Wait()
		if sn := r.snap.Load(); sn.rec.Status != store.StatusPlaying || sn.clockRuns {
			t.Fatalf("an hour after the first move, the friend not come: %s, clock runs %v", sn.rec.Status, sn.clockRuns)
		}
		me := &store.Player{ID: token.ID()}
		_, friend, err := r.join(context.Background(), invite, me)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		v := b.play(r, friend, "e3-f3")
		if v.Clock.LeftMS[1] != base-10000+2000 || v.Clock.Running != 0 {
			t.Fatalf("the friend's clock after 10 s and his move: %+v", v.Clock)
		}
		// The attackers have 3 minutes: a second short of them, playing.
		time.Sleep(3*time.Minute - time.Second)
		synctest.Wait()
		if sn := r.snap.Load(); sn.rec.Status != store.StatusPlaying {
			t.Fatalf("a second before the flag: %s %s", sn.rec.Status, sn.rec.Reason)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		sn := r.snap.Load()
		if sn.rec.Status != store.StatusOver || sn.rec.Result != "defenders" || !strings.Contains(sn.rec.Reason, "attackers lost on time") {
			t.Fatalf("a second after the flag: %s %s %s", sn.rec.Status, sn.rec.Result, sn.rec.Reason)
		}
		if sn.view.Clock.LeftMS[0] != 0 {
			t.Fatalf("the flag's clock: %+v", sn.view.Clock)
		}
	})
}

// TestEvictInTime: a room nobody uses leaves memory once it has been idle
// longer than the eviction's age, not before, and comes back whole.
func TestEvictInTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, done := newBubble(t)
		defer done()
		r, secrets, _ := b.start("tablut", nil, false)
		b.play(r, secrets[0], "a4-a3")
		time.Sleep(9 * time.Minute)
		if n := b.gs.Evict(10 * time.Minute); n != 0 {
			t.Fatalf("evicted after 9 idle minutes: %d", n)
		}
		time.Sleep(2 * time.Minute)
		if n := b.gs.Evict(10 * time.Minute); n != 1 {
			t.Fatalf("evicted after 11 idle minutes: %d, want 1", n)
		}
		again, err := b.gs.room(context.Background(), r.id)
		if err != nil || again == r || again.snap.Load().view.Ply != 1 {
			t.Fatalf("loaded again: %v, same room %v", err, again == r)
		}
	})
}

// TestCorrespondenceFlagInTime: a game of a day a move, whose room has
// left memory, is ended by the deadline sweep once the day has passed.
func TestCorrespondenceFlagInTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, done := newBubble(t)
		defer done()
		day := int64(24 * time.Hour / time.Millisecond)
		r, secrets, _ := b.start("tablut", &store.Clock{BaseMS: day, LeftMS: [2]int64{day, day}, SinceMS: time.Now().UnixMilli(), DaysPerMove: 1}, false)
		b.play(r, secrets[0], "a4-a3")
		time.Sleep(11 * time.Minute)
		if n := b.gs.Evict(10 * time.Minute); n != 1 {
			t.Fatalf("a correspondence game idle 11 minutes stays in memory: %d evicted", n)
		}
		time.Sleep(23 * time.Hour)
		if n := b.gs.FlagOverdue(); n != 0 {
			t.Fatalf("overdue before the day is out: %d", n)
		}
		time.Sleep(time.Hour)
		if n := b.gs.FlagOverdue(); n != 1 {
			t.Fatalf("overdue once the day is out: %d, want 1", n)
		}
		rec, err := b.st.Get(context.Background(), r.id)
		if err != nil || rec.Status != store.StatusOver || rec.Result != "attackers" {
			t.Fatalf("after the sweep: %+v %v", rec, err)
		}
	})
}

// TestUnbegunGamesAborted: a game in which nobody makes the first move is
// aborted after a day (a correspondence game of three days a move, after
// three), not before; a game begun is not (hostile finding, low: such a
// game waited for ever).
func TestUnbegunGamesAborted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, done := newBubble(t)
		defer done()
		idle, _, _ := b.start("tablut", nil, false)
		begun, secrets, _ := b.start("tablut", nil, false)
		b.play(begun, secrets[0], "a4-a3")
		three := int64(3 * 24 * time.Hour / time.Millisecond)
		slow, _, _ := b.start("tablut", &store.Clock{BaseMS: three, LeftMS: [2]int64{three, three}, SinceMS: time.Now().UnixMilli(), DaysPerMove: 3}, false)
		time.Sleep(23 * time.Hour)
		if n := b.gs.AbortUnbegun(); n != 0 {
			t.Fatalf("aborted %d before a day", n)
		}
		time.Sleep(2 * time.Hour)
		if n := b.gs.AbortUnbegun(); n != 1 {
			t.Fatalf("aborted %d after a day, want the one game nobody began", n)
		}
		if sn := idle.snap.Load(); sn.view.Ending != "aborted" || !strings.Contains(sn.view.Prompt.Text, "nobody made the first move") {
			t.Fatalf("the idle game: %s %q", sn.rec.Result, sn.view.Prompt.Text)
		}
		if begun.snap.Load().rec.Status != store.StatusPlaying || slow.snap.Load().rec.Status != store.StatusPlaying {
			t.Fatal("a begun game or a correspondence game within its days was aborted")
		}
		time.Sleep(48 * time.Hour)
		if n := b.gs.AbortUnbegun(); n != 1 || slow.snap.Load().view.Ending != "aborted" {
			t.Fatalf("the correspondence game after its three days: %d aborted, %s", n, slow.snap.Load().rec.Result)
		}
	})
}

// TestViewEncodingLetGoAndMadeAgain: once a change's watchers have its
// encoding, the collector takes it back, and the encoding asked for then
// is made again, the same bytes (the legal actions made again too).
func TestViewEncodingLetGoAndMadeAgain(t *testing.T) {
	b, done := newBubble(t)
	defer done()
	r, secrets, _ := b.start("tablut", nil, false)
	b.play(r, secrets[0], "d1-d3")
	sn := r.snap.Load()
	first := string(sn.encoded(b.gs))
	if !strings.Contains(first, `"legal":[{`) || !strings.Contains(first, `"d1-d3"`) {
		t.Fatalf("the view's encoding has no legal actions or no turn: %.300s", first)
	}
	for i := 0; i < 3 && sn.json.p.Value() != nil; i++ {
		runtime.GC()
	}
	if sn.json.p.Value() != nil {
		t.Fatal("the encoding is still held after three collections")
	}
	if again := string(sn.encoded(b.gs)); again != first {
		t.Fatalf("the encoding made again differs:\n%s\n%s", first, again)
	}
}

// TestPublishedLegalActionsAreTheGames: the legal actions each change
// publishes (described into a list used again by every change of every
// game) are its own game's, as described afresh, both as sent and as made
// again; the snapshot keeps no list of them.
func TestPublishedLegalActionsAreTheGames(t *testing.T) {
	b, done := newBubble(t)
	defer done()
	r1, s1, _ := b.start("tablut", nil, false)
	r2, s2, _ := b.start("tablut(linnaeus)", nil, false)
	texts := func(data []byte) []string {
		var v struct {
			Legal []struct {
				Text string `json:"text"`
			} `json:"legal"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, a := range v.Legal {
			out = append(out, a.Text)
		}
		return out
	}
	check := func(r *room) {
		t.Helper()
		sn := r.snap.Load()
		var want []string
		s := r.first.Clone()
		for _, a := range sn.history {
			s.Apply(a)
		}
		for _, a := range game.DescribeLegal(s) {
			want = append(want, a.Text)
		}
		if got := texts(sn.encoded(b.gs)); !slices.Equal(got, want) {
			t.Fatalf("after %v: published %q, want %q", sn.rec.Actions, got, want)
		}
		if got := texts(b.gs.marshalView(sn.current())); !slices.Equal(got, want) {
			t.Fatalf("after %v: made again %q, want %q", sn.rec.Actions, got, want)
		}
		if cap(sn.view.Legal) != 0 {
			t.Fatalf("the snapshot holds a list of %d legal actions", cap(sn.view.Legal))
		}
	}
	for i := range 8 {
		for j, r := range []*room{r1, r2} {
			legal := texts(r.snap.Load().encoded(b.gs))
			b.play(r, [][2]string{s1, s2}[j][i%2], legal[(7*i+j)%len(legal)])
			check(r)
		}
	}
}

// TestRoomTurnsAreTheGames: the turns each change publishes, kept by the
// room as actions come (played on the room's own states), with a
// takeback among them, are the game's turns grouped at once.
func TestRoomTurnsAreTheGames(t *testing.T) {
	b, done := newBubble(t)
	defer done()
	for _, spec := range []string{"tablut", "lanrick(1893)"} {
		r, secrets, _ := b.start(spec, nil, false)
		rng := rand.New(rand.NewPCG(7, 8))
		for i := 0; i < 40; i++ {
			sn := r.snap.Load()
			v := sn.current()
			if v.Status != store.StatusPlaying || v.ToAct < 0 {
				break
			}
			var turns struct {
				Turns json.RawMessage `json:"turns"`
			}
			if err := json.Unmarshal(sn.encoded(b.gs), &turns); err != nil {
				t.Fatal(err)
			}
			want := []byte("[]")
			if all := game.Turns(r.first, sn.history); len(all) > 0 {
				want, _ = json.Marshal(all)
			}
			if !bytes.Equal(turns.Turns, want) {
				t.Fatalf("%s at ply %d: turns %s, want %s", spec, v.Ply, turns.Turns, want)
			}
			if i == 20 {
				// A takeback: the turns are grouped again from the start.
				if _, err := r.undoTo(context.Background(), v.Ply-2); err != nil {
					t.Fatal(err)
				}
				continue
			}
			b.play(r, secrets[v.ToAct], v.Legal[rng.IntN(len(v.Legal))].Text)
		}
	}
}
