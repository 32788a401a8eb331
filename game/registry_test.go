package game

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSpec(t *testing.T) {
	cases := []struct {
		in   string
		want string // canonical form, or "error"
	}{
		{"tablut", "tablut"},
		{" tablut ", "tablut"},
		{"tablut(ludii-smith)", "tablut(ludii-smith)"},
		{"tablut( linnaeus , king_capture = strong )", "tablut(linnaeus,king_capture=strong)"},
		{"tablut(king_capture=strong)", "tablut(king_capture=strong)"},
		{"lanrick(1893, win_check=end_of_turn)", "lanrick(1893,win_check=end_of_turn)"},
		{"tablut()", "tablut"},
		{"tablut(", "error"},
		{"tablut(a,b)", "error"},
		{"(x)", "error"},
		{"tablut(x=)", "error"},
		{"tab lut", "error"},
		{"tablut(linnaeus))", "error"},
		{"", "error"},
	}
	for _, c := range cases {
		sp, err := ParseSpec(c.in)
		if c.want == "error" {
			if err == nil {
				t.Errorf("ParseSpec(%q) = %v, want an error", c.in, sp)
			} else if !errors.Is(err, ErrSyntax) {
				t.Errorf("ParseSpec(%q) error %v does not wrap ErrSyntax", c.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", c.in, err)
			continue
		}
		if got := sp.String(); got != c.want {
			t.Errorf("ParseSpec(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

var testInfo = Info{
	Name: "toy",
	Options: []OptionInfo{
		{Key: "colour", Values: []string{"red", "blue"}},
		{Key: "limit"},
	},
	Rulesets: []RulesetInfo{
		{ID: "a", Default: true, Settings: []KV{{"colour", "red"}, {"limit", "0"}}},
		{ID: "b", Settings: []KV{{"colour", "blue"}, {"limit", "9"}}},
	},
}

// TestResolve: unknown rulesets, options and values are errors that list
// what is known; options override the preset.
func TestResolve(t *testing.T) {
	id, v, err := testInfo.Resolve("", nil)
	if err != nil || id != "a" || v["colour"] != "red" {
		t.Fatalf("default: %s %v %v", id, v, err)
	}
	id, v, err = testInfo.Resolve("b", []KV{{"limit", "3"}})
	if err != nil || id != "b" || v["limit"] != "3" || v["colour"] != "blue" {
		t.Fatalf("b,limit=3: %s %v %v", id, v, err)
	}
	if d := testInfo.Diff("b", v); len(d) != 1 || d[0] != (KV{"limit", "3"}) {
		t.Fatalf("Diff = %v", d)
	}
	for _, c := range []struct {
		ruleset string
		opts    []KV
		lists   string
	}{
		{"c", nil, "known: a, b"},
		{"a", []KV{{"size", "1"}}, "known: colour, limit"},
		{"a", []KV{{"colour", "green"}}, "known: red, blue"},
		{"a", []KV{{"limit", "-1"}}, "whole number"},
	} {
		_, _, err := testInfo.Resolve(c.ruleset, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.lists) {
			t.Errorf("Resolve(%q, %v) = %v, want an error with %q", c.ruleset, c.opts, err, c.lists)
		}
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"tablut", "tablut(ludii-smith)", "tablut(linnaeus, king_capture=strong)", "x(=)", "(((", "a(b,c=d,e=f)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseSpec(s)
		if err != nil {
			return
		}
		// The canonical form parses to the same spec.
		again, err := ParseSpec(sp.String())
		if err != nil {
			t.Fatalf("canonical %q of %q does not parse: %v", sp.String(), s, err)
		}
		if again.String() != sp.String() {
			t.Fatalf("round trip %q -> %q", sp.String(), again.String())
		}
	})
}
