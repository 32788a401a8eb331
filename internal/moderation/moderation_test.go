package moderation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
)

// accounts is a fake identity: the header X-Player names an account.
type accounts struct{ st *store.Store }

func (a accounts) Me(r *http.Request) (*store.Player, error) {
	if n := r.Header.Get("X-Player"); n != "" {
		return a.st.PlayerNamed(r.Context(), n)
	}
	return nil, nil
}

// TestReportsAndModeration: accounts report players and chat lines (the
// line's text kept as it was); only an administrator reads and closes
// them, muting or banning; one open report of a player from one reporter
// is enough; an administrator neither mutes nor bans himself; and Check
// and CheckPlayer refuse what a mute or a ban forbids.
func TestReportsAndModeration(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "muster.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for _, n := range []string{"ann", "mal", "judge"} {
		st.CreatePlayer(ctx, &store.Player{ID: "id-" + n})
		if err := st.Register(ctx, "id-"+n, n, n, "hash"); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetAdmin(ctx, "judge", true); err != nil {
		t.Fatal(err)
	}
	line := &store.Message{Game: "g1", Room: store.ChatSpectators, Player: "id-mal", Name: "mal", Text: "something rude"}
	if err := st.AddMessage(ctx, line); err != nil {
		t.Fatal(err)
	}
	api := &httpx.API{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 16}
	mux := http.NewServeMux()
	New(st, api, accounts{st}).Routes(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	call := func(who, method, path string, body, out any) int {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Player", who)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if out != nil {
			json.NewDecoder(res.Body).Decode(out)
		}
		return res.StatusCode
	}
	if code := call("ann", "POST", "/api/reports", map[string]any{"game": "g1", "line": line.ID, "reason": "insults"}, nil); code != http.StatusCreated {
		t.Fatalf("a report of a line: %d", code)
	}
	if code := call("ann", "POST", "/api/reports", map[string]any{"game": "g1", "line": line.ID, "reason": "again"}, nil); code != http.StatusConflict {
		t.Fatalf("the same report while open: %d", code)
	}
	if code := call("", "POST", "/api/reports", map[string]any{"username": "mal", "reason": "x"}, nil); code != http.StatusForbidden {
		t.Fatalf("a report by nobody: %d", code)
	}
	if code := call("ann", "GET", "/api/reports", nil, nil); code != http.StatusForbidden {
		t.Fatalf("the reports read by a non-administrator: %d", code)
	}
	var rs []struct{ ID, Quoted, Target string }
	if code := call("judge", "GET", "/api/reports", nil, &rs); code != http.StatusOK || len(rs) != 1 || rs[0].Quoted != "something rude" || rs[0].Target != "mal" {
		t.Fatalf("the reports: %d %+v", code, rs)
	}
	if code := call("judge", "POST", "/api/reports/"+rs[0].ID+"/close", map[string]string{"resolution": "muted"}, nil); code != http.StatusOK {
		t.Fatalf("close as muted: %d", code)
	}
	mal, _ := st.PlayerNamed(ctx, "mal")
	if !errors.Is(Check(mal, true), ErrMuted) || Check(mal, false) != nil {
		t.Fatalf("a muted player: chat %v, play %v", Check(mal, true), Check(mal, false))
	}
	if code := call("judge", "POST", "/api/admin/players/mal", map[string]any{"banned": true}, nil); code != http.StatusOK {
		t.Fatalf("ban: %d", code)
	}
	if err := CheckPlayer(ctx, st, "id-mal", false); !errors.Is(err, ErrBanned) {
		t.Fatalf("the banned seat's player: %v", err)
	}
	if err := CheckPlayer(ctx, st, "", true); err != nil {
		t.Fatalf("nobody: %v", err)
	}
	if code := call("judge", "POST", "/api/admin/players/judge", map[string]any{"banned": true}, nil); code != http.StatusForbidden {
		t.Fatalf("an administrator banned himself: %d", code)
	}
	if Visible("fine text") != nil || !errors.Is(Visible("a\u202eb"), ErrInvisible) {
		t.Fatal("Visible")
	}
}
