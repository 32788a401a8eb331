package konane

import "github.com/muster-games/muster/game"

// Info describes Kōnane for the registry: its rulesets, with their sources,
// and its one option.
var Info = game.Info{
	Name:        "konane",
	Title:       "Kōnane",
	Example:     true,
	Description: "Kōnane, the Hawaiian leaping game: jump over the other side's stones in straight lines; the first who cannot jump loses.",
	Rulesets: []game.RulesetInfo{
		{
			ID:          "observed",
			Default:     true,
			Description: "10×10, as played in Hawaii and recorded by Emory: Black lifts a stone from a corner or the centre, White one beside the gap, then every move is a capture.",
			Date:        "1924",
			Source:      "Kenneth P. Emory, \"Kōnane\", 1924 (reported in Murray, A History of Board-Games other than Chess, 1951, p. 97); Ludii's \"10x10 Konane (Observed)\", DLP game 59",
			Settings:    []game.KV{{Key: "size", Value: "10"}},
		},
		{
			ID:          "suggested",
			Description: "The same rules on an 8×8 board, the size most often played today.",
			Source:      "Ludii's \"8x8 Konane (Suggested)\", DLP ruleset 1630",
			Settings:    []game.KV{{Key: "size", Value: "8"}},
		},
	},
	Options: []game.OptionInfo{
		{Key: "size", Values: []string{"6", "8", "10", "12", "14", "16"}, Description: "The board's side: Hawaiian boards ranged from 6×6 to more than 14×14."},
	},
	Traits:   traits(10),
	Notation: "A lift is its square, f5; a jump its start and end, d5-f5; pass stops a run of jumps. Squares a1 bottom left, from Black's side.",
	HowTo: []string{
		"The board starts full: black and white stones alternate on every square, like the colours of a draughts board. Black begins by lifting one of his stones off a corner or one of the four centre squares; White then lifts one of hers from beside the gap.",
		"From then on every move is a capture: jump one of your stones over an enemy stone next to it, along a row or a column, into the empty square just beyond, and take the stone jumped. No diagonal jumps, and no move that is not a jump.",
		"After a jump the same stone may jump again, in the same direction only, as long as it finds an enemy stone with a gap beyond; you may stop whenever you like.",
		"The first player who cannot jump on his turn loses.",
	},
	Docs: []game.DocLink{{Title: "Kōnane: the rules, sources and rulings", File: "konane.md"}},
}

func init() {
	Info.Lessons = lessons
	Info.Figures = figures
	game.Register(Info, func(ruleset string, opts []game.KV) (game.Game, error) {
		return Load(ruleset, opts...)
	})
}
