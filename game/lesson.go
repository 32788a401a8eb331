package game

import "fmt"

// A Lesson is one step of a game's walkthrough: a real position, what to
// learn and do there in words, and a goal the rules check.
type Lesson struct {
	Title   string `json:"title"`
	Ruleset string `json:"ruleset"`
	// Rule is the rule the step practises, stated plainly: the page shows
	// it above the task, never folded away.
	Rule string `json:"rule,omitempty"`
	// Task is what to do, in one line; Text is the why, for those who
	// ask.
	Task     string `json:"task"`
	Text     string `json:"text"`
	Position string `json:"position"` // in the game's position text
	// Goal is met by an action of the learner's whose events include one
	// of this kind ("rendezvous-won", "capture"), or, for GoalTurn, when
	// his turn ends, or, for GoalAct, by any action of his.
	Goal string `json:"goal"`
	Done string `json:"done"` // said when the goal is met
	Hint string `json:"hint"`
	// Solution is one way to the goal, in the game's notation; the game's
	// tests play it.
	Solution []string `json:"solution"`
	// Reply is the other side's answer, played once the goal is met, for
	// the learner to see what it does (an interchange demanded of him).
	Reply []string `json:"reply,omitempty"`
	// Figures are the game's figures (by index in Info.Figures) the step
	// shows beside its task: every shape a region can take, say.
	Figures []int `json:"figures,omitempty"`
	// Watch is a stretch of play the step shows rather than asks for
	// (GoalWatch): the page plays it out, move by move, with each move's
	// words where it has them.
	Watch []Shown `json:"watch,omitempty"`
}

// Shown is one action of a lesson's Watch: the action in the game's
// notation, and what to say as it is played ("" for nothing new).
type Shown struct {
	Action string `json:"action"`
	Say    string `json:"say,omitempty"`
}

// Goals other than an event's kind.
const (
	GoalTurn = "turn" // the learner's turn ends
	GoalAct  = "act"  // the learner acts at all
	// GoalWatch is met when the step's Watch has been played out: the
	// learner is shown, not asked.
	GoalWatch = "watch"
)

// Met reports whether the learner's goal is met in s, just after one of
// his actions.
func (l Lesson) Met(learner Player, s State) bool {
	switch l.Goal {
	case GoalAct:
		return true
	case GoalTurn:
		return s.IsTerminal() || s.ToAct() != learner
	}
	for _, e := range s.Events() {
		if e.Kind == l.Goal {
			return true
		}
	}
	return false
}

// Play plays a lesson's solution from its position under g and reports
// whether the goal was met by its last action, and not before. The
// solution must be written as the game writes actions (the page matches
// it against the legal actions' texts).
func (l Lesson) Play(g Game) (bool, error) {
	s, err := g.ParseState(l.Position)
	if err != nil {
		return false, err
	}
	if l.Goal == GoalWatch {
		return l.playWatch(s)
	}
	learner := s.ToAct()
	for i, text := range l.Solution {
		if s.IsTerminal() || s.ToAct() != learner {
			return false, nil
		}
		a, err := s.ParseAction(text)
		if err != nil {
			return false, err
		}
		if w := s.ActionString(a); w != text {
			return false, fmt.Errorf("lesson %q: write %q as the game writes it, %q", l.Title, text, w)
		}
		s.Apply(a)
		if l.Met(learner, s) != (i == len(l.Solution)-1) {
			return false, nil
		}
	}
	for _, text := range l.Reply {
		if s.IsTerminal() || s.ToAct() == learner || s.ToAct() < 0 {
			return false, fmt.Errorf("lesson %q: the reply %q is not the other side's to play", l.Title, text)
		}
		a, err := s.ParseAction(text)
		if err != nil {
			return false, err
		}
		s.Apply(a)
	}
	return len(l.Solution) > 0, nil
}

// playWatch plays a watch step's actions from s: each must be legal and
// written as the game writes it, and the step must show something.
func (l Lesson) playWatch(s State) (bool, error) {
	if len(l.Solution) > 0 {
		return false, fmt.Errorf("lesson %q: a step to watch has no solution", l.Title)
	}
	for _, w := range l.Watch {
		if s.IsTerminal() {
			return false, fmt.Errorf("lesson %q: %q is played after the game is over", l.Title, w.Action)
		}
		a, err := s.ParseAction(w.Action)
		if err != nil {
			return false, err
		}
		if got := s.ActionString(a); got != w.Action {
			return false, fmt.Errorf("lesson %q: write %q as the game writes it, %q", l.Title, w.Action, got)
		}
		s.Apply(a)
	}
	return len(l.Watch) > 0, nil
}
