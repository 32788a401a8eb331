package jsontext

import (
	"encoding/json"
	"testing"
)

// TestAsEncodingJSON: strings and lists of them are written as
// encoding/json writes them, escapes and all.
func TestAsEncodingJSON(t *testing.T) {
	lists := [][]string{{}, {""}, {"e3-e1", "d5-d7xd6/e7"}, {`"quoted"`, `back\slash`, "<b>&amp;</b>", "tab\there", "é ü ☃", "\u2028\u2029", "\x00\x7f", "\xff bad utf-8"},
		{`say "hi"`, "line north–south", "a\u2028b", "tab\tnew\nline\r\b\f", "\x01", "bad \xff utf-8"}}
	for _, l := range lists {
		want, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendStrings(nil, l); string(got) != string(want) {
			t.Errorf("AppendStrings(%q) = %s, want %s", l, got, want)
		}
		for _, s := range l {
			want, _ := json.Marshal(s)
			if got := AppendString([]byte("x"), s); string(got) != "x"+string(want) {
				t.Errorf("AppendString(%q) = %s, want x%s", s, got, want)
			}
		}
	}
}

// FuzzAsEncodingJSON holds AppendString to encoding/json on any text.
func FuzzAsEncodingJSON(f *testing.F) {
	for _, s := range []string{"", "e3-e1", "<&>", "\"\\", "\x00", "☃", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}
