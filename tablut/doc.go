// Package tablut is Tablut, the tafl game Linnaeus recorded in Lapland in
// 1732, in its reconstructions: each ruleset is a preset of named options
// (see Info), and docs/tablut-rules.md gives the sources.
//
// Position is the fast core: the 9×9 board as rank and file occupancy
// masks with a Zobrist hash, copied by value. Rules (compiled from the
// options) generate moves into caller buffers without allocating and apply
// them with their captures. State wraps a Position with the history that
// repetition needs and implements game.State; Game implements game.Game and
// registers itself as "tablut".
//
// State.Play checks a move (input from people and the network);
// State.Apply and State.ApplyMove do not (search).
//
// This package is the template for adding a game: a board file with the
// square numbering, rules.go with the options and presets, position.go for
// move generation, state.go for the contract, notation.go and record.go.
package tablut
