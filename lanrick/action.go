package lanrick

import (
	"github.com/muster-games/muster/game"
)

// An action is packed as kind<<16 | a<<8 | b, with a and b squares (or a
// number) as the kind needs.
type kind uint8

const (
	kPlace         kind = iota + 1 // @sq: place a man on a
	kRoll                          // roll n: a throw of the die (chance), n in a
	kMark                          // mark sq [dir]: a = square, b = line direction + 1 (0: none)
	kInterchange                   // interchange
	kNoInterchange                 // no-interchange
	kSwap                          // swap sq: the setter picks a man to interchange
	kMove                          // a-b: a man moves along a line (also relocations)
	kSlide                         // a~b: Rule 6, along the border ring
	kMarkMove                      // mark>b: 1880-12 Rule 5, the mark moves one square
	kEnd                           // end the turn
	kPass                          // no legal action
	kRemove                        // x sq: remove (or convert) the man on a
)

func pack(k kind, a, b int) game.Action {
	return game.Action(uint32(k)<<16 | uint32(uint8(a))<<8 | uint32(uint8(b)))
}

func unpack(x game.Action) (k kind, a, b int) {
	return kind(x >> 16), int(int8(x >> 8)), int(int8(x))
}
