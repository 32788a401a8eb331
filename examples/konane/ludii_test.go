package konane

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestLudiiPerft: from the start, Muster counts as many sequences of
// actions as Ludii 1.3.13 does (its Konane.lud, built from its sources,
// counted by a perft of its own moves: 6×6 to 16×16, depths 1 to 8).
func TestLudiiPerft(t *testing.T) {
	ludii := map[int][]uint64{
		6:  {4, 12, 28, 152, 632, 3788, 18632, 119256},
		8:  {4, 12, 28, 164, 800, 5976, 38180, 323052},
		10: {4, 12, 28, 164, 872, 6992, 50284, 477364},
		12: {4, 12, 28, 164, 872, 7040, 51796, 506396},
		16: {4, 12, 28, 164, 872, 7040, 52300, 516112},
	}
	for n, counts := range ludii {
		g := MustLoad("", game.KV{Key: "size", Value: strconv.Itoa(n)})
		depth := len(counts)
		if testing.Short() {
			depth = 6
		}
		for d := 1; d <= depth; d++ {
			if got := game.Perft(g.NewState(), d); got != counts[d-1] {
				t.Errorf("%d×%d, depth %d: %d, Ludii %d", n, n, d, got, counts[d-1])
			}
		}
	}
}

// TestLudiiRandomGames replays 120 games Ludii played at random, 20 on each
// board size: before every action Muster lists as many legal actions as
// Ludii did, Ludii's action is among them, and the game ends when Ludii's
// did, with its winner.
func TestLudiiRandomGames(t *testing.T) {
	f, err := os.Open("testdata/ludii-games.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	games, actions, runs := 0, 0, 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		g := MustLoad("", game.KV{Key: "size", Value: fields[1]})
		s := g.NewState()
		for _, step := range fields[4:] {
			text, count, _ := strings.Cut(step, ":")
			n, _ := strconv.Atoi(count)
			if got := len(s.LegalActions(nil)); got != n {
				t.Fatalf("game %d (%s×%s), before %s (action %d): %d legal actions, Ludii %d, at %s", games+1, fields[1], fields[1], text, len(s.History())+1, got, n, s)
			}
			before := s.ToAct()
			play(t, s, text)
			if !s.IsTerminal() && s.ToAct() == before && text != "pass" {
				runs++
			}
			actions++
		}
		if !s.IsTerminal() || game.ResultName(s) != fields[3] {
			t.Fatalf("game %d: over %v, winner %q; Ludii's %s", games+1, s.IsTerminal(), game.ResultName(s), fields[3])
		}
		games++
	}
	// The games must reach the rules' corners: runs of jumps and stops.
	if games != 120 || actions < 3000 || runs < 20 {
		t.Fatalf("replayed %d games, %d actions, %d runs of jumps", games, actions, runs)
	}
	t.Logf("%d games, %d actions, %d jumps that could go on", games, actions, runs)
}

// TestLudiiTrials replays two games that Ludii 1.3.0 played at random
// under its "10x10 Konane (Observed)": before every action, Muster lists as
// many legal actions as Ludii did, Ludii's action is among them, and the
// game ends with Ludii's winner.
func TestLudiiTrials(t *testing.T) {
	f, err := os.Open("testdata/ludii-trials.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := MustLoad("observed")
	var s game.State
	var winner string
	games, actions := 0, 0
	end := func() {
		if s != nil && (!s.IsTerminal() || game.ResultName(s) != winner) {
			t.Errorf("game %d: over %v, winner %q; Ludii's winner %s", games, s.IsTerminal(), game.ResultName(s), winner)
		}
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if fields[0] == "game" {
			end()
			s, winner = g.NewState(), fields[3]
			games++
			continue
		}
		n, _ := strconv.Atoi(fields[1])
		if got := len(s.LegalActions(nil)); got != n {
			t.Fatalf("game %d, before %s (action %d): %d legal actions, Ludii %d, at %s", games, fields[0], len(s.History())+1, got, n, s)
		}
		play(t, s, fields[0])
		actions++
	}
	end()
	if games != 2 || actions != 180 {
		t.Fatalf("replayed %d games, %d actions", games, actions)
	}
}
