package play

import (
	"encoding/json"

	"github.com/muster-games/muster/game"
)

// turnLog is a game's turns as they are played. The turns that can no
// longer change are kept encoded, as a view writes them, and the last as
// a game.Turn: a live game's list of turns was its largest part (4.0 KB
// a Tablut game 30 s into a load of 1,000 games; 2.3 KB so), and was
// encoded anew for every view.
type turnLog struct {
	b *game.TurnBuilder
	// done are the settled turns encoded, separated by commas. It only
	// grows: a list given out holds a part of it, which later turns,
	// written past its end, leave as it was.
	done []byte
	// settled counts them; lastFirst is, for each seat, the first ply of
	// the last of them that seat played, or -1.
	settled   int
	lastFirst [2]int
}

// newTurnLog starts the turns of the actions played from start.
func newTurnLog(start game.State) *turnLog {
	return &turnLog{b: game.NewTurnBuilder(start), lastFirst: [2]int{-1, -1}}
}

// add plays a and puts it into its turn.
func (l *turnLog) add(a game.Action) {
	l.b.Add(a)
	l.settle()
}

// addPlayed puts a, played from before to after by the room, into its
// turn; the log then keeps no state of its own.
func (l *turnLog) addPlayed(before game.State, a game.Action, after game.State) {
	l.b.AddPlayed(before, a, after)
	l.settle()
}

// settle encodes the turns that can no longer change.
func (l *turnLog) settle() {
	l.settled = l.b.Settle(func(t *game.Turn) {
		if len(l.done) > 0 {
			l.done = grow(l.done, 1)
			l.done = append(l.done, ',')
		}
		l.done = grow(l.done, 128)
		l.done = appendTurn(l.done, t)
		if t.Player == 0 || t.Player == 1 {
			l.lastFirst[t.Player] = t.First
		}
	})
}

// grow makes room for n more bytes in b, a quarter again of what it
// holds (not double, as append would: a live game keeps what it holds).
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	out := make([]byte, len(b), len(b)+len(b)/4+n)
	copy(out, b)
	return out
}

// list is the turns so far, to be shared with readers.
func (l *turnLog) list() turnList {
	return turnList{done: l.done[:len(l.done):len(l.done)], tail: l.b.Turns()}
}

// len is the number of turns so far.
func (l *turnLog) len() int { return l.settled + len(l.b.Turns()) }

// lastTurnOf is the first ply of the last turn seat played, or -1.
func (l *turnLog) lastTurnOf(seat int) int {
	tail := l.b.Turns()
	for i := len(tail) - 1; i >= 0; i-- {
		if int(tail[i].Player) == seat {
			return tail[i].First
		}
	}
	if seat == 0 || seat == 1 {
		return l.lastFirst[seat]
	}
	return -1
}

// turnList is a game's turns in a view: those settled, encoded, then the
// others. Encoded, it is the list encoding/json writes of the turns
// (game.Turns), [] for none.
type turnList struct {
	done []byte
	tail []game.Turn
}

// MarshalJSON writes the list as appendTurnList does.
func (t turnList) MarshalJSON() ([]byte, error) { return appendTurnList(nil, t), nil }

// UnmarshalJSON reads a list of turns (a client's view).
func (t *turnList) UnmarshalJSON(b []byte) error {
	t.done = nil
	return json.Unmarshal(b, &t.tail)
}

// List returns the turns.
func (t turnList) List() []game.Turn {
	if len(t.done) == 0 {
		return t.tail
	}
	var out []game.Turn
	if err := json.Unmarshal(appendTurnList(nil, turnList{done: t.done}), &out); err != nil {
		panic("play: turns encoded wrong: " + err.Error()) // not reached: TestTurnListIsEncodingJSON
	}
	return append(out, t.tail...)
}

// appendTurnList appends the turns as a JSON list.
func appendTurnList(b []byte, t turnList) []byte {
	b = append(b, '[')
	b = append(b, t.done...)
	for i := range t.tail {
		if i > 0 || len(t.done) > 0 {
			b = append(b, ',')
		}
		b = appendTurn(b, &t.tail[i])
	}
	return append(b, ']')
}
