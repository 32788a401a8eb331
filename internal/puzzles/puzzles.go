// Package puzzles serves the puzzles the games draw from what their
// oracles know exactly (Lanrick: the endgame tables on disk): a list to
// choose from and a stream (the next puzzle for the player, nearest his
// puzzle rating), the exact verdict of a position, with which the page
// checks each turn of a solver's, and the result of a try, read from its
// game, which moves the player's puzzle rating (Glicko-2, the first try
// at each puzzle only, and not one made with the engine's help or in
// less than minTry). It knows no game: the puzzles come from the
// agents' support, the verdicts from its Oracle.
package puzzles

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/assist"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/rating"
)

// Identity tells who a request comes from.
type Identity interface {
	// Me returns the request's player, or nil for nobody.
	Me(r *http.Request) (*store.Player, error)
}

// perGame is how many puzzles each game offers.
const perGame = 60

// Board serves the puzzles.
type Board struct {
	api   *httpx.API
	store *store.Store
	ids   Identity
	// help is who had the engine's help lately (the analysis board's
	// evaluations, the verdicts of positions not of his own games).
	help *assist.Log
	// minTry is the least time a try that solves a puzzle takes to be
	// rated (DefaultMinTry).
	minTry time.Duration
	mu     sync.Mutex
	// drawn are each game's puzzles drawn so far; a game with none (no
	// table on disk yet) is drawn again at the next request, so that
	// tables built later show.
	drawn map[string][]agent.Puzzle
}

// New returns the puzzles' handlers; help is told of the verdicts that
// help, and read for each try (the analysis board writes it too); a try
// that solves a puzzle in less than minTry is not rated (zero:
// DefaultMinTry).
func New(api *httpx.API, st *store.Store, ids Identity, help *assist.Log, minTry time.Duration) *Board {
	if minTry <= 0 {
		minTry = DefaultMinTry
	}
	return &Board{api: api, store: st, ids: ids, help: help, minTry: minTry}
}

// helpKeys are the keys under which help to the request's sender is
// noted: his address, and his player if he has one.
func helpKeys(r *http.Request, me *store.Player) []string {
	keys := []string{"addr " + httpx.Client(r)}
	if me != nil {
		keys = append(keys, "player "+me.ID)
	}
	return keys
}

// DefaultMinTry is the least time a try at a puzzle that solves it takes
// to be rated: a try made faster was not thought out at a board.
const DefaultMinTry = 3 * time.Second

// Routes adds the puzzles' API.
func (b *Board) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/puzzles", b.api.Func(b.list))
	mux.HandleFunc("GET /api/puzzles/next", b.api.Func(b.next))
	mux.HandleFunc("POST /api/puzzles/verdict", b.api.Func(b.verdict))
	mux.HandleFunc("POST /api/puzzles/result", b.api.Func(b.result))
}

// listing is the list of puzzles, with a note when there are none, and
// what the player has done: his puzzle rating, each puzzle's first try,
// and the one the stream would give him next.
type listing struct {
	Puzzles []agent.Puzzle `json:"puzzles"`
	// Themes are the puzzles' themes, each once, in their order.
	Themes []string `json:"themes"`
	Note   string   `json:"note,omitempty"`
	Me     *solver  `json:"me,omitempty"`
}

// solver is a player's puzzle record.
type solver struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Provisional bool    `json:"provisional"`
	// Tried are the puzzles tried, by id: whether the first try solved it.
	Tried map[string]bool `json:"tried"`
	// Next is the index of the stream's next puzzle for him, -1 when he
	// has tried them all.
	Next int `json:"next"`
}

// puzzles returns the puzzles, each game's drawn once it has any, and
// the games that draw puzzles but have none yet.
func (b *Board) puzzles() ([]agent.Puzzle, []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn == nil {
		b.drawn = map[string][]agent.Puzzle{}
	}
	var out []agent.Puzzle
	var missing []string
	for _, name := range game.Names() {
		if !agent.HasPuzzles(name) {
			continue
		}
		if len(b.drawn[name]) == 0 {
			b.drawn[name], _ = agent.Puzzles(name, perGame, 1)
		}
		if len(b.drawn[name]) == 0 {
			missing = append(missing, name)
		}
		out = append(out, b.drawn[name]...)
	}
	return out, missing
}

// solverOf is the request's player's puzzle record (nil for nobody).
func (b *Board) solverOf(r *http.Request, ps []agent.Puzzle) (*solver, error) {
	me, err := b.ids.Me(r)
	if err != nil || me == nil {
		return nil, err
	}
	return b.record(r.Context(), me, ps)
}

// record is a player's puzzle record.
func (b *Board) record(ctx context.Context, me *store.Player, ps []agent.Puzzle) (*solver, error) {
	rs, err := b.store.Ratings(ctx, me.ID)
	if err != nil {
		return nil, httpx.Unavailable(err)
	}
	tried, err := b.store.PuzzleTries(ctx, me.ID)
	if err != nil {
		return nil, httpx.Unavailable(err)
	}
	cur := rating.New()
	if st, ok := rs[store.PuzzleGame]; ok {
		cur = rating.Rating{R: st.R, RD: st.RD, Vol: st.Vol}
	}
	return &solver{Rating: cur.R, RD: cur.RD, Provisional: cur.Provisional(), Tried: tried, Next: nextFor(ps, tried, cur.R, "")}, nil
}

// nextFor is the puzzle the stream gives a player rated r next: of those
// he has not tried (of the theme, if one is named), the one whose rating
// is nearest his (the first of two as near); -1 when none is left.
func nextFor(ps []agent.Puzzle, tried map[string]bool, r float64, theme string) int {
	best, dist := -1, math.Inf(1)
	for i, p := range ps {
		if _, ok := tried[p.ID]; ok || (theme != "" && !slices.Contains(p.Themes, theme)) {
			continue
		}
		if d := math.Abs(float64(p.Rating) - r); d < dist {
			best, dist = i, d
		}
	}
	return best
}

func (b *Board) list(w http.ResponseWriter, r *http.Request) error {
	ps, missing := b.puzzles()
	out := listing{Puzzles: ps, Themes: []string{}}
	for _, p := range ps {
		for _, th := range p.Themes {
			if !slices.Contains(out.Themes, th) {
				out.Themes = append(out.Themes, th)
			}
		}
	}
	if len(missing) > 0 {
		out.Note = fmt.Sprintf("No %s puzzles yet: they are drawn from endgame tables, which the server has not built. Run muster serve --prepare, or muster solve tables.", strings.Join(missing, ", "))
	}
	if len(out.Puzzles) == 0 {
		out.Puzzles = []agent.Puzzle{}
		return b.api.JSON(w, http.StatusOK, out)
	}
	me, err := b.solverOf(r, out.Puzzles)
	if err != nil {
		return err
	}
	out.Me = me
	return b.api.JSON(w, http.StatusOK, out)
}

// nextAnswer is the stream's next puzzle for the player, with his rating.
type nextAnswer struct {
	Puzzle *agent.Puzzle `json:"puzzle"`
	Me     *solver       `json:"me,omitempty"`
}

// next gives the stream's next puzzle: the untried one nearest the
// player's puzzle rating (nearest a newcomer's for nobody), of the theme
// ?theme= names if any; null when none is left.
func (b *Board) next(w http.ResponseWriter, r *http.Request) error {
	ps, _ := b.puzzles()
	me, err := b.solverOf(r, ps)
	if err != nil {
		return err
	}
	theme := r.URL.Query().Get("theme")
	i := nextFor(ps, nil, rating.StartR, theme)
	if me != nil {
		i = nextFor(ps, me.Tried, me.Rating, theme)
	}
	out := nextAnswer{Me: me}
	if i >= 0 {
		out.Puzzle = &ps[i]
	}
	return b.api.JSON(w, http.StatusOK, out)
}

// resultRequest names a puzzle and the game the player tried it in.
type resultRequest struct {
	Puzzle string `json:"puzzle"`
	Game   string `json:"game"`
}

// resultAnswer says whether the try solved the puzzle and what it did to
// the player's puzzle rating (nothing after a first try: Counted false).
type resultAnswer struct {
	Solved  bool `json:"solved"`
	Counted bool `json:"counted"`
	// Why says why a first try was not counted (the engine's help, or
	// too quick); empty for a try after the first.
	Why    string  `json:"why,omitempty"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Me     *solver `json:"me,omitempty"`
}

var (
	errNoPuzzle   = httpx.NewError(http.StatusNotFound, "no such puzzle")
	errNotAPuzzle = httpx.NewError(http.StatusBadRequest, "that game is not a try at that puzzle")
	errNotYours   = httpx.NewError(http.StatusForbidden, "that game's solver is not you")
)

// result reads a try at a puzzle from its game, as stored: solved where
// the game is over, won by the player's side, in no more of his turns
// than the puzzle gives; else failed (the page asks once it has seen a
// turn lose the win, or the game end). The first try at a puzzle moves
// the player's puzzle rating, against the puzzle's, as a game won or lost.
func (b *Board) result(w http.ResponseWriter, r *http.Request) error {
	var req resultRequest
	if err := b.api.Decode(w, r, &req); err != nil {
		return err
	}
	ps, _ := b.puzzles()
	var p *agent.Puzzle
	for i := range ps {
		if ps[i].ID == req.Puzzle {
			p = &ps[i]
		}
	}
	if p == nil {
		return errNoPuzzle
	}
	me, err := b.ids.Me(r)
	if err != nil {
		return err
	}
	if me == nil {
		return errNotYours
	}
	rec, err := b.store.Get(r.Context(), req.Game)
	if errors.Is(err, store.ErrNotFound) {
		return errNotAPuzzle
	} else if err != nil {
		return httpx.Unavailable(err)
	}
	solved, err := solvedIn(rec, p, me.ID)
	if err != nil {
		return err
	}
	out := resultAnswer{Solved: solved, Counted: true}
	// The try is the game's time in play: from its start to its end (or
	// now, a turn that lost the win while it goes on).
	// The store keeps milliseconds: the end's millisecond is included.
	end := rec.Updated.Add(time.Millisecond)
	if rec.Status == store.StatusPlaying {
		end = time.Now()
	}
	switch {
	case b.help != nil && b.help.During(rec.Created, end, helpKeys(r, me)...):
		out.Why = "tried while the analysis board or the exact verdicts of other positions helped, from your account or your address: not rated"
	case solved && end.Sub(rec.Created) < b.minTry:
		out.Why = fmt.Sprintf("solved in under %s, quicker than a try thought out at the board: not rated", b.minTry)
	}
	score := 0.0
	if solved {
		score = 1
	}
	opponent := rating.Rating{R: float64(p.Rating), RD: puzzleRD, Vol: rating.StartVol}
	after, err := b.store.RecordPuzzle(r.Context(), me.ID, p.ID, solved, func(before store.Rating, found bool) store.Rating {
		cur := rating.New()
		if found {
			cur = rating.Rating{R: before.R, RD: before.RD, Vol: before.Vol}
		}
		out.Before = cur.R
		if out.Why != "" {
			// The first try is spent, and the rating stays.
			return store.Rating{R: cur.R, RD: cur.RD, Vol: cur.Vol, Games: before.Games}
		}
		next := rating.Update(cur, []rating.Result{{Opponent: opponent, Score: score}}, rating.Tau)
		return store.Rating{R: next.R, RD: next.RD, Vol: next.Vol, Games: before.Games + 1}
	})
	switch {
	case out.Why != "" && err == nil:
		out.Counted, out.After = false, after.R
	case errors.Is(err, store.ErrTried):
		out.Counted, out.Why = false, ""
	case err != nil:
		return httpx.Unavailable(err)
	default:
		out.After = after.R
	}
	// Read again: the rating and the tries this try changed.
	if out.Me, err = b.record(r.Context(), me, ps); err != nil {
		return err
	}
	if !out.Counted {
		out.Before, out.After = out.Me.Rating, out.Me.Rating
	}
	return b.api.JSON(w, http.StatusOK, out)
}

// puzzleRD is how certain a puzzle's rating is taken to be: its rating is
// its difficulty, fixed, not learnt from its solvers.
const puzzleRD = 60

// verdictRequest names a position: the game and its position text.
type verdictRequest struct {
	Spec     string `json:"spec"`
	Position string `json:"position"`
	// Game, if set, is a game of the asker's in which the position came
	// about (a puzzle's try, which the page checks turn by turn): its
	// verdict is no help. Any other position's is (helpKeys).
	Game string `json:"game,omitempty"`
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
	if b.help != nil {
		me, err := b.ids.Me(r)
		if err != nil {
			return err
		}
		if mine, err := b.cameAbout(r.Context(), req.Game, me, s); err != nil {
			return err
		} else if !mine {
			b.help.Helped(time.Now(), helpKeys(r, me)...)
		}
	}
	res, ok := agent.Verdict(s)
	if ok {
		out.Decided, out.Turns = true, res.Turns
		out.Outcome = map[int]string{1: "win", -1: "loss", 0: "draw"}[res.Proven]
	}
	return b.api.JSON(w, http.StatusOK, out)
}

// cameAbout reports whether position s came about in game id, a game in
// which me holds a seat.
func (b *Board) cameAbout(ctx context.Context, id string, me *store.Player, s game.State) (bool, error) {
	if id == "" || me == nil {
		return false, nil
	}
	rec, err := b.store.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, httpx.Unavailable(err)
	}
	if !slices.ContainsFunc(rec.Seats, func(seat store.Seat) bool { return seat.Player == me.ID }) {
		return false, nil
	}
	g, err := game.Load(rec.Spec)
	if err != nil || g.Spec() != s.Game().Spec() {
		return false, nil
	}
	at := g.NewState()
	if rec.Start != "" {
		if at, err = g.ParseState(rec.Start); err != nil {
			return false, nil
		}
	}
	want := s.String()
	if at.String() == want {
		return true, nil
	}
	for _, text := range rec.Actions {
		a, err := at.ParseAction(text)
		if err != nil {
			return false, nil
		}
		at.Apply(a)
		if at.String() == want {
			return true, nil
		}
	}
	return false, nil
}

// solvedIn reads a try at puzzle p from its stored game: the game must
// start from the puzzle's position with player holding the side to move;
// it is solved when over, won by that side, in at most p.Turns of its
// turns.
func solvedIn(rec *store.Game, p *agent.Puzzle, player string) (bool, error) {
	g, err := game.Load(rec.Spec)
	if err != nil {
		return false, errNotAPuzzle
	}
	s, err := g.ParseState(rec.Start)
	if err != nil {
		return false, errNotAPuzzle
	}
	if want, err := g.ParseState(p.Position); err != nil || want.String() != s.String() {
		return false, errNotAPuzzle
	}
	seat := s.ToAct()
	if seat < 0 || int(seat) >= len(rec.Seats) || g.PlayerName(seat) != p.Side {
		return false, errNotAPuzzle
	}
	if rec.Seats[seat].Player != player {
		return false, errNotYours
	}
	tb := game.NewTurnBuilder(s)
	for _, text := range rec.Actions {
		a, err := s.ParseAction(text)
		if err != nil {
			return false, errNotAPuzzle
		}
		tb.Add(a)
		s.Apply(a)
	}
	if !s.IsTerminal() {
		return false, nil
	}
	mine := 0
	for _, t := range tb.Turns() {
		if t.Player == seat {
			mine++
		}
	}
	ret := s.Returns()
	return int(seat) < len(ret) && ret[seat] > 0 && mine <= p.Turns, nil
}
