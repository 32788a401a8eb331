// Package study answers the questions about Lanrick that Carroll and his
// correspondents raised, as data for a command or a page to print: the
// endgame tables' answers for a position (Answer), the building and
// checking of the tables (BuildTables, CheckTables), the selector of the
// last rendezvous of 1880–1881 (Selector), the final mark of 1893 with and
// without the interchange (Final), and who won each rendezvous of recorded
// games (Rendezvous).
//
// Positions are built with lanrick's Game.Build, never by writing text.
package study
