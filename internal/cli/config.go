package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The settings of muster serve come from four places, the first that
// gives a flag winning: the command line, the environment (fromEnv), the
// file of --config, the defaults.

// maxConfigFile bounds a settings file.
const maxConfigFile = 1 << 20

// list is a flag that may be given several times, each value checked by
// check; String gives them one a line.
type list struct {
	values *[]string
	check  func(string) error
}

func (l list) String() string {
	if l.values == nil {
		return ""
	}
	return strings.Join(*l.values, "\n")
}

func (l list) Set(s string) error {
	if l.check != nil {
		if err := l.check(s); err != nil {
			return err
		}
	}
	*l.values = append(*l.values, s)
	return nil
}

// given returns the flags of fs that have been set, each with where from.
func given(fs *flag.FlagSet, from string, into map[string]string) {
	fs.Visit(func(f *flag.Flag) {
		if _, ok := into[f.Name]; !ok {
			into[f.Name] = from
		}
	})
}

// fromFile sets each flag of fs not yet set (not in from) from the
// settings file at path: a line is "name = value" (the flag's name, as on
// the command line without its dashes; the value as there, quotes around
// it taken off), "#" starts a comment, and a flag that may be repeated is
// named on as many lines. The names in refused may not be set there. It
// records in from where each came from (path:line).
func fromFile(fs *flag.FlagSet, path string, from map[string]string, refused ...string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w: --config: %v", errUsage, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxConfigFile))
	sc.Buffer(nil, maxConfigFile)
	set := map[string]bool{}
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		at := fmt.Sprintf("%s:%d", path, n)
		name, value, ok := strings.Cut(line, "=")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || name == "" {
			return fmt.Errorf("%w: %s: not a setting (name = value): %q", errUsage, at, line)
		}
		value, err := settingValue(value)
		if err != nil {
			return fmt.Errorf("%w: %s: %s: %v", errUsage, at, name, err)
		}
		fl := fs.Lookup(name)
		if fl == nil || slices.Contains(refused, name) {
			return fmt.Errorf("%w: %s: unknown setting %q (known: %s)", errUsage, at, name, strings.Join(settable(fs, refused), ", "))
		}
		if _, ok := from[name]; ok && !set[name] {
			continue // the command line or the environment gave it: they win
		}
		if _, repeated := fl.Value.(list); set[name] && !repeated {
			return fmt.Errorf("%w: %s: %s is set twice in the file", errUsage, at, name)
		}
		if err := fs.Set(name, value); err != nil {
			return fmt.Errorf("%w: %s: %s = %q: %v", errUsage, at, name, value, err)
		}
		if !set[name] {
			from[name] = at
		}
		set[name] = true
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%w: --config %s: %v", errUsage, path, err)
	}
	return nil
}

// settingValue reads a setting's value as a file writes it: quoted (Go's
// double quotes, as printSettings writes them, or single quotes, taken as
// they are), or bare up to a comment (" #"); a comment may follow either.
func settingValue(v string) (string, error) {
	rest := ""
	switch {
	case strings.HasPrefix(v, `"`):
		q, err := strconv.QuotedPrefix(v)
		if err != nil {
			return "", fmt.Errorf("an unfinished quoted value: %s", v)
		}
		rest = v[len(q):]
		v, _ = strconv.Unquote(q)
	case strings.HasPrefix(v, "'"):
		end := strings.IndexByte(v[1:], '\'')
		if end < 0 {
			return "", fmt.Errorf("an unfinished quoted value: %s", v)
		}
		v, rest = v[1:1+end], v[2+end:]
	default:
		if i := strings.Index(v, " #"); i >= 0 {
			v = v[:i]
		} else if i := strings.Index(v, "\t#"); i >= 0 {
			v = v[:i]
		}
		return strings.TrimSpace(v), nil
	}
	if rest = strings.TrimSpace(rest); rest != "" && !strings.HasPrefix(rest, "#") {
		return "", fmt.Errorf("%q after the quoted value", rest)
	}
	return v, nil
}

// settable lists the flags of fs a settings file may set.
func settable(fs *flag.FlagSet, refused []string) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if !slices.Contains(refused, f.Name) {
			names = append(names, f.Name)
		}
	})
	sort.Strings(names)
	return names
}

// printSettings writes every setting of fs as a settings file has it, each
// with where it came from (from; the default otherwise), its secrets
// masked, but the names in skip.
func printSettings(w io.Writer, fs *flag.FlagSet, from map[string]string, skip ...string) {
	fmt.Fprintln(w, "# muster serve's settings: the command line wins, then the environment, then --config, then the defaults.")
	fs.VisitAll(func(f *flag.Flag) {
		if slices.Contains(skip, f.Name) {
			return
		}
		where := from[f.Name]
		if where == "" {
			where = "default"
		}
		values := []string{f.Value.String()}
		if _, ok := f.Value.(list); ok {
			values = strings.Split(f.Value.String(), "\n")
			if values[0] == "" {
				fmt.Fprintf(w, "# %s = (none)  # %s\n", f.Name, where)
				return
			}
		}
		for _, v := range values {
			v = masked(v)
			if v == "" || strings.ContainsAny(v, " #\"'") {
				v = fmt.Sprintf("%q", v)
			}
			fmt.Fprintf(w, "%s = %s  # %s\n", f.Name, v, where)
		}
	})
}

// passwordParam is a password in a database's keyword settings.
var passwordParam = regexp.MustCompile(`(?i)(password\s*=\s*)('[^']*'|\S+)`)

// masked is a setting's value with any password in it replaced: a URL's
// (postgres://user:secret@host/db), its password parameter, or one in a
// database's keyword settings (host=db password=secret).
func masked(v string) string {
	if u, err := url.Parse(v); err == nil && u.Scheme != "" && u.Host != "" {
		changed := false
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			changed = true
		}
		q := u.Query()
		for k := range q {
			if strings.EqualFold(k, "password") {
				q.Set(k, "xxxxx")
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
			return u.String()
		}
		return v
	}
	return passwordParam.ReplaceAllString(v, "${1}xxxxx")
}
