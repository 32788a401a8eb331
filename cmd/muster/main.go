// Command muster plays and studies Lewis Carroll's Lanrick and Linnaeus's
// Tablut (and Kōnane, the example of a game added in a day). Run "muster help" for its subcommands.
package main

import (
	"os"

	_ "github.com/muster-games/muster/examples/konane" // registers konane, the example of docs/new-game.md
	"github.com/muster-games/muster/internal/cli"
	_ "github.com/muster-games/muster/lanrick"    // registers lanrick
	_ "github.com/muster-games/muster/lanrick/ai" // Lanrick's evaluation and endgame tables for the agents
	_ "github.com/muster-games/muster/tablut"     // registers tablut
	_ "github.com/muster-games/muster/tablut/ai"  // Tablut's evaluation, search position and levels
)

func main() {
	os.Exit(cli.RunIO(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
