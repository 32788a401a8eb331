package loadtest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"testing"
)

// wholeView is a view as encoding/json reads the fields the load needs
// of a view on the socket, the legal actions' texts decoded: what
// readView must agree with.
type wholeView struct {
	Ply    int    `json:"ply"`
	Status string `json:"status"`
	ToAct  int    `json:"to_act"`
	Legal  []struct {
		Text string `json:"text"`
	} `json:"legal"`
	History []string `json:"history"`
}

// sameAsWhole fails t where readView reads data otherwise than
// encoding/json does; data that encoding/json refuses is let be.
func sameAsWhole(t *testing.T, data []byte) {
	t.Helper()
	var want wholeView
	if json.Unmarshal(data, &want) != nil {
		return
	}
	got, err := readView(data)
	if err != nil {
		t.Fatalf("readView(%q): %v; encoding/json reads it", data, err)
	}
	texts := []string{}
	for _, a := range got.legal {
		text, err := actionText(a)
		if err != nil {
			t.Fatalf("readView(%q): action %q: %v", data, a, err)
		}
		texts = append(texts, text)
	}
	wantTexts := []string{}
	for _, a := range want.Legal {
		wantTexts = append(wantTexts, a.Text)
	}
	if got.Ply != want.Ply || got.Status != want.Status || got.ToAct != want.ToAct || !reflect.DeepEqual(texts, wantTexts) {
		t.Fatalf("readView(%q) = ply %d, status %q, to act %d, legal %q; encoding/json: %d, %q, %d, %q",
			data, got.Ply, got.Status, got.ToAct, texts, want.Ply, want.Status, want.ToAct, wantTexts)
	}
	// The stored game's history, read at the end of each game.
	history, err := readHistory(data)
	if err != nil || len(history) != len(want.History) || len(history) > 0 && !reflect.DeepEqual(history, want.History) {
		t.Fatalf("readHistory(%q) = %q, %v; encoding/json: %q", data, history, err, want.History)
	}
}

// TestReadViewAsEncodingJSON: the server's views of each game, at its
// start and after some moves, read as encoding/json reads them.
func TestReadViewAsEncodingJSON(t *testing.T) {
	url := serve(t)
	ctx := context.Background()
	for _, g := range []string{"tablut", "lanrick"} {
		var created struct {
			ID      string   `json:"id"`
			Secrets []string `json:"secrets"`
		}
		if err := post(ctx, url+"/api/games", map[string]string{"game": g, "opponent": "local", "side": "random"}, &created); err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 6; ply++ {
			res, err := http.Get(url + "/api/games/" + created.ID)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(res.Body)
			res.Body.Close()
			sameAsWhole(t, data)
			v, _ := readView(data)
			if len(v.legal) == 0 || v.ToAct < 0 {
				break
			}
			text, _ := actionText(v.legal[len(v.legal)/2])
			if err := post(ctx, url+"/api/games/"+created.ID+"/act", map[string]any{"secret": created.Secrets[v.ToAct], "action": text, "ply": v.Ply}, nil); err != nil {
				t.Fatalf("%s: %s: %v", g, text, err)
			}
		}
	}
}

// FuzzReadView: whatever encoding/json reads, readView reads alike, and
// nothing makes it fail otherwise than with an error.
func FuzzReadView(f *testing.F) {
	for _, s := range []string{
		`{"ply":3,"status":"playing","to_act":1,"legal":[{"text":"a4-a3","kind":"move","squares":["a4","a3"]},{"text":"pass"}],"history":["e1-e2","x"]}`,
		`{"legal":null,"ply":0}`,
		`{"legal":[],"turns":[{"actions":["a\"b"],"labels":[]}],"board":{"cells":[[1,2],[3]]}}`,
		`{"PLY":2,"Legal":[null,{"TEXT":"z"}],"status":"over"}`,
		` { "ply" : 1 , "history" : [ "a" ] } `,
		`{"ply":1e2}`, `{"ply":"1"}`, `{}`, `[]`, `{"a":tru}`, `{"a":"\u00e9\\"}`,
		`{"status":"a\\\"b\\","ply":-0,"to_act":99999999999999999999}`, `{"st\u0061tus":"x\ty"}`, "{\"status\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		readView(data)
		sameAsWhole(t, data)
	})
}

// BenchmarkReadView reads a view of Tablut's start, as the load reads
// each view on a game's socket.
func BenchmarkReadView(b *testing.B) {
	url := serve(b)
	var created struct {
		ID string `json:"id"`
	}
	if err := post(context.Background(), url+"/api/games", map[string]string{"game": "tablut", "opponent": "local"}, &created); err != nil {
		b.Fatal(err)
	}
	res, err := http.Get(url + "/api/games/" + created.ID)
	if err != nil {
		b.Fatal(err)
	}
	data, _ := io.ReadAll(res.Body)
	res.Body.Close()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if v, err := readView(data); err != nil || len(v.legal) == 0 {
			b.Fatal(v, err)
		}
	}
}
