package solve_test

import (
	"context"
	"fmt"

	"github.com/muster-games/muster/lanrick"
	"github.com/muster-games/muster/search"
	"github.com/muster-games/muster/search/solve"
)

// The last rendezvous of 1880-12, one man each: white, to choose it, has
// his man on h1, black his on d5. Every rendezvous white may choose is
// near d5, and black moves first.
func ExampleSolve() {
	g := lanrick.MustLoad("1880-12")
	s, err := g.Parse("board=8/8/8/3b4/8/8/8/7w to=white phase=mark setter=white")
	if err != nil {
		panic(err)
	}
	res, err := solve.Solve(context.Background(), s, search.Limits{Depth: 10})
	if err != nil {
		panic(err)
	}
	fmt.Println("white:", solve.Verdict(res))
	// Output: white: loss in 4 actions
}
