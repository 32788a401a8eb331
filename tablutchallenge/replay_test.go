package tablutchallenge

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/tablut"
)

// line is one line of traffic as the client's --traffic writes it.
type line struct {
	at   time.Duration // since the connection opened
	dir  string        // "<-" received, "->" sent, "closed"
	data []byte
}

func readTraffic(t testing.TB, path string) []line {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []line
	for i, text := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		at, rest, _ := strings.Cut(text, " ")
		secs, err := strconv.ParseFloat(at, 64)
		if err != nil {
			t.Fatalf("%s:%d: %q", path, i+1, text)
		}
		l := line{at: time.Duration(secs * float64(time.Second))}
		switch {
		case strings.HasPrefix(rest, "<- "), strings.HasPrefix(rest, "-> "):
			l.dir, l.data = rest[:2], []byte(rest[3:])
		case strings.HasPrefix(rest, "closed"):
			l.dir = "closed"
		default:
			t.Fatalf("%s:%d: %q", path, i+1, text)
		}
		out = append(out, l)
	}
	return out
}

// script plays the moves the client sent in the capture, looked up by the
// position the server had sent before each. A position comes once in a
// game under the server's rules (the first repetition draws); when the
// server asks again after refusing a move, the client chose the next move
// itself, so the script answers each position once.
type script map[string]string

func newScript(t *testing.T, lines []line) script {
	g := tablut.MustLoad("ashton")
	sc := script{}
	last := ""
	for _, l := range lines {
		switch {
		case l.dir == "<-":
			var st State
			if err := decode(l.data, &st); err != nil {
				t.Fatal(err)
			}
			if st.Turn == "WHITE" || st.Turn == "BLACK" {
				pos, err := Position(g, st)
				if err != nil {
					t.Fatal(err)
				}
				last = pos.String()
			}
		case l.dir == "->" && last != "":
			var a Action
			if err := decode(l.data, &a); err != nil {
				t.Fatal(err)
			}
			if _, ok := sc[last]; !ok {
				sc[last] = a.From + "-" + a.To
			}
		}
	}
	return sc
}

func (sc script) Act(ctx context.Context, s game.State) (search.Result, error) {
	ts := s.(*tablut.State)
	// The lookup is by board and side, as the server's states give them.
	pos, err := tablut.MustLoad("ashton").Parse(ts.String())
	if err != nil {
		return search.Result{}, err
	}
	move, ok := sc[pos.String()]
	if !ok {
		return search.Result{}, fmt.Errorf("the capture has no move for %s, or was asked it before", pos)
	}
	delete(sc, pos.String())
	m, err := ts.ParseMove(move)
	if err != nil {
		return search.Result{}, err
	}
	return search.Result{Action: game.Action(m)}, nil
}

// replay is the server's side of a capture: it sends what the server sent,
// reads what the client sends and checks it is what Muster sent to the real
// server, and closes the connection where the server did, as long after its
// last message.
func replay(lines []line, conn net.Conn) error {
	defer conn.Close()
	r := bufio.NewReader(conn)
	var sentAt time.Time
	var lastAt time.Duration
	for i, l := range lines {
		switch l.dir {
		case "<-":
			if err := writeRaw(conn, l.data); err != nil {
				return fmt.Errorf("line %d: %v", i+1, err)
			}
			sentAt, lastAt = time.Now(), l.at
		case "->":
			got, err := readFrame(r)
			if err != nil {
				return fmt.Errorf("line %d: %v", i+1, err)
			}
			if !bytes.Equal(got, l.data) {
				return fmt.Errorf("line %d: the client sent %s, Muster sent %s to the real server", i+1, got, l.data)
			}
		case "closed":
			time.Sleep(time.Until(sentAt.Add(l.at - lastAt)))
			return nil
		}
	}
	return nil
}

func writeRaw(w net.Conn, data []byte) error {
	var n [4]byte
	n[0], n[1], n[2], n[3] = byte(len(data)>>24), byte(len(data)>>16), byte(len(data)>>8), byte(len(data))
	_, err := w.Write(append(n[:], data...))
	return err
}

// TestRealServerEndings replays games captured against the real Tablut
// Challenge server (AGalassi/TablutCompetition, Server -r 4), with
// Muster's own traffic log: the client sends what it sent then, and says
// the ending as the server meant it, including the endings the server
// gives without a word (a refused move, a late move: it closes the
// connection). How each was made is in testdata/README.md.
func TestRealServerEndings(t *testing.T) {
	for _, c := range []struct {
		file  string
		white bool
		limit time.Duration
		want  string // End.String()
	}{
		{"player1-white", true, 60 * time.Second, "Muster won (WHITEWIN) after 35 plies: king escaped"},
		{"refused-opponent", true, 5 * time.Second, "Muster won (WHITEWIN) after 1 ply: the server refused the opponent's move"},
		{"refused-muster", true, 5 * time.Second, "Muster lost (BLACKWIN) after 0 plies: the server refused Muster's move e3-b3"},
		{"refused-retry", true, 5 * time.Second, "Muster lost (BLACKWIN) after 36 plies: king captured"},
		{"late-opponent", true, 3 * time.Second, "Muster won after 1 ply: the server closed the connection 3.3s into the opponent's turn: the opponent's time ran out"},
		{"draw-white", true, 60 * time.Second, "draw (DRAW) after 27 plies: repeated position"},
		{"draw-black", false, 60 * time.Second, "draw (DRAW) after 27 plies: repeated position"},
		{"late-muster", true, 2 * time.Second, "Muster lost after 0 plies: the server closed the connection 2.3s after asking Muster for a move: Muster's time ran out"},
	} {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			lines := readTraffic(t, "testdata/"+c.file+".traffic")
			client, server := net.Pipe()
			served := make(chan error, 1)
			go func() { served <- replay(lines, server) }()
			cl := &Client{Name: "Muster", White: c.white, MoveTime: time.Second, Limit: c.limit, Player: newScript(t, lines)}
			end, err := cl.PlayOn(context.Background(), client)
			client.Close()
			if err != nil {
				t.Fatal(err)
			}
			if err := <-served; err != nil {
				t.Fatal(err)
			}
			if got := end.String(); got != c.want {
				// The seconds of a closed connection are measured again.
				if !strings.Contains(c.want, "closed the connection") || shape(got) != shape(c.want) {
					t.Errorf("got  %s\nwant %s", got, c.want)
				}
			}
		})
	}
}

// shape blanks the digits of a sentence about seconds.
func shape(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '#'
		}
		return r
	}, s)
}
