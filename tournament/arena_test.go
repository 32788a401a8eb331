package tournament

import (
	"fmt"
	"slices"
	"testing"
)

// TestArenaPoints: lichess's arena scoring — 2 a win, 1 a draw, double
// on fire after two wins in a row until a game not won, a berserk win
// of 7 moves or more one more, a draw under 10 moves nothing.
func TestArenaPoints(t *testing.T) {
	win := ArenaGame{Outcome: Win, Moves: 40}
	draw := ArenaGame{Outcome: DrawOutcome, Moves: 40}
	loss := ArenaGame{Outcome: Loss, Moves: 40}
	berserk := ArenaGame{Outcome: Win, Moves: 40, Berserk: true}
	for _, c := range []struct {
		name  string
		games []ArenaGame
		each  []int
		fire  bool
	}{
		{"three wins: the third on fire", []ArenaGame{win, win, win}, []int{2, 2, 4}, true},
		{"a draw on fire scores 2 and ends the streak", []ArenaGame{win, win, draw, win}, []int{2, 2, 2, 2}, false},
		{"a loss ends it", []ArenaGame{win, win, loss, win, win}, []int{2, 2, 0, 2, 2}, true},
		{"berserk: one more, on fire too", []ArenaGame{berserk, win, berserk}, []int{3, 2, 5}, true},
		{"a berserk win of 6 moves: no extra", []ArenaGame{{Outcome: Win, Moves: 6, Berserk: true}}, []int{2}, false},
		{"a berserk loss: nothing", []ArenaGame{{Outcome: Loss, Moves: 30, Berserk: true}}, []int{0}, false},
		{"a draw of 9 moves: nothing", []ArenaGame{{Outcome: DrawOutcome, Moves: 9}, draw}, []int{0, 1}, false},
	} {
		total, each, fire := ArenaPoints(c.games)
		sum := 0
		for _, x := range c.each {
			sum += x
		}
		if !slices.Equal(each, c.each) || total != sum || fire != c.fire {
			t.Errorf("%s: %d %v fire %v, want %d %v fire %v", c.name, total, each, fire, sum, c.each, c.fire)
		}
	}
}

// TestArenaPairs: the waiting are paired by rank, nearest with nearest,
// never with their last opponent while another is free; White to the
// one who has had it less; an odd one out waits.
func TestArenaPairs(t *testing.T) {
	pairs := ArenaPairs([]Waiting{
		{Player: 10, Rank: 5, Last: Bye},
		{Player: 11, Rank: 1, Last: 12},
		{Player: 12, Rank: 2, Last: 11},
		{Player: 13, Rank: 3, Last: Bye},
		{Player: 14, Rank: 4, Last: Bye},
	}, map[int]int{11: 1, 13: 0, 12: -1, 14: 0}, false)
	if got := fmt.Sprint(pairs); got != "[{13 11} {12 14}]" {
		t.Errorf("pairs %s, want 11 with 13 (13 White: fewer), 12 with 14 (12 White), 10 waiting", got)
	}
	// Two left who have just met: while others play they wait (another
	// may come free); when nobody else plays they meet again.
	again := []Waiting{{Player: 1, Rank: 1, Last: 2}, {Player: 2, Rank: 2, Last: 1}}
	if pairs = ArenaPairs(again, nil, false); len(pairs) != 0 {
		t.Errorf("a rematch while others play: %v", pairs)
	}
	if pairs = ArenaPairs(again, nil, true); len(pairs) != 1 {
		t.Errorf("no rematch with nobody else: %v", pairs)
	}
}
