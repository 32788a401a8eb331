package tune

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// samplesOf draws n samples from a known logistic model.
func samplesOf(n int, w []float64, b float64, seed uint64) []Sample {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]Sample, n)
	for i := range out {
		x := make([]float64, len(w))
		z := b
		for j := range x {
			x[j] = float64(rng.IntN(9)) - 4
			z += w[j] * x[j]
		}
		y := 0.0
		if rng.Float64() < sigmoid(z) {
			y = 1
		}
		out[i] = Sample{X: x, Y: y}
	}
	return out
}

func TestLogisticRecoversTheModel(t *testing.T) {
	w, b := []float64{0.8, -0.5, 0}, 0.3
	fit, err := Logistic(samplesOf(40000, w, b, 1), 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range w {
		if math.Abs(fit.Weights[i]-w[i]) > 0.05 {
			t.Errorf("weight %d = %.3f, want %.3f", i, fit.Weights[i], w[i])
		}
	}
	if math.Abs(fit.Intercept-b) > 0.05 {
		t.Errorf("intercept %.3f, want %.3f", fit.Intercept, b)
	}
	if !(fit.Loss < fit.Base) {
		t.Errorf("loss %.4f not below the win rate's %.4f", fit.Loss, fit.Base)
	}
}

func TestLogisticDrawsAreHalf(t *testing.T) {
	s := samplesOf(2000, []float64{1, 1}, 0, 2)
	for i := range s {
		s[i].Y = 0.5
	}
	fit, err := Logistic(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range append(fit.Weights, fit.Intercept) {
		if math.Abs(v) > 1e-6 {
			t.Errorf("coefficient %d = %g, want 0 when every game is drawn", i, v)
		}
	}
	if math.Abs(fit.Loss-math.Ln2) > 1e-9 {
		t.Errorf("loss %g, want ln 2", fit.Loss)
	}
}

func TestLogisticRidgeAndDependentFeatures(t *testing.T) {
	s := samplesOf(1000, []float64{1}, 0, 3)
	for i := range s {
		s[i].X = append(s[i].X, 2*s[i].X[0]) // the second feature is the first, doubled
	}
	if _, err := Logistic(s, 0); err == nil || !strings.Contains(err.Error(), "not independent") {
		t.Errorf("dependent features without a ridge: err = %v", err)
	}
	fit, err := Logistic(s, 1e-3)
	if err != nil {
		t.Fatalf("with a ridge: %v", err)
	}
	if got := fit.Weights[0] + 2*fit.Weights[1]; math.Abs(got-1) > 0.15 {
		t.Errorf("with a ridge the combined weight is %.3f, want about 1", got)
	}
}

func TestLogisticRefusesBadSamples(t *testing.T) {
	for _, s := range [][]Sample{
		nil,
		{{X: []float64{1}, Y: 1}, {X: []float64{1, 2}, Y: 0}},
		{{X: []float64{1}, Y: 2}},
		{{X: []float64{1}, Y: math.NaN()}},
	} {
		if _, err := Logistic(s, 0); err == nil {
			t.Errorf("Logistic(%v) gave no error", s)
		}
	}
}

func TestScaled(t *testing.T) {
	f := Fit{Weights: []float64{-0.3, 0.5, 2}, Intercept: -0.72}
	w, c, err := Scaled(f, []string{"a", "d", "r"}, "d")
	if err != nil {
		t.Fatal(err)
	}
	if w["a"] != -60 || w["d"] != 100 || w["r"] != 400 {
		t.Errorf("scaled %v, want a -60, d 100, r 400", w)
	}
	if c != -144 {
		t.Errorf("constant %d, want -0.72/0.5×100 = -144", c)
	}
	if _, _, err := Scaled(Fit{Weights: []float64{1, -0.1}}, []string{"a", "d"}, "d"); err == nil {
		t.Error("a negative unit weight was scaled")
	}
	if _, _, err := Scaled(f, []string{"a", "d", "r"}, "x"); err == nil {
		t.Error("an unknown unit was scaled")
	}
}

func TestTableRoundTripAndChecks(t *testing.T) {
	features := []string{"a", "d"}
	tb := &Table{Unit: "d", Families: map[string]*Entry{"x": {Weights: map[string]int{"a": -60, "d": 100}, Constant: -25, Command: "muster tune r.jsonl", Games: 3}}}
	data, err := tb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data, features)
	if err != nil {
		t.Fatal(err)
	}
	if e := back.Families["x"]; e.Weights["a"] != -60 || e.Constant != -25 || e.Command != "muster tune r.jsonl" || e.Games != 3 {
		t.Errorf("round trip gave %+v", e)
	}
	for _, bad := range []string{
		`{"unit": "z", "families": {}}`,
		`{"unit": "d", "families": {"x": {"weights": {"a": 1}}}}`,
		`{"unit": "d", "families": {"x": {"weights": {"a": 1, "d": 100, "q": 3}}}}`,
		`{"unit": "d", "families": {"x": null}}`,
		`{"unit": "d", "families": [`,
	} {
		if _, err := Parse([]byte(bad), features); err == nil {
			t.Errorf("Parse(%s) gave no error", bad)
		}
	}
}

// FuzzParse: any bytes either parse into a table that writes and reads
// back the same, or give an error; nothing panics.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"unit": "d", "families": {"x": {"weights": {"a": -60, "d": 100}}}}`))
	f.Add([]byte(`{"unit": "d"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := Parse(data, []string{"a", "d"})
		if err != nil {
			return
		}
		out, err := tb.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(out, []string{"a", "d"}); err != nil {
			t.Fatalf("a parsed table does not parse back: %v\n%s", err, out)
		}
	})
}
