package tablut

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/muster-games/muster/game"
)

// Rules are the compiled options of a ruleset. Each field is one named
// option; see Info for the option names, values and the presets.
type Rules struct {
	First        Side
	CastleCross  bool // anyone may cross the empty castle
	KingReenter  bool // the king may come back to the castle (and cross it)
	CastleHost   HostMode
	Linnaean     bool // the occupied castle is hostile to a defender when attackers hold the other three squares beside it
	Camps        CampMode
	KingArmed    bool
	KingCapture  KingCaptureMode
	Repetition   RepetitionMode
	NoMoves      NoMovesMode
	Encirclement bool // attackers win by enclosing every defender
	TurnLimit    int  // plies; 0 means none

	// Compiled from the options: for each class of mover (0 a piece that
	// does not start in a camp, 1 one that does, 2 the king) and square,
	// the extra blockers and the forbidden destinations of its rank and
	// file.
	lines [3][Squares]line
	camps squareSet
	// byLine: every piece slides alike (no camps, a king who may not come
	// back, a castle that blocks when it is forbidden), so moves can be
	// counted a whole rank or file at a time, with lineBlock[i] the
	// blocked cells of rank i and of file i beyond the pieces.
	byLine    bool
	lineBlock [Size]uint16
	// partner[victim][piece]: piece, on a square the rules make nothing
	// of, is a capturing partner against a soldier of side victim;
	// special holds the squares hostile judges further (the castle,
	// Bologna's camps).
	partner [2][4]bool
	special squareSet
	// weights are the evaluation's, those of the rules' family.
	weights *Weights
}

// line holds what a mover on a square needs to slide: the cells of its
// rank and file that block beyond the pieces, and the cells it may not
// stop on.
type line struct {
	blockRank, blockFile, forbidRank, forbidFile uint16
	rank, file                                   uint8
}

// HostMode says when the castle is hostile to soldiers (a capturing partner).
type HostMode int8

const (
	HostNever  HostMode = iota // never (Foteviken: hostile to the king only)
	HostEmpty                  // when empty
	HostAlways                 // always, even with the king on it (Linnaeus rule 14 read literally, as Ludii and Bologna do)
)

// CampMode says what the attackers' start squares are.
type CampMode int8

const (
	CampsNone   CampMode = iota // ordinary squares
	CampsAshton                 // Bologna's camps: only pieces that start in one may enter or cross, camp to camp at most 5 squares, hostile
	CampsForts                  // Foteviken's forts: only pieces that start in one may enter or cross, hostile to the king only
)

// KingCaptureMode says how the king is captured.
type KingCaptureMode int8

const (
	KingNearCastle KingCaptureMode = iota // 4 on the castle, 3 + castle beside it, 2 elsewhere
	KingStrong                            // all four sides hostile everywhere
)

// RepetitionMode says what a repeated position does.
type RepetitionMode int8

const (
	RepNone         RepetitionMode = iota // nothing
	RepFirst                              // any repeated position is a draw
	RepThird                              // the third occurrence of a position is a draw
	RepAttackerVary                       // the attackers may not make a move that repeats a position for the third time
)

// NoMovesMode says what happens to a side that cannot move.
type NoMovesMode int8

const (
	NoMovesLose NoMovesMode = iota
	NoMovesDraw
	NoMovesPass // a forced pass; two passes in a row draw (Ludii)
)

var (
	sideValues  = []string{"attackers", "defenders"}
	boolValues  = []string{"yes", "no"}
	hostValues  = []string{"never", "empty", "always"}
	campValues  = []string{"none", "ashton", "forts"}
	kingValues  = []string{"near_castle", "strong"}
	repValues   = []string{"none", "first", "third", "attacker_vary"}
	movesValues = []string{"lose", "draw", "pass"}
)

// options are Tablut's named options, in the order presets list them.
var options = []game.OptionInfo{
	{Key: "first", Values: sideValues, Description: "the side that moves first"},
	{Key: "castle_cross", Values: boolValues, Description: "anyone may cross the empty castle (nobody may stop on it)"},
	{Key: "king_reenter", Values: boolValues, Description: "the king may return to the castle and cross it"},
	{Key: "castle_hostile", Values: hostValues, Description: "when the castle is a capturing partner against soldiers of either side"},
	{Key: "linnaean", Values: boolValues, Ruling: "Linnaeus, rule 10", Description: "the occupied castle is hostile to a defender when attackers hold the other three squares beside it"},
	{Key: "camps", Values: campValues, Description: "what the 16 attacker start squares are: none, Bologna's camps, or Foteviken's forts"},
	{Key: "king_armed", Values: boolValues, Description: "the king takes part in captures, as hammer and anvil"},
	{Key: "king_capture", Values: kingValues, Description: "near_castle: 4 on the castle, 3 + castle beside it, 2 elsewhere; strong: 4 everywhere"},
	{Key: "repetition", Values: repValues, Description: "none; first: any repeated position draws; third: the third occurrence draws; attacker_vary: the attackers may not repeat a position a third time"},
	{Key: "no_moves", Values: movesValues, Description: "a side with no legal move loses, draws, or passes (two passes in a row draw)"},
	{Key: "encirclement", Values: boolValues, Description: "the attackers win by enclosing every defender away from the edge"},
	{Key: "turn_limit", Values: nil, Description: "plies after which the game is a draw (0: none)"},
}

// Info describes Tablut, its options and its rulesets for the registry.
var Info = game.Info{
	Name:        "tablut",
	Title:       "Tablut",
	Description: "Tablut, the tafl game Linnaeus recorded in Lapland in 1732 (Iter Lapponicum), in its reconstructions.",
	Options:     options,
	Traits:      traits,
	Notation:    "Moves are from-to, e3-e1; captures may be added, e5-e8xe9. Squares a1–i9, a1 bottom left.",
	HowTo: []string{
		"Tablut is the game Linnaeus saw in Lapland in 1732. The Swedes (defenders, light, with their king) start in the middle; the Muscovites (attackers, dark) at the edges.",
		"All pieces move like a rook, any distance along a rank or file, without jumping. Nobody stops on the castle (the centre square).",
		"A piece is captured when the enemy moves to trap it between two of his pieces (the castle may help, by ruleset). The king is taken by two (or by four on the castle, three and the castle beside it) and escapes to any edge square: the defenders win when he gets out, the attackers when they take him.",
	},
	Docs:    []game.DocLink{{Title: "the Tablut rulings and notation", File: "tablut.md"}, {Title: "self-play findings", File: "findings.md"}, {Title: "the agents' strength", File: "strength.md"}},
	Lessons: lessons,
	Figures: figures,
	Rulesets: []game.RulesetInfo{
		{ID: "linnaeus", Default: true,
			Description: "the best modern reading of Linnaeus's Latin: no entering or crossing the castle, empty castle hostile to all, the Linnaean capture, king captured by 2 (4 on, 3 + castle beside the castle)",
			Date:        "1732", Source: "Linnaeus, Iter Lapponicum (1732), rules 1–14, as read by Ashton (2010), Cartier (2011) and Salmi (2013)",
			Settings: preset("first=attackers castle_cross=no king_reenter=no castle_hostile=empty linnaean=yes camps=none king_armed=yes king_capture=near_castle repetition=third no_moves=lose encirclement=no turn_limit=0")},
		{ID: "ludii-linnaeus",
			Description: "Ludii's \"Linnaeus (Observed)\": castle closed to all and always hostile, no repetition rule, forced passes, 2,500 turns",
			Source:      "Digital Ludeme Project ruleset 373, Ludii Tablut.lud",
			Settings:    preset("first=attackers castle_cross=no king_reenter=no castle_hostile=always linnaean=no camps=none king_armed=yes king_capture=near_castle repetition=none no_moves=pass encirclement=no turn_limit=2500")},
		{ID: "ludii-smith",
			Description: "Ludii's \"Smith (Suggested)\": as ludii-linnaeus, but the king is captured only on four sides",
			Source:      "Digital Ludeme Project ruleset 592, after J. E. Smith's translation, Lachesis Lapponica (1811)",
			Settings:    preset("first=attackers castle_cross=no king_reenter=no castle_hostile=always linnaean=no camps=none king_armed=yes king_capture=strong repetition=none no_moves=pass encirclement=no turn_limit=2500")},
		{ID: "walker",
			Description: "Damian Walker's 13 rules: the empty castle may be crossed, never landed on; any repeated position or a side without moves draws",
			Date:        "2011", Source: "D. Walker, cyningstan.com, Traditional Board Game Series leaflet #1: Tablut (2011)",
			Settings: preset("first=attackers castle_cross=yes king_reenter=no castle_hostile=empty linnaean=yes camps=none king_armed=yes king_capture=near_castle repetition=first no_moves=draw encirclement=no turn_limit=0")},
		{ID: "cartier",
			Description: "Cartier as written: as linnaeus, but the attackers must vary rather than repeat a position a third time",
			Date:        "2011", Source: "N. Cartier, Tablut rules (2011), aagenielsen.dk/TablutrulesbyCartier.pdf",
			Settings: preset("first=attackers castle_cross=no king_reenter=no castle_hostile=empty linnaean=yes camps=none king_armed=yes king_capture=near_castle repetition=attacker_vary no_moves=lose encirclement=no turn_limit=0")},
		{ID: "opentafl",
			Description: "OpenTafl's \"Tablut 9x9\": castle crossable, threefold repetition draws, attackers win by encirclement",
			Source:      "OpenTafl (jslater89/OpenTafl), Tablut 9x9 rules",
			Settings:    preset("first=attackers castle_cross=yes king_reenter=no castle_hostile=empty linnaean=yes camps=none king_armed=yes king_capture=near_castle repetition=third no_moves=lose encirclement=yes turn_limit=0")},
		{ID: "foteviken",
			Description: "the 1972 Swedish museums' reconstruction as OpenTafl implements it: forts, king captured on four sides, castle and forts hostile to the king only",
			Date:        "1972", Source: "Riksutställningar 1972; OpenTafl FotevikenTablut.java",
			Settings: preset("first=attackers castle_cross=no king_reenter=no castle_hostile=never linnaean=no camps=forts king_armed=yes king_capture=strong repetition=third no_moves=lose encirclement=yes turn_limit=0")},
		{ID: "ashton",
			Description: "\"Ashton Tablut\" of the University of Bologna's Tablut Challenge: defenders (white) first, camps, castle always hostile, any repeated position draws",
			Source:      "AGalassi/TablutCompetition, GameAshtonTablut.java; after Ashton (2007, 2010)",
			Settings:    preset("first=defenders castle_cross=no king_reenter=no castle_hostile=always linnaean=no camps=ashton king_armed=yes king_capture=near_castle repetition=first no_moves=lose encirclement=no turn_limit=0")},
	},
}

// preset reads a ruleset's settings, written "key=value" for every option
// (in any order, separated by spaces), into the option order Info lists
// them in. A key unknown, missing or given twice, or a value the option
// does not take, is a mistake in this file: it panics as the package
// loads, and every test fails.
func preset(settings string) []game.KV {
	given := map[string]string{}
	for _, kv := range strings.Fields(settings) {
		k, v, ok := strings.Cut(kv, "=")
		if _, dup := given[k]; !ok || dup {
			panic(fmt.Sprintf("tablut: preset %q: %q", settings, kv))
		}
		given[k] = v
	}
	out := make([]game.KV, 0, len(options))
	for _, o := range options {
		v, ok := given[o.Key]
		if !ok || o.Values != nil && indexOf(o.Values, v) < 0 {
			panic(fmt.Sprintf("tablut: preset %q: option %s is %q (known: %v)", settings, o.Key, v, o.Values))
		}
		out = append(out, game.KV{Key: o.Key, Value: v})
		delete(given, o.Key)
	}
	if len(given) > 0 {
		panic(fmt.Sprintf("tablut: preset %q: unknown options %v", settings, given))
	}
	return out
}

func indexOf(list []string, v string) int {
	for i, s := range list {
		if s == v {
			return i
		}
	}
	return -1
}

// compile turns resolved option values into Rules.
func compile(v map[string]string) Rules {
	r := Rules{
		First:        Side(indexOf(sideValues, v["first"])),
		CastleCross:  v["castle_cross"] == "yes",
		KingReenter:  v["king_reenter"] == "yes",
		CastleHost:   HostMode(indexOf(hostValues, v["castle_hostile"])),
		Linnaean:     v["linnaean"] == "yes",
		Camps:        CampMode(indexOf(campValues, v["camps"])),
		KingArmed:    v["king_armed"] == "yes",
		KingCapture:  KingCaptureMode(indexOf(kingValues, v["king_capture"])),
		Repetition:   RepetitionMode(indexOf(repValues, v["repetition"])),
		NoMoves:      NoMovesMode(indexOf(movesValues, v["no_moves"])),
		Encirclement: v["encirclement"] == "yes",
	}
	r.TurnLimit, _ = strconv.Atoi(v["turn_limit"])
	r.prepare()
	return r
}

func (r *Rules) prepare() {
	if r.Camps != CampsNone {
		r.camps = startAttackers
	}
	r.prepareLines()
	r.partner[Defenders][Attacker] = true
	r.partner[Attackers][Defender] = true
	r.partner[Attackers][King] = r.KingArmed
	r.special.add(Castle)
	if r.Camps == CampsAshton {
		r.special.lo |= r.camps.lo
		r.special.hi |= r.camps.hi
	}
	r.weights = WeightsOf(r.Family())
	for class := 0; class < 3; class++ {
		// The castle: never a destination, except for a king who may
		// come back; a blocker unless it may be crossed.
		castleBlocks := !r.CastleCross
		castleForbidden := true
		if class == 2 && r.KingReenter {
			castleBlocks, castleForbidden = false, false
		}
		for from := Square(0); from < Squares; from++ {
			l := &r.lines[class][from]
			l.rank, l.file = uint8(from.Rank()), uint8(from.File())
			for to := Square(0); to < Squares; to++ {
				sameRank, sameFile := to.Rank() == from.Rank(), to.File() == from.File()
				if !sameRank && !sameFile {
					continue
				}
				var block, forbid bool
				if to == Castle {
					block, forbid = castleBlocks, castleForbidden
				}
				// Camps or forts block pieces that do not start in
				// one; Bologna forbids camp to camp beyond 5 squares.
				if r.camps.has(to) {
					if class != 1 {
						block = true
					} else if dist := abs(to.File()-from.File()) + abs(to.Rank()-from.Rank()); r.Camps == CampsAshton && dist > 5 {
						forbid = true
					}
				}
				if sameRank {
					l.blockRank |= bit(block, to.File())
					l.forbidRank |= bit(forbid, to.File())
				}
				if sameFile {
					l.blockFile |= bit(block, to.Rank())
					l.forbidFile |= bit(forbid, to.Rank())
				}
			}
		}
	}
}

func (r *Rules) prepareLines() {
	r.byLine = r.Camps == CampsNone && !r.KingReenter && !r.CastleCross
	if r.byLine {
		r.lineBlock[Square(Castle).Rank()] = 1 << Square(Castle).File()
	}
}

func bit(b bool, i int) uint16 {
	if b {
		return 1 << i
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
