package game_test

import (
	"fmt"

	"github.com/muster-games/muster/game"
	_ "github.com/muster-games/muster/tablut"
)

func ExampleLoad() {
	g, err := game.Load("tablut(walker)")
	if err != nil {
		panic(err)
	}
	s := g.NewState()
	if err := game.ApplyNotation(s, []string{"a4-a3", "e3-d3", "a3-a4", "d3-e3"}); err != nil {
		panic(err)
	}
	fmt.Println(g.Spec(), game.ResultName(s), s.Result().Reason)
	// Output: tablut(walker) draw repeated position
}
