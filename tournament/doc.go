// Package tournament computes what a tournament's organiser would by
// hand: the pairings of each round, the points of each game, the
// standings and their tie-breaks. It knows nothing of games, servers or
// clocks: players are numbers 0..n-1 in seeding order (the strongest
// first), results are points from White's side, and every function is a
// pure function of what has been played, so a server that stores the
// games can recompute the rest after a restart.
//
// Three kinds of event:
//
//   - a round robin, everyone meeting everyone, by FIDE's Berger tables
//     (Handbook C.05, Annex 1), once or twice (colours reversed);
//   - a Swiss of a fixed number of rounds, paired by score groups, top
//     half against bottom half, never the same two twice (see Swiss);
//   - an arena, players paired again as soon as they are free, scored as
//     lichess scores its arenas: 2 a win, 1 a draw, doubled on a streak
//     (see ArenaPoints).
//
// Tie-breaks are computed by name (Buchholz, Buchholz cut 1,
// Sonneborn-Berger, wins, direct encounter), as FIDE's tie-break
// regulations (Handbook C.07) define them.
package tournament
