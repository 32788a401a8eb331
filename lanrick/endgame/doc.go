// Package endgame solves the last two rendezvous of Lanrick (1893 and
// 1899) exactly, by retrograde analysis: the final one, two men a side
// (Table, below), and the one before it, three men against two in the
// 4-square open rendezvous (FiveTable: see it for how it is solved, over
// man-moves, through Rule 7's conversions, which turn the race round
// within the rendezvous, to Rule 8's end, valued by the four-man tables).
// Race searches the final rendezvous turn by turn where the tables are
// not on disk.
//
// With four men on the board, two a side, the rendezvous is Def. 2's
// line of three squares, and each turn moves at most three squares
// (Rule 3: "3 … according as he has … less than 4 men"). The first
// player to get both his men into the line wins the game at once: if the
// third square is empty he converts one of the enemy's men (Rule 7) and
// the enemy, left with one man, has lost (Rule 9); if the enemy stands on
// it, the enemy's other man is removed (Rule 8) with the same effect. So
// the final rendezvous is a race, and its value depends only on the four
// men, the line and who is to move.
//
// A Table holds, for one line, the value of every such position at the
// start of a turn: won in n turns, lost in n turns, or drawn (neither side
// can force a win, so under perfect play the game repeats). It is built
// by counting successors backwards from the won positions, as chess
// endgame tables are. Lines that map onto each other under the board's
// eight symmetries share one table, so 24 tables cover the 168 lines.
//
// The solver's turn generator is written for speed and checked against
// the rules package: for sampled positions both give the same set of
// positions after one turn (see the tests).
//
// Tables keeps the 24 tables on disk (DefaultDir) and answers any line
// through its symmetry; Tables.Act plays any position of the final
// rendezvous perfectly — within a turn, at Rule 5's interchange, and the
// setting of the final mark — by looking ahead with the rules package's
// actions to the next start of a turn and reading the tables there; and
// three men against two the same way, from the five-man tables on disk.
package endgame
