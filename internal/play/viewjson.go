package play

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/muster-games/muster/game"
)

// A view's legal actions are most of its bytes (86 moves of a Tablut
// position: 7.4 KB of 12.1), its turns the next part, and encoding/json
// spends most of a view's encoding on them, by reflection. marshalView
// encodes the rest of the view as ever and writes the two lists into it
// by hand, byte for byte as encoding/json writes them
// (TestViewEncodingIsEncodingJSON holds the two equal for every game).

// A listPart is a list of the view written by hand: its key, which the
// view is encoded with an empty list under, and how to write it.
type listPart struct {
	empty []byte // the key and an empty array: `"legal":[]`
	write func(b []byte) []byte
}

// splice returns enc, a view encoded with the parts' lists empty, with
// each list written in its place (about size bytes in all); ok is false where a place is not
// found. An empty list's key cannot occur inside an encoded string,
// whose quotes are escaped, and each key occurs once in a view.
func splice(enc []byte, size int, parts ...listPart) (out []byte, ok bool) {
	at := make([]int, len(parts))
	for i, p := range parts {
		if at[i] = bytes.Index(enc, p.empty); at[i] < 0 {
			return nil, false
		}
	}
	out = make([]byte, 0, len(enc)+size)
	from := 0
	for len(parts) > 0 {
		first := 0
		for i := range parts {
			if at[i] < at[first] {
				first = i
			}
		}
		p, i := parts[first], at[first]
		out = append(out, enc[from:i+len(p.empty)-2]...) // through the colon
		out = p.write(out)
		from = i + len(p.empty)
		parts = append(parts[:first], parts[first+1:]...)
		at = append(at[:first], at[first+1:]...)
	}
	out = append(out, enc[from:]...)
	if cap(out)-len(out) > 1024 {
		out = bytes.Clone(out) // kept with the room: no spare room kept with it
	}
	return out, true
}

// appendActions appends legal as encoding/json encodes a []ActionInfo.
func appendActions(b []byte, legal []game.ActionInfo) []byte {
	return appendListOrNull(b, legal, func(b []byte, a *game.ActionInfo) []byte {
		b = append(b, `{"text":`...)
		b = appendString(b, a.Text)
		b = append(b, `,"kind":`...)
		b = appendString(b, a.Kind)
		if len(a.Squares) > 0 {
			b = append(b, `,"squares":`...)
			b = appendStrings(b, a.Squares)
		}
		b = append(b, `,"label":`...)
		b = appendString(b, a.Label)
		b = append(b, `,"ends_turn":`...)
		b = strconv.AppendBool(b, a.EndsTurn)
		if a.Note != "" {
			b = append(b, `,"note":`...)
			b = appendString(b, a.Note)
		}
		if len(a.Path) > 0 {
			b = append(b, `,"path":`...)
			b = appendStrings(b, a.Path)
		}
		if len(a.Preview) > 0 {
			b = append(b, `,"preview":`...)
			b = appendStrings(b, a.Preview)
		}
		if a.After != "" {
			b = append(b, `,"after":`...)
			b = appendString(b, a.After)
		}
		return append(b, '}')
	})
}

func appendStrings(b []byte, ss []string) []byte {
	return appendList(b, ss, func(b []byte, s *string) []byte { return appendString(b, *s) })
}

// appendList appends xs as a JSON list, each element by each.
func appendList[T any](b []byte, xs []T, each func([]byte, *T) []byte) []byte {
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, &xs[i])
	}
	return append(b, ']')
}

// appendListOrNull is appendList writing a nil list as null, as
// encoding/json does.
func appendListOrNull[T any](b []byte, xs []T, each func([]byte, *T) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	return appendList(b, xs, each)
}

// appendString appends s as a JSON string, as encoding/json writes it
// with HTML's characters escaped: printable ASCII but for the quote, the
// backslash, <, > and & as it is; anything else by encoding/json itself.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plain[s[i]] {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendTurns appends turns as encoding/json encodes a []Turn.
func appendTurns(b []byte, turns []game.Turn) []byte {
	return appendListOrNull(b, turns, func(b []byte, t *game.Turn) []byte {
		b = append(b, `{"number":`...)
		b = strconv.AppendInt(b, int64(t.Number), 10)
		b = append(b, `,"player":`...)
		b = strconv.AppendInt(b, int64(t.Player), 10)
		b = append(b, `,"first":`...)
		b = strconv.AppendInt(b, int64(t.First), 10)
		b = append(b, `,"actions":`...)
		b = appendStringsOrNull(b, t.Actions)
		b = append(b, `,"labels":`...)
		b = appendStringsOrNull(b, t.Labels)
		b = append(b, `,"squares":`...)
		b = appendStringLists(b, t.Squares)
		if len(t.Paths) > 0 {
			b = append(b, `,"paths":`...)
			b = appendStringLists(b, t.Paths)
		}
		if len(t.Events) > 0 {
			b = append(b, `,"events":`...)
			b = appendEvents(b, t.Events)
		}
		return append(b, '}')
	})
}

func appendEvents(b []byte, events []game.Event) []byte {
	return appendList(b, events, func(b []byte, e *game.Event) []byte {
		b = append(b, `{"kind":`...)
		b = appendString(b, e.Kind)
		b = append(b, `,"player":`...)
		b = strconv.AppendInt(b, int64(e.Player), 10)
		if len(e.Squares) > 0 {
			b = append(b, `,"squares":`...)
			b = appendStrings(b, e.Squares)
		}
		b = append(b, `,"text":`...)
		b = appendString(b, e.Text)
		if len(e.Dice) > 0 {
			b = append(b, `,"dice":`...)
			b = appendList(b, e.Dice, func(b []byte, d *int) []byte { return strconv.AppendInt(b, int64(*d), 10) })
		}
		return append(b, '}')
	})
}

func appendStringsOrNull(b []byte, ss []string) []byte {
	return appendListOrNull(b, ss, func(b []byte, s *string) []byte { return appendString(b, *s) })
}

func appendStringLists(b []byte, lists [][]string) []byte {
	return appendListOrNull(b, lists, func(b []byte, ss *[]string) []byte { return appendStringsOrNull(b, *ss) })
}

// plain are the bytes a JSON string holds as they are.
var plain = func() (t [256]bool) {
	for c := 0x20; c <= 0x7e; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()
