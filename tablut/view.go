package tablut

// View is what a board display needs of a position, as plain data.
type View struct {
	Size   int         `json:"size"`
	Pieces []PieceView `json:"pieces"`
	Castle string      `json:"castle"`
	Camps  []string    `json:"camps"`
	ToMove string      `json:"to_move"`
	Routes int         `json:"routes"` // the king's open lines: 1 raichi, 2+ tuichu
	// Escapes are the edge squares the king could reach now.
	Escapes   []string `json:"escapes,omitempty"`
	LastFrom  string   `json:"last_from,omitempty"`
	LastTo    string   `json:"last_to,omitempty"`
	Captured  []string `json:"captured,omitempty"` // by the last move
	KingTaken bool     `json:"king_taken,omitempty"`
}

// PieceView is one piece: "t" attacker, "T" defender, "K" king.
type PieceView struct {
	Square string `json:"sq"`
	Piece  string `json:"piece"`
}

// View describes the position for a display.
func (s *State) View() View {
	v := View{Size: Size, Castle: Square(Castle).String(), ToMove: s.pos.toMove.String(), Routes: s.g.Rules.EscapeRoutes(&s.pos)}
	for q := Square(0); q < Squares; q++ {
		if c := s.pos.board[q]; c != Empty {
			v.Pieces = append(v.Pieces, PieceView{q.String(), string(".tTK"[c])})
		}
		if s.g.Rules.camps.has(q) {
			v.Camps = append(v.Camps, q.String())
		}
	}
	if n := len(s.undo); n > 0 && len(s.actions) > 0 {
		m := Move(s.actions[len(s.actions)-1])
		if m != Pass {
			v.LastFrom, v.LastTo = m.From().String(), m.To().String()
			prev := s.undo[n-1].pos
			for q := Square(0); q < Squares; q++ {
				if prev.board[q] != Empty && s.pos.board[q] == Empty && q != m.From() {
					v.Captured = append(v.Captured, q.String())
				}
			}
		}
	}
	v.KingTaken = s.over && s.result.Reason == "king captured"
	if k := s.pos.king; k >= 0 && !s.over {
		rm, fm := s.g.Rules.targets(&s.pos, k)
		for _, f := range []int{0, Size - 1} {
			if rm&(1<<f) != 0 {
				v.Escapes = append(v.Escapes, sq(f, k.Rank()).String())
			}
			if fm&(1<<f) != 0 {
				v.Escapes = append(v.Escapes, sq(k.File(), f).String())
			}
		}
	}
	return v
}
