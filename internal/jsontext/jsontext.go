// Package jsontext writes JSON strings by hand, byte for byte as
// encoding/json writes them with HTML's characters escaped, for the
// encoders that run on every move (a game's view, its stored actions),
// where encoding/json's reflection was a measurable part of a move's cost.
package jsontext

import "encoding/json"

// AppendString appends s as a JSON string, as encoding/json writes it
// with HTML's characters escaped: printable ASCII but for the quote, the
// backslash, <, > and & as it is; anything else by encoding/json itself.
func AppendString(b []byte, s string) []byte {
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

// AppendStrings appends ss as a JSON list of strings, as encoding/json
// writes a []string that is not nil.
func AppendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, s)
	}
	return append(b, ']')
}

// plain are the bytes a JSON string holds as they are.
var plain = func() (t [256]bool) {
	for c := 0x20; c <= 0x7e; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()
