package tablut

import "github.com/muster-games/muster/game"

// lessons are the steps of "Learn Tablut" under the default ruleset
// (linnaeus): moving, capturing, the king's escape and his capture; the
// tests play every solution by the rules.
var lessons = []game.Lesson{
	{
		Title:   "Moving",
		Ruleset: "linnaeus",
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
		Title:   "The king escapes",
		Ruleset: "linnaeus",
		Task:    "Play the defenders: run the king to the board's edge.",
		Text: "Now you play the defenders, the light Swedes and their king (the crowned piece). The king wins the " +
			"game for them by reaching any square of the board's edge. His way south is open: take it.",
		Position: "/9/9/9/9/t3K3t/9/9/9/4t4/ defenders",
		Goal:     "king-escaped",
		Done:     "The king has escaped: the defenders win. As the attackers, block every line he could run down.",
		Hint:     "e5 to e1.",
		Solution: []string{"e5-e1"},
	},
	{
		Title:   "Capturing the king",
		Ruleset: "linnaeus",
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
