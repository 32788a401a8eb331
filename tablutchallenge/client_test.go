package tablutchallenge

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/tablut"
	_ "github.com/muster-games/muster/tablut/ai"
)

// board writes a position as the server does: row 0 is rank 1.
func board(s *tablut.State) [][]string {
	rows := make([][]string, tablut.Size)
	for r := 0; r < tablut.Size; r++ {
		for f := 0; f < tablut.Size; f++ {
			q := tablut.Square(r*tablut.Size + f)
			c := "EMPTY"
			switch s.At(q) {
			case tablut.Attacker:
				c = "BLACK"
			case tablut.Defender:
				c = "WHITE"
			case tablut.King:
				c = "KING"
			default:
				if q == tablut.Castle {
					c = "THRONE"
				}
			}
			rows[r] = append(rows[r], c)
		}
	}
	return rows
}

func turn(s *tablut.State) string {
	if s.IsTerminal() {
		switch s.Result().Winner {
		case 1:
			return "WHITEWIN"
		case 0:
			return "BLACKWIN"
		}
		return "DRAW"
	}
	if s.ToMove() == tablut.Defenders {
		return "WHITE"
	}
	return "BLACK"
}

// serve is a small server speaking the Tablut Challenge protocol: it
// accepts white and black, then relays moves, checking each against the
// ashton rules and the time limit, until the game ends or maxPlies pass (a
// draw).
func serve(t *testing.T, white, black net.Listener, maxPlies int, limit time.Duration, result chan<- string) {
	var conns [2]net.Conn // 0 white, 1 black
	var readers [2]*bufio.Reader
	for i, ln := range []net.Listener{white, black} {
		c, err := ln.Accept()
		if err != nil {
			result <- "accept: " + err.Error()
			return
		}
		defer c.Close()
		conns[i], readers[i] = c, bufio.NewReader(c)
		var name string
		if err := ReadMessage(readers[i], &name); err != nil {
			result <- "name: " + err.Error()
			return
		}
	}
	s := tablut.MustLoad("ashton").Start()
	send := func() {
		st := State{Board: board(s), Turn: turn(s)}
		if !s.IsTerminal() && s.Ply() >= maxPlies {
			st.Turn = "DRAW"
		}
		for _, c := range conns {
			if err := WriteMessage(c, st); err != nil {
				t.Errorf("send: %v", err)
			}
		}
	}
	send()
	for !s.IsTerminal() && s.Ply() < maxPlies {
		i := 1
		if s.ToMove() == tablut.Defenders {
			i = 0
		}
		var a Action
		asked := time.Now()
		if err := ReadMessage(readers[i], &a); err != nil {
			result <- "read: " + err.Error()
			return
		}
		if took := time.Since(asked); took > limit {
			result <- fmt.Sprintf("%s took %v, over the limit of %v", []string{"white", "black"}[i], took, limit)
			return
		}
		if want := []string{"WHITE", "BLACK"}[i]; a.Turn != want {
			result <- fmt.Sprintf("action for %s from %s", a.Turn, want)
			return
		}
		m, err := s.ParseMove(a.From + "-" + a.To)
		if err != nil {
			result <- "illegal: " + err.Error()
			return
		}
		s.ApplyMove(m)
		send()
	}
	if !s.IsTerminal() {
		result <- "DRAW" // as sent at the limit of plies
		return
	}
	result <- turn(s)
}

// TestClientAgainstServer: two clients, white and black, play a whole game
// against the in-process server with legal moves only.
func TestClientAgainstServer(t *testing.T) {
	white, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	black, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	result := make(chan string, 1)
	go serve(t, white, black, 60, 5*time.Second, result)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ends := make(chan End, 2)
	errs := make(chan error, 2)
	for _, c := range []struct {
		white bool
		addr  string
	}{{true, white.Addr().String()}, {false, black.Addr().String()}} {
		// Both search on the clock, well inside the server's limit.
		player, err := agent.New("alphabeta(depth=64)", tablut.MustLoad("ashton"), 1)
		if err != nil {
			t.Fatal(err)
		}
		cl := &Client{Name: "muster", White: c.white, MoveTime: 100 * time.Millisecond, Player: player}
		go func(addr string) {
			end, err := cl.Play(ctx, addr)
			ends <- end
			errs <- err
		}(c.addr)
		time.Sleep(20 * time.Millisecond) // white connects first
	}
	res := <-result
	for i := 0; i < 2; i++ {
		if err := <-errs; err != nil {
			t.Fatalf("client: %v", err)
		}
		if end := <-ends; end.Turn != res && !strings.HasPrefix(res, "DRAW") {
			t.Errorf("client saw %s, server %s", end, res)
		}
	}
	switch res {
	case "WHITEWIN", "BLACKWIN", "DRAW":
	default:
		t.Fatalf("server: %s", res)
	}
}

// TestFraming: messages round-trip; an oversized length is refused.
func TestFraming(t *testing.T) {
	a, b := net.Pipe()
	go func() {
		WriteMessage(a, Action{From: "e4", To: "f4", Turn: "WHITE"})
		a.Write([]byte{0x7f, 0xff, 0xff, 0xff})
		a.Close()
	}()
	r := bufio.NewReader(b)
	var act Action
	if err := ReadMessage(r, &act); err != nil || act.From != "e4" || act.Turn != "WHITE" {
		t.Fatalf("%+v %v", act, err)
	}
	if err := ReadMessage(r, &act); err == nil {
		t.Fatal("a 2 GB message was accepted")
	}
}

func TestPosition(t *testing.T) {
	s := tablut.MustLoad("ashton").Start()
	got, err := Position(tablut.MustLoad("ashton"), State{Board: board(s), Turn: "WHITE"})
	if err != nil || got.String() != s.String() {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := Position(tablut.MustLoad("ashton"), State{Board: [][]string{{"EMPTY"}}, Turn: "WHITE"}); err == nil {
		t.Fatal("a 1×1 board was accepted")
	}
}

// TestPonderOnOpponentsTime: with Ponder set, the client thinks on the
// opponent's time after each of its moves, about the position the server
// sent, and stops before it chooses its next move.
func TestPonderOnOpponentsTime(t *testing.T) {
	white, _ := net.Listen("tcp", "127.0.0.1:0")
	black, _ := net.Listen("tcp", "127.0.0.1:0")
	result := make(chan string, 1)
	go serve(t, white, black, 20, 5*time.Second, result)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var running, started atomic.Int32
	g := tablut.MustLoad("ashton")
	ab, _ := agent.New("alphabeta(depth=2)", g, 1)
	checked := playerFunc(func(ctx context.Context, s game.State) (search.Result, error) {
		if running.Load() != 0 {
			t.Error("pondering while choosing a move")
		}
		return ab.Act(ctx, s)
	})
	wc := &Client{Name: "w", White: true, MoveTime: time.Second, Player: checked,
		Ponder: func(ctx context.Context, s game.State) {
			if s.(*tablut.State).ToMove() != tablut.Attackers {
				t.Error("pondering a position where white is to move")
			}
			running.Add(1)
			started.Add(1)
			<-ctx.Done()
			running.Add(-1)
		}}
	bp, _ := agent.New("alphabeta(depth=1)", g, 2)
	bc := &Client{Name: "b", MoveTime: time.Second, Player: bp}
	errs := make(chan error, 2)
	go func() { _, err := wc.Play(ctx, white.Addr().String()); errs <- err }()
	time.Sleep(20 * time.Millisecond)
	go func() { _, err := bc.Play(ctx, black.Addr().String()); errs <- err }()
	for i := 0; i < 2; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	<-result
	if started.Load() < 2 || running.Load() != 0 {
		t.Errorf("pondered %d times, %d still running", started.Load(), running.Load())
	}
}

type playerFunc func(ctx context.Context, s game.State) (search.Result, error)

func (f playerFunc) Act(ctx context.Context, s game.State) (search.Result, error) { return f(ctx, s) }
