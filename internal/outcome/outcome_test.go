package outcome_test

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/outcome"
	_ "github.com/muster-games/muster/lanrick"
	_ "github.com/muster-games/muster/tablut"
)

func load(t *testing.T, spec string) game.Game {
	t.Helper()
	g, err := game.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Every outcome written as the store keeps it reads back the same.
func TestTextReadsBack(t *testing.T) {
	g := load(t, "tablut(linnaeus)")
	for _, o := range []outcome.Outcome{
		outcome.Won(0, "king captured"), outcome.Won(1, "attackers resigned"),
		outcome.Drawn("draw agreed"), outcome.Abort("nobody moved"),
		{Kind: outcome.Win, Winner: 0, Scores: []int{5, 2}, Reason: "black scored 5 marks"},
		{Kind: outcome.Scored, Winner: -1, Scores: []int{3, 3}, Reason: "even"},
	} {
		text := o.Text(g)
		back, err := outcome.Read(g, text, o.Reason)
		if err != nil {
			t.Fatalf("%+v as %q: %v", o, text, err)
		}
		if !reflect.DeepEqual(back, o) {
			t.Errorf("%q read back as %+v, want %+v", text, back, o)
		}
	}
}

// A won game of Lanrick 1879 (March) ends on marks: its record keeps the
// scores, and the outcome is still the winner's, for ratings and
// tournaments (which once counted it a draw: the scores were not a side's
// name).
func TestScoredWinIsAWin(t *testing.T) {
	g := load(t, "lanrick(1879-03)")
	o, err := outcome.Read(g, g.PlayerName(0)+" 5, "+g.PlayerName(1)+" 2", "black scored 5 marks")
	if err != nil {
		t.Fatal(err)
	}
	if o.Kind != outcome.Win || o.Winner != 0 {
		t.Fatalf("got %+v, want a win for seat 0", o)
	}
	if p, ok := o.Points(0); !ok || p != 1 {
		t.Errorf("the winner's points: %v %v", p, ok)
	}
	if p, ok := o.Points(1); !ok || p != 0 {
		t.Errorf("the loser's points: %v %v", p, ok)
	}
}

// The rules' own end is read from the state; a game going on is None.
func TestOfState(t *testing.T) {
	g := load(t, "tablut(linnaeus)")
	s := g.NewState()
	if o := outcome.Of(s); o.Kind != outcome.None || o.Text(g) != "" {
		t.Fatalf("the start: %+v", o)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; !s.IsTerminal() && i < 5000; i++ {
		legal := s.LegalActions(nil)
		s.Apply(legal[rng.IntN(len(legal))])
	}
	if !s.IsTerminal() {
		t.Fatal("a random game of Tablut did not end in 5,000 actions")
	}
	o := outcome.Of(s)
	if o.Text(g) != game.ResultName(s) {
		t.Errorf("Text %q, the rules' result %q", o.Text(g), game.ResultName(s))
	}
	if o.Reason != s.Result().Reason {
		t.Errorf("reason %q, want %q", o.Reason, s.Result().Reason)
	}
}

func TestPointsAndSentences(t *testing.T) {
	g := load(t, "tablut(linnaeus)")
	for _, c := range []struct {
		o        outcome.Outcome
		p0, p1   float64
		scores   bool
		sentence string
	}{
		{outcome.Won(1, "the king escaped"), 0, 1, true, "Defenders won: the king escaped."},
		{outcome.Drawn("draw agreed"), 0.5, 0.5, true, "Draw: draw agreed."},
		{outcome.Abort("aborted by an administrator"), 0, 0, false, "Game aborted: aborted by an administrator."},
	} {
		p0, ok0 := c.o.Points(0)
		p1, ok1 := c.o.Points(1)
		if p0 != c.p0 || p1 != c.p1 || ok0 != c.scores || ok1 != c.scores {
			t.Errorf("%+v: points %v %v (%v %v)", c.o, p0, p1, ok0, ok1)
		}
		if got := c.o.Sentence(g); got != c.sentence {
			t.Errorf("%+v: %q, want %q", c.o, got, c.sentence)
		}
	}
}

func TestReadRefusesWhatIsNoOutcome(t *testing.T) {
	g := load(t, "tablut(linnaeus)")
	for _, text := range []string{"swedes", "attackers 3", "attackers x, defenders 2", "defenders 1, attackers 2", "Draw"} {
		if _, err := outcome.Read(g, text, ""); err == nil || !strings.Contains(err.Error(), "outcome") {
			t.Errorf("%q: err %v", text, err)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add("attackers 5, defenders 2")
	f.Add("draw")
	f.Add("defenders")
	g, err := game.Load("tablut(linnaeus)")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		o, err := outcome.Read(g, text, "r")
		if err != nil {
			return
		}
		back, err := outcome.Read(g, o.Text(g), "r")
		if err != nil || !reflect.DeepEqual(back, o) {
			t.Fatalf("%q → %+v → %q → %+v, %v", text, o, o.Text(g), back, err)
		}
	})
}
