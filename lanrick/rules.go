package lanrick

import (
	"strconv"

	"github.com/muster-games/muster/game"
)

// Version is one of Carroll's printed versions.
type Version int8

const (
	V1879Jan Version = iota // 16 January 1879
	V1879Mar                // 1 March 1879 (20 February readings as options)
	V1880Oct                // 25 October 1880, cyclostyled
	V1880Dec                // The Monthly Packet, December 1880, with the 1881 notes
	V1881                   // Third Edition, October 1881 (Second Edition as an option)
	V1893                   // Syzygies and Lanrick, 1893
	V1899                   // The Lewis Carroll Picture Book, 1899
)

var versionIDs = []string{"1879-01", "1879-03", "1880-10", "1880-12", "1881", "1893", "1899"}

func (v Version) String() string { return versionIDs[v] }

// Rules are the compiled options of a game.
type Rules struct {
	Version Version
	// First is the player who acts first: places first, sets the first
	// mark, or is 'first Player' (by lot or roll-off in the texts).
	First int
	// MultiMove lets a man move more than once a turn along the same line
	// (A4, A-E5); SameDirection restricts it to one direction.
	MultiMove, SameDirection bool
	// VoluntaryPass lets a player end a turn without moving (A7).
	VoluntaryPass bool
	// Repetition: the third occurrence of a state draws (A9a).
	Repetition bool
	// NoProgress: completed turns without progress that draw (A9b); 0 off.
	NoProgress int
	// EndOfTurnWin checks "all in" at the end of the turn only (A10).
	EndOfTurnWin bool
	// RelocateFallback: a man that cannot reach the border by a line is
	// set on any vacant border square of the relocator's choice (A12).
	RelocateFallback bool

	// 1893 and 1899.
	FirstMarkRestricted bool // Rule 2: the first mark on c6, d5, e4 or f3
	SetterNoOwnMan      bool // Rule 4 (V6b, V6c): the setter has no man in the rendezvous
	Interchange         bool // Rule 5
	OpeningEachPlayer   bool // A-G2: each player's first turn is limited to 2, not only the opening turn
	CapAtStart          bool // A-G3: "his only man outside" judged at the start of the turn
	AwardOnStart        bool // A-G9: a player all in when play starts wins at once
}

var (
	colourValues = []string{"black", "white"}
	yesNo        = []string{"yes", "no"}
)

var options = []game.OptionInfo{
	{Key: "first", Values: colourValues, Description: "who acts first: places first, sets the first mark or is 'first Player' (by lot in the texts)"},
	{Key: "multi_move", Values: []string{"once", "same_line", "same_direction"}, Description: "A4: a man moves once a turn, or again along the same line (either way) or the same direction"},
	{Key: "voluntary_pass", Values: yesNo, Description: "A7: a player may end a turn without moving any square"},
	{Key: "repetition", Values: yesNo, Description: "A9a: the third occurrence of the same state is a draw"},
	{Key: "no_progress", Description: "A9b: completed turns in a row without a rendezvous won, a man removed or converted that draw (0: off)"},
	{Key: "win_check", Values: []string{"immediate", "end_of_turn"}, Description: "A10: a rendezvous is won as soon as the last man gets in, or at the end of the turn"},
	{Key: "relocation_fallback", Values: []string{"place", "leave"}, Description: "A12: a man to be moved to the border that has no free line is set on any vacant border square, or left where it is"},
	{Key: "first_mark_restricted", Values: yesNo, Description: "1893 Rule 2: the first mark goes on c6, d5, e4 or f3 (the 1899 text drops this)"},
	{Key: "setter_no_own_man", Values: yesNo, Description: "1893 Rule 4 as in the second edition and 1899: the setter may have no man in the rendezvous"},
	{Key: "interchange", Values: yesNo, Description: "1893 Rule 5: the other player may demand an interchange (no: the rule left out, for study)"},
	{Key: "opening_turn", Values: []string{"rendezvous", "each_player"}, Description: "A-G2: the 2-square limit is for the opening turn of a rendezvous, or for each player's first turn in it"},
	{Key: "cap_check", Values: []string{"before_move", "start_of_turn"}, Description: "A-G3: 'his only man outside' (free of the 3-square cap) is judged just before the man moves, or at the start of the turn"},
	{Key: "award_on_start", Values: yesNo, Description: "A-G9: a player whose men are all in when play for a rendezvous starts wins it at once"},
}

// Info describes Lanrick for the registry.
var Info = game.Info{
	Name:        "lanrick",
	Description: "Lanrick, Lewis Carroll's game for two players (1879–1893): each side plays its men into a 'rendezvous' that has room for all but one of them.",
	Options:     options,
	Rulesets: []game.RulesetInfo{
		{ID: "1893", Default: true,
			Description: "the 1893 rules: ten men set as in Carroll's diagram, a rendezvous of one square fewer than the men (close for odd sizes, open for even), interchange, conversion, border slides; a side with one man left loses",
			Source:      "C. L. Dodgson, Syzygies and Lanrick (1893), Rules 1–9 and Hints",
			Settings:    preset("black", "once", "no", "yes", "100", "immediate", "place", "yes", "no", "yes", "rendezvous", "before_move", "no")},
		{ID: "1899",
			Description: "the 1893 rules as reprinted in 1899: the first mark anywhere, the setter may have no man in the rendezvous, no claim formality",
			Source:      "The Lewis Carroll Picture Book (1899), pp. 274–278",
			Settings:    preset("black", "once", "no", "yes", "100", "immediate", "place", "no", "yes", "yes", "rendezvous", "before_move", "no")},
	},
}

func preset(values ...string) []game.KV {
	kv := make([]game.KV, len(values))
	for i, v := range values {
		kv[i] = game.KV{Key: options[i].Key, Value: v}
	}
	return kv
}

func compile(version Version, v map[string]string) Rules {
	r := Rules{
		Version:             version,
		MultiMove:           v["multi_move"] != "once",
		SameDirection:       v["multi_move"] == "same_direction",
		VoluntaryPass:       v["voluntary_pass"] == "yes",
		Repetition:          v["repetition"] == "yes",
		EndOfTurnWin:        v["win_check"] == "end_of_turn",
		RelocateFallback:    v["relocation_fallback"] == "place",
		FirstMarkRestricted: v["first_mark_restricted"] == "yes",
		SetterNoOwnMan:      v["setter_no_own_man"] == "yes",
		Interchange:         v["interchange"] == "yes",
		OpeningEachPlayer:   v["opening_turn"] == "each_player",
		CapAtStart:          v["cap_check"] == "start_of_turn",
		AwardOnStart:        v["award_on_start"] == "yes",
	}
	if v["first"] == "white" {
		r.First = White
	}
	r.NoProgress, _ = strconv.Atoi(v["no_progress"])
	return r
}

func versionOf(id string) Version {
	for i, s := range versionIDs {
		if s == id {
			return Version(i)
		}
	}
	return V1893
}
