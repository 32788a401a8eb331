package game

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

var presetInfo = Info{
	Name:     "helpers",
	Rulesets: []RulesetInfo{{ID: "small", Default: true, Settings: []KV{{"size", "6"}}}, {ID: "large", Settings: []KV{{"size", "10"}}}},
	Options:  []OptionInfo{{Key: "size", Values: []string{"6", "8", "10"}}},
}

func TestPresetResolvesAndWritesTheSpec(t *testing.T) {
	for _, c := range []struct {
		ruleset string
		opts    []KV
		spec    string
		size    string
	}{
		{"", nil, "helpers(small)", "6"},
		{"large", nil, "helpers(large)", "10"},
		{"large", []KV{{"size", "8"}}, "helpers(large,size=8)", "8"},
		{"small", []KV{{"size", "6"}}, "helpers(small)", "6"},
	} {
		p, err := presetInfo.Preset(c.ruleset, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if p.Name() != "helpers" || p.Spec() != c.spec || p.Option("size") != c.size {
			t.Errorf("Preset(%q, %v): %s size=%s, want %s size=%s", c.ruleset, c.opts, p.Spec(), p.Option("size"), c.spec, c.size)
		}
	}
	for _, bad := range []struct {
		ruleset string
		opts    []KV
		known   string
	}{{"huge", nil, "small, large"}, {"", []KV{{"size", "7"}}, "6, 8, 10"}, {"", []KV{{"colour", "red"}}, "size"}} {
		_, err := presetInfo.Preset(bad.ruleset, bad.opts)
		if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), bad.known) {
			t.Errorf("Preset(%q, %v) = %v, want an error listing %s", bad.ruleset, bad.opts, err, bad.known)
		}
	}
}

func TestSidesNameAndReadThePlayers(t *testing.T) {
	s := Sides{"black", "white"}
	if s.NumPlayers() != 2 || s.PlayerName(1) != "white" || s.PlayerName(2) != "player 2" {
		t.Fatalf("sides: %d %q %q", s.NumPlayers(), s.PlayerName(1), s.PlayerName(2))
	}
	for text, want := range map[string]Player{"black": 0, "White": 1, "1": 0, "2": 1} {
		if p, err := s.ParsePlayer(text); err != nil || p != want {
			t.Errorf("ParsePlayer(%q) = %d, %v; want %d", text, p, err, want)
		}
	}
	if _, err := s.ParsePlayer("red"); !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "black, white") {
		t.Errorf("ParsePlayer(red) = %v", err)
	}
}

func TestPlayedAndPositionsCopyApart(t *testing.T) {
	var p Played
	p.Add(1)
	p.Add(2)
	c := p.Copy()
	c.Add(3)
	p.Undo()
	if !slices.Equal(p.History(), []Action{1}) || !slices.Equal(c.History(), []Action{1, 2, 3}) {
		t.Fatalf("played %v, copy %v", p.History(), c.History())
	}
	var r Positions
	r.Add(7, false)
	r.Add(8, false)
	r.Add(7, false)
	rc := r.Copy()
	r.Add(9, true) // an irreversible action: nothing before can recur
	if r.Count(7) != 0 || r.Count(9) != 1 || rc.Count(7) != 2 || rc.Count(9) != 0 {
		t.Fatalf("positions: %d %d, copy %d %d", r.Count(7), r.Count(9), rc.Count(7), rc.Count(9))
	}
}

func TestWinReturns(t *testing.T) {
	for _, c := range []struct {
		over bool
		r    Result
		want []float64
	}{
		{false, Result{Winner: 1}, []float64{0, 0}},
		{true, Result{Winner: 1}, []float64{-1, 1}},
		{true, Result{Winner: -1}, []float64{0, 0}},
	} {
		if got := WinReturns(2, c.over, c.r); !slices.Equal(got, c.want) {
			t.Errorf("WinReturns(2, %v, %+v) = %v, want %v", c.over, c.r, got, c.want)
		}
	}
}
