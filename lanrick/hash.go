package lanrick

// The hash of a position is Zobrist's: every (player, square) has a random
// key, and the men's part of the hash is the exclusive-or of the keys of
// the occupied squares. It is kept up to date as men move, are taken,
// converted or interchanged, by setMen, the only writer of s.men; the
// turn's small fields (phase, mark, budget, the men moved, the 1879–1881
// counters) are folded in when the hash is asked for.

// menKeys[p][q] is the key of a man of p's on q.
var menKeys [2][Squares]uint64

func init() {
	x := uint64(0x6c616e7269636b) // "lanrick"
	for p := range menKeys {
		for q := range menKeys[p] {
			// splitmix64: a fixed, well-spread sequence.
			x += 0x9E3779B97F4A7C15
			z := x
			z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
			z = (z ^ z>>27) * 0x94D049BB133111EB
			menKeys[p][q] = z ^ z>>31
		}
	}
}

// keyOf is the exclusive-or of p's keys over the squares of b.
func keyOf(p int, b Bitboard) uint64 {
	k := uint64(0)
	for ; b != 0; b &= b - 1 {
		k ^= menKeys[p][trailing(b)]
	}
	return k
}

// setMen sets p's men to b, updating the key by the squares that changed.
func (s *State) setMen(p int, b Bitboard) {
	s.key ^= keyOf(p, s.men[p]^b)
	s.men[p] = b
}

// Hash returns a hash of everything that affects what may follow.
func (s *State) Hash() uint64 {
	h := s.key
	mix := func(x uint64) {
		h ^= x
		h *= 0x9E3779B97F4A7C15
		h ^= h >> 29
	}
	mix(uint64(s.moved))
	mix(uint64(s.swapped))
	flags := uint64(uint8(s.phase)) | uint64(uint8(s.toAct))<<8 | uint64(uint8(s.mark))<<16 |
		uint64(uint8(s.shape.Size))<<24 | uint64(uint8(s.shape.Line))<<32 | uint64(uint8(s.setter))<<40 |
		uint64(uint8(s.budget))<<48 | uint64(uint8(s.swapLeft))<<56
	mix(flags)
	var b uint64
	for i, f := range [...]bool{s.movedAny, s.opening, s.openingDone[0], s.openingDone[1], s.over} {
		if f {
			b |= 1 << i
		}
	}
	mix(b | uint64(uint8(s.lone))<<8 | uint64(uint8(s.lastLoser))<<16 | uint64(uint8(s.passes))<<24)
	if s.g.Rules.old() {
		s.hashEarly(mix)
	}
	return h
}

// hashEarly folds in the fields of 1879–1881.
func (s *State) hashEarly(mix func(uint64)) {
	e := &s.early
	mix(uint64(e.prevRdv))
	mix(uint64(uint8(e.placer)) | uint64(uint8(e.placed))<<8 | uint64(uint8(e.first))<<16 |
		uint64(uint8(e.budgets[0]))<<24 | uint64(uint8(e.budgets[1]))<<32 | uint64(uint8(e.bonus))<<40 |
		uint64(uint8(e.roll))<<48 | uint64(uint8(e.rollRow))<<56)
	priv := uint64(0)
	if e.privilege {
		priv = 1
	}
	mix(priv | uint64(uint8(e.scores[0]))<<8 | uint64(uint8(e.scores[1]))<<16 |
		uint64(uint8(e.wanderers))<<24 | uint64(uint8(e.marshalStart))<<32 | uint64(uint16(s.rendezvous))<<40)
	for w := s.moved; w != 0; w &= w - 1 {
		q := trailing(w)
		mix(uint64(q)<<8 | uint64(uint8(e.lines[q])))
	}
}
