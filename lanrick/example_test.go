package lanrick_test

import (
	"fmt"

	"github.com/muster-games/muster/lanrick"
)

// The first steps of a game of 1893: black sets the mark, white declines
// the interchange and opens with a 2-square turn (one square for each of
// two men), and black's first full turn begins.
func Example() {
	g := lanrick.MustLoad("1893")
	s := g.Start()
	fmt.Println(s.Prompt().Text)
	for _, text := range []string{"mark d5", "no-interchange", "a1-b2", "g1-f2"} {
		a, err := s.ParseAction(text)
		if err != nil {
			fmt.Println(err)
			return
		}
		s.Apply(a)
	}
	fmt.Println(s.Prompt().Text)
	fmt.Print(s.Diagram())
	// Output:
	// Set the mark for rendezvous 1 on one of the four squares shown.
	// Move your men along straight lines: 5 squares left this turn, at most 3 for one man unless he is your only man outside.
	//     a b c d e f g h     black
	//  8  . b . . w . . b  8
	//  7  w . . . . . . .  7
	//  6  . . * * * . . .  6
	//  5  . . * * * . . w  5
	//  4  b . * * * . . .  4
	//  3  . . . . . . . .  3
	//  2  . w . . . w . b  2
	//  1  . . . b . . . .  1
	//     a b c d e f g h     white
	// men: black 5, white 5; rendezvous 1: 9 squares, mark d5
	// black to move: 5 squares left this turn
}
