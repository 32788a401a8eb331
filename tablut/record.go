package tablut

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/muster-games/muster/game"
)

// Records follow the game-record layout of OpenTafl Notation: tags in
// brackets, the OTN rules string, optionally a start position, then the
// numbered turns, two moves a turn:
//
//	[variant:Tablut]
//	[muster-game:tablut(linnaeus)]
//	[result:-1]
//	dim:9 esc:e surf:n atkf:y … start:/3ttt3/4t4/…/
//
//	1. a4-a3 e3-d3
//	2. a3-a4 d3-e3
//
// The muster-game tag names the ruleset and options exactly; a start
// other than the standard one is kept in the muster-position tag (with
// the side to move) and, for OpenTafl, as the position-string line.

// maxRecordBytes bounds what ReadRecord reads.
const maxRecordBytes = 1 << 20

// OTNRules writes the game's rules as an OpenTafl Notation rules string.
// OTN cannot say everything Muster's options can (Cartier's rule, Ludii's
// passes and turn limit, Bologna's camp-to-camp limit); the muster-game
// tag of a record is the exact statement.
func (g *Game) OTNRules() string {
	r := &g.Rules
	yn := func(b bool) string {
		if b {
			return "y"
		}
		return "n"
	}
	var b strings.Builder
	b.WriteString("dim:9 esc:e")
	fmt.Fprintf(&b, " surf:%s atkf:%s", yn(r.Encirclement), yn(r.First == Attackers))
	tfr := map[RepetitionMode]string{RepNone: "i", RepFirst: "d", RepThird: "d", RepAttackerVary: "l"}[r.Repetition]
	// ks: s strong everywhere, c strong on and beside the castle only (as
	// OpenTafl reads them; its n would be a king taken by two even on
	// the castle).
	ks := map[KingCaptureMode]string{KingStrong: "s", KingNearCastle: "c"}[r.KingCapture]
	fmt.Fprintf(&b, " tfr:%s ka:%s ks:%s", tfr, yn(r.KingArmed), ks)
	all := "tcnkTCNK"
	pass, stop := "", ""
	if r.CastleCross {
		pass = all
	}
	if r.KingReenter {
		stop = "K"
		if !r.CastleCross {
			pass = "K"
		}
	}
	hostEmpty, hostFull := map[HostMode]string{HostNever: "K", HostEmpty: all, HostAlways: all}[r.CastleHost], "tcnk"
	if r.CastleHost == HostAlways {
		hostFull = all
	}
	fmt.Fprintf(&b, " cenp:%s cens:%s cenh:%s cenhe:%s linc:%s", pass, stop, hostFull, hostEmpty, yn(r.Linnaean))
	if r.Camps != CampsNone {
		var camps []string
		r.camps.forEach(func(s Square) { camps = append(camps, s.String()) })
		aforh := "K"
		if r.Camps == CampsAshton {
			aforh = all
		}
		fmt.Fprintf(&b, " afor:%s aforh:%s", strings.Join(camps, ","), aforh)
	}
	b.WriteString(" start:" + StartOTN)
	return b.String()
}

// WriteRecord writes a record in OpenTafl Notation's record layout.
func (g *Game) WriteRecord(w io.Writer, rec *game.Record) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "[variant:Tablut]\n[muster-game:%s]\n", rec.Spec)
	if rec.Start != "" {
		fmt.Fprintf(bw, "[muster-position:%s]\n", rec.Start)
	}
	for _, kv := range rec.Tags {
		if kv.Key == "variant" || strings.HasPrefix(kv.Key, "muster-") {
			continue
		}
		v := kv.Value
		if kv.Key == "result" {
			// OTN: 1 attackers win, 0 draw, -1 defenders win, ? other.
			if code, ok := map[string]string{"attackers": "1", "draw": "0", "defenders": "-1"}[v]; ok {
				v = code
			}
		}
		fmt.Fprintln(bw, game.FormatTag(kv.Key, v))
	}
	fmt.Fprintln(bw, g.OTNRules())
	if rec.Start != "" {
		fmt.Fprintln(bw, strings.Fields(rec.Start)[0])
	}
	fmt.Fprintln(bw)
	for i := 0; i < len(rec.Actions); i += 2 {
		fmt.Fprintf(bw, "%d. %s", i/2+1, rec.Actions[i])
		if i+1 < len(rec.Actions) {
			fmt.Fprintf(bw, " %s", rec.Actions[i+1])
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

// ReadRecord reads a record in OpenTafl Notation's record layout. It reads
// the moves but does not check them: game.Replay does.
func (g *Game) ReadRecord(rd io.Reader) (*game.Record, error) {
	return ReadRecord(rd)
}

// otgClock is the line of clocks OpenTafl writes after each turn: both
// sides' clocks, or the attackers' alone after a turn the game ended in
// before the defenders moved ("[23 0/0 0i ]").
// otgVariation is the start of a variation's line in an OpenTafl record
// ("1a.1.1a. e3-d3", "12b.").
var otgVariation = regexp.MustCompile(`^[0-9]+[a-z]\.`)

var otgClock = regexp.MustCompile(`^\[[0-9]+ [0-9]+/[0-9]+ [0-9]+i ?(\|[0-9]+ [0-9]+/[0-9]+ [0-9]+i ?)?\]$`)

// ReadRecord reads a Tablut record: Muster's, or a game OpenTafl saved
// (.otg, with its clock lines and piece letters). Without a muster-game
// tag the game is the one its OTN rules tag describes, else the default
// ruleset.
func ReadRecord(rd io.Reader) (*game.Record, error) {
	rec := &game.Record{Spec: Info.Name}
	named := false // a muster-game tag names the game
	sc := bufio.NewScanner(io.LimitReader(rd, maxRecordBytes))
	sc.Buffer(make([]byte, 0, 4096), maxRecordBytes)
	line := 0
	moves := false // the moves have begun: a bracket is a comment, not a tag
	for sc.Scan() {
		line++
		raw := sc.Text()
		text := strings.TrimSpace(raw)
		switch {
		case text == "":
		case otgClock.MatchString(text):
			// OpenTafl's clocks after a turn: "[56 0/0 0i |52 0/0 0i ]".
		case moves && strings.HasPrefix(text, "["):
			// A turn's comments, with or without clocks ("[56 0/0 0i a
			// fine move|52 0/0 0i ]"), which may run over several lines.
			for !strings.HasSuffix(strings.TrimSpace(sc.Text()), "]") && sc.Scan() {
				line++
			}
		case otgVariation.MatchString(text) || moves && strings.HasPrefix(raw, " "):
			// A variation (indented, numbered "1a.1.1a."): not the game.
		case strings.HasPrefix(text, "["):
			k, v, ok := game.ParseTag(text)
			if !ok {
				return nil, fmt.Errorf("tablut: record line %d: %w: a tag is [key:value]", line, game.ErrSyntax)
			}
			switch k {
			case "muster-game":
				rec.Spec, named = v, true
			case "rules":
				// OpenTafl's saved game: its rules, unless Muster named them.
				g, _, err := ReadOTNRules(v)
				if err != nil {
					return nil, fmt.Errorf("tablut: record line %d: %w", line, err)
				}
				if !named {
					rec.Spec = g.Spec()
				}
				rec.Tags = append(rec.Tags, game.KV{Key: k, Value: v})
			case "muster-position":
				rec.Start = v
			default:
				rec.Tags = append(rec.Tags, game.KV{Key: k, Value: v})
			}
		case strings.HasPrefix(text, "dim:"):
			// The rules string: the muster-game tag is authoritative.
		case strings.HasPrefix(text, "/"):
			if rec.Start == "" {
				rec.Start = text
			}
		default:
			moves = true
			fields := strings.Fields(text)
			n, err := strconv.Atoi(strings.TrimSuffix(fields[0], "."))
			if !strings.HasSuffix(fields[0], ".") || err != nil || n < 1 {
				return nil, fmt.Errorf("tablut: record line %d: %w: want a turn such as \"1. a4-a3 e3-d3\", got %q", line, game.ErrSyntax, text)
			}
			played := 0
			for _, m := range fields[1:] {
				switch m {
				case ".....":
					// The place of a move not played: a game that begins
					// with the defenders to move.
					continue
				case "---":
					rec.Tags = append(rec.Tags, game.KV{Key: "termination", Value: "resignation"})
					continue
				}
				// Moves as OTN writes them, piece letters and all: the
				// game's parser reads them.
				rec.Actions = append(rec.Actions, m)
				played++
			}
			if played > 2 {
				return nil, fmt.Errorf("tablut: record line %d: %w: a turn has at most two moves", line, game.ErrSyntax)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tablut: reading record: %w", err)
	}
	return rec, nil
}
