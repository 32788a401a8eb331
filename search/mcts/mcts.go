// Package mcts is a game-independent Monte Carlo tree search over the game
// contract: UCT selection, one node per atomic action (so a turn of several
// actions is a path of nodes of one player), chance nodes sampled by their
// probabilities, playouts guided by move-average sampling (MAST) and cut off
// by a game's evaluation, a solver that proves wins and losses, reuse of
// the tree between moves, and root parallelism over threads. With one
// thread and an iteration limit it is deterministic for a given seed.
package mcts

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/search"
)

// Evaluator gives the value of a state that is not over for a player, in
// [-1, 1]; a playout cut off before the end ends with it.
type Evaluator func(s game.State, p game.Player) float64

// Config tunes the search.
type Config struct {
	// C is the UCT exploration constant (default 1.0 for values in [-1, 1]).
	C float64
	// PlayoutLimit cuts playouts off after this many actions and
	// evaluates (0: play to the end; below 0: no playout, a new node's
	// state is evaluated at once). Needs Eval.
	PlayoutLimit int
	// Eval scores cut-off playouts; nil plays every playout to the end.
	Eval Evaluator
	// MAST: playouts choose actions by their average outcome so far
	// (epsilon-greedy, Epsilon of the choices uniform; default 0.3).
	MAST    bool
	Epsilon float64
	// Threads searches that many trees in parallel (root parallelism).
	Threads int
	// Seed makes the search repeatable.
	Seed uint64
	// MaxActions stops a playout that has not ended (a safety net).
	MaxActions int
	// Contempt is what a draw costs the player to act at the root (and
	// gives the other), as chess engines' contempt: a searcher that
	// expects to outplay its opponent avoids the draws it can avoid. 0
	// scores a draw as even.
	Contempt float64
	// Prior gives a new node this many visits at the value Eval gives
	// its state (progressive bias; 0 for none). It steers small searches
	// toward good actions from the start.
	Prior float64
	// Transpose makes the states one turn can reach one node each: where
	// a player acts several times in a turn, the orders of its actions
	// that reach the same state (by its Hash) from the turn's start share
	// that state's node, its statistics and the tree below it. States of
	// different turns are never merged, so the history a state's Hash
	// leaves out (repetitions, counts of turns) is the same on every
	// path to a shared node.
	Transpose bool
}

// Searcher keeps its trees between searches, to reuse them.
type Searcher struct {
	cfg   Config
	trees []*tree
}

// New returns a searcher.
func New(cfg Config) *Searcher {
	if cfg.C == 0 {
		cfg.C = 1.0
	}
	if cfg.Epsilon == 0 {
		cfg.Epsilon = 0.3
	}
	if cfg.Threads < 1 {
		cfg.Threads = 1
	}
	if cfg.MaxActions == 0 {
		cfg.MaxActions = 100000
	}
	m := &Searcher{cfg: cfg}
	for i := 0; i < cfg.Threads; i++ {
		m.trees = append(m.trees, &tree{cfg: &m.cfg, rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i)+0x6d637473))})
	}
	return m
}

// node is a state reached from its parents' states; with Transpose, a
// node reached by several orders of one turn's actions has a parent for
// each.
type node struct {
	player   game.Player // who acted to reach it (its parents' player to act); Chance for an outcome
	visits   float64
	value    float64 // sum of outcomes for player
	prob     float64 // for chance outcomes
	children []*node
	acts     []game.Action // acts[i] leads from this node's state to children[i]'s
	untried  []game.Action
	// start, with Transpose, is the node at which the turn of this
	// node's player to act began (the node itself where a turn begins
	// here, and at the root); start.turn holds the nodes of that turn by
	// hash. Without Transpose it is nil (but at the root).
	start    *node
	turn     map[uint64]*node
	expanded bool
	// proven is the winner (0 or 1) + 1 once the subtree is solved, 3 for
	// a proven draw; 0 while unknown.
	proven int8
}

type tree struct {
	cfg     *Config
	rng     *rand.Rand
	root    *node
	history []game.Action // the root's history, to reuse the tree
	scratch game.State
	buf     []game.Action
	outs    []game.Outcome
	mast    [2]map[game.Action][2]float64 // per player: sum, count
	path    []*node
	played  []mastEntry
	// me is the player at the root, whom a draw costs Contempt.
	me game.Player
}

type mastEntry struct {
	p game.Player
	a game.Action
}

// Search runs from s until a limit is reached and returns the action to
// play. s must not be over, and its player to act must not be chance.
func (m *Searcher) Search(ctx context.Context, s game.State, lim search.Limits) search.Result {
	start := time.Now()
	if lim.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.Time)
		defer cancel()
	}
	if lim.Iterations == 0 && lim.Time == 0 {
		if _, ok := ctx.Deadline(); !ok {
			lim.Iterations = 1000
		}
	}
	per := lim.Iterations
	if per > 0 {
		per = (lim.Iterations + len(m.trees) - 1) / len(m.trees)
	}
	var wg sync.WaitGroup
	for _, t := range m.trees {
		wg.Add(1)
		go func(t *tree) {
			defer wg.Done()
			t.run(ctx, s, per)
		}(t)
	}
	wg.Wait()
	return m.result(s, start)
}

// run searches one tree.
func (t *tree) run(ctx context.Context, s game.State, iterations int) {
	if t.cfg.Contempt != 0 && t.me != s.ToAct() {
		t.root = nil // its values count draws for the other player
	}
	t.me = s.ToAct()
	t.reuse(s)
	if t.mast[0] == nil {
		t.mast = [2]map[game.Action][2]float64{{}, {}}
	}
	for i := 0; iterations == 0 || i < iterations; i++ {
		if t.root.proven != 0 {
			break
		}
		if i%64 == 0 && ctx.Err() != nil {
			break
		}
		t.iterate(s)
	}
}

// reuse keeps the subtree of the current state if the tree's root is an
// earlier state of the same game; else it starts a new tree.
func (t *tree) reuse(s game.State) {
	h := s.History()
	if t.root != nil && len(h) >= len(t.history) && slices.Equal(h[:len(t.history)], t.history) {
		n := t.root
		for _, a := range h[len(t.history):] {
			var next *node
			for i, c := range n.children {
				if n.acts[i] == a {
					next = c
				}
			}
			if next == nil {
				n = nil
				break
			}
			n = next
		}
		if n != nil {
			t.root = n
			t.history = append(t.history[:0], h...)
			return
		}
	}
	t.root = &node{player: game.Terminal}
	t.root.start = t.root
	t.history = append(t.history[:0], h...)
}

// iterate runs one selection, expansion, playout and backup.
func (t *tree) iterate(root game.State) {
	s := t.copyOf(root)
	n := t.root
	t.path = append(t.path[:0], n)
	for !s.IsTerminal() {
		if !n.expanded {
			t.expand(n, s)
		}
		if n.proven != 0 {
			break
		}
		var i int
		if s.ToAct() == game.Chance {
			i = t.sample(n)
		} else if len(n.untried) > 0 {
			j := t.rng.IntN(len(n.untried))
			a := n.untried[j]
			n.untried[j] = n.untried[len(n.untried)-1]
			n.untried = n.untried[:len(n.untried)-1]
			p := s.ToAct()
			s.Apply(a)
			if shared := t.transposed(n, s); shared != nil {
				// Another order of this turn's actions got here first:
				// go on down from its node.
				n.children = append(n.children, shared)
				n.acts = append(n.acts, a)
				t.path = append(t.path, shared)
				n = shared
				continue
			}
			child := t.newChild(n, a, p, s)
			if t.cfg.Prior > 0 && t.cfg.Eval != nil && child.player >= 0 && !s.IsTerminal() {
				child.visits = t.cfg.Prior
				child.value = t.cfg.Prior * t.cfg.Eval(s, child.player)
			}
			t.path = append(t.path, child)
			n = child
			break
		} else {
			i = t.selectUCT(n)
		}
		s.Apply(n.acts[i])
		n = n.children[i]
		t.path = append(t.path, n)
	}
	var values [2]float64
	switch {
	case s.IsTerminal():
		t.solve(n, s)
		values = t.returns(s)
	case n.proven == 1 || n.proven == 2:
		w := n.proven - 1
		values[w], values[1-w] = 1, -1
	case n.proven == 3:
		values = t.drawn()
	default:
		values = t.playout(s)
	}
	for _, x := range t.path {
		x.visits++
		if x.player >= 0 {
			x.value += values[x.player]
		}
	}
	for i := len(t.path) - 2; i >= 0; i-- {
		t.propagate(t.path[i])
	}
}

// newChild adds to n the node that a, p's action, leads to; s is its
// state.
func (t *tree) newChild(n *node, a game.Action, p game.Player, s game.State) *node {
	c := &node{player: p}
	n.children = append(n.children, c)
	n.acts = append(n.acts, a)
	if !t.cfg.Transpose {
		return c // no node points up the tree: a tree reused lets go of what lies above its root
	}
	c.start = c
	if p >= 0 && s.ToAct() == p {
		c.start = n.start // p's turn goes on
	}
	if p >= 0 {
		st := n.start
		if st.turn == nil {
			st.turn = map[uint64]*node{}
		}
		st.turn[s.Hash()] = c
	}
	return c
}

// transposed returns the node of s where another order of the actions of
// the turn under way at n has reached it (Transpose), else nil.
func (t *tree) transposed(n *node, s game.State) *node {
	if !t.cfg.Transpose || n.start.turn == nil {
		return nil
	}
	m := n.start.turn[s.Hash()]
	if slices.Contains(t.path, m) {
		return nil // a turn that comes back to a state: no cycles
	}
	return m
}

// copyOf returns a scratch copy of s, reusing memory when the game allows.
func (t *tree) copyOf(s game.State) game.State {
	t.scratch = game.CopyInto(t.scratch, s)
	return t.scratch
}

func (t *tree) expand(n *node, s game.State) {
	n.expanded = true
	if s.ToAct() == game.Chance {
		t.outs = s.ChanceOutcomes(t.outs[:0])
		for _, o := range t.outs {
			c := &node{player: game.Chance, prob: o.Prob}
			c.start = c
			n.children = append(n.children, c)
			n.acts = append(n.acts, o.Action)
		}
		return
	}
	n.untried = s.LegalActions(nil)
}

func (t *tree) sample(n *node) int {
	x := t.rng.Float64()
	for i, c := range n.children {
		if x < c.prob {
			return i
		}
		x -= c.prob
	}
	return len(n.children) - 1
}

// selectUCT picks the child with the best upper confidence bound, taking
// proven wins at once and avoiding proven losses.
func (t *tree) selectUCT(n *node) int {
	logN := math.Log(n.visits + 1)
	best := 0
	bestScore := math.Inf(-1)
	for i, c := range n.children {
		var score float64
		switch {
		case c.proven == int8(c.player)+1:
			return i
		case c.proven != 0 && c.proven != 3:
			score = -10 + c.visits*1e-9 // a proven loss: only if nothing else
		case c.visits == 0:
			score = math.Inf(1)
		default:
			score = c.value/c.visits + t.cfg.C*math.Sqrt(logN/c.visits)
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// solve marks a terminal node with its result.
func (t *tree) solve(n *node, s game.State) {
	r := s.Result()
	switch {
	case r.Winner >= 0:
		n.proven = int8(r.Winner) + 1
	case r.Scores == nil:
		n.proven = 3
	}
}

// propagate proves n from its children: a player to act with a winning
// child wins; if every child is proven, the best of them is n's result.
func (t *tree) propagate(n *node) {
	if n.proven != 0 || !n.expanded || len(n.untried) > 0 || len(n.children) == 0 {
		return
	}
	mover := n.children[0].player
	if mover == game.Chance {
		first := n.children[0].proven
		for _, c := range n.children {
			if c.proven == 0 || c.proven != first {
				return
			}
		}
		n.proven = first
		return
	}
	allDone, draw := true, false
	for _, c := range n.children {
		switch c.proven {
		case int8(mover) + 1:
			n.proven = c.proven
			return
		case 0:
			allDone = false
		case 3:
			draw = true
		}
	}
	if allDone {
		if draw {
			n.proven = 3
		} else {
			n.proven = int8(1-mover) + 1
		}
	}
}

// playout plays from s to the end or the cut-off and returns the values.
func (t *tree) playout(s game.State) [2]float64 {
	t.played = t.played[:0]
	limit := t.cfg.MaxActions
	if t.cfg.PlayoutLimit != 0 && t.cfg.Eval != nil {
		limit = max(t.cfg.PlayoutLimit, 0)
	}
	// A state that plays its own playout draws the same actions from the
	// same random numbers, faster; MAST chooses its own.
	if po, ok := s.(game.Playouter); ok && !t.cfg.MAST {
		po.Playout(t.rng, limit)
		limit = 0
	}
	for i := 0; i < limit && !s.IsTerminal(); i++ {
		p := s.ToAct()
		var a game.Action
		if p == game.Chance {
			a, t.buf = game.RandomAction(s, t.rng, t.buf)
		} else if t.cfg.MAST && t.rng.Float64() >= t.cfg.Epsilon {
			t.buf = s.LegalActions(t.buf[:0])
			a = t.buf[t.rng.IntN(len(t.buf))]
			best := math.Inf(-1)
			for _, x := range t.buf {
				st := t.mast[p][x]
				q := 0.0
				if st[1] > 0 {
					q = st[0] / st[1]
				}
				if q > best {
					best, a = q, x
				}
			}
		} else {
			a, t.buf = game.RandomAction(s, t.rng, t.buf)
		}
		if p >= 0 && t.cfg.MAST {
			t.played = append(t.played, mastEntry{p, a})
		}
		s.Apply(a)
	}
	var v [2]float64
	switch {
	case s.IsTerminal():
		v = t.returns(s)
	case t.cfg.Eval != nil:
		x := t.cfg.Eval(s, 0)
		v = [2]float64{x, -x}
	}
	for _, e := range t.played {
		st := t.mast[e.p][e.a]
		t.mast[e.p][e.a] = [2]float64{st[0] + v[e.p], st[1] + 1}
	}
	return v
}

// returns are the values of a finished game, a draw at the contempt.
func (t *tree) returns(s game.State) [2]float64 {
	if s.Result().Winner < 0 {
		return t.drawn()
	}
	r := s.Returns()
	return [2]float64{r[0], r[1]}
}

// drawn are the values of a draw: what Contempt says.
func (t *tree) drawn() [2]float64 {
	var v [2]float64
	if c := t.cfg.Contempt; c != 0 && (t.me == 0 || t.me == 1) {
		v[t.me], v[1-t.me] = -c, c
	}
	return v
}

// result merges the trees' root statistics and picks the action.
func (m *Searcher) result(s game.State, start time.Time) search.Result {
	type stat struct {
		visits, value float64
		proven        int8
		player        game.Player
	}
	stats := map[game.Action]*stat{}
	var order []game.Action
	iterations := 0
	for _, t := range m.trees {
		iterations += int(t.root.visits)
		for i, c := range t.root.children {
			a := t.root.acts[i]
			st := stats[a]
			if st == nil {
				st = &stat{player: c.player}
				stats[a] = st
				order = append(order, a)
			}
			st.visits += c.visits
			st.value += c.value
			if c.proven != 0 {
				st.proven = c.proven
			}
		}
	}
	res := search.Result{Iterations: iterations, Elapsed: time.Since(start)}
	if len(order) == 0 {
		legal := s.LegalActions(nil)
		if len(legal) > 0 {
			res.Action = legal[0]
		}
		return res
	}
	me := s.ToAct()
	best := order[0]
	score := func(a game.Action) float64 {
		st := stats[a]
		switch {
		case st.proven == int8(me)+1:
			return math.Inf(1)
		case st.proven != 0 && st.proven != 3:
			return -1e18 + st.visits
		}
		return st.visits
	}
	for _, a := range order {
		if score(a) > score(best) {
			best = a
		}
	}
	st := stats[best]
	res.Action = best
	if st.visits > 0 {
		res.Value = st.value / st.visits
	}
	switch {
	case st.proven == int8(me)+1:
		res.Proven, res.Value, res.Kind = 1, 1, search.Proof
	case st.proven != 0 && st.proven != 3:
		res.Proven, res.Value, res.Kind = -1, -1, search.Proof
	}
	res.PV = m.trees[0].pv(best, 12)
	// The second line: the next action by the same choice.
	second, found := game.Action(0), false
	for _, a := range order {
		if a != best && (!found || score(a) > score(second)) {
			second, found = a, true
		}
	}
	if found && stats[second].visits > 0 {
		st := stats[second]
		alt := &search.Result{Kind: res.Kind, Action: second, Value: st.value / st.visits, PV: m.trees[0].pv(second, 12)}
		switch {
		case st.proven == int8(me)+1:
			alt.Proven, alt.Value = 1, 1
		case st.proven != 0 && st.proven != 3:
			alt.Proven, alt.Value = -1, -1
		}
		res.Second = alt
	}
	return res
}

// pv is the principal variation of the tree, best first, then the most
// visited child at each node, up to n actions.
func (t *tree) pv(best game.Action, n int) []game.Action {
	var pv []game.Action
	for nd := t.root; nd != nil && len(nd.children) > 0 && len(pv) < n; {
		next := -1
		for i, c := range nd.children {
			if len(pv) == 0 && nd.acts[i] == best {
				next = i
				break
			}
			if next < 0 || c.visits > nd.children[next].visits {
				next = i
			}
		}
		pv = append(pv, nd.acts[next])
		nd = nd.children[next]
	}
	return pv
}
