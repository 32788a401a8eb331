package metrics

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/muster-games/muster/arena"
	"github.com/muster-games/muster/game"
)

// A study is read one game at a time: each game's values are added to its
// group's tally and the game forgotten, so that the memory a report needs
// does not grow with the number of games. A tally is also what a shard of
// a study writes (WritePartial) and what the shards' tallies merge into,
// in any order, to give the report of the whole.

// Moments are a running count, mean and sum of squared deviations
// (Welford's), merged by Chan, Golub and LeVeque's rule.
type Moments struct {
	N    float64 `json:"n"`
	Mean float64 `json:"mean"`
	M2   float64 `json:"m2"`
}

// Add adds one value.
func (m *Moments) Add(x float64) {
	m.N++
	d := x - m.Mean
	m.Mean += d / m.N
	m.M2 += d * (x - m.Mean)
}

// Merge adds the values counted in o.
func (m *Moments) Merge(o Moments) {
	if o.N == 0 {
		return
	}
	if m.N == 0 {
		*m = o
		return
	}
	n := m.N + o.N
	d := o.Mean - m.Mean
	m.M2 += o.M2 + d*d*m.N*o.N/n
	m.Mean += d * o.N / n
	m.N = n
}

// Interval is the mean with its 95% interval (normal, from the sample's
// standard deviation, n − 1).
func (m Moments) Interval() Mean {
	if m.N == 0 {
		return Mean{}
	}
	sd := 0.0
	if m.N > 1 {
		sd = math.Sqrt(math.Max(0, m.M2/(m.N-1)))
	}
	h := 1.96 * sd / math.Sqrt(m.N)
	return Mean{m.Mean, m.Mean - h, m.Mean + h}
}

// Tally is what a report keeps of the games of one game string and pair
// of agents: counts, moments and the histogram of lengths.
type Tally struct {
	Spec   string    `json:"spec"`
	Agents [2]string `json:"agents"`
	Games  int       `json:"games"`
	// SideWins are the wins of each player (side); Record A's wins,
	// losses and draws.
	SideWins   [2]int         `json:"side_wins"`
	Record     [3]int         `json:"record"`
	Timeouts   int            `json:"timeouts"`
	Repeated   int            `json:"repeated"`
	Reasons    map[string]int `json:"reasons"`
	Lengths    map[int]int    `json:"lengths"` // games by length
	Length     Moments        `json:"length"`
	Decisions  Moments        `json:"decisions"`
	Branching  Moments        `json:"branching"`
	Repetition Moments        `json:"repetition"`
	Coverage   Moments        `json:"coverage"`
	States     StateTally     `json:"states"`
}

// StateTally is what a report keeps of the state metrics of a group's
// games.
type StateTally struct {
	Games                 int     `json:"games"`
	LeadChange            Moments `json:"lead_change"`
	Stability             Moments `json:"stability"`
	DecisivenessThreshold Moments `json:"decisiveness_threshold"`
	DecisivenessMoves     Moments `json:"decisiveness_moves"`
	ClarityVariance       Moments `json:"clarity_variance"`
	ClarityNarrowness     Moments `json:"clarity_narrowness"`
	// Drama holds each of DramaAggregates' values over the games, by name.
	Drama map[string]Moments `json:"drama"`
	// Curve sums the winners' mean value at each tenth of the games,
	// CurveN counts the positions summed.
	Curve  [10]float64 `json:"curve"`
	CurveN [10]float64 `json:"curve_n"`
}

func newTally(spec string, agents [2]string) *Tally {
	return &Tally{Spec: spec, Agents: agents, Reasons: map[string]int{}, Lengths: map[int]int{}, States: StateTally{Drama: map[string]Moments{}}}
}

// played is what the report keeps of one game: its line without the
// record, and what replaying the record gave.
type played struct {
	line     arena.Line
	coverage float64 // -1: the record does not replay
	traced   bool
	states   gameStates
}

// gameStates are one game's state metrics.
type gameStates struct {
	leadChange, stability, threshold, moves, clarityVariance, clarityNarrowness float64
	drama                                                                       []float64 // by DramaAggregates
	curve, curveN                                                               [10]float64
}

// measure replays a game's record for its coverage and, with states, its
// state metrics; the record is dropped.
func measure(l arena.Line, states bool) played {
	p := played{coverage: Coverage(l)}
	if states {
		if t, ok := TraceOf(l, nil); ok {
			p.traced = true
			st := &p.states
			st.leadChange, st.stability = LeadChange(t), Stability(t)
			st.threshold, st.moves = DecisivenessThreshold(t), DecisivenessMoves(t)
			st.clarityVariance, st.clarityNarrowness = ClarityVariance(t), ClarityNarrowness(t)
			d := Drama(t)
			for _, a := range DramaAggregates {
				st.drama = append(st.drama, a.F(d))
			}
			for i, e := range t.Evals {
				bin := i * 10 / len(t.Evals)
				w := 0.0
				for _, p := range t.Winners {
					w += e[p] / float64(len(t.Winners))
				}
				st.curve[bin] += w
				st.curveN[bin]++
			}
		}
	}
	l.Record = ""
	p.line = l
	return p
}

// add counts one game.
func (t *Tally) add(p played) {
	l := p.line
	t.Games++
	if p.coverage >= 0 {
		t.Coverage.Add(p.coverage)
	}
	t.Reasons[l.Reason]++
	t.Lengths[l.Length]++
	t.Length.Add(float64(l.Length))
	d, r := 0.0, 0.0
	if l.Length > 0 {
		d = float64(l.Decisions) / float64(l.Length)
		r = float64(l.Repeats) / float64(l.Length)
	}
	t.Decisions.Add(d)
	t.Repetition.Add(r)
	if l.Repeats > 0 {
		t.Repeated++
	}
	t.Branching.Add(l.Branching)
	if !l.Finished || strings.Contains(l.Reason, "limit") || strings.Contains(l.Reason, "without progress") {
		t.Timeouts++
	}
	switch {
	case l.WinnerAgent == "":
		t.Record[2]++
	default:
		// The side whose agent won (scored games name the scores in
		// Winner, so the seats decide).
		for s := 0; s < 2; s++ {
			if l.Players[s] == l.WinnerAgent {
				t.SideWins[s]++
			}
		}
		if l.WinnerAgent == "A" {
			t.Record[0]++
		} else {
			t.Record[1]++
		}
	}
	if !p.traced {
		return
	}
	st, g := &t.States, p.states
	st.Games++
	st.LeadChange.Add(g.leadChange)
	st.Stability.Add(g.stability)
	st.DecisivenessThreshold.Add(g.threshold)
	st.DecisivenessMoves.Add(g.moves)
	st.ClarityVariance.Add(g.clarityVariance)
	st.ClarityNarrowness.Add(g.clarityNarrowness)
	for i, a := range DramaAggregates {
		m := st.Drama[a.Name]
		m.Add(g.drama[i])
		st.Drama[a.Name] = m
	}
	for i := range st.Curve {
		st.Curve[i] += g.curve[i]
		st.CurveN[i] += g.curveN[i]
	}
}

// merge adds another tally of the same group.
func (t *Tally) merge(o *Tally) {
	t.Games += o.Games
	for i := range t.SideWins {
		t.SideWins[i] += o.SideWins[i]
	}
	for i := range t.Record {
		t.Record[i] += o.Record[i]
	}
	t.Timeouts += o.Timeouts
	t.Repeated += o.Repeated
	for k, n := range o.Reasons {
		t.Reasons[k] += n
	}
	for k, n := range o.Lengths {
		t.Lengths[k] += n
	}
	t.Length.Merge(o.Length)
	t.Decisions.Merge(o.Decisions)
	t.Branching.Merge(o.Branching)
	t.Repetition.Merge(o.Repetition)
	t.Coverage.Merge(o.Coverage)
	st, os := &t.States, o.States
	st.Games += os.Games
	st.LeadChange.Merge(os.LeadChange)
	st.Stability.Merge(os.Stability)
	st.DecisivenessThreshold.Merge(os.DecisivenessThreshold)
	st.DecisivenessMoves.Merge(os.DecisivenessMoves)
	st.ClarityVariance.Merge(os.ClarityVariance)
	st.ClarityNarrowness.Merge(os.ClarityNarrowness)
	for k, m := range os.Drama {
		d := st.Drama[k]
		d.Merge(m)
		st.Drama[k] = d
	}
	for i := range st.Curve {
		st.Curve[i] += os.Curve[i]
		st.CurveN[i] += os.CurveN[i]
	}
}

// Study is the tallies of a study's groups, read a game at a time.
type Study struct {
	tallies map[string]*Tally
}

// NewStudy returns an empty study.
func NewStudy() *Study { return &Study{tallies: map[string]*Tally{}} }

func groupKey(spec string, agents [2]string) string {
	return spec + "|" + agents[0] + "|" + agents[1]
}

func (s *Study) add(p played) {
	k := groupKey(p.line.Spec, p.line.Agents)
	t := s.tallies[k]
	if t == nil {
		t = newTally(p.line.Spec, p.line.Agents)
		s.tallies[k] = t
	}
	t.add(p)
}

// Games is the number of games read.
func (s *Study) Games() int {
	n := 0
	for _, t := range s.tallies {
		n += t.Games
	}
	return n
}

// Merge adds the games of another study (a shard's).
func (s *Study) Merge(o *Study) {
	for k, t := range o.tallies {
		if mine := s.tallies[k]; mine != nil {
			mine.merge(t)
		} else {
			c := newTally(t.Spec, t.Agents)
			c.merge(t)
			s.tallies[k] = c
		}
	}
}

// Groups are the study's metrics per game string and pair of agents, in
// the order of their keys.
func (s *Study) Groups() []*Group {
	keys := make([]string, 0, len(s.tallies))
	for k := range s.tallies {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*Group, 0, len(keys))
	for _, k := range keys {
		out = append(out, s.tallies[k].group())
	}
	return out
}

// partialKind opens a partial file, so that a reader knows it from a
// results file (whose lines are games).
const partialKind = "muster report partial"

type partial struct {
	Partial string   `json:"partial"`
	Version int      `json:"version"`
	Groups  []*Tally `json:"groups"`
}

// WritePartial writes the study's tallies as one JSON object, a shard's
// part of a study: muster report merges such files with each other and
// with results files.
func (s *Study) WritePartial(w io.Writer) error {
	p := partial{Partial: partialKind, Version: 1}
	keys := make([]string, 0, len(s.tallies))
	for k := range s.tallies {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p.Groups = append(p.Groups, s.tallies[k])
	}
	return json.NewEncoder(w).Encode(p)
}

// IsPartial reports whether a file's first bytes are those of a partial
// written by WritePartial.
func IsPartial(head []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte(`{"partial":`))
}

// ReadPartial reads a partial written by WritePartial and merges it into
// the study.
func (s *Study) ReadPartial(r io.Reader) error {
	var p partial
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("metrics: a partial: %w", err)
	}
	if p.Partial != partialKind || p.Version != 1 {
		return fmt.Errorf("metrics: not a partial of version 1 (%q, version %d)", p.Partial, p.Version)
	}
	o := NewStudy()
	for i, t := range p.Groups {
		if t == nil || t.Spec == "" || t.Games < 0 {
			return fmt.Errorf("metrics: a partial's group %d has no game string", i+1)
		}
		if t.Reasons == nil {
			t.Reasons = map[string]int{}
		}
		if t.Lengths == nil {
			t.Lengths = map[int]int{}
		}
		counted := 0
		for n, games := range t.Lengths {
			if n < 0 || games <= 0 {
				return fmt.Errorf("metrics: a partial's group %d counts %d games of length %d", i+1, games, n)
			}
			counted += games
		}
		if counted != t.Games || t.States.Games < 0 || t.States.Games > t.Games {
			return fmt.Errorf("metrics: a partial's group %d counts %d games, its lengths %d, its evaluated games %d", i+1, t.Games, counted, t.States.Games)
		}
		if t.States.Drama == nil {
			t.States.Drama = map[string]Moments{}
		}
		k := groupKey(t.Spec, t.Agents)
		if o.tallies[k] != nil {
			return fmt.Errorf("metrics: a partial holds %s twice", k)
		}
		o.tallies[k] = t
	}
	s.Merge(o)
	return nil
}

// Each calls f with each result line read from r (JSON lines), one at a
// time; malformed lines are errors.
func Each(r io.Reader, f func(arena.Line) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<26)
	n := 0
	for sc.Scan() {
		n++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l arena.Line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return fmt.Errorf("metrics: line %d: %w", n, err)
		}
		if l.Spec == "" {
			return fmt.Errorf("metrics: line %d has no game string", n)
		}
		if err := f(l); err != nil {
			return err
		}
	}
	return sc.Err()
}

// ReadResults reads result lines from r into the study, replaying each
// record on every core (with the state metrics when states is set) and
// adding the games in their order; at most a few games per core are held
// at once.
func (s *Study) ReadResults(r io.Reader, states bool) error {
	return s.addFrom(func(f func(arena.Line) error) error { return Each(r, f) }, states)
}

// addFrom adds the games that each yields, measured on every core.
func (s *Study) addFrom(each func(func(arena.Line) error) error, states bool) error {
	workers := runtime.GOMAXPROCS(0)
	type job struct {
		i int
		l arena.Line
	}
	type result struct {
		i int
		p played
	}
	jobs := make(chan job)
	results := make(chan result, workers)
	window := make(chan struct{}, 4*workers) // games read and not yet added
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				results <- result{j.i, measure(j.l, states)}
			}
		}()
	}
	done := make(chan struct{})
	added := 0
	go func() {
		defer close(done)
		pending := map[int]played{}
		for r := range results {
			pending[r.i] = r.p
			for {
				p, ok := pending[added]
				if !ok {
					break
				}
				delete(pending, added)
				s.add(p)
				added++
				<-window
			}
		}
	}()
	n := 0
	err := each(func(l arena.Line) error {
		window <- struct{}{}
		jobs <- job{n, l}
		n++
		return nil
	})
	close(jobs)
	wg.Wait()
	close(results)
	<-done
	return err
}

// Summarize groups the lines by game string and agents, in order.
func Summarize(lines []arena.Line) []*Group { return summarize(lines, true) }

// summarize is Summarize, with the state metrics only when states is set.
func summarize(lines []arena.Line, states bool) []*Group {
	s := NewStudy()
	s.addFrom(func(f func(arena.Line) error) error {
		for _, l := range lines {
			if err := f(l); err != nil {
				return err
			}
		}
		return nil
	}, states)
	return s.Groups()
}

// group is the tally's metrics.
func (t *Tally) group() *Group {
	g := &Group{Spec: t.Spec, Agents: t.Agents, Games: t.Games, Reasons: t.Reasons, LengthCounts: t.Lengths}
	first := -1
	if gm, err := game.Load(g.Spec); err == nil {
		g.Players = [2]string{gm.PlayerName(0), gm.PlayerName(1)}
		s := gm.NewState()
		if p := s.ToAct(); p >= 0 {
			first = int(p)
			g.FirstPlayer = gm.PlayerName(p)
		}
	}
	n := float64(t.Games)
	pw := [2]float64{float64(t.SideWins[0]), float64(t.SideWins[1])}
	g.Record = t.Record
	for p := 0; p < 2; p++ {
		g.PlayerWins[p] = Wilson(pw[p], n)
		g.AgentWins[p] = Wilson(float64(g.Record[p]), n)
	}
	draws := float64(g.Record[2])
	if first >= 0 {
		g.FirstWins = g.PlayerWins[first]
		g.Advantage = Wilson(pw[first]+draws/2, n)
	}
	g.Draws = Wilson(draws, n)
	g.Score = Wilson(float64(g.Record[0])+draws/2, n)
	g.Balance = 1 - math.Abs(pw[0]-pw[1])/n
	g.Completion = float64(g.Record[0]+g.Record[1]) / n
	g.Drawishness = draws / n
	g.Timeouts = float64(t.Timeouts) / n
	g.Uniformity = uniformity(pw, draws, n)
	g.Length = t.Length.Interval()
	g.Decisions = t.Decisions.Interval()
	g.Branching = t.Branching.Interval()
	g.Repetition = t.Repetition.Interval()
	g.Repeated = Wilson(float64(t.Repeated), n)
	g.Coverage, g.CoverageGames = t.Coverage.Interval(), int(t.Coverage.N)
	g.MedianLength = median(t.Lengths, t.Games)
	st := t.States
	m := StateMetrics{
		Games:                 st.Games,
		LeadChange:            st.LeadChange.Interval(),
		Stability:             st.Stability.Interval(),
		DecisivenessThreshold: st.DecisivenessThreshold.Interval(),
		DecisivenessMoves:     st.DecisivenessMoves.Interval(),
		ClarityVariance:       st.ClarityVariance.Interval(),
		ClarityNarrowness:     st.ClarityNarrowness.Interval(),
		DramaBy:               map[string]Mean{},
	}
	for k, d := range st.Drama {
		m.DramaBy[k] = d.Interval()
	}
	for i := range m.WinnerCurve {
		if st.CurveN[i] > 0 {
			m.WinnerCurve[i] = st.Curve[i] / st.CurveN[i]
		}
	}
	g.States = m
	return g
}

// median is the median of n games' lengths counted by length.
func median(counts map[int]int, n int) float64 {
	if n <= 0 || len(counts) == 0 {
		return 0
	}
	lengths := make([]int, 0, len(counts))
	for k := range counts {
		lengths = append(lengths, k)
	}
	slices.Sort(lengths)
	// The lengths at ranks (n−1)/2 and n/2, counted from 0.
	at := func(rank int) int {
		for _, k := range lengths {
			if rank < counts[k] {
				return k
			}
			rank -= counts[k]
		}
		return lengths[len(lengths)-1]
	}
	return float64(at((n-1)/2)+at(n/2)) / 2
}
