// Package outcome is how a game ended, as data: a seat that won (with the
// scores of a game that counts them), a draw, a game called off, or
// scores without a winner, each with its reason in words. The parts that
// act on an ending (ratings, tournaments, the page, bots) read this, never
// the words the store keeps; Read and Text turn one into the other for a
// game's sides: the winner's name ("defenders"), "draw", "aborted", or the
// scores ("black 5, white 2").
package outcome

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/muster-games/muster/game"
)

// Kind is what sort of ending an Outcome is.
type Kind uint8

const (
	// None is a game not over.
	None Kind = iota
	// Win is a game a seat won.
	Win
	// Draw is a game nobody won.
	Draw
	// Aborted is a game called off: nobody moved in time, an
	// administrator stopped it, or it ended before both sides had moved.
	Aborted
	// Scored is a game ended with scores and no winner.
	Scored
)

var kindNames = [...]string{"none", "win", "draw", "aborted", "scored"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Outcome is the end of a game.
type Outcome struct {
	Kind Kind
	// Winner is the seat that won a Win; -1 otherwise.
	Winner int
	// Scores are the seats' scores in a game that counts them, else nil.
	Scores []int
	// Reason says why in a few words ("king escaped", "black resigned").
	Reason string
}

// Won is a win for seat.
func Won(seat int, reason string) Outcome { return Outcome{Kind: Win, Winner: seat, Reason: reason} }

// Drawn is a draw.
func Drawn(reason string) Outcome { return Outcome{Kind: Draw, Winner: -1, Reason: reason} }

// Abort is a game called off.
func Abort(reason string) Outcome { return Outcome{Kind: Aborted, Winner: -1, Reason: reason} }

// Of is the outcome the rules gave a state: None while it goes on.
func Of(s game.State) Outcome {
	if !s.IsTerminal() {
		return Outcome{Winner: -1}
	}
	r := s.Result()
	o := Outcome{Kind: Draw, Winner: -1, Reason: r.Reason, Scores: r.Scores}
	switch {
	case r.Winner >= 0:
		o.Kind, o.Winner = Win, int(r.Winner)
	case r.Scores != nil:
		o.Kind = Scored
	}
	return o
}

const (
	drawText    = "draw"
	abortedText = "aborted"
)

// Text is the outcome in the words the store keeps for game g: the
// scores where there are some, else the winner's side name, "draw" or
// "aborted"; "" for None.
func (o Outcome) Text(g game.Game) string {
	switch {
	case o.Kind == None:
		return ""
	case o.Kind == Aborted:
		return abortedText
	case o.Scores != nil:
		parts := make([]string, len(o.Scores))
		for p, sc := range o.Scores {
			parts[p] = fmt.Sprintf("%s %d", g.PlayerName(game.Player(p)), sc)
		}
		return strings.Join(parts, ", ")
	case o.Kind == Win:
		return g.PlayerName(game.Player(o.Winner))
	}
	return drawText
}

// Read is the outcome kept as text for game g, with its reason; "" is
// None. A game won on scores is a Win for the seat with the most (the
// scores are kept, the winner was not); equal scores are Scored.
func Read(g game.Game, text, reason string) (Outcome, error) {
	o := Outcome{Winner: -1, Reason: reason}
	switch text {
	case "":
		return Outcome{Winner: -1}, nil
	case drawText:
		o.Kind = Draw
		return o, nil
	case abortedText:
		o.Kind = Aborted
		return o, nil
	}
	for p := 0; p < g.NumPlayers(); p++ {
		if text == g.PlayerName(game.Player(p)) {
			o.Kind, o.Winner = Win, p
			return o, nil
		}
	}
	parts := strings.Split(text, ", ")
	if len(parts) != g.NumPlayers() {
		return Outcome{}, fmt.Errorf("outcome %q of %s: not a side's name, %q, %q or the scores of every side", text, g.Name(), drawText, abortedText)
	}
	o.Scores = make([]int, len(parts))
	for p, part := range parts {
		name, n, ok := strings.Cut(part, " ")
		sc, err := strconv.Atoi(n)
		if !ok || err != nil || name != g.PlayerName(game.Player(p)) {
			return Outcome{}, fmt.Errorf("outcome %q of %s: %q is not %s's score", text, g.Name(), part, g.PlayerName(game.Player(p)))
		}
		o.Scores[p] = sc
	}
	o.Kind = Scored
	best, ties := 0, 0
	for p, sc := range o.Scores {
		switch {
		case sc > o.Scores[best]:
			best, ties = p, 0
		case sc == o.Scores[best] && p != best:
			ties++
		}
	}
	if ties == 0 {
		o.Kind, o.Winner = Win, best
	}
	return o, nil
}

// Points is what the ending gives seat in ratings and tournaments: 1 for
// a win, ½ for a draw, 0 for a loss; false for an ending that scores
// nobody (None, Aborted, Scored).
func (o Outcome) Points(seat int) (float64, bool) {
	switch o.Kind {
	case Win:
		if o.Winner == seat {
			return 1, true
		}
		return 0, true
	case Draw:
		return 0.5, true
	}
	return 0, false
}

// Sentence says the ending for people, with the side names of g: "Black
// won: white resigned.", "Draw: draw agreed.", "Game aborted: …".
func (o Outcome) Sentence(g game.Game) string {
	var head string
	switch o.Kind {
	case None:
		return ""
	case Win:
		name := g.PlayerName(game.Player(o.Winner))
		head = strings.ToUpper(name[:1]) + name[1:] + " won"
	case Draw:
		head = "Draw"
	case Aborted:
		head = "Game aborted"
	case Scored:
		head = "Ended on scores " + o.Text(g)
	}
	if o.Reason == "" {
		return head + "."
	}
	return head + ": " + o.Reason + "."
}
