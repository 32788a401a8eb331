package lanrick

import "github.com/muster-games/muster/game"

// lessons are the steps of "Learn Lanrick": real positions of the 1893
// rules, each with a goal the rules check (lessons_test.go plays every
// solution), in the order a game meets them: one whole rendezvous to
// watch, moving, the budget and the cap of three, ending a turn early,
// the first mark (and an interchange demanded of you), the interchange
// you may demand, the 2-square opening turn, Carroll's three worked
// examples from the Hints to the 1893 edition (the third with border
// slides), a slide past the first rendezvous square, converting, setting
// a later mark where the men stand, an interchange with unequal numbers,
// the fixed shapes of the smaller rendezvous, how a game is drawn, and
// how it is won.
var lessons = []game.Lesson{
	{
		Title:   "What the game is about: one rendezvous",
		Ruleset: "1893",
		Rule:    "The aim: get all your men into the rendezvous, the squares round a mark (drawn green once it is set), before your opponent does; whenever a player gets all his men in, his opponent loses a man (turned into his, or taken off the board), and a player left with one man has lost the game (Carroll's Rules 7–9, each a step below).",
		Task:    "Watch one whole rendezvous played out, from the mark to the last man in: press Play.",
		Text: "Lanrick is a race, run again and again. Each side has five men on the border of a chessboard. A mark " +
			"is set near the middle, and the squares round it are the rendezvous: the first player to get all his " +
			"men into it wins it, and his opponent loses a man: turned into one of the winner's while the rendezvous " +
			"has room (and the same race goes on), taken off the board once it is full. Then a new mark is set " +
			"somewhere else, with a rendezvous one square smaller, and the race begins again with one man fewer, " +
			"from where the men stand (nobody sets them out afresh), " +
			"until one side is down to a single man. The men move like chess queens, but a turn has only a few squares to share among them, " +
			"so the art is in the paths: not getting in each other's way, and getting in the other side's.",
		Position: "board=1b2w2b/w7/8/7w/b7/8/7b/w2b2w1 to=black phase=mark rdv=1 size=9 setter=black",
		Goal:     game.GoalWatch,
		Done:     "That was one rendezvous: White moved first, yet Black won it by a single square. Next, you move the men yourself.",
		Hint:     "Press Play to watch it all, or Next move to go through it one move at a time.",
		Watch: []game.Shown{
			{Action: "mark d5", Say: "Black sets the mark on d5: the nine green squares round it are the rendezvous. Each side has five men on the border."},
			{Action: "no-interchange", Say: "White may demand an interchange, taking Black's places; both sides are 13 squares from the rendezvous, so he plays on."},
			{Action: "a1-a2", Say: "White, who did not set the mark, moves first; the first turn of a rendezvous has only two squares."},
			{Action: "g1-g2"},
			{Action: "d1-d2", Say: "Black has five squares a turn, shared among his men as he likes, at most three for any one man."},
			{Action: "h2-g3"},
			{Action: "a4-b5"},
			{Action: "b8-d6", Say: "Black's first man is in the rendezvous."},
			{Action: "a2-b3", Say: "White's turn: every turn from now on has five squares."},
			{Action: "g2-f3"},
			{Action: "h5-g4"},
			{Action: "a7-c5"},
			{Action: "d2-d3", Say: "Black's turn: again five squares."},
			{Action: "g3-f4"},
			{Action: "b5-c6"},
			{Action: "h8-f6", Say: "Black's men are 3 squares from the rendezvous in all, White's 6."},
			{Action: "b3-c4", Say: "White's turn: b3 and f3 step into the rendezvous."},
			{Action: "f3-e4"},
			{Action: "g4-f5"},
			{Action: "e8-e6", Say: "White has four men in, and one, on f5, outside: a square short."},
			{Action: "d3-d5", Say: "Black has three men outside, on d3, f4 and f6, each a square from the rendezvous; his five squares bring all three in."},
			{Action: "f6-d4"},
			{Action: "f4-e5", Say: "Black's last man is in: Black wins the rendezvous. It is full, so White's man left outside, on f5, is taken off the board (Rule 8). The next rendezvous has eight squares, and White, who has fewer men now, sets its mark; the men stay where they stand."},
		},
	},
	{
		Title:   "Moving your men",
		Ruleset: "1893",
		Rule:    "A man moves along one straight line, straight or slanting, over empty squares, never changing direction (Rule 1); each square costs one of your turn's squares.",
		Task:    "Spend your five squares moving white men toward the green squares: click a man, then where he goes.",
		Text: "Your men are the white ones. A man moves like a chess queen: along a rank, a file or a diagonal, " +
			"over empty squares, never jumping. Every square costs one of the squares of your turn: you have five, " +
			"shown as blue pips. Each man moves once a turn, at most three squares (unless he is your only man " +
			"outside the rendezvous). The green squares are the rendezvous around the mark on d5: the first player " +
			"with all his men inside wins it.",
		Position: "board=1b2w2b/w7/8/7w/b7/8/7b/w2b2w1 to=white phase=move rdv=1 size=9 mark=d5 setter=black budget=5 opening=no opened=bw",
		Goal:     game.GoalTurn,
		Done:     "Your turn is over: black moves next. Each turn you close in on the rendezvous, square by square.",
		Hint:     "Try a7 to c5 (two squares along the diagonal), then h5 to e5 (three squares along the rank).",
		Solution: []string{"a7-c5", "h5-e5"},
	},
	{
		Title:   "The budget and the cap of three",
		Ruleset: "1893",
		Rule:    "A turn has 5 squares when you have more than 4 men, 4 with 4, 3 with fewer, shared among your men as you like; each man moves at most once a turn, and at most 3 squares unless he is your only man outside the rendezvous (Rule 3).",
		Task:    "Bring your two men from outside into the green squares this turn: g4 first, then a1.",
		Text: "With more than four men you have five squares a turn (four with four men, three with fewer), to share " +
			"among your men as you like. But no man may move more than three squares, unless he is your only man " +
			"outside the rendezvous. Here two of your men are outside the rendezvous around f6: the one on g4 is a " +
			"square from g5, and the one on a1 is four squares from e5.",
		Position: "board=1b6/4bbw1/4wbb1/5w2/6w1/8/8/w7 to=white phase=move rdv=1 size=9 mark=f6 setter=black budget=5 opening=no opened=bw",
		Goal:     "rendezvous-won",
		Done:     "With g4 in, a1 was your only man outside, so he could go four squares.",
		Hint:     "g4 to g5 first; then a1 may run all four squares to e5.",
		Solution: []string{"g4-g5", "a1-e5"},
	},
	{
		Title:   "Ending a turn early",
		Ruleset: "1893",
		Rule:    "A turn need not use all its squares: once you have moved at least one square, you may end it with End turn (Rule 3).",
		Task:    "Move a7 one square, to b6, then end your turn with the End turn button.",
		Text: "Carroll's Rule 3: a player \"need not move more than one square in one turn.\" A turn ends by itself " +
			"when its squares are spent; to end it sooner, move at least one square and press End turn. Players " +
			"hold back often: a man who stands in an opponent's way blocks him only while he stays, and a move " +
			"may leave a gap for the other side.",
		Position: "board=1b2w2b/w7/8/7w/b7/8/7b/w2b2w1 to=white phase=move rdv=1 size=9 mark=d5 setter=black budget=5 opening=no opened=bw",
		Goal:     game.GoalTurn,
		Done:     "You ended your turn with four squares unspent; they are not kept for later. Black moves next, with his five.",
		Hint:     "Click a7, then b6; then press End turn, beside the board.",
		Solution: []string{"a7-b6", "end"},
	},
	{
		Title:   "The game begins: the first mark",
		Ruleset: "1893",
		Rule:    "Five men each start on the border; one player sets the mark on c6, d5, e4 or f3, the nine squares round it are the first rendezvous, and the other player moves first (Rule 2).",
		Task:    "You play Black and set the first mark: choose one of the four squares outlined in blue.",
		Text: "A game begins with five men each on the border. One player, chosen by lot, sets the mark on one of " +
			"the four central squares of the diagonal that holds no men (from a8 to h1): c6, d5, e4 or f3, outlined " +
			"in blue (Rule 2); the nine squares around it " +
			"are the first rendezvous. The board is the same turned round with the colours exchanged, so c6 and f3 " +
			"are one choice and d5 and e4 the other. What makes a mark good: your opponent may answer by taking your " +
			"men (the interchange, next step), so a mark that favours you only helps him. Choose the one that leaves " +
			"the race most even. Point at a square to see its rendezvous.",
		Position: "board=1b2w2b/w7/8/7w/b7/8/7b/w2b2w1 to=black phase=mark rdv=1 size=9 setter=black",
		Goal:     game.GoalTurn,
		Done:     "White demanded an interchange: the black men now stand where the white men stood, and the white men where the black stood; you still play Black. White moves first.",
		Hint:     "Any of the four will do; d5 is a good start.",
		Solution: []string{"mark d5"},
		Reply:    []string{"interchange"},
	},
	{
		Title:   "Demanding the interchange",
		Ruleset: "1893",
		Rule:    "Once the mark is set, the player who did not set it may demand an interchange: his men and the setter's swap squares, and each player still plays his own colour (Rule 5).",
		Task:    "Black set the mark: demand an interchange if Black's men are nearer the green squares, else play on.",
		Text: "Because the setter chooses where the men race, Rule 5 lets the other player demand an interchange: " +
			"the setter's men and the other's swap squares (each player still plays his own colour), so that each " +
			"now races from where the other stood. (When the numbers differ, the setter chooses which of the other's " +
			"men change places: a later step.) Count how far each side's men are from the green squares and take " +
			"the nearer ones.",
		Position: "board=1b2w2b/w7/8/7w/b7/8/7b/w2b2w1 to=white phase=interchange rdv=1 size=9 mark=d5 setter=black",
		Goal:     game.GoalAct,
		Done:     "Whichever you chose, you move first, as the player who did not set the mark.",
		Hint: "Count each man's squares to the nearest green square: white's are 2, 2, 3, 3 and 3, black's 2, 3, 2, 3 " +
			"and 3, so each side is 13 squares away in all and neither is nearer. Either button will do.",
		Solution: []string{"interchange"},
	},
	{
		Title:   "The first turn has two squares",
		Ruleset: "1893",
		Rule:    "The first turn played for each rendezvous has 2 squares only (Rule 3).",
		Task:    "The first turn for a rendezvous has only 2 squares: move one man 2 squares, or two men 1 each.",
		Text: "Whoever moves first for a rendezvous may move only two squares in that turn (Rule 3); every turn " +
			"after it has five (four with four men, three with fewer). The two squares are the pips: when they are " +
			"spent, the turn passes.",
		Position: "board=1b2w2b/w7/8/7w/b7/8/7b/w2b2w1 to=white phase=move rdv=1 size=9 mark=d5 setter=black budget=2 opening=yes opened=-w",
		Goal:     game.GoalTurn,
		Done:     "Two squares and the turn passes to Black, who has five.",
		Hint:     "a7 to b6, then h5 to g5.",
		Solution: []string{"a7-b6", "h5-g5"},
	},
	{
		Title:   "Carroll's first example: a chain of moves",
		Ruleset: "1893",
		Rule:    "When a player has all his men in and the rendezvous is full, the one man left outside is removed from the board, and that rendezvous is over (Rule 8).",
		Task:    "Get all five men in: e4 to f3, then f5 into e4, then g5 into f5.",
		Text: "From Carroll's Hints. Four of your men are in the rendezvous around e4 and one, on g5, is outside; " +
			"the only empty rendezvous square is f3. Carroll: \"moving A into the vacant square, D into A's place, and " +
			"E into D's\" (A is your man on e4, D on f5, E on g5). A man may use a square another left earlier in the " +
			"same turn.",
		Position: "board=8/8/8/3wwww1/3bwbb1/3bb3/8/8 to=white phase=move rdv=1 size=9 mark=e4 setter=black budget=5 opening=no opened=bw",
		Goal:     "rendezvous-won",
		Done:     "All your men are in and the rendezvous is full: black's man outside, on g4, is removed (Rule 8).",
		Hint:     "e4 to f3, then f5 to e4, then g5 to f5.",
		Solution: []string{"e4-f3", "f5-e4", "g5-f5"},
	},
	{
		Title:   "Carroll's second example: the longer chain",
		Ruleset: "1893",
		Rule:    "A man may move into a square that another left earlier in the same turn, so a chain of short moves can bring the last man in.",
		Task:    "Get g5 in by a chain of five one-square moves, each man into the square the last one left.",
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
		Rule:    "A rendezvous has one square fewer than the men on the board: an odd number makes a close rendezvous round the mark, an even number an open one, the border squares a queen on the mark would attack, where a man on the border may slide along it round the corners, for one square if he stops at or before the first rendezvous square (Def. 1–3, Rule 6).",
		Task:    "Fill the green border squares with four men and four squares, sliding along the border; where the board asks, choose the slide.",
		Text: "From Carroll's Hints. With nine men on the board the rendezvous is open: the eight border squares a " +
			"queen on the mark, c5, would check. A man on the border may slide along it, round the corners, and the " +
			"slide counts one square if he stops at or before the first rendezvous square on his way. You have four " +
			"men and four squares; the vacant rendezvous square is h5. Carroll: \"moving A into the vacant " +
			"Rendezvous-square, B into A's place, C into B's, and D into C's\" (A on g1, B on c1, C on a3, D on b4). " +
			"Where a man could go straight or slide, the board offers both with their cost.",
		Position: "board=2b2b2/b7/6b1/b7/1w6/w7/8/2w3w1 to=white phase=move rdv=2 size=8 mark=c5 setter=black budget=4 opening=no opened=bw",
		Goal:     "rendezvous-won",
		Done:     "Three slides of one square each and a step: all four men are in, and black's man on g6 is removed.",
		Hint:     "Slide g1 round the corner to h5, then c1 to g1, a3 round the corner to c1 (the slide, 1 square), and step b4 to a3.",
		Solution: []string{"g1~h5", "c1~g1", "a3~c1", "b4-a3"},
	},
	{
		Title:   "Sliding past a rendezvous square",
		Ruleset: "1893",
		Rule:    "A slide along the border that goes past the first rendezvous square on its way costs every square it moves, and no man moves more than three squares unless he is your only man outside (Rule 6).",
		Task:    "Bring a8 down past a7 to a5 (three squares), then b7 into a7: a8 must go first.",
		Text: "A slide costs one square only if the man stops at or before the first rendezvous square he meets. " +
			"Past it, every square counts, as on any move, and the cap of three holds: from a8, sliding down to a7 " +
			"costs one square, to a6 two, to a5 three, and to a4 four, which no man may move while another of yours " +
			"is outside. Here the two empty rendezvous squares are a7 and a5; your man on b7 can reach only a7, " +
			"so a8 must go past it to a5 first, before b7 fills the way.",
		Position: "board=w1w2w2/1w6/8/7b/4b3/b7/8/2b3b1 to=white phase=move rdv=2 size=8 mark=c5 setter=white budget=4 opening=no opened=bw",
		Goal:     "rendezvous-won",
		Done:     "Three squares and one: the rendezvous is full, and black's man on e4 is removed. Black has lost a man, and with the men equal he sets the next mark.",
		Hint:     "a8 to a5 (the slide and the straight move both cost three here), then b7 to a7.",
		Solution: []string{"a8~a5", "b7-a7"},
	},
	{
		Title:   "Converting an outlying man",
		Ruleset: "1893",
		Rule:    "When a player has all his men in and the rendezvous still has an empty square, he turns one of his opponent's men outside into his own, his turn ends, and the same rendezvous goes on (Rule 7).",
		Task:    "Bring g5 in by a chain (e4 to e3, f5 to e4, g5 to f5), then click a black man outside to convert him.",
		Text: "If you get all your men in while the rendezvous still has an empty square, you replace one of your " +
			"opponent's men outside it with one of your own (Rule 7). Your man on g5 cannot reach the empty " +
			"square e3 himself, so make room as Carroll did: each man moves into the square the one before him left. " +
			"Carroll advises converting the nearest outlying man.",
		Position: "board=8/8/8/3wwww1/3bwbb1/3b4/8/1b6 to=white phase=move rdv=1 size=9 mark=e4 setter=black budget=5 opening=no opened=bw",
		Goal:     "converted",
		Done: "The man is yours now: you have one more, black one fewer. The rendezvous goes on: it is not yet full, " +
			"and your new man on g4 stands outside it like black's on b1. Only a full rendezvous ends it (Rule 8). " +
			"Black moves next, with his full squares: the same rendezvous goes on, so there is no new 2-square turn.",
		Hint:     "e4 to e3, f5 to e4, g5 to f5; then click the black man on g4.",
		Solution: []string{"e4-e3", "f5-e4", "g5-f5", "x g4"},
	},
	{
		Title:   "Setting the next mark",
		Ruleset: "1893",
		Rule:    "The men stay where they stand between rendezvous, and for each later rendezvous the player with fewer men (if equal, the one who has just lost a man) sets the mark anywhere the rendezvous fits (Rules 4 and 8).",
		Task:    "Set the mark for the next rendezvous: point at a square to see its rendezvous, then click it.",
		Text: "This is the board the first step's rendezvous left: nobody sets the men out again, and the next race " +
			"starts from where they stand, here all in the middle. The player with fewer men sets the mark " +
			"anywhere the rendezvous fits (Rule 4). The rendezvous has one square fewer than the men on the board: nine men make eight squares, an " +
			"open rendezvous, the border squares a queen on the mark would check, scattered round the edge; the " +
			"drawings show every size, from nine squares down to the final line of three. Pick a " +
			"mark whose rendezvous squares are near your men and far from your opponent's.",
		Position: "board=8/8/2bbw3/2wbb3/2wbw3/8/8/8 to=white phase=mark rdv=2 size=8 setter=white lost=white",
		Goal:     game.GoalTurn,
		Done:     "The mark is set. Now your opponent may answer with the interchange.",
		Hint:     "Click d4.",
		Solution: []string{"mark d4"},
		// The seven shapes, 9 squares down to 3, as the rules page draws
		// them.
		Figures: []int{0, 1, 2, 3, 4, 5, 6},
	},
	{
		Title:   "An interchange with unequal numbers",
		Ruleset: "1893",
		Rule:    "When the numbers differ, the setter, who has fewer men, chooses which of the other's men change places with his; the others keep their squares (Rule 5).",
		Task:    "Black demanded an interchange and has five men to your four: click four black men to change places with yours.",
		Text: "An interchange always works the same way: the setter's men and as many of the other player's men " +
			"change places, each player keeping his colour. With equal numbers, as at the start, all the men " +
			"change places. After the first rendezvous the setter has fewer men (the player with fewer men sets " +
			"the mark), so the setter chooses which of the other's men change places with his (Rule 5): here you " +
			"choose four of black's five, and the one you leave out keeps his square. Choose the black men " +
			"nearest the green squares: your men go where they stand, and black's go where yours stood.",
		Position: "board=8/8/2bbw3/2wbb3/2wbw3/8/8/8 to=white phase=swap rdv=2 size=8 mark=d4 setter=white swap=-/4 lost=white",
		Goal:     game.GoalTurn,
		Done: "Your men stand on the four squares you chose and black's on your old ones; the black man you left out " +
			"kept his square. Black, who did not set the mark, moves first, with two squares.",
		Hint:     "Click c6 and d6, two squares from the green squares, then two of d4, d5 and e5, three away; leave e5.",
		Solution: []string{"swap c6", "swap d6", "swap d4", "swap d5"},
	},
	{
		Title:   "The smaller rendezvous: 7, 6 and 5 squares",
		Ruleset: "1893",
		Rule:    "With 8 men the rendezvous is the nine round the mark less the two beside it along its rank (7 squares); with 7, the eight border squares less the two along the rank (6); with 6, the mark and its four slanting neighbours (5); with 5, the four slanting border squares (4): the shapes are fixed, and only the final line of three is turned as the setter chooses (Defs. 1–3).",
		Task:    "You play Black: set the mark for a rendezvous of seven squares, on e4 or wherever you like.",
		Text: "Back to the game of the border slide: black lost a man there, and with eight men on the board the " +
			"rendezvous has seven squares. Carroll draws each shape with the players at the upper and lower " +
			"edges: the squares left out are the ones beside the mark along its rank, parallel to the players' " +
			"edges, whoever sets it, and so for six squares. Five and four squares keep only the slanting " +
			"directions. The setter chooses only where the mark goes, until the last rendezvous: three squares in " +
			"a line, turned as he likes. Point at a square to see its seven.",
		Position: "board=2w2w2/w7/8/w6b/8/b7/8/2b3b1 to=black phase=mark rdv=3 size=7 setter=black lost=black",
		Goal:     game.GoalTurn,
		Done:     "The mark is set, and the seven squares with it: d4 and f4, beside the mark along the rank, are not in the rendezvous. White may now demand the interchange.",
		Hint:     "Click e4.",
		Solution: []string{"mark e4"},
		// The shapes of 7, 6 and 5 squares, as the rules page draws them.
		Figures: []int{2, 3, 4},
	},
	{
		Title:   "How a game is drawn",
		Ruleset: "1893",
		Rule:    "A game is drawn when the same position comes a third time, or after 100 turns in a row in which no rendezvous is won and no man converted or removed (Muster's ruling: the 1893 text is silent, and Carroll held in 1881 that such a game is drawn).",
		Task:    "99 turns have passed without progress: win this rendezvous now, or the game is drawn.",
		Text: "Carroll's rules of 1893 say nothing of a game that goes nowhere; in 1881 he wrote that if neither " +
			"side will move his last man into the rendezvous, \"this, I think, ought to be a drawn game.\" Muster " +
			"draws it in two ways: when the same position (the men, the mark, whose turn and what is left of it) " +
			"comes a third time, and when 100 turns in a row pass with no rendezvous won and no man converted or " +
			"removed. Here 99 such turns have passed. Your last man outside, on c8, can reach the empty " +
			"rendezvous square c5 with your three squares.",
		Position: "board=2w5/8/8/4w3/3b4/2w1b3/8/7b to=white phase=move rdv=4 size=5 mark=d4 setter=black budget=3 opening=no opened=bw lone=c8 quiet=99",
		Goal:     "rendezvous-won",
		Done:     "The rendezvous is won, black's man on h1 is removed, and the count of turns without progress starts again from nothing.",
		Hint:     "c8 to c5, three squares down the file.",
		Solution: []string{"c8-c5"},
	},
	{
		Title:   "How the game is won",
		Ruleset: "1893",
		Rule:    "With four men left the rendezvous is 3 squares in a line through the mark, its direction chosen by the setter; a player with only one man left has lost the game (Def. 2, Rule 9).",
		Task:    "Win the game: bring both your men into the three green squares.",
		Text: "Each rendezvous won takes a man from the loser (or converts one to the winner), and the rendezvous " +
			"shrinks with the men: with four men left it has three squares in a line. A player with only one man " +
			"left has lost the game (Rule 9). Here Black has a man in the rendezvous and one far outside.",
		Position: "board=8/8/6w1/4b3/8/3w4/8/b7 to=white phase=move rdv=5 size=3 mark=e5 line=ne setter=black budget=3 opening=no opened=bw",
		Goal:     "game-over",
		Done:     "Black's man outside is removed and Black has one man left: you have won. That is all of Lanrick 1893.",
		Hint:     "d3 to d4, then g6 to f6.",
		Solution: []string{"d3-d4", "g6-f6"},
	},
}
