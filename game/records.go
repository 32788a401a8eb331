package game

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Muster's plain record format, for a game that has none of its own: a
// header of tags, the game string first (and the start position, for a
// game from a set-up position), then one line a turn with its number, the
// side that played it and its actions in notation:
//
//	[game:konane(hawaii)]
//	[date:2026.11.27]
//	[result:white]
//
//	1. black: e5
//	2. white: f5
//	3. black: c5-e5
//	4. white: g5-e5 e5-c5
//
// A game makes its Recorder of WriteTurnRecord and ReadTurnRecord:
//
//	func (g *Game) WriteRecord(w io.Writer, r *game.Record) error { return game.WriteTurnRecord(w, g, r) }
//	func (g *Game) ReadRecord(rd io.Reader) (*game.Record, error) { return game.ReadTurnRecord(rd, g) }

// MaxRecordBytes bounds a record read in the plain format.
const MaxRecordBytes = 1 << 20

// WriteTurnRecord writes a record of game g in the plain format; its
// actions must play from its start.
func WriteTurnRecord(w io.Writer, g Game, rec *Record) error {
	s := g.NewState()
	if rec.Start != "" {
		p, err := g.ParseState(rec.Start)
		if err != nil {
			return err
		}
		s = p
	}
	var acts []Action
	c := s.Clone()
	for _, text := range rec.Actions {
		a, err := c.ParseAction(text)
		if err != nil {
			return fmt.Errorf("%s: writing record: %w", g.Name(), err)
		}
		acts = append(acts, a)
		c.Apply(a)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "[game:%s]\n", rec.Spec)
	for _, kv := range rec.Tags {
		if kv.Key != "game" && kv.Key != "position" {
			fmt.Fprintln(bw, FormatTag(kv.Key, kv.Value))
		}
	}
	if rec.Start != "" {
		fmt.Fprintln(bw, FormatTag("position", rec.Start))
	}
	fmt.Fprintln(bw)
	for _, t := range Turns(s, acts) {
		who := "chance"
		if t.Player >= 0 {
			who = g.PlayerName(t.Player)
		}
		fmt.Fprintf(bw, "%d. %s: %s\n", t.Number, who, strings.Join(t.Actions, " "))
	}
	return bw.Flush()
}

// ReadTurnRecord reads a record of game g in the plain format. It checks
// the layout and the sides' names, not the actions (Replay does).
func ReadTurnRecord(rd io.Reader, g Game) (*Record, error) {
	rec := &Record{Spec: g.Spec()}
	sc := bufio.NewScanner(io.LimitReader(rd, MaxRecordBytes))
	sc.Buffer(make([]byte, 0, 4096), MaxRecordBytes)
	line, turns := 0, 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case text == "":
		case strings.HasPrefix(text, "["):
			k, v, ok := ParseTag(text)
			if !ok {
				return nil, fmt.Errorf("%s: record line %d: %w: a tag is [key:value]", g.Name(), line, ErrSyntax)
			}
			switch k {
			case "game":
				rec.Spec = v
			case "position":
				rec.Start = v
			default:
				rec.Tags = append(rec.Tags, KV{Key: k, Value: v})
			}
		default:
			num, rest, ok := strings.Cut(text, ".")
			n, err := strconv.Atoi(num)
			who, actions, ok2 := strings.Cut(strings.TrimSpace(rest), ":")
			_, errWho := g.ParsePlayer(strings.TrimSpace(who))
			if !ok || !ok2 || err != nil || n != turns+1 || (errWho != nil && who != "chance") {
				return nil, fmt.Errorf("%s: record line %d: %w: want a turn such as \"%d. %s: …\", got %q", g.Name(), line, ErrSyntax, turns+1, g.PlayerName(0), text)
			}
			turns++
			rec.Actions = append(rec.Actions, g.SplitActions(actions)...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: reading record: %w", g.Name(), err)
	}
	if spec, err := ParseSpec(rec.Spec); err != nil || spec.Name != g.Name() {
		return nil, fmt.Errorf("%s: %w: the record's game %q is not %s", g.Name(), ErrSyntax, rec.Spec, g.Name())
	}
	return rec, nil
}
