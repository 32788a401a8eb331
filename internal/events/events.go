// Package events carries what one part of the server did to the parts
// that act on it: typed events, published once by the part that owns the
// change, heard by every listener registered as the server is put
// together. A listener runs in a goroutine of its own, outside the
// publisher's locks (a game's room publishes under its turn), and the
// hub waits for the listeners still running when the server stops.
//
// Events stay within a server: the parts that hear them (the
// tournaments' director) act through the store, whose transactions let
// any server act once, and keep a slow sweep for an event lost with a
// server that stopped.
package events

import (
	"context"
	"sync"
)

// GameFinished is a game that has just ended (by the rules, a
// resignation, time, agreement or an abort).
type GameFinished struct {
	Game string
}

// GameChanged is a change of a game between people (a move, a seat
// taken, its end): the lobby shows their boards.
type GameChanged struct {
	Game string
}

// Hub delivers the events. Its zero value is not usable: see New.
type Hub struct {
	ctx context.Context
	wg  sync.WaitGroup

	mu       sync.Mutex
	finished []func(context.Context, GameFinished)
	changed  []func(GameChanged)
}

// OnGameChanged registers a listener of GameChanged. It is called where
// the change is made, at once, under the game's turn: it must not block
// or take long (the lobby's marks its list stale and wakes its loop).
func (h *Hub) OnGameChanged(f func(GameChanged)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.changed = append(h.changed, f)
}

// GameChanged tells the listeners of a change of a game between people
// (or of a game whose server cannot tell that it is not: a copy left
// behind another server's changes).
// A nil hub tells nobody.
func (h *Hub) GameChanged(e GameChanged) {
	if h == nil {
		return
	}
	h.mu.Lock()
	fs := h.changed
	h.mu.Unlock()
	for _, f := range fs {
		f(e)
	}
}

// New returns a hub whose listeners run with ctx (the server's life).
func New(ctx context.Context) *Hub { return &Hub{ctx: ctx} }

// OnGameFinished registers a listener of GameFinished.
func (h *Hub) OnGameFinished(f func(context.Context, GameFinished)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.finished = append(h.finished, f)
}

// GameFinished tells the listeners that a game ended. It never waits
// for them. A nil hub tells nobody.
func (h *Hub) GameFinished(e GameFinished) {
	if h == nil || h.ctx.Err() != nil {
		return
	}
	h.mu.Lock()
	fs := h.finished
	h.mu.Unlock()
	for _, f := range fs {
		h.wg.Go(func() { f(h.ctx, e) })
	}
}

// Wait waits for the listeners still running.
func (h *Hub) Wait() { h.wg.Wait() }
