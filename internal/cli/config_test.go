package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// printConfig runs muster serve --print-config with args and environ.
func printConfig(t *testing.T, environ map[string]string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	if environ == nil {
		environ = map[string]string{}
	}
	err := runServe(&Env{Stdout: &out, Stderr: &out, Environ: environ}, append([]string{"--print-config"}, args...))
	return out.String(), err
}

// setting is the line of a setting in printed settings.
func setting(t *testing.T, printed, name string) []string {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(printed, "\n") {
		if strings.HasPrefix(l, name+" = ") {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestServeConfigFile (the public site's issue, item 9: what Gitea and
// Miniflux give an operator): muster serve takes its settings from a file
// beside the environment, the command line winning, then the environment,
// then the file, then the defaults; --print-config prints them in the
// file's own form, each with where it came from and the database's
// password masked, and reads back as a file; a file's mistakes are told
// with their line, an unknown setting with the known ones.
func TestServeConfigFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "muster.conf")
	os.WriteFile(file, []byte(`# the site
addr = 0.0.0.0:8081
games-per-hour = 90   # a club
engines = 3
level = alphabeta(time=10s)
level = "mcts(iterations=500)"
db = 'postgres://muster:s3cret@db/muster?sslmode=disable'
`), 0o600)
	out, err := printConfig(t, map[string]string{"MUSTER_ENGINES": "4", "MUSTER_CONFIG": file}, "--games-per-hour", "120")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]string{
		"addr":           {"addr = 0.0.0.0:8081  # " + file + ":2"},
		"games-per-hour": {"games-per-hour = 120  # the command line"},
		"engines":        {"engines = 4  # MUSTER_ENGINES"},
		"level":          {"level = alphabeta(time=10s)  # " + file + ":5", "level = mcts(iterations=500)  # " + file + ":5"},
		"db":             {"db = postgres://muster:xxxxx@db/muster?sslmode=disable  # " + file + ":7"},
		"drain":          {"drain = 5s  # default"},
	} {
		if got := setting(t, out, name); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if strings.Contains(out, "s3cret") || strings.Contains(out, "print-config =") || strings.Contains(out, "config =") {
		t.Errorf("the settings printed show the password or the printing's own flags:\n%s", out)
	}
	// Printed, they read back as a file, the same.
	again := filepath.Join(dir, "printed.conf")
	os.WriteFile(again, []byte(out), 0o600)
	out2, err := printConfig(t, nil, "--config", again)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"addr", "games-per-hour", "engines", "level", "drain", "acme-domain"} {
		a, b := setting(t, out, name), setting(t, out2, name)
		for i := range b {
			b[i] = b[i][:strings.Index(b[i], "  # ")]
		}
		for i := range a {
			a[i] = a[i][:strings.Index(a[i], "  # ")]
		}
		if strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Errorf("%s read back: %q, printed %q", name, b, a)
		}
	}
	// Mistakes.
	for _, c := range []struct{ text, want string }{
		{"addr = :1\nbogus = 3\n", "muster.conf:2: unknown setting \"bogus\" (known: acme-domain,"},
		{"engines = many\n", "muster.conf:1: engines = \"many\""},
		{"engines = 2\nengines = 3\n", "muster.conf:2: engines is set twice"},
		{"just a line\n", "muster.conf:1: not a setting"},
		{"config = other.conf\n", "unknown setting \"config\""},
		{"addr = \"unfinished\n", "an unfinished quoted value"},
	} {
		os.WriteFile(file, []byte(c.text), 0o600)
		if _, err := printConfig(t, nil, "--config", file); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	if _, err := printConfig(t, nil, "--config", filepath.Join(dir, "none.conf")); err == nil {
		t.Error("a settings file that is not there: no error")
	}
}

// TestMasked: a password in a database's address or keyword settings is
// masked, and nothing else is changed.
func TestMasked(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:pw@h/db":                      "postgres://u:xxxxx@h/db",
		"postgres://u@h/db?password=pw&sslmode=off": "postgres://u@h/db?password=xxxxx&sslmode=off",
		"host=db user=u password=pw dbname=m":       "host=db user=u password=xxxxx dbname=m",
		"host=db password='two words' dbname=m":     "host=db password=xxxxx dbname=m",
		"muster.db":                                 "muster.db",
		"postgres://u@h/db":                         "postgres://u@h/db",
		"127.0.0.1:8080":                            "127.0.0.1:8080",
	} {
		if got := masked(in); got != want {
			t.Errorf("masked(%q) = %q, want %q", in, got, want)
		}
	}
}
