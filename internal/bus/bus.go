// Package bus lets several servers sharing one PostgreSQL database tell
// each other of changes through it (LISTEN/NOTIFY): a game that moved (a
// server showing it reads it again and sends the new view to its
// watchers), a chat line, a change of the lobby. On SQLite, or a
// database no other server shares, it sends nothing.
package bus

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

// Topics of the changes servers tell each other about.
const (
	// Lobby: a challenge or a game between people changed.
	Lobby = "lobby"
	// Game: the game (its id follows) changed in the store.
	Game = "game"
	// Chat: a chat line (as JSON) was said.
	Chat = "chat"
	// Tokens: a bot token of the player (his id follows) was revoked.
	Tokens = "tokens"
)

// Bus is a server's end of the notifications.
type Bus struct {
	store *store.Store
	log   *slog.Logger
	// Instance names this server to the others.
	Instance string
	shared   bool
	outbox   chan string
	// listening is set once the others are heard.
	listening atomic.Bool

	mu       sync.Mutex
	handlers map[string]func(arg string)
}

// New returns the bus of a server on st; Run starts it.
func New(st *store.Store, log *slog.Logger) *Bus {
	return &Bus{store: st, log: log, Instance: token.New(8), shared: st.Postgres(), outbox: make(chan string, 4096), handlers: map[string]func(string){}}
}

// Shared reports whether other servers may share the database.
func (b *Bus) Shared() bool { return b.shared }

// Listening reports whether the bus hears the other servers.
func (b *Bus) Listening() bool { return b.listening.Load() }

// Handle sets what is done with another server's change of topic.
func (b *Bus) Handle(topic string, f func(arg string)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.handlers[topic] = f
}

// Note is the notification of a change that Publish sends, for a write
// that sends it itself (store.UpdateNotify); "" where nobody shares the
// database.
func (b *Bus) Note(topic, arg string) string {
	if !b.shared {
		return ""
	}
	return b.Instance + " " + topic + " " + arg
}

// Publish tells the other servers of a change; this server has acted on
// it already. It never waits: with the database slow and the outbox full,
// the notification is dropped (and logged).
func (b *Bus) Publish(topic, arg string) {
	if !b.shared {
		return
	}
	select {
	case b.outbox <- b.Note(topic, arg):
	default:
		b.log.Warn("dropping a notification: the database is slow", "topic", topic)
	}
}

// Run sends and hears the notifications until ctx is done (at once where
// nobody shares the database).
func (b *Bus) Run(ctx context.Context) {
	if !b.shared {
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() { b.send(ctx) })
	b.store.Listen(ctx, func(p string) {
		from, rest, _ := strings.Cut(p, " ")
		if from == b.Instance {
			return
		}
		topic, arg, _ := strings.Cut(rest, " ")
		b.mu.Lock()
		f := b.handlers[topic]
		b.mu.Unlock()
		if f != nil {
			f(arg)
		}
	}, func() { b.listening.Store(true) })
	wg.Wait()
}

// send sends the notifications in order.
func (b *Bus) send(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case p := <-b.outbox:
			if err := b.store.Notify(ctx, p); err != nil && ctx.Err() == nil {
				b.log.Error("notify", "err", err)
			}
		}
	}
}

// Tell tells the servers sharing st's database of a change made by a
// program that is not one of them (muster admin), at once; nothing where
// no server can share the database.
func Tell(ctx context.Context, st *store.Store, topic, arg string) error {
	return st.Notify(ctx, "muster-admin "+topic+" "+arg)
}
