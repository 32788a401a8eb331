package konane

import (
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/muster-games/muster/game"
)

// Black and White are the players; Black acts first.
const (
	Black game.Player = 0
	White game.Player = 1
)

// maxSize is the largest board's side.
const maxSize = 16

// Game is Kōnane under one ruleset: a board of Size×Size squares. It
// implements game.Game and game.Recorder.
type Game struct {
	game.Preset
	game.Sides
	game.Words
	// Size is the board's side.
	Size int
	// opening are the squares Black may lift his first stone from.
	opening []int
}

// Load builds Kōnane under a ruleset ("" for the default, observed) with
// option settings on top.
func Load(ruleset string, opts ...game.KV) (*Game, error) {
	p, err := Info.Preset(ruleset, opts)
	if err != nil {
		return nil, err
	}
	n, _ := strconv.Atoi(p.Option("size"))
	g := &Game{Preset: p, Sides: game.Sides{"black", "white"}, Size: n}
	// Corners and the four centre squares, where Black's stones stand.
	h := n / 2
	for _, sq := range []int{0, n - 1, n * (n - 1), n*n - 1, (h-1)*n + h - 1, (h-1)*n + h, h*n + h - 1, h*n + h} {
		if g.colourAt(sq) == Black {
			g.opening = append(g.opening, sq)
		}
	}
	return g, nil
}

// MustLoad is Load for rulesets known to be valid; it panics on error.
func MustLoad(ruleset string, opts ...game.KV) *Game {
	g, err := Load(ruleset, opts...)
	if err != nil {
		panic(err)
	}
	return g
}

// colourAt is the side whose stone stands on a square at the start: White
// on a1 and every square of its colour, Black on the others.
func (g *Game) colourAt(sq int) game.Player {
	return game.Player(1 - (sq/g.Size+sq%g.Size)%2)
}

// MaxActions bounds the legal actions: four jumps for each of at most
// half the squares' stones.
func (g *Game) MaxActions() int { return 2 * g.Size * g.Size }

// NewState is the full board, Black to lift a stone.
func (g *Game) NewState() game.State { return g.Start() }

// Start is NewState with the concrete type.
func (g *Game) Start() *State {
	s := &State{g: g, again: -1}
	for sq := 0; sq < g.Size*g.Size; sq++ {
		p := g.colourAt(sq)
		s.board[sq] = cellOf(p)
		s.hash ^= zobrist.stone[p][sq]
	}
	s.settle()
	return s
}

func (g *Game) ParseState(text string) (game.State, error) {
	s, err := g.Parse(text)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (g *Game) WriteRecord(w io.Writer, r *game.Record) error { return game.WriteTurnRecord(w, g, r) }
func (g *Game) ReadRecord(rd io.Reader) (*game.Record, error) { return game.ReadTurnRecord(rd, g) }

// zobrist are the hash keys: a stone of either colour on each square, the
// player to act, and the square of a stone that may jump again.
var zobrist struct {
	stone [2][maxSize * maxSize]uint64
	white uint64
	again [4][maxSize * maxSize]uint64
}

func init() {
	rng := rand.New(rand.NewPCG(0x6b6f6e616e65, 1))
	for c := range zobrist.stone {
		for sq := range zobrist.stone[c] {
			zobrist.stone[c][sq] = rng.Uint64()
		}
	}
	zobrist.white = rng.Uint64()
	for d := range zobrist.again {
		for sq := range zobrist.again[d] {
			zobrist.again[d][sq] = rng.Uint64()
		}
	}
}
