package server

import (
	"net/http"
	"slices"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/play"
)

// catalogue lists the games, their rulesets, options and traits, and the
// agent levels, for the home page.
func (s *Server) catalogue(w http.ResponseWriter, r *http.Request) error {
	var games []game.Info
	// Each game's start under its default ruleset, for the home page to
	// draw.
	starts := map[string]startView{}
	puzzles := []string{}
	for _, n := range game.Names() {
		info, _ := game.Lookup(n)
		games = append(games, info)
		if agent.HasPuzzles(n) {
			puzzles = append(puzzles, n)
		}
		if g, err := game.Load(n); err == nil {
			starts[n] = startView{Traits: g.Traits(), Board: g.NewState().View()}
		}
	}
	// The site's own games first, then the worked examples.
	slices.SortStableFunc(games, func(a, b game.Info) int {
		switch {
		case a.Example == b.Example:
			return 0
		case a.Example:
			return 1
		}
		return -1
	})
	return s.api.JSON(w, http.StatusOK, map[string]any{"games": games, "starts": starts, "puzzles": puzzles, "levels": agent.Levels, "reports": s.cfg.Reports != ""})
}

// startView is a game's start, drawn as a board.
type startView struct {
	Traits game.Traits `json:"traits"`
	Board  game.View   `json:"board"`
}

// figureView is a diagram of the rules page, drawn as a board.
type figureView struct {
	game.Figure
	Traits game.Traits `json:"traits"`
	Board  game.View   `json:"board"`
}

// figures sends the diagrams of a game's rules page, each position
// described by the game itself.
func (s *Server) figures(w http.ResponseWriter, r *http.Request) error {
	info, err := game.Lookup(r.PathValue("game"))
	if err != nil {
		return httpx.WithCode(http.StatusNotFound, err)
	}
	out := []figureView{}
	for _, f := range info.Figures {
		g, err := game.Load(play.SpecOf(info.Name, f.Ruleset))
		if err != nil {
			return err
		}
		st, err := f.State(g)
		if err != nil {
			return err
		}
		out = append(out, figureView{Figure: f, Traits: g.Traits(), Board: st.View()})
	}
	return s.api.JSON(w, http.StatusOK, out)
}
