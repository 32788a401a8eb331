package metrics

import (
	"fmt"
	"html"
	"image/color"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Plots draws the report's plots as SVG files in dir and returns their
// file names: outcome shares with intervals, game lengths, and win rate
// against search effort.
func Plots(groups []*Group, dir string) ([]string, error) {
	if len(groups) == 0 {
		return nil, nil
	}
	if err := outcomesPlot(groups, dir); err != nil {
		return nil, err
	}
	files := []string{"outcomes.svg"}
	for i, g := range groups {
		name, err := lengthsPlot(g, i, dir)
		if err != nil {
			return nil, err
		}
		files = append(files, name)
		if g.States.Games > 0 {
			name, err := winnerPlot(g, i, dir)
			if err != nil {
				return nil, err
			}
			files = append(files, name)
		}
	}
	if err := effortPlot(groups, dir); err != nil {
		return nil, err
	}
	return append(files, "effort.svg"), nil
}

// outcomesPlot draws the outcome shares per game string (and agents),
// with intervals, into outcomes.svg.
func outcomesPlot(groups []*Group, dir string) error {
	p := plot.New()
	p.Title.Text = "Outcomes (95% Wilson intervals)"
	p.Y.Label.Text = "share of games"
	p.Y.Min, p.Y.Max = 0, 1
	var names []string
	for i, g := range groups {
		names = append(names, label(g, i))
	}
	colours := []color.Color{color.RGBA{0x2b, 0x2b, 0x2b, 255}, color.RGBA{0xb0, 0x80, 0x30, 255}, color.RGBA{0x4f, 0x8f, 0x4f, 255}}
	for k, what := range []string{"side 1 wins", "side 2 wins", "draws"} {
		pts := make(plotter.XYs, len(groups))
		errs := make(plotter.YErrors, len(groups))
		for i, g := range groups {
			iv := g.Draws
			if k < 2 {
				iv = g.PlayerWins[k]
			}
			pts[i].X, pts[i].Y = float64(i)+float64(k-1)*0.2, iv.P
			errs[i].Low, errs[i].High = iv.P-iv.Lo, iv.Hi-iv.P
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.Color = colours[k]
		sc.Radius = vg.Points(4)
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return err
		}
		eb.Color = colours[k]
		p.Add(sc, eb)
		p.Legend.Add(what, sc)
	}
	p.X.Min, p.X.Max = -0.5, float64(len(groups))-0.5
	p.Legend.Top = true
	p.NominalX(names...)
	return save(p, dir, "outcomes.svg", 7+len(groups))
}

// lengthsPlot draws the histogram of the game lengths of group i.
func lengthsPlot(g *Group, i int, dir string) (string, error) {
	h := plot.New()
	h.Title.Text = "Game length: " + label(g, i)
	h.X.Label.Text = "actions"
	h.Y.Label.Text = "games"
	// Each length weighted by its games.
	vals := make(plotter.XYs, 0, len(g.LengthCounts))
	for n, games := range g.LengthCounts {
		vals = append(vals, plotter.XY{X: float64(n), Y: float64(games)})
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i].X < vals[j].X })
	hist, err := plotter.NewHistogram(vals, min(20, max(1, g.Games)))
	if err != nil {
		return "", err
	}
	h.Add(hist)
	name := fmt.Sprintf("lengths-%d.svg", i+1)
	return name, save(h, dir, name, 7)
}

// winnerPlot draws the eventual winner's value through the game (each
// tenth of it, mean over the games) and the drama, the winner's distance
// below the leader, of group i.
func winnerPlot(g *Group, i int, dir string) (string, error) {
	p := plot.New()
	p.Title.Text = "The winner's value through the game: " + label(g, i)
	p.X.Label.Text = "share of the game played"
	p.Y.Label.Text = "value (evaluation in [-1, 1])"
	p.Y.Min, p.Y.Max = -1, 1
	pts := make(plotter.XYs, len(g.States.WinnerCurve))
	for k, v := range g.States.WinnerCurve {
		pts[k].X, pts[k].Y = (float64(k)+0.5)/10, v
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return "", err
	}
	line.Width = vg.Points(2)
	p.Add(line, plotter.NewGrid())
	p.Legend.Add("the winner's mean value", line)
	name := fmt.Sprintf("winner-%d.svg", i+1)
	return name, save(p, dir, name, 7)
}

// effortPlot draws the win rate of A against search effort, per game
// string, when the results hold several agents A against one B.
func effortPlot(groups []*Group, dir string) error {
	bySpec := map[string][]*Group{}
	for _, g := range groups {
		bySpec[g.Spec+"|"+g.Agents[1]] = append(bySpec[g.Spec+"|"+g.Agents[1]], g)
	}
	e := plot.New()
	e.Title.Text = "Win rate of agent A against its search effort"
	e.X.Label.Text = "effort (the number in A's settings)"
	e.Y.Label.Text = "A's score"
	e.Y.Min, e.Y.Max = 0, 1
	keys := make([]string, 0, len(bySpec))
	for k := range bySpec {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var pts plotter.XYs
		for _, g := range bySpec[k] {
			if x, ok := effort(g.Agents[0]); ok {
				pts = append(pts, plotter.XY{X: x, Y: g.AgentWins[0].P + g.Draws.P/2})
			}
		}
		if len(pts) == 0 {
			continue
		}
		sort.Slice(pts, func(i, j int) bool { return pts[i].X < pts[j].X })
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		e.Add(line, points)
		e.Legend.Add(strings.Replace(k, "|", " v ", 1), line)
	}
	return save(e, dir, "effort.svg", 7)
}

// effort reads the first number in an agent spec (iterations, depth…).
func effort(spec string) (float64, bool) {
	var x float64
	for i := 0; i < len(spec); i++ {
		if spec[i] >= '0' && spec[i] <= '9' {
			if _, err := fmt.Sscanf(spec[i:], "%g", &x); err == nil {
				return x, true
			}
		}
	}
	return 0, false
}

func save(p *plot.Plot, dir, name string, widthInches int) error {
	return p.Save(vg.Length(widthInches)*vg.Inch, 4*vg.Inch, filepath.Join(dir, name))
}

func label(g *Group, i int) string {
	return fmt.Sprintf("%d. %s", i+1, g.Spec)
}

// Markdown writes the report as Markdown; plots are linked by name.
func Markdown(w io.Writer, groups []*Group, plots []string) {
	fmt.Fprintf(w, "# Self-play report\n\n")
	if ps := pooled(groups); len(ps) > 0 {
		fmt.Fprintf(w, "## Over all game strings\n\n| A | B | game strings | score: agent A |\n|---|---|---|---|\n")
		for _, p := range ps {
			fmt.Fprintf(w, "| %s | %s | %d | %s |\n", p.Agents[0], p.Agents[1], p.Specs, record(p.Record, p.Score))
		}
		fmt.Fprintln(w)
	}
	for i, g := range groups {
		fmt.Fprintf(w, "## %d. %s — A = %s, B = %s, %d games\n\n", i+1, g.Spec, g.Agents[0], g.Agents[1], g.Games)
		fmt.Fprintf(w, "| metric | value |\n|---|---|\n")
		for _, row := range rows(g) {
			fmt.Fprintf(w, "| %s | %s |\n", row[0], row[1])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "## Definitions\n\n")
	for _, d := range Definitions {
		fmt.Fprintf(w, "* **%s**: %s\n", d.Name, d.Meaning)
	}
	fmt.Fprintf(w, "\n## Plots\n\n")
	for _, p := range plots {
		fmt.Fprintf(w, "![%s](%s)\n\n", p, p)
	}
}

// HTML writes the report as one HTML page; plots are linked by name.
func HTML(w io.Writer, groups []*Group, plots []string) {
	e := html.EscapeString
	fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>Self-play report</title>\n<style>body{font-family:Georgia,serif;max-width:1000px;margin:auto;padding:1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;overflow-wrap:anywhere}</style>\n<h1>Self-play report</h1>\n")
	if ps := pooled(groups); len(ps) > 0 {
		fmt.Fprintf(w, "<h2>Over all game strings</h2>\n<table>\n<tr><th>A</th><th>B</th><th>game strings</th><th>score: agent A</th></tr>\n")
		for _, p := range ps {
			fmt.Fprintf(w, "<tr><td>%s</td><td>%s</td><td>%d</td><td>%s</td></tr>\n", e(p.Agents[0]), e(p.Agents[1]), p.Specs, e(record(p.Record, p.Score)))
		}
		fmt.Fprintf(w, "</table>\n")
	}
	for i, g := range groups {
		fmt.Fprintf(w, "<h2>%d. %s — A = %s, B = %s, %d games</h2>\n<table>\n", i+1, e(g.Spec), e(g.Agents[0]), e(g.Agents[1]), g.Games)
		for _, row := range rows(g) {
			fmt.Fprintf(w, "<tr><th>%s</th><td>%s</td></tr>\n", e(row[0]), e(row[1]))
		}
		fmt.Fprintf(w, "</table>\n")
	}
	fmt.Fprintf(w, "<h2>Definitions</h2>\n<ul>\n")
	for _, d := range Definitions {
		fmt.Fprintf(w, "<li><b>%s</b>: %s</li>\n", e(d.Name), e(d.Meaning))
	}
	fmt.Fprintf(w, "</ul>\n<h2>Plots</h2>\n")
	for _, p := range plots {
		fmt.Fprintf(w, "<p><img src=\"%s\" alt=\"%s\" style=\"max-width:100%%\"></p>\n", e(p), e(p))
	}
	fmt.Fprintf(w, "</html>\n")
}

func record(r [3]int, score Interval) string {
	return fmt.Sprintf("%d won, %d lost, %d drawn: %s", r[0], r[1], r[2], score)
}

// pooled returns the pairs of agents that played several game strings,
// for a line over all of them.
func pooled(groups []*Group) []Pair {
	var out []Pair
	for _, p := range Pairs(groups) {
		if p.Specs > 1 {
			out = append(out, p)
		}
	}
	return out
}

func rows(g *Group) [][2]string {
	var out [][2]string
	add := func(k, v string) { out = append(out, [2]string{k, v}) }
	for p := 0; p < 2; p++ {
		add("win rate: "+g.Players[p], g.PlayerWins[p].String())
	}
	if g.FirstPlayer != "" {
		add("win rate: first player ("+g.FirstPlayer+")", g.FirstWins.String())
		add("advantage: first player ("+g.FirstPlayer+")", g.Advantage.String())
	}
	add("win rate: agent A ("+g.Agents[0]+")", g.AgentWins[0].String())
	add("win rate: agent B ("+g.Agents[1]+")", g.AgentWins[1].String())
	add("score: agent A", record(g.Record, g.Score))
	add("draws", g.Draws.String())
	add("balance", fmt.Sprintf("%.3f", g.Balance))
	add("completion", fmt.Sprintf("%.3f", g.Completion))
	add("drawishness", fmt.Sprintf("%.3f", g.Drawishness))
	add("timeouts", fmt.Sprintf("%.3f", g.Timeouts))
	add("outcome uniformity", fmt.Sprintf("%.3f", g.Uniformity))
	add("duration (actions)", fmt.Sprintf("mean %s, median %.1f", g.Length.Format("%.1f"), g.MedianLength))
	add("decision moves", g.Decisions.Format("%.3f"))
	add("branching factor", g.Branching.Format("%.1f"))
	add("state repetition", g.Repetition.Format("%.3f"))
	add("games with a repetition", g.Repeated.String())
	if g.CoverageGames > 0 {
		add("board coverage", g.Coverage.Format("%.3f"))
	}
	if st := g.States; st.Games > 0 {
		add("lead change", st.LeadChange.Format("%.3f"))
		add("stability", st.Stability.Format("%.3f"))
		add("decisiveness threshold", st.DecisivenessThreshold.Format("%.3f"))
		add("decisiveness moves", st.DecisivenessMoves.Format("%.3f"))
		add("clarity: variance", st.ClarityVariance.Format("%.3f"))
		add("clarity: narrowness", st.ClarityNarrowness.Format("%.3f"))
		add("drama: average", st.DramaBy[DramaAggregates[0].Name].Format("%.3f"))
		for _, a := range DramaAggregates[1:] {
			add("drama: "+a.Name, fmt.Sprintf("%.3f", st.DramaBy[a.Name].P))
		}
		add("games evaluated", fmt.Sprintf("%d of %d", st.Games, g.Games))
	}
	var reasons []string
	for r, n := range g.Reasons {
		reasons = append(reasons, fmt.Sprintf("%s: %d", r, n))
	}
	sort.Strings(reasons)
	add("ends", strings.Join(reasons, "; "))
	return out
}
