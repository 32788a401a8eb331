package endgame_test

import (
	"fmt"

	"github.com/muster-games/muster/lanrick/endgame"
)

func Example() {
	fmt.Println(len(endgame.Lines()), "lines in", len(endgame.Classes()), "tables;", len(endgame.Arising()), "starts of the final rendezvous")
	// Output: 168 lines in 24 tables; 432 starts of the final rendezvous
}
