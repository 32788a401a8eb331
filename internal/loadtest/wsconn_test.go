package loadtest

import (
	"bufio"
	"bytes"
	"errors"
	"net"
	"testing"
	"time"
)

// pipeConn is a wsConn whose server end is the bytes of in.
func pipeConn(in []byte) *wsConn {
	client, server := net.Pipe()
	go func() {
		server.Write(in)
		server.Close()
	}()
	go func() { // what the client writes (pongs, a close) is read and let go
		var b [512]byte
		for {
			if _, err := server.Read(b[:]); err != nil {
				return
			}
		}
	}()
	return &wsConn{c: client, br: bufio.NewReader(client), rng: 1}
}

// frame is a server's frame: unmasked.
func frame(fin bool, op byte, payload []byte) []byte {
	b := []byte{op}
	if fin {
		b[0] |= 0x80
	}
	switch n := len(payload); {
	case n < 126:
		b = append(b, byte(n))
	case n < 1<<16:
		b = append(b, 126, byte(n>>8), byte(n))
	default:
		b = append(b, 127, 0, 0, 0, 0, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
	return append(b, payload...)
}

// TestWSRead: messages whole, fragments joined, a ping answered on the
// way, a close ending it, a masked frame from the server refused.
func TestWSRead(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 70000)
	var in []byte
	in = append(in, frame(true, opText, []byte(`{"ply":1}`))...)
	in = append(in, frame(false, opText, []byte("hel"))...)
	in = append(in, frame(true, opPing, []byte("p"))...)
	in = append(in, frame(true, opContinuation, []byte("lo"))...)
	in = append(in, frame(true, opText, big)...)
	in = append(in, frame(true, opClose, []byte{3, 232})...)
	w := pipeConn(in)
	deadline := time.Now().Add(5 * time.Second)
	for _, want := range [][]byte{[]byte(`{"ply":1}`), []byte("hello"), big} {
		got, err := w.read(deadline)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("read %.20q %v, want %.20q", got, err, want)
		}
	}
	if _, err := w.read(deadline); !errors.Is(err, errClosed) {
		t.Fatalf("after the close: %v", err)
	}
	masked := frame(true, opText, []byte("x"))
	masked[1] |= 0x80
	if _, err := pipeConn(masked).read(deadline); err == nil {
		t.Fatal("a masked frame from the server was read")
	}
}

// FuzzWSRead: whatever the server sends, a read ends (a message or an
// error) without a panic, and never with more than its bound.
func FuzzWSRead(f *testing.F) {
	f.Add(frame(true, opText, []byte(`{"ply":1}`)))
	f.Add(append(frame(false, opText, []byte("a")), frame(true, opContinuation, []byte("b"))...))
	f.Add(frame(true, opPing, []byte("ping")))
	f.Add([]byte{0x81, 127, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, in []byte) {
		w := pipeConn(in)
		defer w.close()
		deadline := time.Now().Add(time.Second)
		for range 4 {
			msg, err := w.read(deadline)
			if err != nil {
				return
			}
			if len(msg) > 1<<22 {
				t.Fatalf("a message of %d bytes", len(msg))
			}
		}
	})
}
