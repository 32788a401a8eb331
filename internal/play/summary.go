package play

import (
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/outcome"
	"github.com/muster-games/muster/internal/store"
)

// Summary is a line of a list of games: a player's, or the lobby's.
type Summary struct {
	ID     string       `json:"id"`
	Spec   string       `json:"spec"`
	Game   string       `json:"game"`
	Status store.Status `json:"status"`
	Result string       `json:"result,omitempty"`
	Reason string       `json:"reason,omitempty"`
	// Ending and Winner are the outcome as data, as in View.
	Ending  string `json:"ending,omitempty"`
	Winner  int    `json:"winner"`
	Rated   bool   `json:"rated"`
	Ply     int    `json:"ply"`
	Updated int64  `json:"updated"`
	// Players names each seat: a username, "Anonymous", or the agent.
	Players []string `json:"players"`
	// Sides are the seats' player names in the game ("attackers").
	Sides []string `json:"sides"`
	// Seat is the seat of the player whose list this is, or -1.
	Seat int `json:"seat"`
	// YourTurn says the game waits for that player.
	YourTurn bool `json:"your_turn,omitempty"`
	// Change is that player's rating change, once a rated game is over.
	Change float64 `json:"change,omitempty"`
	// Correspondence games show the deadline of the move awaited (Unix ms).
	Deadline int64 `json:"deadline,omitempty"`
}

// seatName is how a seat is named in lists.
func seatName(seat store.Seat) string {
	switch {
	case seat.Kind == store.SeatAI:
		return "Computer (" + seat.Agent + ")"
	case seat.Name != "":
		return seat.Name
	case seat.Player == "" && seat.SecretHash == "":
		return "(open seat)"
	}
	return "Anonymous"
}

// Summarize makes a game's summary as player (or "") sees it.
func Summarize(rec *store.Game, player string) Summary {
	gs := Summary{ID: rec.ID, Spec: rec.Spec, Status: rec.Status, Result: rec.Result, Reason: rec.Reason, Rated: rec.Rated,
		Ply: len(rec.Actions), Updated: rec.Updated.UnixMilli(), Seat: -1, Winner: -1}
	if g, err := game.Load(rec.Spec); err == nil {
		gs.Game = g.Name()
		if o, err := outcome.Read(g, rec.Result, rec.Reason); err == nil && o.Kind != outcome.None {
			gs.Ending, gs.Winner = o.Kind.String(), o.Winner
		}
		for p := 0; p < g.NumPlayers(); p++ {
			gs.Sides = append(gs.Sides, g.PlayerName(game.Player(p)))
		}
	}
	for i, seat := range rec.Seats {
		gs.Players = append(gs.Players, seatName(seat))
		if player != "" && seat.Player == player && gs.Seat < 0 {
			gs.Seat = i
		}
	}
	gs.YourTurn = player != "" && rec.ToAct == player && rec.Status == store.StatusPlaying
	for _, c := range rec.Ratings {
		if c.Player == player {
			gs.Change = c.After - c.Before
		}
	}
	// The deadline the server enforces (its clock runs), and no other.
	if c := rec.Clock; c != nil && c.Correspondence() && rec.Status == store.StatusPlaying && rec.Deadline > 0 {
		gs.Deadline = rec.Deadline
	}
	return gs
}

// Board is a game's position as the lobby draws it.
type Board struct {
	Traits game.Traits `json:"traits"`
	Board  game.View   `json:"board"`
}

// Board draws a stored game: from its room's snapshot where this server
// has it in memory at the record's version, else from the record itself
// (a room not read again since another server changed the game:
// changedElsewhere). It never loads a room or takes a lease.
func (gs *Games) Board(rec *store.Game) (Board, error) {
	if r := gs.loaded(rec.ID); r != nil {
		if sn := r.snap.Load(); sn.rec.Version == rec.Version {
			return Board{Traits: sn.view.Traits, Board: sn.board()}, nil
		}
	}
	g, err := game.Load(rec.Spec)
	if err != nil {
		return Board{}, err
	}
	s, err := initial(g, rec)
	if err != nil {
		return Board{}, err
	}
	if err := game.ApplyNotation(s, rec.Actions); err != nil {
		return Board{}, err
	}
	return Board{Traits: g.Traits(), Board: s.View()}, nil
}
