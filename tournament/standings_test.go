package tournament

import (
	"fmt"
	"strings"
	"testing"
)

// TestStandingsDirectEncounter: among players level on points, the
// direct encounter counts only the games between them; players level on
// everything share a rank.
func TestStandingsDirectEncounter(t *testing.T) {
	// The Swiss example's three rounds: 3 and 5 (1½) never met; of 1, 2
	// and 4 (1), 1 and 2 drew and 4 met neither.
	games := []Game{
		{1, 0, 4, WhiteWin}, {1, 5, 1, Draw}, {1, 2, 6, BlackWin}, {1, 7, 3, BlackWin},
		{2, 3, 0, Draw}, {2, 6, 1, WhiteWin}, {2, 4, 5, BlackWin}, {2, 7, 2, Draw},
		{3, 3, 6, BlackWin}, {3, 0, 5, WhiteWin}, {3, 1, 2, Draw}, {3, 4, 7, WhiteWin},
	}
	st, err := Standings(8, games, []Tiebreak{DirectEncounter})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range st {
		got = append(got, fmt.Sprintf("%d:%d", s.Rank, s.Player))
	}
	if want := "1:6 2:0 3:3 3:5 5:1 5:2 7:4 8:7"; strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}
	// Buchholz cut 1 drops the weakest opponent: 0 met 4 (1), 3 (1½),
	// 5 (1½): 3 points.
	st, _ = Standings(8, games, []Tiebreak{BuchholzCut1, Wins})
	for _, s := range st {
		if s.Player == 0 && (s.Tiebreaks[0] != 6 || s.Tiebreaks[1] != 2) {
			t.Errorf("player 0: %v, want cut-1 6 halves and 2 wins", s.Tiebreaks)
		}
	}
	// A pending game counts for nothing yet.
	st, _ = Standings(2, []Game{{1, 0, 1, Pending}}, nil)
	if st[0].Halves != 0 || st[0].Played != 0 || st[0].Rank != 1 || st[1].Rank != 1 {
		t.Errorf("pending: %+v", st)
	}
}

// TestParseTiebreaks: names are checked, the unknown listed.
func TestParseTiebreaks(t *testing.T) {
	tbs, err := ParseTiebreaks("buchholz-cut1, sonneborn-berger")
	if err != nil || len(tbs) != 2 || tbs[1] != SonnebornBerger {
		t.Errorf("%v %v", tbs, err)
	}
	if _, err := ParseTiebreaks("median"); err == nil || !strings.Contains(err.Error(), "known: buchholz") {
		t.Errorf("median: %v", err)
	}
}
