package game_test

import (
	"sync"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestParallel: every job runs once, on no more goroutines than asked
// (a worker a goroutine) and no more than there are jobs.
func TestParallel(t *testing.T) {
	for _, c := range []struct{ n, threads int }{{0, 3}, {1, 4}, {10, 1}, {100, 3}} {
		var mu sync.Mutex
		ran := make([]int, c.n)
		workers, sum := 0, 0
		game.Parallel(c.n, c.threads, func() func(int) {
			mu.Lock()
			workers++
			mu.Unlock()
			return func(i int) {
				mu.Lock()
				ran[i]++
				sum++
				mu.Unlock()
			}
		})
		if workers > c.threads || workers > c.n || sum != c.n {
			t.Fatalf("%d jobs on %d threads: %d workers, %d runs", c.n, c.threads, workers, sum)
		}
		for i, k := range ran {
			if k != 1 {
				t.Fatalf("%d jobs on %d threads: job %d ran %d times", c.n, c.threads, i, k)
			}
		}
	}
}
