package tablut

import (
	"bufio"
	"compress/gzip"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestLudiiRandomTrials: Ludii 1.3.13 itself (its Core and Language built
// with javac outside the repository, Tablut.lud under its two rulesets)
// played 2000 uniformly random games each; the first 500 of each, as it
// wrote them (testdata/ludii-1.3.13-random-*.txt.gz: the winner, Ludii's
// end type, turns, moves and every move), replay under the matching
// ruleset: every move is legal here, no game ends early, and each ends
// after its last move with Ludii's winner. Any difference in a capture,
// the castle, the king's capture or his escape would show within a few
// hundred random games.
func TestLudiiRandomTrials(t *testing.T) {
	for _, c := range []struct{ file, ruleset string }{
		{"testdata/ludii-1.3.13-random-linnaeus.txt.gz", "ludii-linnaeus"},
		{"testdata/ludii-1.3.13-random-smith.txt.gz", "ludii-smith"},
	} {
		f, err := os.Open(c.file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		g := MustLoad(c.ruleset)
		sc := bufio.NewScanner(z)
		sc.Buffer(nil, 1<<20)
		games, wins, plies := 0, [2]int{}, 0
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if strings.HasPrefix(line, "#") {
				continue
			}
			head, moves, ok := strings.Cut(line, ":")
			h := strings.Fields(head)
			if !ok || len(h) != 4 || h[1] != "NaturalEnd" {
				t.Fatalf("%s:%d: malformed trial %.60q", c.file, n, line)
			}
			winner, _ := strconv.Atoi(h[0])
			count, _ := strconv.Atoi(h[3])
			mv := strings.Fields(moves)
			if len(mv) != count || winner < 1 || winner > 2 {
				t.Fatalf("%s:%d: %d moves for %d, winner %d", c.file, n, len(mv), count, winner)
			}
			s := g.Start()
			for i, text := range mv {
				if s.IsTerminal() {
					t.Fatalf("%s:%d: the game ended (%s) before move %d of %d, %s", c.file, n, s.Result().Reason, i+1, len(mv), text)
				}
				m, err := s.ParseMove(text)
				if err != nil || !s.IsLegal(m) {
					t.Fatalf("%s:%d: move %d, %s, is not legal here (%v)", c.file, n, i+1, text, err)
				}
				s.ApplyMove(m)
			}
			// Ludii's player 1 holds the attackers, who move first.
			want := Attackers
			if winner == 2 {
				want = Defenders
			}
			if !s.IsTerminal() || s.Result().Winner != game.Player(want) {
				t.Fatalf("%s:%d: after %d moves over %v, result %+v; Ludii: %s won", c.file, n, len(mv), s.IsTerminal(), s.Result(), want)
			}
			games++
			wins[winner-1]++
			plies += len(mv)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		if games != 500 || wins[0] == 0 {
			t.Fatalf("%s: %d games, wins %v", c.ruleset, games, wins)
		}
		t.Logf("%s: %d of Ludii's games replayed, %d plies, attackers won %d, defenders %d", c.ruleset, games, plies, wins[0], wins[1])
	}
}
