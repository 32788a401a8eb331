package konane

import (
	"fmt"
	"slices"
	"strings"

	"github.com/muster-games/muster/game"
)

// This file describes Kōnane for people: the board and its regions, what
// each action picks, what the player to act is asked, what the last action
// did.

// Region kinds.
const (
	regionLift = "lift" // where Black may lift the first stone
	regionRun  = "run"  // the stone that may jump on
)

func (g *Game) Traits() game.Traits { return traits(g.Size) }

func traits(n int) game.Traits {
	return game.Traits{
		Players: []game.PlayerTraits{
			{Name: "black", Title: "Black", Colour: "dark"},
			{Name: "white", Title: "White", Colour: "light"},
		},
		Width: n, Height: n,
		Bottom: Black,
		Pieces: []game.PieceTraits{
			{Kind: "stone", Name: "a black stone", Side: Black},
			{Kind: "stone", Name: "a white stone", Side: White},
		},
		Regions: []game.RegionTraits{
			{Kind: regionLift, Name: "the corners and centre squares Black may lift his first stone from", Style: game.StyleFill, Tint: "gold"},
			{Kind: regionRun, Name: "the stone that may jump on", Style: game.StyleMarker, Short: "the jumping stone"},
		},
	}
}

func (s *State) View() game.View {
	n := s.g.Size
	v := game.View{Width: n, Height: n}
	count := [2]int{}
	for sq := 0; sq < n*n; sq++ {
		if c := s.board[sq]; c != empty {
			p := game.Player(c - 1)
			count[p]++
			v.Pieces = append(v.Pieces, game.Piece{Square: s.square(sq), Side: p, Kind: "stone"})
		}
	}
	if s.gaps == 0 {
		r := game.Region{Kind: regionLift}
		for _, sq := range s.g.opening {
			r.Squares = append(r.Squares, s.square(sq))
		}
		v.Regions = append(v.Regions, r)
	}
	if s.again >= 0 {
		v.Regions = append(v.Regions, game.Region{Kind: regionRun, Squares: []string{s.square(s.again)}})
	}
	if len(s.History()) > 0 {
		switch s.last & kindMask {
		case kindLift:
			sq := s.square(int(s.last & 0xff))
			v.Last, v.Removed = []string{sq}, []string{sq}
		case kindJump:
			v.Last = []string{s.square(int(s.last & 0xff)), s.square(int(s.last >> 8 & 0xff))}
			v.Captured = []string{s.square(s.taken)}
		}
	}
	v.Facts = []game.Fact{{Key: "stones", Label: "Stones", Value: fmt.Sprintf("black %d, white %d", count[Black], count[White])}}
	return v
}

func (s *State) Describe(a game.Action) game.ActionInfo {
	d := game.ActionInfo{Text: s.ActionString(a), EndsTurn: true}
	switch a & kindMask {
	case kindLift:
		sq := s.square(int(a & 0xff))
		d.Kind, d.Squares, d.Label = "lift", []string{sq}, "Lift the stone on "+sq
	case kindJump:
		from, to := int(a&0xff), int(a>>8&0xff)
		d.Kind, d.Squares = "jump", []string{s.square(from), s.square(to)}
		d.Label = d.Text
		d.Note = "takes " + s.square(s.step(from, s.direction(from, to)))
		c := s.Copy()
		c.Apply(a)
		d.EndsTurn = c.over || c.toMove != s.toMove
	case kindPass:
		d.Kind, d.Label = "end", "Stop jumping"
	}
	return d
}

func (s *State) Prompt() game.Prompt {
	if s.over {
		r := s.result
		return game.Prompt{Player: game.Terminal, Text: fmt.Sprintf("%s wins: %s.", title(s.g.PlayerName(r.Winner)), r.Reason)}
	}
	p := game.Prompt{Player: s.toMove}
	switch {
	case s.gaps == 0:
		p.Text = "Lift one of your stones off a corner or the centre."
	case s.gaps == 1:
		p.Text = "Lift one of your stones from beside the gap."
	case s.again >= 0:
		p.Text = fmt.Sprintf("Jump on with the stone on %s, %s, or stop.", s.square(s.again), directions[s.dir])
	default:
		p.Text = "Jump one of your stones over an enemy stone."
	}
	for _, a := range s.LegalActions(nil) {
		if d := s.Describe(a); len(d.Squares) > 0 && !slices.Contains(p.Squares, d.Squares[0]) {
			p.Squares = append(p.Squares, d.Squares[0])
		}
	}
	return p
}

func (s *State) Events() []game.Event {
	if len(s.History()) == 0 {
		return nil
	}
	who := title(s.g.PlayerName(s.mover))
	var out []game.Event
	switch s.last & kindMask {
	case kindLift:
		sq := s.square(int(s.last & 0xff))
		out = append(out, game.Event{Kind: "removed", Player: s.mover, Squares: []string{sq}, Text: who + " lifted the stone on " + sq + "."})
	case kindJump:
		sq := s.square(s.taken)
		out = append(out, game.Event{Kind: "capture", Player: s.mover, Squares: []string{sq}, Text: who + " took the stone on " + sq + "."})
		if s.run > 1 {
			out = append(out, game.Event{Kind: "run", Player: s.mover, Text: fmt.Sprintf("%s has taken %d stones in one turn.", who, s.run)})
		}
	case kindPass:
		out = append(out, game.Event{Kind: "pass", Player: s.mover, Text: who + " stopped jumping."})
	}
	if s.over {
		out = append(out, game.Event{Kind: "game-over", Player: s.result.Winner, Text: fmt.Sprintf("%s wins: %s.", title(s.g.PlayerName(s.result.Winner)), s.result.Reason)})
	}
	return out
}

func title(name string) string { return strings.ToUpper(name[:1]) + name[1:] }
