// Package game is the contract every game of Muster speaks, modelled on
// OpenSpiel's Game and State: a game is a sequence of atomic actions; at
// each point one player acts, or chance does, or the game is over. A turn
// is the run of actions by one player and may be several actions long.
// The server, the search, the records and the evaluation use only this
// contract; each game keeps a fast concrete position underneath.
//
// Games register themselves (game.Register from their package's init) and
// are loaded from strings: a name, optionally with a ruleset and options,
//
//	tablut
//	tablut(ludii-smith)
//	tablut(linnaeus, king_capture=strong)
//
// Package gametest holds the conformance suite that every game passes.
package game
