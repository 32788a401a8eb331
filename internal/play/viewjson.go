package play

import (
	"encoding/json"
	"math"
	"strconv"
	"sync"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/jsontext"
	"github.com/muster-games/muster/internal/store"
)

// A view is encoded after every change, for every watcher at once, and
// encoding/json spends most of the time a change takes on it, by
// reflection. appendView writes it by hand, byte for byte as
// encoding/json writes it (TestViewEncodingIsEncodingJSON holds the two
// equal for every game, and for a view with every field set); the
// traits, the same in every view of a ruleset, are encoded once for each
// (traitsJSON).

// appendView appends v as encoding/json encodes it (with HTML's
// characters escaped), less the final newline.
func appendView(b []byte, v *View) []byte {
	b = append(b, `{"id":`...)
	b = jsontext.AppendString(b, v.ID)
	b = append(b, `,"spec":`...)
	b = jsontext.AppendString(b, v.Spec)
	b = append(b, `,"game":`...)
	b = jsontext.AppendString(b, v.Game)
	b = append(b, `,"traits":`...)
	b = append(b, traitsJSON(v.Spec, &v.Traits)...)
	b = append(b, `,"position":`...)
	b = jsontext.AppendString(b, v.Position)
	b = append(b, `,"to_act":`...)
	b = strconv.AppendInt(b, int64(v.ToAct), 10)
	b = append(b, `,"board":`...)
	b = appendBoard(b, &v.Board)
	b = append(b, `,"legal":`...)
	if v.legalJSON != nil {
		b = append(b, v.legalJSON...)
	} else {
		b = appendActions(b, v.Legal)
	}
	b = append(b, `,"prompt":{"player":`...)
	b = strconv.AppendInt(b, int64(v.Prompt.Player), 10)
	b = append(b, `,"text":`...)
	b = jsontext.AppendString(b, v.Prompt.Text)
	if len(v.Prompt.Squares) > 0 {
		b = append(b, `,"squares":`...)
		b = jsontext.AppendStrings(b, v.Prompt.Squares)
	}
	b = append(b, `},"events":`...)
	b = appendEventsOrNull(b, v.Events)
	b = append(b, `,"seats":`...)
	b = appendListOrNull(b, v.Seats, appendSeat)
	b = append(b, `,"turns":`...)
	b = appendTurnList(b, v.Turns)
	b = append(b, `,"history":`...)
	b = appendStringsOrNull(b, v.History)
	if v.Start != "" {
		b = append(b, `,"start":`...)
		b = jsontext.AppendString(b, v.Start)
	}
	b = append(b, `,"ply":`...)
	b = strconv.AppendInt(b, int64(v.Ply), 10)
	b = append(b, `,"status":`...)
	b = jsontext.AppendString(b, string(v.Status))
	b = appendStringField(b, `,"result":`, v.Result)
	b = appendStringField(b, `,"reason":`, v.Reason)
	b = appendStringField(b, `,"ending":`, v.Ending)
	b = append(b, `,"winner":`...)
	b = strconv.AppendInt(b, int64(v.Winner), 10)
	b = append(b, `,"draw_offer":`...)
	b = strconv.AppendInt(b, int64(v.DrawOffer), 10)
	b = append(b, `,"thinking":`...)
	b = strconv.AppendBool(b, v.Thinking)
	if c := v.Clock; c != nil {
		b = append(b, `,"clock":{"left_ms":[`...)
		b = strconv.AppendInt(b, c.LeftMS[0], 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, c.LeftMS[1], 10)
		b = append(b, `],"running":`...)
		b = strconv.AppendInt(b, int64(c.Running), 10)
		b = append(b, `,"base_ms":`...)
		b = strconv.AppendInt(b, c.BaseMS, 10)
		b = append(b, `,"inc_ms":`...)
		b = strconv.AppendInt(b, c.IncMS, 10)
		if c.DaysPerMove != 0 {
			b = append(b, `,"days_per_move":`...)
			b = strconv.AppendInt(b, int64(c.DaysPerMove), 10)
		}
		if c.Deadline != 0 {
			b = append(b, `,"deadline":`...)
			b = strconv.AppendInt(b, c.Deadline, 10)
		}
		b = append(b, '}')
	}
	b = append(b, `,"can_abort":`...)
	b = strconv.AppendBool(b, v.CanAbort)
	b = appendStringField(b, `,"rematch":`, v.Rematch)
	b = append(b, `,"takeback":[`...)
	b = strconv.AppendInt(b, int64(v.Takeback[0]), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(v.Takeback[1]), 10)
	b = append(b, `],"takeback_offer":`...)
	b = strconv.AppendInt(b, int64(v.TakebackOffer), 10)
	b = append(b, `,"updated":`...)
	b = strconv.AppendInt(b, v.Updated, 10)
	b = append(b, `,"rated":`...)
	b = strconv.AppendBool(b, v.Rated)
	if len(v.RatingChanges) > 0 {
		b = append(b, `,"rating_changes":`...)
		b = appendList(b, v.RatingChanges, func(b []byte, c *store.RatingChange) []byte {
			b = append(b, `{"seat":`...)
			b = strconv.AppendInt(b, int64(c.Seat), 10)
			b = append(b, `,"player":`...)
			b = jsontext.AppendString(b, c.Player)
			b = append(b, `,"before":`...)
			b = appendFloat(b, c.Before)
			b = append(b, `,"after":`...)
			b = appendFloat(b, c.After)
			b = append(b, `,"rd":`...)
			b = appendFloat(b, c.RD)
			return append(b, '}')
		})
	}
	if len(v.MySeats) > 0 {
		b = append(b, `,"my_seats":`...)
		b = appendList(b, v.MySeats, func(b []byte, p *int) []byte { return strconv.AppendInt(b, int64(*p), 10) })
	}
	return append(b, '}')
}

// appendStringField appends key and s where s is not empty (omitempty).
func appendStringField(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return jsontext.AppendString(append(b, key...), s)
}

func appendSeat(b []byte, s *seatView) []byte {
	b = append(b, `{"kind":`...)
	b = jsontext.AppendString(b, string(s.Kind))
	b = appendStringField(b, `,"agent":`, s.Agent)
	b = append(b, `,"claimed":`...)
	b = strconv.AppendBool(b, s.Claimed)
	b = appendStringField(b, `,"name":`, s.Name)
	if s.Rating != 0 {
		b = append(b, `,"rating":`...)
		b = appendFloat(b, s.Rating)
	}
	if s.Provisional {
		b = append(b, `,"provisional":true`...)
	}
	if s.Bot {
		b = append(b, `,"bot":true`...)
	}
	return append(b, '}')
}

// appendBoard appends a position's view for a board.
func appendBoard(b []byte, v *game.View) []byte {
	b = append(b, `{"width":`...)
	b = strconv.AppendInt(b, int64(v.Width), 10)
	b = append(b, `,"height":`...)
	b = strconv.AppendInt(b, int64(v.Height), 10)
	b = append(b, `,"pieces":`...)
	b = appendListOrNull(b, v.Pieces, func(b []byte, p *game.Piece) []byte {
		b = append(b, `{"square":`...)
		b = jsontext.AppendString(b, p.Square)
		b = append(b, `,"side":`...)
		b = strconv.AppendInt(b, int64(p.Side), 10)
		b = append(b, `,"kind":`...)
		b = jsontext.AppendString(b, p.Kind)
		if p.Spent {
			b = append(b, `,"spent":true`...)
		}
		return append(b, '}')
	})
	b = append(b, `,"regions":`...)
	b = appendListOrNull(b, v.Regions, func(b []byte, r *game.Region) []byte {
		b = append(b, `{"kind":`...)
		b = jsontext.AppendString(b, r.Kind)
		b = appendStringField(b, `,"label":`, r.Label)
		b = append(b, `,"squares":`...)
		b = appendStringsOrNull(b, r.Squares)
		return append(b, '}')
	})
	for _, f := range [...]struct {
		key     string
		squares []string
	}{{`,"last":`, v.Last}, {`,"captured":`, v.Captured}, {`,"removed":`, v.Removed}, {`,"converted":`, v.Converted}} {
		if len(f.squares) > 0 {
			b = jsontext.AppendStrings(append(b, f.key...), f.squares)
		}
	}
	if len(v.Facts) > 0 {
		b = append(b, `,"facts":`...)
		b = appendList(b, v.Facts, func(b []byte, f *game.Fact) []byte {
			b = append(b, `{"key":`...)
			b = jsontext.AppendString(b, f.Key)
			b = append(b, `,"label":`...)
			b = jsontext.AppendString(b, f.Label)
			b = append(b, `,"value":`...)
			b = jsontext.AppendString(b, f.Value)
			return append(b, '}')
		})
	}
	if m := v.Meter; m != nil {
		b = append(b, `,"meter":{"label":`...)
		b = jsontext.AppendString(b, m.Label)
		b = append(b, `,"left":`...)
		b = strconv.AppendInt(b, int64(m.Left), 10)
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, int64(m.Total), 10)
		if m.Cap != 0 {
			b = append(b, `,"cap":`...)
			b = strconv.AppendInt(b, int64(m.Cap), 10)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// traits are the traits of each ruleset encoded, by spec.
var traits sync.Map // string -> []byte

// traitsJSON is t, the traits of the ruleset spec, encoded: once for each
// ruleset, as encoding/json encodes them.
func traitsJSON(spec string, t *game.Traits) []byte {
	if b, ok := traits.Load(spec); ok {
		return b.([]byte)
	}
	b, err := json.Marshal(t)
	if err != nil {
		return []byte("null") // not reached: traits are plain data
	}
	traits.Store(spec, b)
	return b
}

// appendFloat appends f as encoding/json writes a float64 (a rating):
// as %f between 1e-6 and 1e21, else as %e with a two-digit exponent
// written short.
func appendFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, "null"...) // not reached: encoding/json refuses them
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendActions appends legal as encoding/json encodes a []ActionInfo.
func appendActions(b []byte, legal []game.ActionInfo) []byte {
	return appendListOrNull(b, legal, func(b []byte, a *game.ActionInfo) []byte {
		b = append(b, `{"text":`...)
		b = jsontext.AppendString(b, a.Text)
		b = append(b, `,"kind":`...)
		b = jsontext.AppendString(b, a.Kind)
		if len(a.Squares) > 0 {
			b = append(b, `,"squares":`...)
			b = jsontext.AppendStrings(b, a.Squares)
		}
		b = append(b, `,"label":`...)
		b = jsontext.AppendString(b, a.Label)
		b = append(b, `,"ends_turn":`...)
		b = strconv.AppendBool(b, a.EndsTurn)
		if a.Note != "" {
			b = append(b, `,"note":`...)
			b = jsontext.AppendString(b, a.Note)
		}
		if len(a.Path) > 0 {
			b = append(b, `,"path":`...)
			b = jsontext.AppendStrings(b, a.Path)
		}
		if len(a.Preview) > 0 {
			b = append(b, `,"preview":`...)
			b = jsontext.AppendStrings(b, a.Preview)
		}
		if a.After != "" {
			b = append(b, `,"after":`...)
			b = jsontext.AppendString(b, a.After)
		}
		return append(b, '}')
	})
}

// appendList appends xs as a JSON list, each element by each.
func appendList[T any](b []byte, xs []T, each func([]byte, *T) []byte) []byte {
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, &xs[i])
	}
	return append(b, ']')
}

// appendListOrNull is appendList writing a nil list as null, as
// encoding/json does.
func appendListOrNull[T any](b []byte, xs []T, each func([]byte, *T) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	return appendList(b, xs, each)
}

// appendTurn appends a turn as encoding/json encodes a game.Turn.
func appendTurn(b []byte, t *game.Turn) []byte {
	b = append(b, `{"number":`...)
	b = strconv.AppendInt(b, int64(t.Number), 10)
	b = append(b, `,"player":`...)
	b = strconv.AppendInt(b, int64(t.Player), 10)
	b = append(b, `,"first":`...)
	b = strconv.AppendInt(b, int64(t.First), 10)
	b = append(b, `,"actions":`...)
	b = appendStringsOrNull(b, t.Actions)
	b = append(b, `,"labels":`...)
	b = appendStringsOrNull(b, t.Labels)
	b = append(b, `,"squares":`...)
	b = appendStringLists(b, t.Squares)
	if len(t.Paths) > 0 {
		b = append(b, `,"paths":`...)
		b = appendStringLists(b, t.Paths)
	}
	if len(t.Events) > 0 {
		b = append(b, `,"events":`...)
		b = appendEvents(b, t.Events)
	}
	return append(b, '}')
}

func appendEvents(b []byte, events []game.Event) []byte {
	return appendList(b, events, appendEvent)
}

func appendEventsOrNull(b []byte, events []game.Event) []byte {
	return appendListOrNull(b, events, appendEvent)
}

func appendEvent(b []byte, e *game.Event) []byte {
	b = append(b, `{"kind":`...)
	b = jsontext.AppendString(b, e.Kind)
	b = append(b, `,"player":`...)
	b = strconv.AppendInt(b, int64(e.Player), 10)
	if len(e.Squares) > 0 {
		b = append(b, `,"squares":`...)
		b = jsontext.AppendStrings(b, e.Squares)
	}
	b = append(b, `,"text":`...)
	b = jsontext.AppendString(b, e.Text)
	if len(e.Dice) > 0 {
		b = append(b, `,"dice":`...)
		b = appendList(b, e.Dice, func(b []byte, d *int) []byte { return strconv.AppendInt(b, int64(*d), 10) })
	}
	return append(b, '}')
}

func appendStringsOrNull(b []byte, ss []string) []byte {
	return appendListOrNull(b, ss, func(b []byte, s *string) []byte { return jsontext.AppendString(b, *s) })
}

func appendStringLists(b []byte, lists [][]string) []byte {
	return appendListOrNull(b, lists, func(b []byte, ss *[]string) []byte { return appendStringsOrNull(b, *ss) })
}
