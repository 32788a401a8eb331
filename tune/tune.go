// Package tune fits the weights of a linear evaluation to game results: a
// logistic regression of the result (1 a win, ½ a draw, 0 a loss for one
// player) on the evaluation's features in positions of finished games, as
// in Texel tuning. It also holds the table of fitted weights a game keeps
// as data, with the command that made them.
package tune

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Sample is one position: its features and the game's result for the
// player the features favour (1, ½ or 0).
type Sample struct {
	X []float64
	Y float64
}

// Fit is a fitted logistic model: P(win) = σ(Intercept + Σ Weights[i]·x[i]).
type Fit struct {
	Weights   []float64
	Intercept float64
	// Loss is the mean log loss of the model on its samples; Base that of
	// the intercept alone (the players' win rate), for comparison.
	Loss, Base float64
	Samples    int
}

// Logistic fits the model to the samples by Newton's method (iteratively
// reweighted least squares), with a ridge penalty on the weights (not the
// intercept) that keeps features seldom seen from running away.
func Logistic(samples []Sample, ridge float64) (Fit, error) {
	if len(samples) == 0 {
		return Fit{}, errors.New("tune: no samples")
	}
	n := len(samples[0].X) + 1 // the intercept is the last coefficient
	for i, s := range samples {
		if len(s.X) != n-1 {
			return Fit{}, fmt.Errorf("tune: sample %d has %d features, want %d", i, len(s.X), n-1)
		}
		if s.Y < 0 || s.Y > 1 || math.IsNaN(s.Y) {
			return Fit{}, fmt.Errorf("tune: sample %d has result %v, want 0 to 1", i, s.Y)
		}
	}
	beta := make([]float64, n)
	x := make([]float64, n)
	for iter := 0; iter < 50; iter++ {
		grad := make([]float64, n)
		hess := make([][]float64, n)
		for i := range hess {
			hess[i] = make([]float64, n)
		}
		for _, s := range samples {
			copy(x, s.X)
			x[n-1] = 1
			p := sigmoid(dot(beta, x))
			w := max(p*(1-p), 1e-9)
			for i := range n {
				grad[i] += (s.Y - p) * x[i]
				for j := 0; j <= i; j++ {
					hess[i][j] += w * x[i] * x[j]
				}
			}
		}
		m := float64(len(samples))
		for i := range n {
			grad[i] /= m
			for j := 0; j <= i; j++ {
				hess[i][j] /= m
				hess[j][i] = hess[i][j]
			}
			if i < n-1 {
				grad[i] -= ridge * beta[i]
				hess[i][i] += ridge
			}
		}
		step, err := solve(hess, grad)
		if err != nil {
			return Fit{}, err
		}
		size := 0.0
		for i := range n {
			beta[i] += step[i]
			size = max(size, math.Abs(step[i]))
		}
		if size < 1e-10 {
			break
		}
	}
	f := Fit{Weights: beta[:n-1], Intercept: beta[n-1], Samples: len(samples)}
	mean := 0.0
	for _, s := range samples {
		copy(x, s.X)
		x[n-1] = 1
		f.Loss += logLoss(sigmoid(dot(beta, x)), s.Y)
		mean += s.Y
	}
	mean /= float64(len(samples))
	for _, s := range samples {
		f.Base += logLoss(mean, s.Y)
	}
	f.Loss /= float64(len(samples))
	f.Base /= float64(len(samples))
	return f, nil
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func logLoss(p, y float64) float64 {
	p = min(max(p, 1e-12), 1-1e-12)
	return -(y*math.Log(p) + (1-y)*math.Log(1-p))
}

// solve solves a·x = b by Gaussian elimination with partial pivoting (a
// and b are left changed).
func solve(a [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-14 {
			return nil, fmt.Errorf("tune: the features are not independent (feature %d is fixed by the others); add samples or a ridge", c)
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < n; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x, nil
}

// Table is a game's fitted weights, one entry per family of rulesets,
// kept as data (JSON) beside the evaluation that reads it.
type Table struct {
	// Unit is the feature whose weight is fixed at 100: the weights are
	// in hundredths of it.
	Unit     string            `json:"unit"`
	Families map[string]*Entry `json:"families"`
}

// Entry is the fit of one family.
type Entry struct {
	Weights map[string]int `json:"weights"`
	// Constant is the fit's intercept in the same hundredths: the value
	// added to every position, so that an evaluation of 0 is even chances
	// and a draw is worth what an even position is. Entries written
	// before it was fitted read as 0.
	Constant int `json:"constant"`
	// Scale is the fit's weight of the unit feature in logits: the
	// evaluation times Scale/100 is the logit of the chance to win, for
	// a game whose evaluation is read as one (Lanrick's). Entries written
	// before it was kept read as 0.
	Scale float64 `json:"scale,omitempty"`
	// Command is the command that made the entry; Data says where its
	// games came from.
	Command string `json:"command"`
	Data    string `json:"data"`
	// Games and Positions are what it was fitted on; Loss and Base the mean
	// log loss of the fit and of the win rate alone.
	Games     int     `json:"games"`
	Positions int     `json:"positions"`
	Loss      float64 `json:"loss"`
	Base      float64 `json:"base"`
}

// Parse reads a table and checks that every entry weighs exactly the
// given features.
func Parse(data []byte, features []string) (*Table, error) {
	var t Table
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	if !slices.Contains(features, t.Unit) {
		return nil, fmt.Errorf("tune: unit %q is not a feature (known: %s)", t.Unit, strings.Join(features, ", "))
	}
	for name, e := range t.Families {
		if e == nil {
			return nil, fmt.Errorf("tune: family %s has no entry", name)
		}
		for k := range e.Weights {
			if !slices.Contains(features, k) {
				return nil, fmt.Errorf("tune: family %s weighs %q, not a feature (known: %s)", name, k, strings.Join(features, ", "))
			}
		}
		for _, k := range features {
			if _, ok := e.Weights[k]; !ok {
				return nil, fmt.Errorf("tune: family %s has no weight for %s", name, k)
			}
		}
	}
	return &t, nil
}

// Marshal writes the table as indented JSON, families in name order.
func (t *Table) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Scaled turns a fit's weights and intercept (in logits) into whole
// hundredths of the unit feature, the evaluation's scale.
func Scaled(f Fit, features []string, unit string) (weights map[string]int, constant int, err error) {
	u := slices.Index(features, unit)
	if u < 0 || u >= len(f.Weights) {
		return nil, 0, fmt.Errorf("tune: unit %q is not a feature", unit)
	}
	if f.Weights[u] <= 0 {
		return nil, 0, fmt.Errorf("tune: the fit gives the unit %s a weight of %.4f; the evaluation needs it positive (more games, or other features)", unit, f.Weights[u])
	}
	w := make(map[string]int, len(features))
	for i, name := range features {
		w[name] = int(math.Round(100 * f.Weights[i] / f.Weights[u]))
	}
	return w, int(math.Round(100 * f.Intercept / f.Weights[u])), nil
}
