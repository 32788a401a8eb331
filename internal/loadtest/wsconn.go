package loadtest

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"crypto/tls"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// wsConn is the client end of a WebSocket (RFC 6455), as little as the
// load needs: text messages out, masked; messages in, whole (fragments
// joined), pings answered, a close ending it. It is read and written by
// one goroutine, the game's player, with no goroutine of its own: a
// library's connection waking a goroutine of its for each read's and
// write's deadline, and a reader goroutine handing each view to the
// player, cost the client more than the server spent on the action.
type wsConn struct {
	c   net.Conn
	br  *bufio.Reader
	out []byte // a frame being written, reused
	msg []byte // a message joined from its frames, reused
	rng uint64 // the masks' generator (xorshift: a mask need not be secret here)
}

// dialWS opens a WebSocket to the ws:// or wss:// URL u, with the
// session of browser c (its cookies for u), within ctx.
func dialWS(ctx context.Context, u string, c *http.Client) (*wsConn, error) {
	pu, err := url.Parse(u)
	if err != nil {
		return nil, err
	}
	port, origin := "80", "http://"
	switch pu.Scheme {
	case "ws":
	case "wss":
		port, origin = "443", "https://"
	default:
		return nil, fmt.Errorf("%s: not a ws:// or wss:// address", u)
	}
	host := pu.Host
	if pu.Port() == "" {
		host = net.JoinHostPort(pu.Hostname(), port)
	}
	var nc net.Conn
	if pu.Scheme == "wss" {
		d := tls.Dialer{Config: &tls.Config{ServerName: pu.Hostname()}}
		nc, err = d.DialContext(ctx, "tcp", host)
	} else {
		var d net.Dialer
		nc, err = d.DialContext(ctx, "tcp", host)
	}
	if err != nil {
		return nil, err
	}
	var key [16]byte
	rand.Read(key[:])
	k := base64.StdEncoding.EncodeToString(key[:])
	req := "GET " + pu.RequestURI() + " HTTP/1.1\r\nHost: " + pu.Host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: " + k + "\r\nSec-WebSocket-Version: 13\r\nOrigin: " + origin + pu.Host + "\r\n"
	if c != nil && c.Jar != nil {
		hu := *pu
		hu.Scheme = strings.TrimSuffix(origin, "://")
		var cs []string
		for _, ck := range c.Jar.Cookies(&hu) {
			cs = append(cs, ck.Name+"="+ck.Value)
		}
		if len(cs) > 0 {
			req += "Cookie: " + strings.Join(cs, "; ") + "\r\n"
		}
	}
	req += "\r\n"
	if dl, ok := ctx.Deadline(); ok {
		nc.SetDeadline(dl)
	} else {
		nc.SetDeadline(time.Now().Add(30 * time.Second))
	}
	if _, err := io.WriteString(nc, req); err != nil {
		nc.Close()
		return nil, err
	}
	br := bufio.NewReaderSize(nc, 16<<10)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		nc.Close()
		return nil, err
	}
	res.Body.Close()
	sum := sha1.Sum([]byte(k + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if res.StatusCode != http.StatusSwitchingProtocols || res.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		nc.Close()
		return nil, fmt.Errorf("%s: the WebSocket was refused: %s", u, res.Status)
	}
	nc.SetDeadline(time.Time{})
	var seed [8]byte
	rand.Read(seed[:])
	return &wsConn{c: nc, br: br, rng: binary.LittleEndian.Uint64(seed[:]) | 1}, nil
}

// WebSocket opcodes.
const (
	opContinuation = 0x0
	opText         = 0x1
	opBinary       = 0x2
	opClose        = 0x8
	opPing         = 0x9
	opPong         = 0xA
)

// errClosed is a WebSocket the server closed.
var errClosed = errors.New("the WebSocket closed")

// write sends payload as one masked frame of opcode op.
func (w *wsConn) write(op byte, payload []byte) error {
	b := append(w.out[:0], 0x80|op)
	switch n := len(payload); {
	case n < 126:
		b = append(b, 0x80|byte(n))
	case n < 1<<16:
		b = append(b, 0x80|126, byte(n>>8), byte(n))
	default:
		b = append(b, 0x80|127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	w.rng ^= w.rng << 13
	w.rng ^= w.rng >> 7
	w.rng ^= w.rng << 17
	var mask [4]byte
	binary.LittleEndian.PutUint32(mask[:], uint32(w.rng))
	b = append(b, mask[:]...)
	start := len(b)
	b = append(b, payload...)
	for i := range b[start:] {
		b[start+i] ^= mask[i&3]
	}
	w.out = b
	_, err := w.c.Write(b)
	return err
}

// writeText sends a text message.
func (w *wsConn) writeText(payload []byte) error { return w.write(opText, payload) }

// read reads the next text or binary message, answering pings on the
// way; the deadline bounds the whole read. The message it returns is
// valid until the next read: a message of one frame already whole in the
// reader's buffer is that buffer's bytes, any other is joined in a buffer
// of the connection's.
func (w *wsConn) read(deadline time.Time) ([]byte, error) {
	w.c.SetReadDeadline(deadline)
	msg := w.msg[:0]
	var hdr [14]byte
	for {
		if _, err := io.ReadFull(w.br, hdr[:2]); err != nil {
			return nil, err
		}
		fin, op := hdr[0]&0x80 != 0, hdr[0]&0x0f
		if hdr[1]&0x80 != 0 {
			return nil, errors.New("a masked frame from the server")
		}
		n := uint64(hdr[1] & 0x7f)
		switch n {
		case 126:
			if _, err := io.ReadFull(w.br, hdr[2:4]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(hdr[2:4]))
		case 127:
			if _, err := io.ReadFull(w.br, hdr[2:10]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(hdr[2:10])
		}
		if n > 1<<22 || uint64(len(msg))+n > 1<<22 {
			return nil, fmt.Errorf("a WebSocket message of more than %d bytes", 1<<22)
		}
		switch op {
		case opPing, opPong, opClose:
			var ctl [125]byte
			if n > 125 || !fin {
				return nil, errors.New("a malformed control frame")
			}
			if _, err := io.ReadFull(w.br, ctl[:n]); err != nil {
				return nil, err
			}
			switch op {
			case opPing:
				if err := w.write(opPong, ctl[:n]); err != nil {
					return nil, err
				}
			case opClose:
				w.write(opClose, ctl[:min(n, 2)])
				return nil, errClosed
			}
			continue
		case opText, opBinary, opContinuation:
		default:
			return nil, fmt.Errorf("a WebSocket frame of opcode %d", op)
		}
		if fin && len(msg) == 0 && uint64(w.br.Buffered()) >= n {
			// The reader's buffer is not filled again before the next
			// read: the bytes stay as they are until then.
			whole, _ := w.br.Peek(int(n))
			w.br.Discard(int(n))
			return whole, nil
		}
		start := len(msg)
		msg = slices.Grow(msg, int(n))[:start+int(n)]
		if _, err := io.ReadFull(w.br, msg[start:]); err != nil {
			return nil, err
		}
		w.msg = msg
		if fin {
			return msg, nil
		}
	}
}

// close closes the connection at once (the server sees it end).
func (w *wsConn) close() { w.c.Close() }
