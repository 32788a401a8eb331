package cli

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/muster-games/muster/lanrick"
)

// TestSampleAheadFindsALead: every position sampled for solve convert
// --ahead is the start of a turn of man-moves where the side it names has
// at least the asked lead, and it is a position of the sampling game (its
// history played from the start).
func TestSampleAheadFindsALead(t *testing.T) {
	g := lanrick.MustLoad("1893")
	found := 0
	for i := range 4 {
		st, ok, err := sampleAhead(context.Background(), g, "mcts(iterations=100,c=0.05,eval=progress)", 2, 9, i)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			continue
		}
		found++
		m := menOf(st.s)
		if !st.s.TurnStart() || m != st.men || m[st.side]-m[1-st.side] < 2 {
			t.Errorf("game %d: turn start %v, men %v (recorded %v), side ahead %d", i, st.s.TurnStart(), m, st.men, st.side)
		}
		replay := g.NewState()
		for _, a := range st.s.History() {
			if err := replay.Play(a); err != nil {
				t.Fatalf("game %d: its history does not replay: %v", i, err)
			}
		}
		if replay.String() != st.s.String() {
			t.Errorf("game %d: the replayed history gives %s, the sample %s", i, replay, st.s)
		}
	}
	if found == 0 {
		t.Fatal("no sampling game of four reached a lead of two men")
	}
}

// TestSolveConvertAhead: muster solve convert --ahead plays sampled middle
// games on, the side ahead by one agent and the other by another, and
// tallies them in all and by the men each side had; a searching side ahead
// beats a random one.
func TestSolveConvertAhead(t *testing.T) {
	out, errOut, code := run(t, "solve", "convert", "--ahead", "2", "--agent", "mcts(iterations=200,c=0.05)", "--against", "random",
		"--sampler", "mcts(iterations=30)", "--sample", "3", "--seed", "9", "--workers", "2")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	head := regexp.MustCompile(`^lanrick\(1893\), mcts\(iterations=200,c=0\.05\) against random: the side 2 or more men ahead won (\d+) of 3 middle games \(.*\), lost (\d+), drew (\d+) \(positions from mcts\(iterations=30\)'s games, seed 9\)\n`)
	m := head.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("first line:\n%s", out)
	}
	won, _ := strconv.Atoi(m[1])
	lost, _ := strconv.Atoi(m[2])
	drew, _ := strconv.Atoi(m[3])
	if won+lost+drew != 3 || won < 2 {
		t.Errorf("won %d, lost %d, drew %d of 3: a search ahead by two men against random should win", won, lost, drew)
	}
	games := 0
	for _, l := range regexp.MustCompile(`(?m)^  (\d) men against (\d): (\d+) games, won (\d+), lost (\d+), drew (\d+)$`).FindAllStringSubmatch(out, -1) {
		a, _ := strconv.Atoi(l[1])
		b, _ := strconv.Atoi(l[2])
		n, _ := strconv.Atoi(l[3])
		if a-b < 2 {
			t.Errorf("a line of %d men against %d under --ahead 2", a, b)
		}
		games += n
	}
	if games != 3 {
		t.Errorf("the lines by men hold %d games, want 3:\n%s", games, out)
	}
	if !strings.Contains(errOut, "3 of 3 positions sampled") {
		t.Errorf("stderr: %q", errOut)
	}
	for _, args := range [][]string{
		{"solve", "convert", "--ahead", "5", "--agent", "easy"},
		{"solve", "convert", "--ahead", "2", "--agent", "easy", "--against", "mcts(bogus=1)"},
		{"solve", "convert", "--ahead", "2", "--agent", "easy", "--sampler", "nobody"},
		{"solve", "convert", "--ahead", "2", "--agent", "easy", "--ruleset", "1881"},
	} {
		if _, errOut, code := run(t, args...); code == 0 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q: want an error", args, code, errOut)
		}
	}
}
