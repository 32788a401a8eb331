// Package lanrick is Lanrick, Lewis Carroll's game for two players, in
// every version he published from January 1879 to 1899. Each version is a
// ruleset, and the variants his rules leave open are named options (see
// Info); docs/lanrick-rules.md and docs/carroll.md give the sources and the
// rulings.
//
// The board is 8×8. Squares are numbered rank by rank from a1, as the
// player at the bottom (white, the 1893 first edition's yellow) sees it;
// black sits at the top, behind rank 8:
//
//	8 | 56 57 58 59 60 61 62 63     black's edge
//	7 | 48 49 50 51 52 53 54 55
//	6 | 40 41 42 43 44 45 46 47
//	5 | 32 33 34 35 36 37 38 39
//	4 | 24 25 26 27 28 29 30 31
//	3 | 16 17 18 19 20 21 22 23
//	2 |  8  9 10 11 12 13 14 15
//	1 |  0  1  2  3  4  5  6  7     white's edge
//	    a  b  c  d  e  f  g  h
//
// A Square is one of these numbers and a Bitboard a set of them (bit s for
// square s).
//
// Every step of the game is one action: setting a man (1879–1881), a throw
// of the die (chance, 1879), setting the mark of a rendezvous, moving a man
// one or more squares, ending a turn, interchanging, converting or removing
// an outlying man, and the re-marshalling of 1881. A turn of man-moves is
// several actions, so a search sees each step.
//
// The files hold:
//
//	board.go     squares, directions, rendezvous shapes
//	rules.go     the versions, options and presets (Info)
//	state.go     State, the start of a game, turns and budgets
//	movegen.go   the legal actions of 1893 and 1899, and why one is illegal
//	apply.go     Play and Apply, the rendezvous won, conversions, repetition
//	early.go     the phases of 1879–1881 (setting, removals, wanderers,
//	             radiating, bonus moves, re-marshalling)
//	dice.go      the throws of 1879's die
//	hash.go      the Zobrist hash
//	position.go  the one-line position text, Parse, and Build from Go
//	notation.go  the action notation
//	describe.go  the view, action descriptors, prompts and events of game
//	diagram.go   the terminal diagram
//	record.go    game records
//	eval.go      a static evaluation for the searches
//
// State.Play checks an action (input from people and the network);
// State.Apply does not (search). Game registers itself as "lanrick".
package lanrick
