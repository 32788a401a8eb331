package lanrick

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/muster-games/muster/game"
)

// A Lanrick record is a header of tags, the game string first, then one
// line a turn: its number, who acted ("chance" for the dice) and the
// actions of that run:
//
//	[game:lanrick(1893)]
//	[date:2026.11.22]
//	[result:white]
//	[position:board=… to=black …]     (only for a game from a set-up position)
//
//	1. black: mark d5
//	2. white: no-interchange
//	3. white: a7-a5
//	4. black: b8-c7 h8-g7 end
//
// Reading checks the layout; game.Replay checks the actions.

const maxRecordBytes = 1 << 20

// WriteRecord writes a record.
func (g *Game) WriteRecord(w io.Writer, rec *game.Record) error {
	s := g.Start()
	if rec.Start != "" {
		p, err := g.Parse(rec.Start)
		if err != nil {
			return err
		}
		s = p
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "[game:%s]\n", rec.Spec)
	for _, kv := range rec.Tags {
		if kv.Key == "game" || kv.Key == "position" {
			continue
		}
		fmt.Fprintln(bw, game.FormatTag(kv.Key, kv.Value))
	}
	if rec.Start != "" {
		fmt.Fprintf(bw, "[position:%s]\n", rec.Start)
	}
	fmt.Fprintln(bw)
	turn, who := 0, ""
	for _, text := range rec.Actions {
		actor := playerText(s.toAct)
		if actor != who || turn == 0 {
			if turn > 0 {
				fmt.Fprintln(bw)
			}
			turn++
			who = actor
			fmt.Fprintf(bw, "%d. %s:", turn, actor)
		}
		fmt.Fprintf(bw, " %s", text)
		a, err := s.ParseAction(text)
		if err != nil {
			return fmt.Errorf("lanrick: writing record: %w", err)
		}
		s.Apply(a)
	}
	if turn > 0 {
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

func playerIndex(name string) int {
	switch name {
	case "black":
		return Black
	case "white":
		return White
	case "chance":
		return -1
	}
	return -3
}

// ReadRecord reads a record; it checks the layout, not the actions.
func (g *Game) ReadRecord(rd io.Reader) (*game.Record, error) {
	rec := &game.Record{Spec: g.Spec()}
	sc := bufio.NewScanner(io.LimitReader(rd, maxRecordBytes))
	sc.Buffer(make([]byte, 0, 4096), maxRecordBytes)
	line, turns := 0, 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case text == "":
		case strings.HasPrefix(text, "["):
			k, v, ok := game.ParseTag(text)
			if !ok {
				return nil, fmt.Errorf("lanrick: record line %d: %w: a tag is [key:value]", line, game.ErrSyntax)
			}
			switch k {
			case "game":
				rec.Spec = v
			case "position":
				rec.Start = v
			default:
				rec.Tags = append(rec.Tags, game.KV{Key: k, Value: v})
			}
		default:
			num, rest, ok := strings.Cut(text, ".")
			n, err := strconv.Atoi(num)
			who, actions, ok2 := strings.Cut(strings.TrimSpace(rest), ":")
			if !ok || !ok2 || err != nil || n != turns+1 || playerIndex(who) == -3 {
				return nil, fmt.Errorf("lanrick: record line %d: %w: want a turn such as \"%d. black: c3-e5 end\", got %q", line, game.ErrSyntax, turns+1, text)
			}
			turns++
			rec.Actions = append(rec.Actions, splitActions(actions)...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("lanrick: reading record: %w", err)
	}
	return rec, nil
}
