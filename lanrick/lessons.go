package lanrick

import "github.com/muster-games/muster/game"

// lessons are the steps of "Learn Lanrick": real positions of the 1893
// rules, each with a goal the rules check (lessons_test.go plays every
// solution): moving, the budget and the cap of three, Carroll's three
// worked examples from the Hints to the 1893 edition (the third with
// border slides), converting, setting the mark and the interchange.
var lessons = []game.Lesson{
	{
		Title:   "Moving your men",
		Ruleset: "1893",
		Text: "Your men are the white ones. A man moves like a chess queen: along a rank, a file or a diagonal, " +
			"over empty squares, never jumping. Every square costs one of the squares of your turn: you have five, " +
			"shown as blue pips. Each man moves once a turn, at most three squares (unless he is your only man " +
			"outside the rendezvous). The green squares are the rendezvous around the mark on d5: the first player " +
			"with all his men inside wins it. Spend your five squares bringing men toward the green squares: click a " +
			"man, then the square to go to.",
		Position: "board=1b2w2b/w7/8/7w/b7/8/7b/w2b2w1 to=white phase=move rdv=1 size=9 mark=d5 setter=black budget=5 opening=no opened=bw",
		Goal:     game.GoalTurn,
		Done:     "Your turn is over: black moves next. Each turn you close in on the rendezvous, square by square.",
		Hint:     "Try a7 to c5 (two squares along the diagonal), then h5 to e5 (three squares along the rank).",
		Solution: []string{"a7-c5", "h5-e5"},
	},
	{
		Title:   "The budget and the cap of three",
		Ruleset: "1893",
		Text: "With more than four men you have five squares a turn (four with four men, three with fewer), to share " +
			"among your men as you like. But no man may move more than three squares, unless he is your only man " +
			"outside the rendezvous. Here two of your men are outside the rendezvous around f6: the one on g4 is a " +
			"square from g5, and the one on a1 is four squares from e5. Get both in this turn.",
		Position: "board=1b6/4bbw1/4wbb1/5w2/6w1/8/8/w7 to=white phase=move rdv=1 size=9 mark=f6 setter=black budget=5 opening=no opened=bw",
		Goal:     "rendezvous-won",
		Done:     "Once g4 was in, a1 was your only man outside and could go four squares: one and four make your five.",
		Hint:     "g4 to g5 first; then a1 may run all four squares to e5.",
		Solution: []string{"g4-g5", "a1-e5"},
	},
	{
		Title:   "Carroll's first example: a chain of moves",
		Ruleset: "1893",
		Text: "From Carroll's Hints. Four of your men are in the rendezvous around e4 and one, on g5, is outside; " +
			"the only empty rendezvous square is f3. Carroll: \"moving A into the vacant square, D into A's place, and " +
			"E into D's\" (A is your man on e4, D on f5, E on g5). A man may use a square another left earlier in the " +
			"same turn. Get all five men in.",
		Position: "board=8/8/8/3wwww1/3bwbb1/3bb3/8/8 to=white phase=move rdv=1 size=9 mark=e4 setter=black budget=5 opening=no opened=bw",
		Goal:     "rendezvous-won",
		Done:     "All your men are in and the rendezvous is full: black's man outside, on g4, is removed (Rule 8).",
		Hint:     "e4 to f3, then f5 to e4, then g5 to f5.",
		Solution: []string{"e4-f3", "f5-e4", "g5-f5"},
	},
	{
		Title:   "Carroll's second example: the longer chain",
		Ruleset: "1893",
		Text: "Carroll's second example: again one man (g5) is outside and the empty square is f3, but now it " +
			"takes all five of your squares: \"A into the vacant square, B into A's place, C into B's, D into C's, " +
			"and E into D's\" (A is your man on e3, B on d4, C on e5, D on f5, E on g5). Each man moves once, one square.",
		Position: "board=8/8/8/3bwww1/3wbbb1/3bw3/8/8 to=white phase=move rdv=1 size=9 mark=e4 setter=black budget=5 opening=no opened=bw",
		Goal:     "rendezvous-won",
		Done:     "Five squares, five men, and the rendezvous is yours.",
		Hint:     "e3 to f3, d4 to e3, e5 to d4, f5 to e5, g5 to f5.",
		Solution: []string{"e3-f3", "d4-e3", "e5-d4", "f5-e5", "g5-f5"},
	},
	{
		Title:   "Carroll's third example: sliding along the border",
		Ruleset: "1893",
		Text: "From Carroll's Hints. With nine men on the board the rendezvous is open: the eight border squares a " +
			"queen on the mark, c5, would check. A man on the border may slide along it, round the corners, and the " +
			"slide counts one square if he stops at or before the first rendezvous square on his way. You have four " +
			"men and four squares; the vacant rendezvous square is h5. Carroll: \"moving A into the vacant " +
			"Rendezvous-square, B into A's place, C into B's, and D into C's\" (A on g1, B on c1, C on a3, D on b4).",
		Position: "board=2b2b2/b7/6b1/b7/1w6/w7/8/2w3w1 to=white phase=move rdv=2 size=8 mark=c5 setter=black budget=4 opening=no opened=bw",
		Goal:     "rendezvous-won",
		Done:     "Three slides of one square each and a step: all four men are in, and black's man on g6 is removed.",
		Hint:     "Slide g1 round the corner to h5, then c1 to g1, a3 round the corner to c1, and step b4 to a3.",
		Solution: []string{"g1~h5", "c1~g1", "a3~c1", "b4-a3"},
	},
	{
		Title:   "Converting an outlying man",
		Ruleset: "1893",
		Text: "If you get all your men in while the rendezvous still has an empty square, you replace one of your " +
			"opponent's men outside it with one of your own (Rule 7). Bring your man on g5 in (the rendezvous is around " +
			"e4), then choose which black man to convert. Carroll advises taking the nearest.",
		Position: "board=8/8/8/3wwww1/3bwbb1/3b4/8/1b6 to=white phase=move rdv=1 size=9 mark=e4 setter=black budget=5 opening=no opened=bw",
		Goal:     "converted",
		Done:     "The man is yours now: you have one more, black one fewer, and the next rendezvous begins.",
		Hint:     "e4 to e3, f5 to e4, g5 to f5; then click the black man on g4.",
		Solution: []string{"e4-e3", "f5-e4", "g5-f5", "x g4"},
	},
	{
		Title:   "Setting the mark",
		Ruleset: "1893",
		Text: "The player with fewer men sets the mark of the next rendezvous (Rule 2); the rendezvous is the " +
			"squares around it, fewer as the men get fewer (eight now, for nine men). Choose the square for the " +
			"mark: click any square of the field — a square near your own men is a good start.",
		Position: "board=wb2w2b/8/8/8/b7/8/7b/w2b3w to=white phase=mark rdv=2 size=8 setter=white",
		Goal:     game.GoalTurn,
		Done:     "The mark is set. Now your opponent may answer with Rule 5, the interchange.",
		Hint:     "Click d4.",
		Solution: []string{"mark d4"},
	},
	{
		Title:   "The interchange",
		Ruleset: "1893",
		Text: "Black set the mark on d5. Because the setter chooses where the men race, Rule 5 lets you demand an " +
			"interchange: you then play with black's men and black with yours. Count who is nearer the green squares " +
			"and decide with the buttons.",
		Position: "board=1b2w2b/w7/8/7w/b7/8/7b/w2b2w1 to=white phase=interchange rdv=1 size=9 mark=d5 setter=black",
		Goal:     game.GoalAct,
		Done:     "That is the whole of Lanrick 1893: rendezvous after rendezvous until one player has a single man left.",
		Hint:     "Either button will do; black's men are a little nearer here.",
		Solution: []string{"interchange"},
	},
}
