package game

import "fmt"

// A Figure is a diagram of the rules page: a real position, with actions
// played from it so that the board shows the last one and what it did
// (a capture, a removal), and a caption saying what it shows.
type Figure struct {
	Title   string `json:"title"`
	Caption string `json:"caption"`
	Ruleset string `json:"ruleset"`
	// Position is in the game's position text; empty for the start.
	Position string   `json:"position,omitempty"`
	Actions  []string `json:"actions,omitempty"`
}

// State is the figure's position after its actions.
func (f Figure) State(g Game) (State, error) {
	s := g.NewState()
	if f.Position != "" {
		var err error
		if s, err = g.ParseState(f.Position); err != nil {
			return nil, fmt.Errorf("figure %q: %w", f.Title, err)
		}
	}
	if err := ApplyNotation(s, f.Actions); err != nil {
		return nil, fmt.Errorf("figure %q: %w", f.Title, err)
	}
	return s, nil
}
