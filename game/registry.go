package game

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Spec is a parsed game string: a game name, an optional ruleset and
// options, written
//
//	name
//	name(ruleset)
//	name(ruleset, key=value, key=value)
//	name(key=value)
//
// Spaces around names and values are ignored. Options apply on top of the
// ruleset's preset, in the order given.
type Spec struct {
	Name    string
	Ruleset string
	Options []KV
}

// KV is one option setting.
type KV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// String writes the spec in canonical form.
func (s Spec) String() string {
	parts := make([]string, 0, len(s.Options)+1)
	if s.Ruleset != "" {
		parts = append(parts, s.Ruleset)
	}
	for _, kv := range s.Options {
		parts = append(parts, kv.Key+"="+kv.Value)
	}
	if len(parts) == 0 {
		return s.Name
	}
	return s.Name + "(" + strings.Join(parts, ",") + ")"
}

// ErrUnknown is wrapped by errors for unknown games, rulesets and options.
var ErrUnknown = errors.New("unknown")

// ParseSpec reads a game string. It checks the syntax only; Load checks
// the names against the registry.
func ParseSpec(text string) (Spec, error) {
	text = strings.TrimSpace(text)
	var sp Spec
	open := strings.IndexByte(text, '(')
	if open < 0 {
		if strings.ContainsAny(text, "),= ") {
			return sp, fmt.Errorf("game: %w: bad game string %q", ErrSyntax, text)
		}
		sp.Name = text
	} else {
		if !strings.HasSuffix(text, ")") {
			return sp, fmt.Errorf("game: %w: game string %q lacks its closing parenthesis", ErrSyntax, text)
		}
		sp.Name = strings.TrimSpace(text[:open])
		var err error
		sp.Ruleset, sp.Options, err = parseArgs(text[open+1 : len(text)-1])
		if err != nil {
			return sp, fmt.Errorf("game: %w in %q", err, text)
		}
	}
	if !isWord(sp.Name) {
		return sp, fmt.Errorf("game: %w: bad game name %q", ErrSyntax, sp.Name)
	}
	return sp, nil
}

// ParseRuleset reads the "ruleset, key=value, …" part of a game string on
// its own, as the command line's --ruleset flag takes it.
func ParseRuleset(text string) (ruleset string, opts []KV, err error) {
	ruleset, opts, err = parseArgs(text)
	if err != nil {
		return "", nil, fmt.Errorf("game: %w in ruleset %q", err, text)
	}
	return ruleset, opts, nil
}

func parseArgs(body string) (string, []KV, error) {
	var ruleset string
	var opts []KV
	if strings.TrimSpace(body) == "" {
		return "", nil, nil
	}
	for i, part := range strings.Split(body, ",") {
		part = strings.TrimSpace(part)
		k, v, isKV := strings.Cut(part, "=")
		if !isKV {
			if i != 0 {
				return "", nil, fmt.Errorf("%w: %q: only the first item may be a ruleset; options are key=value", ErrSyntax, part)
			}
			if !isWord(part) {
				return "", nil, fmt.Errorf("%w: bad ruleset name %q", ErrSyntax, part)
			}
			ruleset = part
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !isWord(k) || !isWord(v) {
			return "", nil, fmt.Errorf("%w: bad option %q", ErrSyntax, part)
		}
		opts = append(opts, KV{k, v})
	}
	return ruleset, opts, nil
}

func isWord(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}

// Loader builds a game from a ruleset name ("" for the default) and
// option settings. It returns an error wrapping ErrUnknown, listing what is
// known, for an unknown ruleset or option.
type Loader func(ruleset string, opts []KV) (Game, error)

// Info describes a registered game for listings.
type Info struct {
	Name string `json:"name"`
	// Title is the game's name for people ("Kōnane").
	Title string `json:"title"`
	// Example marks a game added as the worked example of adding one
	// (docs/new-game.md): listings put it after the others.
	Example     bool          `json:"example,omitempty"`
	Description string        `json:"description"`
	Rulesets    []RulesetInfo `json:"rulesets"`
	Options     []OptionInfo  `json:"options"`
	// Traits are the game's traits; Chance is true when some ruleset
	// throws dice.
	Traits Traits `json:"traits"`
	// HowTo explains the game to a newcomer in a few paragraphs.
	HowTo []string `json:"how_to"`
	// Notation says how actions are typed, in a line or two, for the
	// terminal's help and the page's move box.
	Notation string `json:"notation"`
	// Docs are the documents about the game (files of the repository's
	// docs folder), most useful first.
	Docs []DocLink `json:"docs"`
	// Lessons are the steps of the game's walkthrough, in order.
	Lessons []Lesson `json:"lessons"`
	// Figures are the diagrams of the rules page, in order.
	Figures []Figure `json:"figures"`
}

// DocLink names a document of the repository's docs folder, with an
// optional heading id after '#'.
type DocLink struct {
	Title string `json:"title"`
	File  string `json:"file"`
}

// RulesetInfo describes one named preset.
type RulesetInfo struct {
	ID          string `json:"id"`
	Default     bool   `json:"default"`
	Description string `json:"description"`
	// Date is when the ruleset was written, in words ("16 January
	// 1879"); empty where unknown.
	Date   string `json:"date,omitempty"`
	Source string `json:"source"`
	// Settings are the option values of the preset, in option order.
	Settings []KV `json:"settings"`
	// Chance says that chance acts in this ruleset.
	Chance bool `json:"chance"`
	// Notes is a document with findings about this ruleset, if any.
	Notes *DocLink `json:"notes,omitempty"`
}

// OptionInfo describes one option.
type OptionInfo struct {
	Key    string   `json:"key"`
	Values []string `json:"values"` // the allowed values; nil for free integers
	// Description says what the option decides, in plain words.
	Description string `json:"description"`
	// Ruling cites the text or ruling the option reads ("1893 Rule 5",
	// "A-G2" of the rulings document), for scholars; empty for none.
	Ruling string `json:"ruling,omitempty"`
	// Rulesets are the rulesets the option means something in; empty
	// for all.
	Rulesets []string `json:"rulesets,omitempty"`
}

type entry struct {
	info Info
	load Loader
}

var (
	regMu    sync.RWMutex
	registry = map[string]entry{}
)

// Register adds a game to the registry. It panics if the name is taken;
// games call it from their package's init.
func Register(info Info, load Loader) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[info.Name]; dup {
		panic("game: Register called twice for " + info.Name)
	}
	registry[info.Name] = entry{info, load}
}

// Names lists the registered games, sorted.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the description of a registered game.
func Lookup(name string) (Info, error) {
	regMu.RLock()
	e, ok := registry[name]
	regMu.RUnlock()
	if !ok {
		return Info{}, fmt.Errorf("game: %w game %q (known: %s)", ErrUnknown, name, strings.Join(Names(), ", "))
	}
	return e.info, nil
}

// Load parses a game string and builds the game.
//
// A game is immutable and safe to share, so the games loaded are kept by
// their text (the first few hundred of them): every room of a server
// playing tablut(linnaeus) shares one.
func Load(text string) (Game, error) {
	loadedMu.RLock()
	g, ok := loaded[text]
	loadedMu.RUnlock()
	if ok {
		return g, nil
	}
	sp, err := ParseSpec(text)
	if err != nil {
		return nil, err
	}
	if g, err = LoadSpec(sp); err != nil {
		return nil, err
	}
	loadedMu.Lock()
	if len(loaded) < maxLoaded {
		loaded[text] = g
	}
	loadedMu.Unlock()
	return g, nil
}

// loaded are the games Load made, by their text.
var (
	loadedMu sync.RWMutex
	loaded   = map[string]Game{}
)

const maxLoaded = 512

// LoadSpec builds the game a parsed spec names.
func LoadSpec(sp Spec) (Game, error) {
	regMu.RLock()
	e, ok := registry[sp.Name]
	regMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("game: %w game %q (known: %s)", ErrUnknown, sp.Name, strings.Join(Names(), ", "))
	}
	return e.load(sp.Ruleset, sp.Options)
}

// Resolve checks a ruleset name and option settings against a game's
// description and returns the ruleset's id (the default one for "") and the
// value of every option: the preset's, overridden by opts. Unknown names
// and values are errors that list the known ones.
func (info Info) Resolve(ruleset string, opts []KV) (string, map[string]string, error) {
	var rs *RulesetInfo
	var ids []string
	for i := range info.Rulesets {
		r := &info.Rulesets[i]
		ids = append(ids, r.ID)
		if r.ID == ruleset || (ruleset == "" && r.Default) {
			rs = r
		}
	}
	if rs == nil {
		return "", nil, fmt.Errorf("%s: %w ruleset %q (known: %s)", info.Name, ErrUnknown, ruleset, strings.Join(ids, ", "))
	}
	values := make(map[string]string, len(info.Options))
	for _, kv := range rs.Settings {
		values[kv.Key] = kv.Value
	}
	for _, kv := range opts {
		o, ok := info.option(kv.Key)
		if !ok {
			var keys []string
			for _, o := range info.Options {
				keys = append(keys, o.Key)
			}
			return "", nil, fmt.Errorf("%s: %w option %q (known: %s)", info.Name, ErrUnknown, kv.Key, strings.Join(keys, ", "))
		}
		if err := o.check(kv.Value); err != nil {
			return "", nil, fmt.Errorf("%s: %w", info.Name, err)
		}
		values[kv.Key] = kv.Value
	}
	for _, o := range info.Options {
		if _, ok := values[o.Key]; !ok {
			return "", nil, fmt.Errorf("%s: ruleset %s does not set option %s", info.Name, rs.ID, o.Key)
		}
	}
	return rs.ID, values, nil
}

// Ruleset returns the preset with the given id.
func (info Info) Ruleset(id string) (RulesetInfo, bool) {
	for _, r := range info.Rulesets {
		if r.ID == id {
			return r, true
		}
	}
	return RulesetInfo{}, false
}

// Diff lists the settings in values that differ from the ruleset's preset,
// in option order: the options a canonical spec must write.
func (info Info) Diff(ruleset string, values map[string]string) []KV {
	rs, _ := info.Ruleset(ruleset)
	preset := map[string]string{}
	for _, kv := range rs.Settings {
		preset[kv.Key] = kv.Value
	}
	var out []KV
	for _, o := range info.Options {
		if v := values[o.Key]; v != preset[o.Key] {
			out = append(out, KV{o.Key, v})
		}
	}
	return out
}

func (info Info) option(key string) (OptionInfo, bool) {
	for _, o := range info.Options {
		if o.Key == key {
			return o, true
		}
	}
	return OptionInfo{}, false
}

func (o OptionInfo) check(v string) error {
	if o.Values == nil {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("%w: option %s=%q: want a whole number ≥ 0", ErrSyntax, o.Key, v)
		}
		return nil
	}
	for _, known := range o.Values {
		if v == known {
			return nil
		}
	}
	return fmt.Errorf("%w value %q for option %s (known: %s)", ErrUnknown, v, o.Key, strings.Join(o.Values, ", "))
}
