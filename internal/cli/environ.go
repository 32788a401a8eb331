package cli

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// envName is the environment variable of a command's flag: MUSTER_ and
// the flag's name in capitals, dashes as underscores (--conns-per-address:
// MUSTER_CONNS_PER_ADDRESS).
func envName(flagName string) string {
	return "MUSTER_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// fromEnv sets each flag of fs not given on the command line from its
// environment variable (envName), if set: a container or a service unit
// configures the server without a long command line, and the command line
// still wins. A flag that may be repeated takes several values from its
// variable, split by the separator given for it in repeated.
func fromEnv(env *Env, fs *flag.FlagSet, repeated map[string]string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if err != nil || given[f.Name] {
			return
		}
		v, ok := env.lookupEnv(envName(f.Name))
		if !ok {
			return
		}
		values := []string{v}
		if sep, ok := repeated[f.Name]; ok {
			values = nil
			for _, part := range strings.Split(v, sep) {
				if part = strings.TrimSpace(part); part != "" {
					values = append(values, part)
				}
			}
		}
		for _, value := range values {
			if e := fs.Set(f.Name, value); e != nil {
				err = fmt.Errorf("%w: %s=%q: %v", errUsage, envName(f.Name), value, e)
				return
			}
		}
	})
	return err
}

// lookupEnv reads the environment (the test's, where it gives one).
func (env *Env) lookupEnv(name string) (string, bool) {
	if env.Environ != nil {
		v, ok := env.Environ[name]
		return v, ok
	}
	return os.LookupEnv(name)
}
