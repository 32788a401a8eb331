package lanrick

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/muster-games/muster/game"
)

func (s *State) ActionString(a game.Action) string { return actionText(a) }

// ParseAction reads an action and checks that it is legal here.
func (s *State) ParseAction(text string) (game.Action, error) {
	a, err := parseActionText(text)
	if err != nil {
		return 0, err
	}
	if s.over {
		return 0, fmt.Errorf("lanrick: %w %s: the game is over", game.ErrIllegal, text)
	}
	if !s.IsLegal(a) {
		return 0, fmt.Errorf("lanrick: %w %s: %s", game.ErrIllegal, text, s.whyIllegal(a))
	}
	return a, nil
}

// actionText writes an action in the notation of docs/lanrick-rules.md.
func actionText(x game.Action) string {
	k, a, b := unpack(x)
	switch k {
	case kPlace:
		return "@" + Square(a).String()
	case kRoll:
		return "roll " + strconv.Itoa(a)
	case kMark:
		if b > 0 {
			return "mark " + Square(a).String() + " " + dirNames[b-1]
		}
		return "mark " + Square(a).String()
	case kInterchange:
		return "interchange"
	case kNoInterchange:
		return "no-interchange"
	case kSwap:
		return "swap " + Square(a).String()
	case kMove:
		return Square(a).String() + "-" + Square(b).String()
	case kSlide:
		return Square(a).String() + "~" + Square(b).String()
	case kMarkMove:
		return "mark>" + Square(b).String()
	case kEnd:
		return "end"
	case kPass:
		return "pass"
	case kRemove:
		return "x " + Square(a).String()
	}
	return fmt.Sprintf("?%d", x)
}

// splitActions splits a list of actions at spaces, keeping "mark", "x",
// "swap" and "roll" with the words that follow them.
func splitActions(text string) []string {
	f := strings.Fields(text)
	var out []string
	for i := 0; i < len(f); i++ {
		w := f[i]
		switch w {
		case "mark", "x", "swap", "roll":
			if i+1 < len(f) {
				i++
				w += " " + f[i]
				if f[i-1] == "mark" && i+1 < len(f) && isLineDir(f[i+1]) {
					i++
					w += " " + f[i]
				}
			}
		}
		out = append(out, w)
	}
	return out
}

func isLineDir(s string) bool { return s == "n" || s == "e" || s == "ne" || s == "nw" }

// parseActionText reads one action; it checks the syntax only.
func parseActionText(t string) (game.Action, error) {
	t = strings.TrimSpace(t)
	bad := func(why string) (game.Action, error) {
		return 0, fmt.Errorf("lanrick: %w: bad action %q: %s", game.ErrSyntax, t, why)
	}
	square := func(s string) (int, bool) {
		q, err := ParseSquare(s)
		return int(q), err == nil
	}
	switch {
	case t == "interchange":
		return pack(kInterchange, 0, 0), nil
	case t == "no-interchange":
		return pack(kNoInterchange, 0, 0), nil
	case t == "end":
		return pack(kEnd, 0, 0), nil
	case t == "pass":
		return pack(kPass, 0, 0), nil
	case strings.HasPrefix(t, "@"):
		if s, ok := square(t[1:]); ok {
			return pack(kPlace, s, 0), nil
		}
		return bad("want @ and a square, such as @c1")
	case strings.HasPrefix(t, "roll "):
		n, err := strconv.Atoi(strings.TrimSpace(t[5:]))
		if err != nil || n < 1 || n > 6 {
			return bad("want roll 1 to roll 6")
		}
		return pack(kRoll, n, 0), nil
	case strings.HasPrefix(t, "mark>"):
		if s, ok := square(t[5:]); ok {
			return pack(kMarkMove, 0, s), nil
		}
		return bad("want mark> and a square, such as mark>e6")
	case strings.HasPrefix(t, "mark "):
		f := strings.Fields(t[5:])
		if len(f) < 1 || len(f) > 2 {
			return bad("want mark and a square, and for a 3-square rendezvous a direction n, e, ne or nw")
		}
		s, ok := square(f[0])
		if !ok {
			return bad("want mark and a square, such as mark d5")
		}
		line := 0
		if len(f) == 2 {
			if !isLineDir(f[1]) {
				return bad("the line of a 3-square rendezvous is n, e, ne or nw")
			}
			line = dirIndex(f[1]) + 1
		}
		return pack(kMark, s, line), nil
	case strings.HasPrefix(t, "swap "):
		if s, ok := square(strings.TrimSpace(t[5:])); ok {
			return pack(kSwap, s, 0), nil
		}
		return bad("want swap and a square, such as swap e8")
	case strings.HasPrefix(t, "x "):
		if s, ok := square(strings.TrimSpace(t[2:])); ok {
			return pack(kRemove, s, 0), nil
		}
		return bad("want x and a square, such as x e5")
	case len(t) == 5 && (t[2] == '-' || t[2] == '~'):
		a, ok1 := square(t[:2])
		b, ok2 := square(t[3:])
		if !ok1 || !ok2 {
			return bad("want two squares, such as c3-e5 or c1~f1")
		}
		if t[2] == '~' {
			return pack(kSlide, a, b), nil
		}
		return pack(kMove, a, b), nil
	}
	return bad("want a move such as c3-e5, a slide c1~f1, @c1, mark d5, mark>e6, x e5, swap e8, interchange, no-interchange, end, pass or roll 4")
}
