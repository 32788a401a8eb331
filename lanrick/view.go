package lanrick

// View is what a board display needs of a state, as plain data.
type View struct {
	Men        map[string][]string `json:"men"` // "black", "white": squares
	Rendezvous []string            `json:"rendezvous"`
	Mark       string              `json:"mark,omitempty"`
	Size       int                 `json:"size"`
	Open       bool                `json:"open"`
	Line       string              `json:"line,omitempty"`
	Phase      string              `json:"phase"`
	Setter     string              `json:"setter,omitempty"`
	Budget     int                 `json:"budget"`
	Opening    bool                `json:"opening"`
	Moved      []string            `json:"moved,omitempty"`
	Number     int                 `json:"number"` // of the rendezvous
	Scores     []int               `json:"scores,omitempty"`
	Version    string              `json:"version"`
	Swap       []string            `json:"swap,omitempty"`
	Bonus      int                 `json:"bonus,omitempty"`
	LastFrom   string              `json:"last_from,omitempty"`
	LastTo     string              `json:"last_to,omitempty"`
	// Removed and Converted are the men the last action took off or
	// turned (Rules 7–8 of 1893, the removals of the earlier versions).
	Removed   []string `json:"removed,omitempty"`
	Converted []string `json:"converted,omitempty"`
}

// View describes the state for a display.
func (s *State) View() View {
	list := func(b Bitboard) []string {
		out := []string{}
		for _, q := range b.squares(nil) {
			out = append(out, q.String())
		}
		return out
	}
	v := View{
		Men:        map[string][]string{"black": list(s.men[Black]), "white": list(s.men[White])},
		Rendezvous: list(s.rdv),
		Size:       s.shape.Size,
		Open:       s.shape.Size%2 == 0 && s.mark != NoSquare,
		Phase:      s.phase.String(),
		Budget:     int(s.budget),
		Opening:    s.opening,
		Number:     int(s.rendezvous),
		Version:    s.g.Rules.Version.String(),
		Bonus:      int(s.bonus),
	}
	if s.mark != NoSquare {
		v.Mark = s.mark.String()
	}
	if s.shape.Line >= 0 {
		v.Line = dirNames[s.shape.Line]
	}
	if s.setter >= 0 {
		v.Setter = colourName(int(s.setter))
	}
	if s.moved != 0 {
		v.Moved = list(s.moved)
	}
	if s.swapped != 0 {
		v.Swap = list(s.swapped)
	}
	if s.removed != 0 {
		v.Removed = list(s.removed)
	}
	if s.converted != 0 {
		v.Converted = list(s.converted)
	}
	if s.g.Rules.Version == V1879Mar {
		v.Scores = []int{int(s.scores[Black]), int(s.scores[White])}
	}
	if n := len(s.actions); n > 0 {
		if k, a, b := unpack(s.actions[n-1]); k == kMove || k == kSlide {
			v.LastFrom, v.LastTo = Square(a).String(), Square(b).String()
		}
	}
	return v
}
