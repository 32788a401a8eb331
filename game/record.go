package game

import (
	"io"
	"strings"
)

// Record is a game record: the game, where it started, the actions in
// notation, and tags (event, players, date, result…).
type Record struct {
	// Spec is the game string that loads the game (Game.Spec).
	Spec string
	// Start is the start position in the game's text format, or "" for
	// the standard start.
	Start string
	// Actions are the actions in notation, in the order played.
	Actions []string
	// Tags are the other header fields, in order.
	Tags []KV
}

// Tag returns the value of a tag, or "".
func (r *Record) Tag(key string) string {
	for _, kv := range r.Tags {
		if kv.Key == key {
			return kv.Value
		}
	}
	return ""
}

// Recorder is implemented by games that read and write records in their
// own file format.
type Recorder interface {
	WriteRecord(w io.Writer, r *Record) error
	ReadRecord(rd io.Reader) (*Record, error)
}

// Replay loads a record's game and plays its actions, checking each.
func Replay(r *Record) (State, error) {
	g, err := Load(r.Spec)
	if err != nil {
		return nil, err
	}
	s := g.NewState()
	if r.Start != "" {
		if s, err = g.ParseState(r.Start); err != nil {
			return nil, err
		}
	}
	if err := ApplyNotation(s, r.Actions); err != nil {
		return nil, err
	}
	return s, nil
}

// NewRecord makes the record of a state's history, which must have been
// played from start ("" for the standard start).
func NewRecord(start string, s State, tags ...KV) *Record {
	g := s.Game()
	replay := g.NewState()
	if start != "" {
		if p, err := g.ParseState(start); err == nil {
			replay = p
		}
	}
	r := &Record{Spec: g.Spec(), Start: start, Tags: tags}
	for _, a := range s.History() {
		r.Actions = append(r.Actions, replay.ActionString(a))
		replay.Apply(a)
	}
	return r
}

// ParseTag reads a record header line "[key:value]".
func ParseTag(line string) (key, value string, ok bool) {
	if !strings.HasPrefix(line, "[") || !strings.HasSuffix(line, "]") || !strings.Contains(line, ":") {
		return "", "", false
	}
	key, value, _ = strings.Cut(line[1:len(line)-1], ":")
	return key, value, true
}

// FormatTag writes a header line "[key:value]"; brackets and line breaks
// in the value become parentheses and spaces, so that it reads back.
func FormatTag(key, value string) string {
	return "[" + key + ":" + strings.NewReplacer("[", "(", "]", ")", "\n", " ", "\r", " ").Replace(value) + "]"
}
