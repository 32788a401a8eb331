package konane

import "github.com/muster-games/muster/game"

// lessons are the walkthrough, on the 8×8 board.
var lessons = []game.Lesson{
	{
		Title:   "The first stone",
		Ruleset: "suggested",
		Task:    "Lift one of your black stones off a gold square: a corner or the centre.",
		Text: "The board starts full, black and white stones alternating on every square. Black begins by taking one " +
			"of his own stones off the board, and only from a corner or the centre: the four gold squares. White " +
			"then lifts one of hers from beside the gap, and the jumping begins.",
		Position: "board=bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb to=black",
		Goal:     "removed",
		Done:     "The stone is off. White answers by lifting one of hers beside the gap.",
		Hint:     "Click e4, in the centre.",
		Solution: []string{"e4"},
		Reply:    []string{"e5"},
	},
	{
		Title:   "Jump and take",
		Ruleset: "suggested",
		Task:    "Jump one of your stones over a white one into a gap, and take it.",
		Text: "Every move is a capture: a stone jumps over an enemy stone next to it, along a row or a column, into " +
			"the empty square just beyond, and the stone jumped leaves the board. There are no other moves, and no " +
			"diagonal jumps. Here three of your stones can jump into the gap on e4.",
		Position: "board=bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwb1bwb/bwbw1wbw/wbwbwbwb/bwbwbwbw/wbwbwbwb to=black",
		Goal:     "capture",
		Done:     "One white stone fewer. Each capture opens a gap, and the gaps make the next jumps.",
		Hint:     "c4 can jump over d4 into e4.",
		Solution: []string{"c4-e4"},
	},
	{
		Title:   "Jump on",
		Ruleset: "suggested",
		Task:    "Take two stones in one turn: jump, then jump on with the same stone in the same direction.",
		Text: "After a jump the same stone may jump again, as long as it goes on in the same direction and finds an " +
			"enemy stone with a gap beyond. It may never turn; you may stop whenever you like.",
		Position: "board=8/8/8/8/8/8/2w5/bw1w1w2 to=black",
		Goal:     "run",
		Done:     "Two stones in one turn. The stone could go on to g1 too: a run lasts as long as you choose.",
		Hint:     "Jump a1 over b1 to c1, then on over d1 to e1.",
		Solution: []string{"a1-c1", "c1-e1"},
	},
	{
		Title:   "The last jump",
		Ruleset: "suggested",
		Task:    "Win: make the jump that leaves White no jump at all.",
		Text: "Whoever cannot jump on his turn loses. Before you jump, look at what your move leaves the other side: " +
			"here one of your two jumps lets White jump back, the other leaves her nothing.",
		Position: "board=8/8/8/8/8/8/8/wbw1bw1w to=black",
		Goal:     "game-over",
		Done:     "White has no jump left: you win.",
		Hint:     "b1 jumping over c1 leaves White's a1 alone.",
		Solution: []string{"b1-d1"},
	},
}

// figures are the rules page's diagrams.
var figures = []game.Figure{
	{
		Title:   "The start",
		Caption: "The board starts full. Black lifts the first stone from one of the four gold squares: a corner or the centre.",
		Ruleset: "suggested",
	},
	{
		Title:   "The opening",
		Caption: "Black lifted e4, White the stone beside it on e5; from now on every move is a jump.",
		Ruleset: "suggested",
		Actions: []string{"e4", "e5"},
	},
	{
		Title:    "A run of jumps",
		Caption:  "Black's stone from a1 took b1, then jumped on in the same direction and took d1. It may not turn north over c2.",
		Ruleset:  "suggested",
		Position: "board=8/8/8/8/8/8/2w5/bw1w1w2 to=black",
		Actions:  []string{"a1-c1", "c1-e1"},
	},
}
