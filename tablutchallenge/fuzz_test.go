package tablutchallenge

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/muster-games/muster/tablut"
)

// framed wraps a payload as the server frames it: its length, 4 bytes big
// endian, then the bytes.
func framed(payload []byte) []byte {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(payload)))
	return append(n[:], payload...)
}

// FuzzReadMessage: whatever bytes come as a frame, ReadMessage reads a
// state or says why not, never panics and never reads past MaxMessage; a
// state read writes and reads back the same; and Position turns it into
// an ashton position or an error, without panicking. The seeds are the
// frames the real servers sent (testdata/*.traffic), whole, cut short and
// with a lying length.
func FuzzReadMessage(f *testing.F) {
	names, err := filepath.Glob("testdata/*.traffic")
	if err != nil || len(names) == 0 {
		f.Fatalf("no traffic: %v", err)
	}
	for _, name := range names {
		for i, l := range readTraffic(f, name) {
			if l.dir != "<-" || i > 40 {
				continue
			}
			fr := framed(l.data)
			f.Add(fr)
			f.Add(fr[:len(fr)/2])
			lying := append([]byte{0xff, 0xff, 0xff, 0xff}, l.data...)
			f.Add(lying)
		}
	}
	g := tablut.MustLoad("ashton")
	f.Fuzz(func(t *testing.T, data []byte) {
		var st State
		if err := ReadMessage(bytes.NewReader(data), &st); err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteMessage(&buf, st); err != nil {
			t.Fatalf("writing %+v: %v", st, err)
		}
		var back State
		if err := ReadMessage(&buf, &back); err != nil || !reflect.DeepEqual(normal(st), normal(back)) {
			t.Fatalf("round trip: %+v became %+v (%v)", st, back, err)
		}
		if s, err := Position(g, st); err == nil && s == nil {
			t.Fatal("Position: no position and no error")
		}
	})
}

// normal makes empty and missing rows alike (JSON writes nil as null).
func normal(st State) State {
	if len(st.Board) == 0 {
		st.Board = nil
	}
	return st
}
