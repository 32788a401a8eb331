package gametest

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/muster-games/muster/game"
)

// checkPlayers checks the players' names, which the rules' notation and
// results use.
func checkPlayers(t *testing.T, g game.Game) {
	t.Helper()
	if g.NumPlayers() < 1 {
		t.Fatalf("%s: %d players", g.Spec(), g.NumPlayers())
	}
	for p := range g.NumPlayers() {
		name := g.PlayerName(game.Player(p))
		back, err := g.ParsePlayer(name)
		if name == "" || err != nil || back != game.Player(p) {
			t.Fatalf("%s: player %d is named %q, read back as %d (%v)", g.Spec(), p, name, back, err)
		}
	}
	if _, err := g.ParsePlayer("nobody-plays-this"); err == nil {
		t.Fatalf("%s: ParsePlayer accepts a name that is no side's", g.Spec())
	}
	back, err := game.Load(g.Spec())
	if err != nil || back.Spec() != g.Spec() {
		t.Fatalf("%s: the spec does not load the game again (%v)", g.Spec(), err)
	}
	if info, _ := game.Lookup(g.Name()); info.Notation == "" || info.Description == "" || info.Title == "" {
		t.Fatalf("%s: the game's Info lacks its title, description or notation", g.Spec())
	}
}

// checkDescribed fails, with what to do, while the game's states still
// embed game.Undescribed.
func checkDescribed(t *testing.T, g game.Game) {
	t.Helper()
	if v := g.NewState().View(); v.Width == 0 && len(v.Pieces) == 0 {
		t.Fatalf("%s: the start's view is empty: the description is not written yet (a state that embeds game.Undescribed passes gametest.RunRules only)", g.Spec())
	}
}

// checkTraits checks that a game's traits fit it.
func checkTraits(t *testing.T, g game.Game) {
	t.Helper()
	tr := g.Traits()
	if len(tr.Players) != g.NumPlayers() {
		t.Fatalf("%s: traits name %d players, the game has %d", g.Spec(), len(tr.Players), g.NumPlayers())
	}
	for p, pt := range tr.Players {
		if pt.Name != g.PlayerName(game.Player(p)) || pt.Title == "" || (pt.Colour != "dark" && pt.Colour != "light") {
			t.Fatalf("%s: player %d's traits %+v do not fit the name %q", g.Spec(), p, pt, g.PlayerName(game.Player(p)))
		}
	}
	if tr.Bottom < 0 || int(tr.Bottom) >= g.NumPlayers() {
		t.Fatalf("%s: the player at the bottom is %d, not a player", g.Spec(), tr.Bottom)
	}
	if tr.Width <= 0 || tr.Height <= 0 || tr.Width > 26 || len(tr.Pieces) == 0 {
		t.Fatalf("%s: traits without a board or pieces: %+v", g.Spec(), tr)
	}
	// How the page draws each kind of region and piece comes from the
	// traits: a style it knows, a tint of its palette for a fill, an
	// emblem it can draw.
	for _, r := range tr.Regions {
		switch {
		case r.Kind == "" || r.Name == "":
			t.Fatalf("%s: a region without a kind or a name: %+v", g.Spec(), r)
		case r.Style != game.StyleFill && r.Style != game.StyleMarker && r.Style != game.StyleLine:
			t.Fatalf("%s: region %q's style %q (known: fill, marker, line)", g.Spec(), r.Kind, r.Style)
		case r.Style == game.StyleFill && !slices.Contains(game.Tints, r.Tint):
			t.Fatalf("%s: region %q fills with tint %q (known: %v)", g.Spec(), r.Kind, r.Tint, game.Tints)
		}
	}
	for _, p := range tr.Pieces {
		if p.Emblem != "" && p.Emblem != game.EmblemCrown {
			t.Fatalf("%s: piece %q's emblem %q (known: crown)", g.Spec(), p.Kind, p.Emblem)
		}
	}
	info, err := game.Lookup(g.Name())
	if err != nil {
		t.Fatalf("%s: %v", g.Spec(), err)
	}
	if tr.Chance && !info.Traits.Chance {
		t.Fatalf("%s: chance acts in this ruleset, but the game's traits say it never does", g.Spec())
	}
}

func onBoard(t *testing.T, g game.Game, what string, squares []string) {
	t.Helper()
	tr := g.Traits()
	for _, q := range squares {
		if _, _, err := game.ParseSquareName(q, tr.Width, tr.Height); err != nil {
			t.Fatalf("%s: %s: %v", g.Spec(), what, err)
		}
	}
}

// checkView checks that the view's pieces, regions and marks lie on the
// board and are of the kinds the traits list.
func checkView(t *testing.T, g game.Game, s game.State) {
	t.Helper()
	tr := g.Traits()
	v := s.View()
	if v.Width != tr.Width || v.Height != tr.Height {
		t.Fatalf("%s: view %d×%d, traits %d×%d", g.Spec(), v.Width, v.Height, tr.Width, tr.Height)
	}
	seen := map[string]bool{}
	for _, pc := range v.Pieces {
		onBoard(t, g, "piece", []string{pc.Square})
		if seen[pc.Square] {
			t.Fatalf("%s: two pieces on %s at %s", g.Spec(), pc.Square, s)
		}
		seen[pc.Square] = true
		if !slices.ContainsFunc(tr.Pieces, func(k game.PieceTraits) bool { return k.Kind == pc.Kind && k.Side == pc.Side }) {
			t.Fatalf("%s: piece %+v of a kind the traits do not list", g.Spec(), pc)
		}
	}
	for _, r := range v.Regions {
		onBoard(t, g, "region "+r.Kind, r.Squares)
		if !slices.ContainsFunc(tr.Regions, func(k game.RegionTraits) bool { return k.Kind == r.Kind }) {
			t.Fatalf("%s: region kind %q not in the traits", g.Spec(), r.Kind)
		}
	}
	for _, marks := range [][]string{v.Last, v.Captured, v.Removed, v.Converted} {
		onBoard(t, g, "marks", marks)
	}
	if m := v.Meter; m != nil && (m.Left < 0 || m.Left > m.Total || m.Label == "") {
		t.Fatalf("%s: meter %+v", g.Spec(), *m)
	}
}

// checkDescriptors checks the descriptors of the legal actions and the
// prompt.
func checkDescriptors(t *testing.T, g game.Game, s game.State, legal []game.Action) {
	t.Helper()
	type pick struct{ squares, label string }
	picks := map[pick]bool{}
	var first []string
	for _, a := range legal {
		d := s.Describe(a)
		if d.Text != s.ActionString(a) || d.Kind == "" || d.Label == "" || len(d.Squares) > 2 {
			t.Fatalf("%s: descriptor %+v of %s at %s", g.Spec(), d, s.ActionString(a), s)
		}
		onBoard(t, g, "action "+d.Text, d.Squares)
		k := pick{strings.Join(d.Squares, " "), d.Label}
		if picks[k] {
			t.Fatalf("%s: two actions pick %q with the label %q at %s", g.Spec(), k.squares, k.label, s)
		}
		picks[k] = true
		if len(d.Squares) > 0 && !slices.Contains(first, d.Squares[0]) {
			first = append(first, d.Squares[0])
		}
		if !d.EndsTurn {
			c := s.Clone()
			c.Apply(a)
			if !c.IsTerminal() && c.ToAct() != s.ToAct() {
				t.Fatalf("%s: %s does not end the turn, but %d acts after it at %s", g.Spec(), d.Text, c.ToAct(), s)
			}
		}
	}
	// A game that describes its actions at once describes them as one by
	// one, appended after what its slice held, and never writes past the
	// slice it was given.
	if ld, ok := s.(game.LegalDescriber); ok {
		before := game.ActionInfo{Text: "before", Kind: "move"}
		buf := make([]game.ActionInfo, 1, 1+len(legal)+1)
		buf[0] = before
		all := ld.AppendLegal(buf)
		if len(all) != 1+len(legal) || !reflect.DeepEqual(all[0], before) {
			t.Fatalf("%s: AppendLegal gives %d actions after the one given, LegalActions %d, at %s", g.Spec(), len(all)-1, len(legal), s)
		}
		if spare := buf[:cap(buf)][len(all):]; len(spare) > 0 && !reflect.DeepEqual(spare[0], game.ActionInfo{}) {
			t.Fatalf("%s: AppendLegal wrote past its actions at %s", g.Spec(), s)
		}
		for i, a := range legal {
			if d := s.Describe(a); !reflect.DeepEqual(all[1+i], d) {
				t.Fatalf("%s: AppendLegal's action %d is %+v, Describe's %+v at %s", g.Spec(), i, all[1+i], d, s)
			}
		}
	}
	p := s.Prompt()
	if p.Player != s.ToAct() || p.Text == "" {
		t.Fatalf("%s: prompt %+v at %s (to act %d)", g.Spec(), p, s, s.ToAct())
	}
	got := slices.Clone(p.Squares)
	slices.Sort(got)
	slices.Sort(first)
	if !slices.Equal(got, first) {
		t.Fatalf("%s: prompt %q asks for %v; the legal actions pick %v at %s", g.Spec(), p.Text, got, first, s)
	}
}

// checkEvents checks that the last action's events are said in words and
// lie on the board.
func checkEvents(t *testing.T, g game.Game, s game.State) {
	t.Helper()
	for _, e := range s.Events() {
		if e.Kind == "" || e.Text == "" {
			t.Fatalf("%s: event %+v without a kind or words", g.Spec(), e)
		}
		onBoard(t, g, "event "+e.Kind, e.Squares)
	}
}

// checkEnd checks that a finished game announces its end and that its
// turns partition its history.
func checkEnd(t *testing.T, g game.Game, s game.State) {
	t.Helper()
	if !slices.ContainsFunc(s.Events(), func(e game.Event) bool { return e.Kind == "game-over" }) {
		t.Fatalf("%s: the last action's events %+v do not announce the end", g.Spec(), s.Events())
	}
	if p := s.Prompt(); p.Player != game.Terminal || p.Text == "" || len(p.Squares) > 0 {
		t.Fatalf("%s: prompt at the end %+v", g.Spec(), p)
	}
	hist := s.History()
	turns := game.Turns(g.NewState(), hist)
	replay := g.NewState()
	ply := 0
	for i, tu := range turns {
		if tu.First != ply || len(tu.Actions) == 0 || len(tu.Labels) != len(tu.Actions) {
			t.Fatalf("%s: turn %d %+v does not follow ply %d", g.Spec(), i+1, tu, ply)
		}
		// Numbered as the game's records number turns: by pairs of moves
		// where the traits say so, else one more for each change of player.
		want := 1
		switch {
		case g.Traits().TurnPairs:
			want = ply/2 + 1
		case i > 0:
			want = turns[i-1].Number
			if turns[i-1].Player != tu.Player {
				want++
			}
		}
		if tu.Number != want {
			t.Fatalf("%s: turn %d %+v is numbered %d, want %d", g.Spec(), i+1, tu, tu.Number, want)
		}
		for _, text := range tu.Actions {
			if p := replay.ToAct(); p != game.Chance && p != tu.Player {
				t.Fatalf("%s: turn %d is %d's, but %d made %s", g.Spec(), tu.Number, tu.Player, p, text)
			}
			if want := replay.ActionString(hist[ply]); text != want {
				t.Fatalf("%s: turn %d holds %s at ply %d, the history %s", g.Spec(), tu.Number, text, ply, want)
			}
			replay.Apply(hist[ply])
			ply++
		}
	}
	if ply != len(hist) {
		t.Fatalf("%s: the turns hold %d actions of %d", g.Spec(), ply, len(hist))
	}
}
