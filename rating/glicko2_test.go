package rating

import (
	"math"
	"testing"
)

// TestGlickmansExample: the worked example of Glickman's "Example of the
// Glicko-2 system": a 1500 (RD 200, σ 0.06) player who beats a 1400 (RD
// 30) and loses to a 1550 (RD 100) and a 1700 (RD 300), τ = 0.5, ends at
// 1464.06, RD 151.52, σ 0.05999.
func TestGlickmansExample(t *testing.T) {
	p := Rating{R: 1500, RD: 200, Vol: 0.06}
	got := Update(p, []Result{
		{Opponent: Rating{R: 1400, RD: 30, Vol: 0.06}, Score: 1},
		{Opponent: Rating{R: 1550, RD: 100, Vol: 0.06}, Score: 0},
		{Opponent: Rating{R: 1700, RD: 300, Vol: 0.06}, Score: 0},
	}, 0.5)
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"rating", got.R, 1464.06, 0.01},
		{"deviation", got.RD, 151.52, 0.01},
		{"volatility", got.Vol, 0.05999, 0.00001}, // printed to five places
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s %.7f, want %.5f", c.name, c.got, c.want)
		}
	}
}

// TestOneGame: between two new players the winner gains what the loser
// loses, both become surer, and a draw moves neither.
func TestOneGame(t *testing.T) {
	a, b := New(), New()
	a2 := Update(a, []Result{{Opponent: b, Score: 1}}, Tau)
	b2 := Update(b, []Result{{Opponent: a, Score: 0}}, Tau)
	if !(a2.R > 1500 && b2.R < 1500) || math.Abs((a2.R-1500)+(b2.R-1500)) > 1e-6 {
		t.Errorf("after a win %.2f and %.2f", a2.R, b2.R)
	}
	if !(a2.RD < a.RD && b2.RD < b.RD) {
		t.Errorf("deviations %.1f and %.1f did not fall from 350", a2.RD, b2.RD)
	}
	if d := Update(a, []Result{{Opponent: b, Score: 0.5}}, Tau); math.Abs(d.R-1500) > 1e-6 {
		t.Errorf("a draw between equals moved the rating to %.4f", d.R)
	}
	// An upset moves more than an expected win.
	strong := Rating{R: 1900, RD: 60, Vol: 0.06}
	weak := Rating{R: 1500, RD: 60, Vol: 0.06}
	up := Update(weak, []Result{{Opponent: strong, Score: 1}}, Tau).R - weak.R
	exp := Update(strong, []Result{{Opponent: weak, Score: 1}}, Tau).R - strong.R
	if !(up > 5*exp && exp > 0) {
		t.Errorf("the upset gained %.2f, the expected win %.2f", up, exp)
	}
}

// TestIdlePeriodsWidenTheDeviation: a period without games widens the
// deviation, up to a new player's, and leaves the rating.
func TestIdlePeriodsWidenTheDeviation(t *testing.T) {
	p := Rating{R: 1720, RD: 50, Vol: 0.06}
	q := Update(p, nil, Tau)
	if q.R != p.R || !(q.RD > p.RD) {
		t.Errorf("after an idle period %+v", q)
	}
	for range 2000 {
		q = Update(q, nil, Tau)
	}
	if q.RD != MaxRD {
		t.Errorf("after long idleness RD %.1f, want %d", q.RD, MaxRD)
	}
}

func TestProvisional(t *testing.T) {
	if !New().Provisional() || (Rating{R: 1500, RD: 80, Vol: 0.06}).Provisional() {
		t.Error("a new player is not provisional, or a settled one is")
	}
}
