package alphabeta

import "testing"

// TestWinDistanceInTheTable: a win found 2 plies below a node 5 plies from
// the root is stored as 2 plies from that node, and read back 3 plies from
// a root where the node is 1 ply deep; ordinary scores pass unchanged.
func TestWinDistanceInTheTable(t *testing.T) {
	for _, c := range []struct{ score, ply, stored, readAt, read int }{
		{Win - 7, 5, Win - 2, 1, Win - 3},
		{-Win + 7, 5, -Win + 2, 1, -Win + 3},
		{123, 5, 123, 1, 123},
		{-Win + 3*maxPly, 5, -Win + 3*maxPly, 1, -Win + 3*maxPly},
	} {
		if got := toTable(c.score, c.ply); got != c.stored {
			t.Errorf("toTable(%d, %d) = %d, want %d", c.score, c.ply, got, c.stored)
		}
		if got := fromTable(c.stored, c.readAt); got != c.read {
			t.Errorf("fromTable(%d, %d) = %d, want %d", c.stored, c.readAt, got, c.read)
		}
	}
}
