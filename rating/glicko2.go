// Package rating rates players by Glickman's Glicko-2 system: a rating, its
// deviation (how uncertain it is) and a volatility (how erratic the player
// is), updated from the games of a rating period. The steps follow
// Glickman, "Example of the Glicko-2 system" (2013), whose worked example
// the tests check.
package rating

import "math"

// Rating is a player's Glicko-2 rating on the familiar scale.
type Rating struct {
	R   float64 `json:"r"`   // the rating (1500 for a new player)
	RD  float64 `json:"rd"`  // the rating deviation (350 for a new player)
	Vol float64 `json:"vol"` // the volatility σ (0.06 for a new player)
}

// Defaults of a new player, and the system's constants.
const (
	StartR   = 1500
	StartRD  = 350
	StartVol = 0.06
	// Tau constrains the change in volatility over time (Glickman: 0.3
	// to 1.2); lichess plays with 0.75.
	Tau = 0.75
	// MinRD keeps a rating from freezing; MaxRD is a new player's.
	MinRD = 45
	MaxRD = StartRD
	// ProvisionalRD: above it a rating is provisional (shown with a "?",
	// as lichess does).
	ProvisionalRD = 110

	scale   = 173.7178 // Glicko-2's scale: 400 / ln 10
	epsilon = 1e-6     // the convergence tolerance of the volatility
)

// New is a new player's rating.
func New() Rating { return Rating{R: StartR, RD: StartRD, Vol: StartVol} }

// Provisional reports whether the rating is still too uncertain to be
// trusted.
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

// Result is one game of a rating period: the opponent's rating before the
// period and the score (1 a win, ½ a draw, 0 a loss).
type Result struct {
	Opponent Rating
	Score    float64
}

// Update returns the player's rating after a rating period in which he
// played the given games, with the system constant tau. A period without
// games only widens the deviation.
func Update(p Rating, games []Result, tau float64) Rating {
	// Step 2: to the Glicko-2 scale.
	mu, phi, sigma := (p.R-StartR)/scale, p.RD/scale, p.Vol
	if len(games) == 0 {
		return Rating{R: p.R, RD: clampRD(math.Sqrt(phi*phi+sigma*sigma) * scale), Vol: sigma}
	}
	// Steps 3 and 4: the estimated variance v and improvement Δ.
	var vInv, sum float64
	for _, g := range games {
		muJ, phiJ := (g.Opponent.R-StartR)/scale, g.Opponent.RD/scale
		gj := gOf(phiJ)
		e := 1 / (1 + math.Exp(-gj*(mu-muJ)))
		vInv += gj * gj * e * (1 - e)
		sum += gj * (g.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility, by the Illinois algorithm.
	sigma = volatility(delta, phi, v, sigma, tau)
	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	// Step 8: back to the familiar scale.
	return Rating{R: muNew*scale + StartR, RD: clampRD(phiNew * scale), Vol: sigma}
}

func gOf(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func clampRD(rd float64) float64 { return min(max(rd, MinRD), MaxRD) }

// volatility solves Glickman's step 5 for the new σ.
func volatility(delta, phi, v, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
