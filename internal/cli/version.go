package cli

import (
	"encoding/json"
	"flag"
	"fmt"

	"github.com/muster-games/muster/internal/version"
)

const versionHelp = `Prints the version of this muster binary and the commit it was built from,
as the Go toolchain recorded them: a binary built with go build in a git
checkout names its commit, its time and whether the tree had changes. A
running server answers the same at GET /api/version and logs it as it starts.`

func runVersion(env *Env, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print it as JSON (the fields of GET /api/version)")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, pos)
	}
	b := version.Read()
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(b)
	}
	fmt.Fprintln(env.Stdout, b)
	return nil
}
