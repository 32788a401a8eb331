package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
)

// The analysis board keeps its tree of variations in the page; the server
// is asked for one node at a time, as the root position and the actions
// from it, and answers its view and, on request, the engine's evaluation.
// Nothing is stored.

// maxAnalysisActions bounds the actions of one analysis request.
const maxAnalysisActions = 2000

// analysisRequest names a node of the analysis board: the game, its root
// position ("" for the start) and the actions played from there.
type analysisRequest struct {
	Spec     string   `json:"spec"`
	Position string   `json:"position,omitempty"`
	Actions  []string `json:"actions"`
}

// analysisView is a node as the board shows it.
type analysisView struct {
	described
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
	Agent     string   `json:"agent"`
}

// replay plays a request's actions from its root.
func replay(req analysisRequest) (game.State, []pathStep, error) {
	if len(req.Actions) > maxAnalysisActions {
		return nil, nil, withCode(http.StatusRequestEntityTooLarge, fmt.Errorf("at most %d actions", maxAnalysisActions))
	}
	g, err := game.Load(req.Spec)
	if err != nil {
		return nil, nil, withCode(http.StatusBadRequest, err)
	}
	s := g.NewState()
	if req.Position != "" {
		if s, err = g.ParseState(req.Position); err != nil {
			return nil, nil, withCode(http.StatusBadRequest, err)
		}
	}
	path := make([]pathStep, 0, len(req.Actions))
	for i, text := range req.Actions {
		a, err := s.ParseAction(text)
		if err != nil {
			return nil, nil, withCode(http.StatusUnprocessableEntity, fmt.Errorf("action %d (%s): %w", i+1, text, err))
		}
		path = append(path, pathStep{s.Describe(a), s.ToAct()})
		s.Apply(a)
	}
	return s, path, nil
}

// analyse answers a node's view.
func (s *Server) analyse(w http.ResponseWriter, r *http.Request) {
	var req analysisRequest
	if err := s.decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	st, path, err := replay(req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v := analysisView{described: describe(st), Path: path, Over: st.IsTerminal()}
	if v.Over {
		v.Result = game.ResultName(st)
	} else if st.ToAct() == game.Chance {
		// On the analysis board the user throws the dice.
		for _, o := range st.ChanceOutcomes(nil) {
			v.Legal = append(v.Legal, st.Describe(o.Action))
		}
	}
	s.writeJSON(w, http.StatusOK, v)
}

var errEngineBusy = errors.New("the engine is busy with other analyses: try again in a moment")

// evaluate answers the engine's evaluation of a node, thinking for at
// most the configured time; a few evaluations run at once.
func (s *Server) evaluate(w http.ResponseWriter, r *http.Request) {
	var req analysisRequest
	if err := s.decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	st, _, err := replay(req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	select {
	case s.engines <- struct{}{}:
		defer func() { <-s.engines }()
	default:
		s.writeError(w, r, withCode(http.StatusServiceUnavailable, errEngineBusy))
		return
	}
	ev, err := s.evaluation(r.Context(), st)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, http.StatusOK, ev)
}

// analysisLevel is the agent that evaluates positions.
const analysisLevel = "hard"

// evaluation runs the engine on a state.
func (s *Server) evaluation(ctx context.Context, st game.State) (evaluation, error) {
	players := st.Game().Traits().Players
	switch p := st.ToAct(); {
	case st.IsTerminal():
		return evaluation{Text: st.Prompt().Text, Bar: outcomeBar(st), Line: []string{}, LineTexts: []string{}}, nil
	case p == game.Chance:
		return evaluation{Text: "Chance acts next: the dice decide.", Line: []string{}, LineTexts: []string{}}, nil
	case int(p) >= len(players):
		return evaluation{}, fmt.Errorf("evaluation: player %d has no traits", p)
	}
	a, err := agent.New(analysisLevel, st.Game(), 1)
	if err != nil {
		return evaluation{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.AnalysisTime)
	defer cancel()
	res, err := a.Act(ctx, st.Clone())
	if err != nil {
		return evaluation{}, err
	}
	ev := judge(res, st.ToAct(), players)
	ev.Agent = a.Spec()
	ev.Line, ev.LineTexts = line(st, res.PV)
	return ev, nil
}

// judge says a search result for people, for the player to act p.
func judge(res search.Result, p game.Player, players []game.PlayerTraits) evaluation {
	other := players[1-p].Title
	me := players[p].Title
	var ev evaluation
	var forMe float64 // the balance for p, -1 to +1
	switch {
	case res.Proven != 0:
		winner := me
		if res.Proven < 0 {
			winner = other
		}
		ev.Text = winner + " win by force."
		forMe = float64(res.Proven)
	case res.Nodes > 0:
		// Alpha-beta's value is in men.
		score := res.Value
		forMe = math.Tanh(score / 4)
		switch who, by := me, score; {
		case math.Abs(score) < 0.25:
			ev.Text = fmt.Sprintf("About even (%+.2f for %s; alpha-beta, depth %d).", score, me, res.Depth)
		default:
			if score < 0 {
				who, by = other, -score
			}
			ev.Text = fmt.Sprintf("%s better by %.2f (alpha-beta, depth %d).", who, by, res.Depth)
		}
	default:
		// MCTS: the expected outcome, as a chance to win.
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

// outcomeBar is the gauge of a finished game for the first player.
func outcomeBar(st game.State) float64 {
	if r := st.Returns(); len(r) > 0 {
		return max(-1, min(1, r[0]))
	}
	return 0
}

// line describes an expected line of play from st, as far as it is legal
// and no chance acts.
func line(st game.State, pv []game.Action) (labels, texts []string) {
	c := st.Clone()
	labels, texts = []string{}, []string{}
	for _, a := range pv {
		if c.IsTerminal() || c.ToAct() < 0 || !slices.Contains(c.LegalActions(nil), a) {
			break
		}
		info := c.Describe(a)
		labels, texts = append(labels, info.Label), append(texts, info.Text)
		c.Apply(a)
	}
	return labels, texts
}
