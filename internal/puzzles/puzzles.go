// Package puzzles serves the puzzles the games draw from what their
// oracles know exactly (Lanrick: the endgame tables on disk): a list to
// choose from, and the exact verdict of a position, with which the page
// checks each turn of a solver's. It knows no game: the puzzles come from
// the agents' support, the verdicts from its Oracle.
package puzzles

import (
	"net/http"
	"sync"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/httpx"
)

// perGame is how many puzzles each game offers.
const perGame = 60

// Board serves the puzzles.
type Board struct {
	api *httpx.API
	mu  sync.Mutex
	// drawn are the puzzles drawn so far; none while no table is on disk
	// (drawn again at the next request, so that tables built later show).
	drawn []agent.Puzzle
}

// New returns the puzzles' handlers.
func New(api *httpx.API) *Board { return &Board{api: api} }

// Routes adds the puzzles' API.
func (b *Board) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/puzzles", b.api.Func(b.list))
	mux.HandleFunc("POST /api/puzzles/verdict", b.api.Func(b.verdict))
}

// listing is the list of puzzles, with a note when there are none.
type listing struct {
	Puzzles []agent.Puzzle `json:"puzzles"`
	Note    string         `json:"note,omitempty"`
}

func (b *Board) list(w http.ResponseWriter, r *http.Request) error {
	b.mu.Lock()
	if len(b.drawn) == 0 {
		for _, name := range game.Names() {
			ps, _ := agent.Puzzles(name, perGame, 1)
			b.drawn = append(b.drawn, ps...)
		}
	}
	out := listing{Puzzles: b.drawn}
	b.mu.Unlock()
	if len(out.Puzzles) == 0 {
		out.Puzzles = []agent.Puzzle{}
		out.Note = "No puzzles yet: they are drawn from Lanrick's endgame tables, which the server has not built. Run muster serve --prepare, or muster solve tables."
	}
	return b.api.JSON(w, http.StatusOK, out)
}

// verdictRequest names a position: the game and its position text.
type verdictRequest struct {
	Spec     string `json:"spec"`
	Position string `json:"position"`
}

// verdictAnswer is the exact value of a position for the player to act:
// outcome "win", "loss" or "draw" and the turns to the end with best
// play, both players', the turn under way counting as one; or, for a
// finished game, its result. Decided is false where nothing exact is
// known.
type verdictAnswer struct {
	Decided bool   `json:"decided"`
	Over    bool   `json:"over"`
	ToAct   int    `json:"to_act"`
	Result  string `json:"result,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	Turns   int    `json:"turns,omitempty"`
}

func (b *Board) verdict(w http.ResponseWriter, r *http.Request) error {
	var req verdictRequest
	if err := b.api.Decode(w, r, &req); err != nil {
		return err
	}
	g, err := game.Load(req.Spec)
	if err != nil {
		return httpx.WithCode(http.StatusBadRequest, err)
	}
	s, err := g.ParseState(req.Position)
	if err != nil {
		return httpx.WithCode(http.StatusBadRequest, err)
	}
	out := verdictAnswer{ToAct: int(s.ToAct())}
	if s.IsTerminal() {
		out.Decided, out.Over, out.Result = true, true, game.ResultName(s)
		return b.api.JSON(w, http.StatusOK, out)
	}
	res, ok := agent.Verdict(s)
	if ok {
		out.Decided, out.Turns = true, res.Turns
		out.Outcome = map[int]string{1: "win", -1: "loss", 0: "draw"}[res.Proven]
	}
	return b.api.JSON(w, http.StatusOK, out)
}
