package lanrick

import (
	"math/rand/v2"
	"testing"

	"github.com/muster-games/muster/game"
)

// TestZobristKeyFollowsTheMen plays random and greedy games of every
// ruleset and, after every action, compares the key kept up to date by
// setMen with the key computed from the men afresh; it also checks that a
// copy and a parse of the position's text carry the same key and hash.
func TestZobristKeyFollowsTheMen(t *testing.T) {
	for i, rs := range rulesets {
		g := MustLoad(rs)
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		checked := 0
		for n := range 6 {
			s := g.Start()
			var legal []game.Action
			for step := 0; !s.IsTerminal() && step < 3000; step++ {
				if s.ToAct() == game.Chance {
					outs := s.ChanceOutcomes(nil)
					s.Apply(outs[rng.IntN(len(outs))].Action)
				} else {
					legal = s.LegalActions(legal[:0])
					a := legal[rng.IntN(len(legal))]
					if n%2 == 1 {
						a = greedy(s, legal, rng) // wins, removals and conversions
					}
					s.Apply(a)
				}
				want := keyOf(Black, s.men[Black]) ^ keyOf(White, s.men[White])
				if s.key != want {
					t.Fatalf("%s after %s: key %x, recomputed %x", rs, actionText(s.actions[len(s.actions)-1]), s.key, want)
				}
				if c := s.Copy(); c.key != s.key {
					t.Fatalf("%s: a copy has key %x, want %x", rs, c.key, s.key)
				}
				p, err := g.Parse(s.String())
				if err != nil {
					t.Fatalf("%s: parse %q: %v", rs, s.String(), err)
				}
				if p.key != s.key || p.Hash() != s.Hash() {
					t.Fatalf("%s: the parse of %q hashes %x (key %x), want %x (key %x)", rs, s.String(), p.Hash(), p.key, s.Hash(), s.key)
				}
				checked++
			}
		}
		if checked < 100 {
			t.Errorf("%s: only %d positions checked", rs, checked)
		}
	}
}

// TestZobristKeysDiffer: no key is zero and no two are equal, so that
// moving one man always changes the hash.
func TestZobristKeysDiffer(t *testing.T) {
	seen := map[uint64]int{}
	for p := range menKeys {
		for q, k := range menKeys[p] {
			if k == 0 {
				t.Fatalf("key of %d on %s is zero", p, Square(q))
			}
			if j, ok := seen[k]; ok {
				t.Fatalf("keys %d and %d are equal", j, p*Squares+q)
			}
			seen[k] = p*Squares + q
		}
	}
}
