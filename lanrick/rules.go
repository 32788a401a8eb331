package lanrick

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

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

	// 1879-01.
	BudgetB     bool // A-J3 reading B: men on the board in the last rendezvous, and one more
	WinnerFirst bool // A-J4: the winner, not the loser, moves first in the next rendezvous
	// 1879-03.
	Dice            DiceMode
	FebScoring      bool // the 20 Feb 1879 printing: score men − 2, play to 3
	OwnerSetsIn     bool // A-F4: the wanderers' owner, not the winner, sets them in
	BonusBorderOnly bool // A-F6: the bonus moves keep to the border
	// 1880-10.
	ClearCentreOnly bool // A-O2: the new centre merely outside the old rendezvous
	// 1880-12.
	PurposiveMarkMove bool // A-D1: the mark move only may not take in his men that are not carried
	OtherWinsBothIn   bool // A-D6: when both are all in, the player who did not act wins
	NoMarkPrivilege   bool // 1880-12 Rule 5's mark privilege left out (for study)
	// 1879-01 A-J2 and 1879-03 A9.
	OtherMovesFirst bool
	ReplayStalled   bool
	// 1893 A-G5: open rendezvous only where a queen on the mark checks.
	QueenCheck bool
}

// DiceMode is how 1879-03 fixes a row or column in 3–6.
type DiceMode int8

const (
	DiceReroll   DiceMode = iota // throws below three are neglected
	DiceNB                       // the 1 March N.B.: a low throw, then a second; double the first and add
	DiceTeetotum                 // the 20 February N.B.: a four-sided teetotum, 1 for row 3
)

var (
	colourValues = []string{"black", "white"}
	yesNo        = []string{"yes", "no"}
)

var options = []game.OptionInfo{
	{Key: "first", Values: colourValues, Description: "who acts first: places first, sets the first mark or is 'first Player' (by lot in the texts)"},
	{Key: "multi_move", Values: []string{"once", "same_line", "same_direction"}, Description: "a man moves once a turn, or again along the same line (either way) or the same direction", Ruling: "A4"},
	{Key: "voluntary_pass", Values: yesNo, Description: "a player may end a turn without moving any square", Ruling: "A7"},
	{Key: "repetition", Values: yesNo, Description: "the third occurrence of the same state is a draw", Ruling: "A9a"},
	{Key: "no_progress", Description: "completed turns in a row without a rendezvous won, a man removed or converted that draw (0: off)", Ruling: "A9b"},
	{Key: "win_check", Values: []string{"immediate", "end_of_turn"}, Description: "a rendezvous is won as soon as the last man gets in, or at the end of the turn", Ruling: "A10"},
	{Key: "relocation_fallback", Values: []string{"place", "leave"}, Description: "a man to be moved to the border that has no free line is set on any vacant border square, or left where it is", Ruling: "A12"},
	{Key: "first_mark_restricted", Values: yesNo, Description: "the first mark goes on c6, d5, e4 or f3 (the 1899 text drops this)", Ruling: "1893 Rule 2"},
	{Key: "setter_no_own_man", Values: yesNo, Description: "the setter may have no man in the rendezvous", Ruling: "1893 Rule 4 as in the second edition and 1899"},
	{Key: "interchange", Values: yesNo, Description: "the other player may demand an interchange (no: the rule left out, for study)", Ruling: "1893 Rule 5"},
	{Key: "opening_turn", Values: []string{"rendezvous", "each_player"}, Description: "the 2-square limit is for the opening turn of a rendezvous, or for each player's first turn in it", Ruling: "A-G2"},
	{Key: "cap_check", Values: []string{"before_move", "start_of_turn"}, Description: "'his only man outside' (free of the 3-square cap) is judged just before the man moves, or at the start of the turn", Ruling: "A-G3"},
	{Key: "award_on_start", Values: yesNo, Description: "a player whose men are all in when play for a rendezvous starts wins it at once", Ruling: "A-G9"},
	{Key: "budget_reading", Values: []string{"A", "B"}, Description: "the new budget is the men a player had in the last rendezvous and one more (A), or his men on the board then and one more (B)", Ruling: "1879-01 A-J3"},
	{Key: "later_first", Values: []string{"alternate", "winner"}, Description: "in a later rendezvous the turns alternate on (the loser first), or the winner moves first", Ruling: "1879-01 A-J4"},
	{Key: "dice_mode", Values: []string{"reroll", "mar1879_nb", "teetotum4"}, Description: "throws below three neglected; the March N.B. (a low throw doubled and added to a second low one); the February four-sided teetotum", Ruling: "1879-03 Rule 3"},
	{Key: "scoring", Values: []string{"mar", "feb"}, Description: "score the men on the board and play to 5 (1 March), or the men above two and play to 3 (20 February)", Ruling: "1879-03 Rule 9"},
	{Key: "wanderers_set_by", Values: []string{"winner", "owner"}, Description: "who sets the wanderers in the rendezvous", Ruling: "1879-03 A-F4"},
	{Key: "bonus_path", Values: []string{"free", "border"}, Description: "the bonus moves go by king steps anywhere through vacant squares, or along the border only", Ruling: "1879-03 A-F6"},
	{Key: "clear_rule", Values: []string{"no_common", "centre_outside"}, Description: "the new rendezvous shares no square with the old, or only its centre lies outside the old", Ruling: "1880-10 A-O2"},
	{Key: "mark_move_rule", Values: []string{"literal", "purposive"}, Description: "after a mark move the rendezvous may include none of the mover's men, or none that it did not carry", Ruling: "1880-12 A-D1"},
	{Key: "first_mover", Values: []string{"placer", "other"}, Description: "in the first rendezvous the player who placed first moves first, or the other", Ruling: "1879-01 A-J2"},
	{Key: "stalled_round", Values: []string{"draw", "replay"}, Description: "a stalled round (repetition or no progress) draws the game, or is set up and played again without a score", Ruling: "1879-03 A9"},
	{Key: "mark_privilege", Values: yesNo, Description: "he who did not select the rendezvous may move the mark instead of his men (no: the privilege left out, for study)", Ruling: "1880-12 Rule 5; question Q11"},
	{Key: "both_in", Values: []string{"mover", "other"}, Description: "if both players are all in after an action (purposive mark moves only), the one who acted wins, or the other", Ruling: "1880-12 A-D6"},
	{Key: "open_geometry", Values: []string{"geometric", "check"}, Description: "an open rendezvous is the ends of the mark's lines whatever stands on them, or only the border squares a queen on the mark would really check (not recommended)", Ruling: "1893 A-G5"},
	{Key: "edition", Values: []string{"3", "2"}, Description: "the Third Edition (October) or the Second (August); their readings differ in words, not in effect", Ruling: "1881 editions"},
}

// Info describes Lanrick for the registry.
var Info = game.Info{
	Name:        "lanrick",
	Title:       "Lanrick",
	Options:     withRulesets(options),
	Description: "Lanrick, Lewis Carroll's game for two players (1879–1899): each side plays its men into a 'rendezvous' that has room for all but one of them.",
	Traits:      traits,
	Notation:    "@c1 (set a man), c3-e5 (move), c1~f1 (slide along the border), mark d5 [n|e|ne|nw], mark>e6 (move the mark), interchange, no-interchange, swap e8, x e5 (take or convert), end, pass.",
	HowTo: []string{
		"Lanrick is Lewis Carroll's game for two players (1879–1899). Each side has men on a chess-board; a coin marks a 'rendezvous', a set of squares with room for all the men but one, and both try to play all their men into it.",
		"Men move in a straight line, straight or slanting, through empty squares, never jumping. A turn has a budget of squares that may be shared among several men; then press End turn (or the turn ends when the budget is spent).",
		"In 1893 the rendezvous shrinks as men are lost: odd sizes are 'close' (the mark and squares round it), even sizes 'open' (border squares a queen on the mark would check, where men may slide along the border). The non-setter may demand an interchange of men. Whoever gets all his men in first converts or removes an outlying enemy man; a side left with one man loses.",
		"The earlier versions use a 3×3 rendezvous: thrown with dice (1879), chosen by the other player (1880), or set by the beginner (1881), with removals and moves back to the border after each win.",
	},
	Docs:    []game.DocLink{{Title: "the Lanrick rulings and notation", File: "lanrick.md"}, {Title: "Carroll's correspondents answered", File: "carroll.md"}, {Title: "self-play findings", File: "findings.md"}},
	Lessons: lessons,
	Figures: figures,
	Rulesets: withNotes([]game.RulesetInfo{
		{ID: "1879-01",
			Description: "the first printed sheet: the men set alternately on the border, two dice fix a 3×3 rendezvous in the inner 6×6, queen moves, 6 squares a turn, then the men a player had in the last rendezvous and one more; the loser removes one of his own",
			Date:        "16 January 1879", Source: "Lanrick, printed sheet of 16 January 1879 (with Carroll's manuscript correction)",
			Settings: presetOf(), Chance: true},
		{ID: "1879-03",
			Description: "the 1 March 1879 sheet: the first Player sets his five, then the other; dice in the central sixteen; wanderers set in, radiating, bonus moves; a round ends when a side has two men; first to five marks",
			Date:        "1 March 1879", Source: "Lanrick, printed sheets of 20 February and 1 March 1879",
			Settings: presetOf(), Chance: true},
		{ID: "1880-10",
			Description: "the cyclostyled rules of October 1880: one player sets all the men, the other chooses the 3×3 rendezvous; the winner removes a wanderer and plays the others to the border; the loser chooses the next, clear of the old",
			Date:        "25 October 1880", Source: "Lanrick, cyclostyled sheet of 25 October 1880",
			Settings: presetOf()},
		{ID: "1880-12",
			Description: "The Monthly Packet, December 1880, with Carroll's notes of 1881: as 1880-10, the selector's own men kept out, and the other may move the mark a square instead of his men",
			Date:        "December 1880", Source: "The Monthly Packet, December 1880; Carroll's notes, March and June 1881",
			Settings: presetOf()},
		{ID: "1881",
			Description: "the Third Edition of October 1881: men set alternately, the beginner sets the mark where he cannot get all in at once, the first turn two squares, men moved again along their line; equalising and re-marshalling to the border; taking four men wins",
			Date:        "October 1881", Source: "The Monthly Packet, August and November 1881; Third Edition, October 1881",
			Settings: presetOf("multi_move=same_line")},
		{ID: "1893", Default: true,
			Description: "the 1893 rules: ten men set as in Carroll's diagram, a rendezvous of one square fewer than the men (close for odd sizes, open for even), interchange, conversion, border slides; a side with one man left loses",
			Date:        "1893", Source: "C. L. Dodgson, Syzygies and Lanrick (1893), Rules 1–9 and Hints",
			Settings: presetOf("first_mark_restricted=yes", "interchange=yes")},
		{ID: "1899",
			Description: "the 1893 rules as reprinted in 1899: the first mark anywhere, the setter may have no man in the rendezvous, no claim formality",
			Date:        "1899", Source: "The Lewis Carroll Picture Book (1899), pp. 274–278",
			Settings: presetOf("setter_no_own_man=yes", "interchange=yes")},
	}),
}

// defaults are the option values every preset starts from.
var defaults = map[string]string{
	"first": "black", "multi_move": "once", "voluntary_pass": "no", "repetition": "yes", "no_progress": "100",
	"win_check": "immediate", "relocation_fallback": "place", "first_mark_restricted": "no", "setter_no_own_man": "no",
	"interchange": "no", "opening_turn": "rendezvous", "cap_check": "before_move", "award_on_start": "no",
	"budget_reading": "A", "later_first": "alternate", "dice_mode": "reroll", "scoring": "mar",
	"wanderers_set_by": "winner", "bonus_path": "free", "clear_rule": "no_common", "mark_move_rule": "literal", "edition": "3",
	"first_mover": "placer", "stalled_round": "draw", "mark_privilege": "yes", "both_in": "mover", "open_geometry": "geometric",
}

// appliesTo lists the rulesets an option means something in; setting it
// for another is an error.
var appliesTo = map[string][]string{
	"multi_move":            {"1879-01", "1879-03", "1880-10", "1880-12", "1881"},
	"voluntary_pass":        {"1879-03", "1880-10", "1880-12", "1881"},
	"win_check":             {"1879-01", "1879-03", "1880-10", "1880-12"},
	"relocation_fallback":   {"1880-10", "1880-12", "1881"},
	"first_mark_restricted": {"1893", "1899"},
	"setter_no_own_man":     {"1893", "1899"},
	"interchange":           {"1893", "1899"},
	"opening_turn":          {"1893", "1899"},
	"cap_check":             {"1893", "1899"},
	"award_on_start":        {"1893", "1899"},
	"budget_reading":        {"1879-01"},
	"later_first":           {"1879-01"},
	"dice_mode":             {"1879-03"},
	"scoring":               {"1879-03"},
	"wanderers_set_by":      {"1879-03"},
	"bonus_path":            {"1879-03"},
	"clear_rule":            {"1880-10"},
	"mark_move_rule":        {"1880-12"},
	"edition":               {"1881"},
	"first_mover":           {"1879-01"},
	"stalled_round":         {"1879-03"},
	"both_in":               {"1880-12"},
	"mark_privilege":        {"1880-12"},
	"open_geometry":         {"1893", "1899"},
}

// withRulesets tells each option the rulesets it applies to.
func withRulesets(opts []game.OptionInfo) []game.OptionInfo {
	out := slices.Clone(opts)
	for i := range out {
		out[i].Rulesets = appliesTo[out[i].Key]
	}
	return out
}

// presetOf returns the settings of every option in order: the defaults
// with the given key=value overrides.
func presetOf(over ...string) []game.KV {
	v := map[string]string{}
	for k, x := range defaults {
		v[k] = x
	}
	for _, o := range over {
		k, x, _ := strings.Cut(o, "=")
		v[k] = x
	}
	kv := make([]game.KV, len(options))
	for i, o := range options {
		kv[i] = game.KV{Key: o.Key, Value: v[o.Key]}
	}
	return kv
}

// checkApplies rejects options set for a ruleset they mean nothing in.
func checkApplies(ruleset string, opts []game.KV) error {
	for _, kv := range opts {
		if ids, ok := appliesTo[kv.Key]; ok && !slices.Contains(ids, ruleset) {
			return fmt.Errorf("lanrick: option %s does not apply to ruleset %s (it applies to %s)", kv.Key, ruleset, strings.Join(ids, ", "))
		}
	}
	return nil
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
	r.BudgetB = v["budget_reading"] == "B"
	r.WinnerFirst = v["later_first"] == "winner"
	r.Dice = DiceMode(slices.Index([]string{"reroll", "mar1879_nb", "teetotum4"}, v["dice_mode"]))
	r.FebScoring = v["scoring"] == "feb"
	r.OwnerSetsIn = v["wanderers_set_by"] == "owner"
	r.BonusBorderOnly = v["bonus_path"] == "border"
	r.ClearCentreOnly = v["clear_rule"] == "centre_outside"
	r.PurposiveMarkMove = v["mark_move_rule"] == "purposive"
	r.OtherWinsBothIn = v["both_in"] == "other"
	r.NoMarkPrivilege = v["mark_privilege"] == "no"
	r.OtherMovesFirst = v["first_mover"] == "other"
	r.ReplayStalled = v["stalled_round"] == "replay"
	r.QueenCheck = v["open_geometry"] == "check"
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

// withNotes links each ruleset to the answers about it in docs/carroll.md.
func withNotes(rs []game.RulesetInfo) []game.RulesetInfo {
	for i := range rs {
		rs[i].Notes = &game.DocLink{Title: "What Carroll's correspondents asked about " + rs[i].ID + ", answered", File: "carroll.md#ruleset-" + rs[i].ID}
	}
	return rs
}
