// Package analysis is the analysis board's server side. The board keeps
// its tree of variations in the page; the server is asked for one node at
// a time, as the root position and the actions from it, and answers its
// view and, on request, the engine's evaluation, searched with a slot of
// the server's engine pool. Nothing is stored.
package analysis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/assist"
	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/engine"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/play"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/search"
)

// errTooMany refuses an evaluation past the evaluations one address or
// player may have under way.
func errTooMany(n int, who string) error {
	return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("at most %d evaluations at once %s: wait for the one under way", n, who))
}

// Config holds the analysis board's limits.
type Config struct {
	// Think bounds the engine's thinking on one position.
	Think time.Duration
	// InFlight bounds the evaluations one address, and one player, has
	// under way at once.
	InFlight int
	// EngineTime bounds the engine's thinking one address, and one
	// player, asks for in any minute (a bucket refilled evenly).
	EngineTime time.Duration
	// Assist, if set, is told of each evaluation, by the address and the
	// player it was for: a puzzle tried meanwhile is not rated.
	Assist *assist.Log
}

// DefaultConfig are the analysis board's limits on a public server: two
// evaluations at once and a minute of engine time a minute — a graph of
// a whole game, a quick look at each position, goes on without a pause
// for 200 positions.
var DefaultConfig = Config{Think: 3 * time.Second, InFlight: 2, EngineTime: time.Minute}

// Identity tells who a request comes from (internal/identity).
type Identity interface {
	// Me returns the request's player, or nil for nobody; an error is
	// the database's.
	Me(r *http.Request) (*store.Player, error)
}

// Board serves the analysis board.
type Board struct {
	api  *httpx.API
	pool *engine.Pool
	ids  Identity
	cfg  Config
	// inFlight and budget bound each address's and player's
	// evaluations at once and their engine time a minute.
	inFlight *auth.InFlight
	budget   *auth.Budget
}

// New returns the analysis board, evaluating with slots of pool within
// cfg's limits (its zero fields DefaultConfig's).
func New(api *httpx.API, pool *engine.Pool, ids Identity, cfg Config) *Board {
	if cfg.Think <= 0 {
		cfg.Think = DefaultConfig.Think
	}
	if cfg.InFlight <= 0 {
		cfg.InFlight = DefaultConfig.InFlight
	}
	if cfg.EngineTime <= 0 {
		cfg.EngineTime = DefaultConfig.EngineTime
	}
	return &Board{api: api, pool: pool, ids: ids, cfg: cfg, inFlight: auth.NewInFlight(cfg.InFlight),
		budget: auth.NewBudget(cfg.EngineTime.Seconds(), time.Minute, 100000)}
}

// Routes adds the analysis board's routes to mux.
func (b *Board) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/analysis", b.api.Func(b.analyse))
	mux.HandleFunc("POST /api/analysis/eval", b.api.Func(b.evaluate))
	mux.HandleFunc("POST /api/analysis/record", b.api.Func(b.record))
}

// recordRequest is a game record to open on the board.
type recordRequest struct {
	Record string `json:"record"`
}

// recordAnswer is a record read: the game, its root and its actions as
// the game writes them, for the board to load as its main line.
type recordAnswer struct {
	Spec     string   `json:"spec"`
	Position string   `json:"position"`
	Actions  []string `json:"actions"`
}

// record reads a game record (any game's: the record says which) for the
// board.
func (b *Board) record(w http.ResponseWriter, r *http.Request) error {
	var req recordRequest
	if err := b.api.Decode(w, r, &req); err != nil {
		return err
	}
	g, rec, err := play.ReadRecord("", req.Record)
	if err != nil {
		return httpx.WithCode(http.StatusUnprocessableEntity, err)
	}
	st, err := game.Replay(rec)
	if err != nil {
		return httpx.WithCode(http.StatusUnprocessableEntity, err)
	}
	start := g.NewState()
	if rec.Start != "" {
		if start, err = g.ParseState(rec.Start); err != nil {
			return httpx.WithCode(http.StatusUnprocessableEntity, err)
		}
	}
	if len(st.History()) > maxAnalysisActions {
		return httpx.WithCode(http.StatusRequestEntityTooLarge, fmt.Errorf("at most %d actions", maxAnalysisActions))
	}
	return b.api.JSON(w, http.StatusOK, recordAnswer{Spec: g.Spec(), Position: rec.Start, Actions: game.Notation(start, st.History())})
}

// maxAnalysisActions bounds the actions of one analysis request.
const maxAnalysisActions = 2000

// analysisRequest names a node of the analysis board: the game, its root
// position ("" for the start) and the actions played from there.
type analysisRequest struct {
	Spec     string   `json:"spec"`
	Position string   `json:"position,omitempty"`
	Actions  []string `json:"actions"`
	// MS, if set, thinks less than the board's time on the node (a
	// graph of a whole game asks for a quick look at each position).
	MS int `json:"ms,omitempty"`
}

// analysisView is a node as the board shows it.
type analysisView struct {
	play.Described
	// Path describes the actions from the root, as they were played.
	Path   []pathStep `json:"path"`
	Over   bool       `json:"over"`
	Result string     `json:"result,omitempty"`
}

// pathStep is an action of the path and the player who made it.
type pathStep struct {
	game.ActionInfo
	Player game.Player `json:"player"`
}

// evaluation is the engine's opinion of a node.
type evaluation struct {
	// Text says it for people: who is better, by how much, and how the
	// engine knows.
	Text string `json:"text"`
	// Bar is the balance for the first player, from -1 (lost) to +1
	// (won), for a drawn gauge.
	Bar float64 `json:"bar"`
	// Line is the expected continuation, as labels and as texts.
	Line      []string `json:"line"`
	LineTexts []string `json:"line_texts"`
	// LineSquares are the squares each action of the line picks, for
	// arrows on the board.
	LineSquares [][]string `json:"line_squares"`
	// LinePlayers are who plays each action of the line.
	LinePlayers []game.Player `json:"line_players"`
	Agent       string        `json:"agent"`
	// Second is the engine's second line: its best that does not begin
	// with Line's first action (none where the engine gives none).
	Second *evaluation `json:"second,omitempty"`
}

// replay plays a request's actions from its root.
func replay(req analysisRequest) (game.State, []pathStep, error) {
	if len(req.Actions) > maxAnalysisActions {
		return nil, nil, httpx.WithCode(http.StatusRequestEntityTooLarge, fmt.Errorf("at most %d actions", maxAnalysisActions))
	}
	g, err := game.Load(req.Spec)
	if err != nil {
		return nil, nil, httpx.WithCode(http.StatusBadRequest, err)
	}
	s := g.NewState()
	if req.Position != "" {
		if s, err = g.ParseState(req.Position); err != nil {
			return nil, nil, httpx.WithCode(http.StatusBadRequest, err)
		}
	}
	path := make([]pathStep, 0, len(req.Actions))
	for i, text := range req.Actions {
		a, err := s.ParseAction(text)
		if err != nil {
			return nil, nil, httpx.WithCode(http.StatusUnprocessableEntity, fmt.Errorf("action %d (%s): %w", i+1, text, err))
		}
		path = append(path, pathStep{s.Describe(a), s.ToAct()})
		s.Apply(a)
	}
	return s, path, nil
}

// analyse answers a node's view.
func (b *Board) analyse(w http.ResponseWriter, r *http.Request) error {
	var req analysisRequest
	if err := b.api.Decode(w, r, &req); err != nil {
		return err
	}
	st, path, err := replay(req)
	if err != nil {
		return err
	}
	v := analysisView{Described: play.Describe(st), Path: path, Over: st.IsTerminal()}
	if v.Over {
		v.Result = game.ResultName(st)
	} else if st.ToAct() == game.Chance {
		// On the analysis board the user throws the dice.
		for _, o := range st.ChanceOutcomes(nil) {
			v.Legal = append(v.Legal, st.Describe(o.Action))
		}
	}
	return b.api.JSON(w, http.StatusOK, v)
}

// evaluate answers the engine's evaluation of a node, thinking for at
// most the configured time, with a slot of the engine pool's share for
// the analysis board (waiting in its queue; a full queue answers 503).
// The address's and the player's limits are checked before any work: at
// most InFlight evaluations at once and EngineTime of thinking a minute,
// each (429 beyond, with Retry-After).
func (b *Board) evaluate(w http.ResponseWriter, r *http.Request) error {
	var req analysisRequest
	if err := b.api.Decode(w, r, &req); err != nil {
		return err
	}
	think := b.cfg.Think
	if req.MS > 0 {
		think = min(think, max(50*time.Millisecond, time.Duration(req.MS)*time.Millisecond))
	}
	keys := []string{"addr " + httpx.Client(r)}
	leave, ok := b.inFlight.Enter(keys...)
	if !ok {
		return errTooMany(b.cfg.InFlight, "from one address")
	}
	defer leave()
	me, err := b.ids.Me(r)
	if err != nil {
		return err
	}
	if me != nil {
		key := "player " + me.ID
		leaveMe, ok := b.inFlight.Enter(key)
		if !ok {
			return errTooMany(b.cfg.InFlight, "for one player")
		}
		defer leaveMe()
		keys = append(keys, key)
	}
	if ok, retry := b.budget.Take(think.Seconds(), time.Now(), keys...); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(retry.Seconds()))))
		return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("the analysis engine thinks at most %s a minute for one address or player: wait %s", b.cfg.EngineTime, retry.Round(time.Second)))
	}
	st, _, err := replay(req)
	if err != nil {
		return err
	}
	if b.cfg.Assist != nil {
		b.cfg.Assist.Helped(time.Now(), keys...)
	}
	ev, err := b.evaluation(r.Context(), st, think)
	if err != nil {
		return err
	}
	return b.api.JSON(w, http.StatusOK, ev)
}

// analysisLevel is the agent that evaluates positions.
const analysisLevel = "hard"

// evaluation runs the engine on a state.
func (b *Board) evaluation(ctx context.Context, st game.State, think time.Duration) (evaluation, error) {
	players := st.Game().Traits().Players
	switch p := st.ToAct(); {
	case st.IsTerminal():
		return evaluation{Text: st.Prompt().Text, Bar: outcomeBar(st), Line: []string{}, LineTexts: []string{}, LineSquares: [][]string{}}, nil
	case p == game.Chance:
		return evaluation{Text: "Chance acts next: the dice decide.", Line: []string{}, LineTexts: []string{}, LineSquares: [][]string{}}, nil
	case int(p) >= len(players):
		return evaluation{}, fmt.Errorf("evaluation: player %d has no traits", p)
	}
	a, err := agent.New(analysisLevel, st.Game(), 1)
	if err != nil {
		return evaluation{}, err
	}
	lease, err := b.pool.Acquire(ctx, engine.Analysis, agent.Threads(a))
	if err != nil {
		return evaluation{}, err
	}
	defer lease.Release()
	ctx, cancel := context.WithTimeout(lease.Context(), think)
	defer cancel()
	res, err := a.Act(ctx, st.Clone())
	if err != nil {
		return evaluation{}, err
	}
	if errors.Is(context.Cause(lease.Context()), engine.ErrPreempted) && res.Nodes == 0 && res.Iterations == 0 && res.Proven == 0 && !res.Proved() {
		// A game's computer took the slot before the search began.
		return evaluation{}, engine.ErrAnalysisFull
	}
	ev := judge(res, st.ToAct(), players)
	ev.Agent = a.Spec()
	ev.Line, ev.LineTexts, ev.LineSquares, ev.LinePlayers = line(st, res.PV)
	// The second line, in at most half the time again.
	ctx2, cancel2 := context.WithTimeout(lease.Context(), think/2)
	defer cancel2()
	if sec, ok := agent.SecondLine(ctx2, a, st.Clone(), res); ok {
		s2 := judge(sec, st.ToAct(), players)
		s2.Agent = ev.Agent
		s2.Line, s2.LineTexts, s2.LineSquares, s2.LinePlayers = line(st, sec.PV)
		ev.Second = &s2
	}
	return ev, nil
}

// judge says a search result for people, for the player to act p.
func judge(res search.Result, p game.Player, players []game.PlayerTraits) evaluation {
	other := players[1-p].Title
	me := players[p].Title
	var ev evaluation
	var forMe float64 // the balance for p, -1 to +1
	source := func() string {
		if res.Source == "" {
			return ""
		}
		return " (" + res.Source + ")"
	}
	switch {
	case res.Kind == search.Verdict && res.Proven == 0:
		// A game's exact draw: its own words for what it means.
		ev.Text = "A draw with best play"
		if res.Note != "" {
			ev.Text += ": " + res.Note
		}
		ev.Text += source() + "."
	case res.Kind == search.Verdict:
		winner := me
		if res.Proven < 0 {
			winner = other
		}
		whence := ""
		if res.Source != "" {
			whence = "; " + res.Source
		}
		ev.Text = fmt.Sprintf("%s: a win in %d turn%s with best play (both sides' turns%s).", winner, res.Turns, plural(res.Turns), whence)
		forMe = float64(res.Proven)
	case res.Proven != 0:
		winner := me
		if res.Proven < 0 {
			winner = other
		}
		ev.Text = winner + ": a win by force."
		forMe = float64(res.Proven)
	case res.Kind == search.Score:
		// Alpha-beta's value is in men; a player reads a chance to win
		// better, so the lead is said as one too (a rough one: a lead of
		// two men is about three chances in four).
		score := res.Score
		forMe = math.Tanh(score / 4)
		switch who, by, chance := me, score, (forMe+1)/2; {
		case math.Abs(score) < 0.25:
			ev.Text = fmt.Sprintf("About even: about 50%% to win each (%+.2f men for %s; alpha-beta, depth %d).", score, me, res.Depth)
		default:
			if score < 0 {
				who, by, chance = other, -score, 1-chance
			}
			ev.Text = fmt.Sprintf("%s better, about %.0f%% to win (a lead worth %.2f men; alpha-beta, depth %d).", who, 100*chance, by, res.Depth)
		}
	default:
		// An estimate: the expected outcome, as a chance to win.
		forMe = res.Value
		chance := (res.Value + 1) / 2
		who := me
		if chance < 0.5 {
			who, chance = other, 1-chance
		}
		ev.Text = fmt.Sprintf("%s: %.0f%% to win (%d playouts).", who, 100*chance, res.Iterations)
	}
	ev.Bar = forMe
	if p != 0 {
		ev.Bar = -forMe
	}
	return ev
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// outcomeBar is the gauge of a finished game for the first player.
func outcomeBar(st game.State) float64 {
	if r := st.Returns(); len(r) > 0 {
		return max(-1, min(1, r[0]))
	}
	return 0
}

// line describes an expected line of play from st, as far as it is legal
// and no chance acts.
func line(st game.State, pv []game.Action) (labels, texts []string, squares [][]string, players []game.Player) {
	c := st.Clone()
	labels, texts, squares, players = []string{}, []string{}, [][]string{}, []game.Player{}
	for _, a := range pv {
		if c.IsTerminal() || c.ToAct() < 0 || !slices.Contains(c.LegalActions(nil), a) {
			break
		}
		info := c.Describe(a)
		labels, texts = append(labels, info.Label), append(texts, info.Text)
		squares, players = append(squares, info.Squares), append(players, c.ToAct())
		c.Apply(a)
	}
	return labels, texts, squares, players
}
