package alphabeta

import "github.com/muster-games/muster/game"

// StoreForTest and ProbeForTest reach the table from the external tests.
func StoreForTest(t *Table, key uint64, move game.Action, score, depth int, flag uint8) {
	t.store(key, move, score, depth, flag)
}

func ProbeForTest(t *Table, key uint64) (game.Action, int, int, uint8, bool) {
	return t.probe(key)
}
