// Package play holds the games in play: the registry of the rooms this
// server has in memory (games.go), the room that owns each game — its
// state, its clock, its computer players (room.go), endings and rematches
// (ending.go), takebacks (takeback.go), rated finishes (ratings.go) —
// what every client receives (view.go), and the API by resource
// (handlers.go).
//
// Locks. A room's changes are made one at a time: each takes the room's
// turn, checks the change by the rules and the seats' secrets, stores it,
// and only then changes the room in memory and publishes an immutable
// snapshot (the view, its JSON, the seats) that every reader uses without
// waiting for the turn. The registry's mutex guards its map alone: no
// room's turn is taken under it, and no turn is held while the registry
// is asked for another room. Computer players search through the
// server's engine pool (internal/engine), never under the turn.
package play
