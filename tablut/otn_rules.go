package tablut

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/muster-games/muster/game"
)

// ReadOTNRules maps an OpenTafl Notation rules string onto Muster's
// Tablut options, starting from the opentafl ruleset and OTN's documented
// defaults for entries left out, and returns the game with its start
// position. An entry Muster cannot play is an error naming it.
func ReadOTNRules(text string) (*Game, *State, error) {
	kv := map[string]string{
		"esc": "c", "surf": "y", "atkf": "y", "tfr": "d", "ka": "y", "ks": "s",
		"cenp": "tcnkTCNK", "cens": "K", "cenh": "tcnk", "cenhe": "tcnkTCNK", "linc": "n",
	}
	for _, f := range strings.Fields(text) {
		k, v, _ := strings.Cut(f, ":")
		kv[k] = v
	}
	if err := expressible(kv); err != nil {
		return nil, nil, err
	}
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	opts := []game.KV{
		{Key: "encirclement", Value: yes(kv["surf"] == "y")},
		{Key: "king_armed", Value: yes(kv["ka"] != "n")},
		{Key: "castle_cross", Value: yes(strings.ContainsAny(kv["cenp"], "tT"))},
		{Key: "king_reenter", Value: yes(strings.Contains(kv["cens"], "K"))},
		{Key: "linnaean", Value: yes(kv["linc"] == "y")},
	}
	if kv["atkf"] == "n" {
		opts = append(opts, game.KV{Key: "first", Value: "defenders"})
	}
	kc := "strong" // ks:s, or y as older OpenTafl writes it
	if kv["ks"] == "c" {
		kc = "near_castle"
	}
	opts = append(opts, game.KV{Key: "king_capture", Value: kc})
	host := "never"
	switch {
	case strings.Contains(kv["cenh"], "T"):
		host = "always"
	case strings.ContainsAny(kv["cenhe"], "tT"):
		host = "empty"
	}
	opts = append(opts, game.KV{Key: "castle_hostile", Value: host})
	// tfr is d or i (expressible checked it).
	opts = append(opts, game.KV{Key: "repetition", Value: map[string]string{"d": "third", "i": "none"}[kv["tfr"]]})
	if kv["afor"] != "" {
		opts = append(opts, game.KV{Key: "camps", Value: "forts"})
	}
	g, err := Load("opentafl", opts...)
	if err != nil {
		return nil, nil, err
	}
	start := StartOTN
	if v := kv["starti"]; v != "" {
		// The inverted start: its rows in reverse order.
		rows := strings.Split(strings.Trim(v, "/"), "/")
		slices.Reverse(rows)
		start = "/" + strings.Join(rows, "/") + "/"
	}
	if v := kv["start"]; v != "" {
		start = v
	}
	s, err := g.Parse(start + " " + g.Rules.First.String())
	if err != nil {
		return nil, nil, fmt.Errorf("rules not supported: start position: %w", err)
	}
	return g, s, nil
}

// ruleValues are the values of each OTN rules entry that Muster's Tablut
// can play; nil allows any (an entry about pieces, corners or forts that
// the 9×9 edge-escape game leaves without effect, or one mapped below).
var ruleValues = map[string][]string{
	"dim": {"9"}, "esc": {"e"}, "surf": {"y", "n"}, "atkf": {"y", "n"}, "tfr": {"d", "i"},
	"ka": {"y", "n"}, "ks": {"s", "y", "c"}, "kj": {"n"}, "spd": {"-1"}, "cen": {"", "default", "e5"},
	"dfor": {""}, "sw": {"n"}, "swf": {"n", "y"}, "efe": {"n"}, "ber": {"n"}, "linc": {"y", "n"},
	"name": nil, "start": nil, "starti": nil, "afor": nil, "nj": nil, "cj": nil, "mj": nil, "gj": nil, "cor": nil,
	"cenp": nil, "cens": nil, "cenh": nil, "cenhe": nil, "corh": nil, "aforh": nil, "dforh": nil, "corp": nil,
	"aforp": nil, "dforp": nil, "cors": nil, "afors": nil, "dfors": nil, "cenre": nil, "corre": nil,
	"aforre": nil, "dforre": nil,
}

// expressible names the first rules entry Muster cannot play, if any.
func expressible(kv map[string]string) error {
	if _, ok := kv["dim"]; !ok {
		return errors.New("rules not supported: no board size (dim)")
	}
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		allowed, known := ruleValues[k]
		switch {
		case !known:
			return fmt.Errorf("rules not supported: unknown rules entry %s:%s", k, kv[k])
		case allowed != nil && !slices.Contains(allowed, kv[k]):
			return fmt.Errorf("rules not supported: %s:%s (Muster's Tablut plays %s:%s)", k, kv[k], k, strings.Join(allowed, "|"))
		}
	}
	return nil
}

// SamePlay reports whether two games play by the same rules, whatever
// their rulesets are called (linnaeus, and the opentafl ruleset with the
// options that make it linnaeus, say).
func (g *Game) SamePlay(o *Game) bool {
	a, b := g.Rules, o.Rules
	return a.First == b.First && a.CastleCross == b.CastleCross && a.KingReenter == b.KingReenter &&
		a.CastleHost == b.CastleHost && a.Linnaean == b.Linnaean && a.Camps == b.Camps && a.KingArmed == b.KingArmed &&
		a.KingCapture == b.KingCapture && a.Repetition == b.Repetition && a.NoMoves == b.NoMoves &&
		a.Encirclement == b.Encirclement && a.TurnLimit == b.TurnLimit
}
