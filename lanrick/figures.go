package lanrick

import "github.com/muster-games/muster/game"

// figures are the diagrams of the rules page: every shape of the 1893
// rendezvous (Definitions 2 and 3), each with its mark set on a board of
// as many men as that size asks for (one more than its squares).
var figures = []game.Figure{
	{Title: "A close rendezvous of 9 squares", Ruleset: "1893",
		Caption:  "With ten men on the board the rendezvous has nine squares: the mark (the coin) and the eight squares round it. Odd sizes are 'close': squares next to the mark.",
		Position: "board=bbbbb3/8/8/8/8/8/8/wwwww3 to=white phase=move rdv=1 size=9 mark=d5 setter=black budget=5 opening=no opened=bw"},
	{Title: "An open rendezvous of 8 squares", Ruleset: "1893",
		Caption:  "With nine men it has eight: the border squares a chess queen on the mark would check, in all eight directions. Even sizes are 'open', and a man on the border may slide along it towards them (Rule 6).",
		Position: "board=bb1bb1b1/8/8/8/8/8/8/ww1ww3 to=white phase=move rdv=1 size=8 mark=c5 setter=black budget=4 opening=no opened=bw"},
	{Title: "A close rendezvous of 7 squares", Ruleset: "1893",
		Caption:  "With eight men: the mark and the six squares round it that are not on its own row (the players sit at the top and bottom edges).",
		Position: "board=bbbb4/8/8/8/8/8/8/wwww4 to=white phase=move rdv=1 size=7 mark=d5 setter=black budget=4 opening=no opened=bw"},
	{Title: "An open rendezvous of 6 squares", Ruleset: "1893",
		Caption:  "With seven men: the border squares at the ends of the mark's six lines that do not run along its own row.",
		Position: "board=1bb1bb2/8/8/8/8/8/8/www5 to=white phase=move rdv=1 size=6 mark=d5 setter=black budget=3 opening=no opened=bw"},
	{Title: "A close rendezvous of 5 squares", Ruleset: "1893",
		Caption:  "With six men: the mark and the four squares touching its corners.",
		Position: "board=bbb5/8/8/8/8/8/8/www5 to=white phase=move rdv=1 size=5 mark=d5 setter=black budget=3 opening=no opened=bw"},
	{Title: "An open rendezvous of 4 squares", Ruleset: "1893",
		Caption:  "With five men: the border squares at the ends of the mark's two diagonals.",
		Position: "board=1bbb4/8/8/8/8/8/8/ww6 to=white phase=move rdv=1 size=4 mark=d5 setter=black budget=3 opening=no opened=bw"},
	{Title: "A close rendezvous of 3 squares", Ruleset: "1893",
		Caption:  "With four men: a line of three squares with the mark in the middle, straight or slanting as the setter chooses; here slanting.",
		Position: "board=bb6/8/8/8/8/8/8/ww6 to=white phase=move rdv=1 size=3 mark=d5 line=ne setter=black budget=3 opening=no opened=bw"},
}
