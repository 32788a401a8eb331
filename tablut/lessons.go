package tablut

import "github.com/muster-games/muster/game"

// lessons are the steps of "Learn Tablut" under the default ruleset
// (linnaeus): a short whole game to watch, moving, capturing, capturing
// against the empty castle, the king's escape, raichi and tuichu, the
// ends besides the king's (a side without a move, a position repeated),
// and his capture; the tests play every solution by the rules and check
// what each step says of it.
var lessons = []game.Lesson{
	{
		Title:   "What the game is about: a whole game",
		Ruleset: "linnaeus",
		Rule:    "The attackers (dark) move first; the defenders (light) win when their king reaches any square of the board's edge, the attackers when they capture him.",
		Task:    "Watch a whole game, eight moves from the start to the king's escape: press Play.",
		Text: "Tablut is the Sami game Linnaeus saw in Lapland in 1732: the Swedes (light) guard their king in the " +
			"castle at the centre, and the Muscovites (dark), twice as many, surround them. The sides are unequal, " +
			"and so are their aims: the king's side wins by bringing him to the edge, the other by capturing him. " +
			"The game shown is short because the attackers play carelessly: a real one lasts far longer.",
		Position: StartOTN + " attackers",
		Goal:     game.GoalWatch,
		Done:     "The defenders have won: the king reached the edge. Next, you move the pieces yourself.",
		Hint:     "Press Play to watch it all, or Next move to go through it one move at a time.",
		Watch: []game.Shown{
			{Action: "f1-f2", Say: "The attackers move first. Every piece moves like a chess rook, along a rank or a file over empty squares, never jumping."},
			{Action: "e4-f4", Say: "The defenders answer. They guard the king, on the castle in the centre."},
			{Action: "a4-e4xe3", Say: "A capture: the attacker arriving on e4 traps the defender on e3 against the attacker on e2, and takes him."},
			{Action: "d5-d4xe4", Say: "The defenders capture the same way: the defender arriving on d4 traps the attacker on e4 against f4."},
			{Action: "d9-d5xc5", Say: "The attacker arriving on d5 traps the defender on c5 against b5."},
			{Action: "e5-e3", Say: "The king leaves the castle for e3. Two lines run free from him to the edge, drawn on the board: tuichu. The attackers can block only one."},
			{Action: "d1-d3xd4", Say: "The attackers block the line to a3, and take the defender on d4 between d3 and d5; the line to i3 stays open."},
			{Action: "e3-i3", Say: "The king runs to i3, on the edge: he has escaped, and the defenders win."},
		},
	},
	{
		Title:   "Moving",
		Ruleset: "linnaeus",
		Rule:    "Every piece moves like a chess rook, any number of empty squares along a rank or a file, never jumping; only the king may stand on the castle.",
		Task:    "Move one of your dark pieces like a rook: click it, then its square.",
		Text: "You play the attackers, the sixteen dark Muscovites; the Swedes defend their king in the castle, the " +
			"centre square. Every piece moves like a chess rook: any number of empty squares along a rank or a file, " +
			"never jumping. Only the king may stand on the castle. Move one of your pieces: click it, then its square.",
		Position: StartOTN + " attackers",
		Goal:     game.GoalTurn,
		Done:     "Your move is made; the defenders answer. You take turns, one piece a turn.",
		Hint:     "Try a4 to a3.",
		Solution: []string{"a4-a3"},
	},
	{
		Title:   "Capturing",
		Ruleset: "linnaeus",
		Rule:    "A piece is captured when an enemy moves to trap it between two enemies along a rank or a file (the king helps his side to capture); moving between two enemies is safe.",
		Task:    "Capture the defender on c3: close the trap from the other side.",
		Text: "A piece is captured when you trap it between two of yours along a rank or file, by moving one of them " +
			"there (moving between two enemies is safe). The defender on c3 has your attacker on b3 beside him: " +
			"close the trap from the other side.",
		Position: "/9/9/1tT6/9/4K4/9/9/9/3t5/ attackers",
		Goal:     "capture",
		Done:     "The defender is taken off the board.",
		Hint:     "d9 to d3.",
		Solution: []string{"d9-d3xc3"},
	},
	{
		Title:   "The empty castle captures too",
		Ruleset: "linnaeus",
		Rule:    "Once the king has left it, the empty castle is hostile to every piece: it takes the place of one of the two captors, for either side. While the king is on it, it is hostile to a defender beside it only once attackers hold the castle's three other sides (rule 10).",
		Task:    "Capture the defender on e4 against the empty castle: move your attacker from a3 to e3.",
		Text: "Linnaeus's rule 14: the castle shuts a piece in \"just like a third man\". Here the king has left it, so " +
			"the defender on e4 stands between the empty castle (e5) and e3: an attacker arriving on e3 takes him. " +
			"Beware: the castle does the same to your own men beside it, when a defender arrives on the far side. " +
			"While the king is at home it protects his men beside it, until attackers stand on the castle's three " +
			"other sides: then a defender beside it is taken between the castle and an attacker (rule 10, the " +
			"Linnaean capture).",
		Position: "/9/9/t8/4T4/9/9/6K2/9/9/ attackers",
		Goal:     "capture",
		Done:     "The defender on e4 is taken: the empty castle was the second captor.",
		Hint:     "a3 to e3.",
		Solution: []string{"a3-e3xe4"},
	},
	{
		Title:   "The king escapes",
		Ruleset: "linnaeus",
		Rule:    "The defenders win as soon as the king stands on any square of the board's edge.",
		Task:    "Play the defenders: run the king to the board's edge.",
		Text: "Now you play the defenders, the light Swedes and their king (the crowned piece). The king wins the " +
			"game for them by reaching any square of the board's edge. His way along the e-file to e1, on the edge, " +
			"is open: take it.",
		Position: "/9/9/9/9/t3K3t/9/9/9/4t4/ defenders",
		Goal:     "king-escaped",
		Done:     "The king has escaped: the defenders win. As the attackers, block every line he could run down.",
		Hint:     "e5 to e1.",
		Solution: []string{"e5-e1"},
	},
	{
		Title:   "Raichi and tuichu",
		Ruleset: "linnaeus",
		Rule:    "A king with one open line to the edge is in raichi (check): the attackers must block it. With two open lines, tuichu, they can block only one, and he escapes.",
		Task:    "Move the king along rank 3 to a square with two open lines to the edge (tuichu).",
		Text: "Linnaeus names the threats: when the king has a free way to the edge the defender says \"raichi\", and " +
			"with two at once \"tuichu\", which wins, since one move of the attackers blocks only one line. The open " +
			"lines are drawn on the board. From e3 the king has none (a3, i3 and e1 block him, and the castle the " +
			"e-file toward e9); from a square on rank 3 other than e3, the file runs free both ways.",
		Position: "/4t4/9/t3K3t/9/9/9/9/9/3ttt3/ defenders",
		Goal:     game.GoalTurn,
		Done:     "Tuichu: the king has two open lines and the attackers can block only one; next turn he escapes.",
		Hint:     "e3 to c3: the c-file is open to c1 and to c9.",
		Solution: []string{"e3-c3"},
	},
	{
		Title:   "No move, or the same position three times",
		Ruleset: "linnaeus",
		Rule:    "A side left without a legal move on its turn loses; a position that comes a third time, the same side to move, draws the game.",
		Task:    "Leave the defenders without a move: close the last gap round them.",
		Text: "Two more ways a game ends. A side that cannot move when its turn comes loses, so a ring the " +
			"defenders cannot break from wins for the attackers as surely as taking the king. And when the same " +
			"position comes a third time with the same side to move, the game is drawn: shuttling a piece to and " +
			"fro wins nothing. Here the king and his four men are walled in but for one square, g5, beside the " +
			"defender on f5; your attacker on g1 can close it.",
		Position: "/6t2/9/4t4/3tTt3/2tTKT3/3tTt3/4t4/9/9/ attackers",
		Goal:     "game-over",
		Done:     "The defenders cannot move: the attackers win. Had both sides shuttled g1 and f5 to and fro instead, the third time the position came round the game would have been drawn.",
		Hint:     "g1 to g5.",
		Solution: []string{"g1-g5"},
	},
	{
		Title:   "Capturing the king",
		Ruleset: "linnaeus",
		Rule:    "Away from the castle the king is captured like any piece, between two attackers; on the castle it takes four, and beside it three, the castle making the fourth.",
		Task:    "Trap the king on g3 between two attackers.",
		Text: "Away from the castle the king is captured like any other piece, between two attackers (on the castle " +
			"it takes four, and beside it three with the castle as the fourth). You play the attackers again: the king " +
			"on g3 has your attacker on f3 beside him. Take him.",
		Position: "/9/9/5tK2/9/9/9/9/7t1/9/ attackers",
		Goal:     "king-captured",
		Done:     "The king is captured: the attackers win. That is Tablut; the rules page gives every ruleset.",
		Hint:     "h8 to h3.",
		Solution: []string{"h8-h3"},
	},
}
