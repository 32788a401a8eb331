package httpx

import (
	"sync"
	"sync/atomic"
)

// Outbox is what a connection is to be sent, posted by whoever has
// something for it (a game's room, its chat) without waiting, and sent in
// order by one goroutine at a time: a worker, handed the sending when a
// message comes to an outbox with nothing in flight, which sends until
// nothing is left and goes back to the pool. A connection with nothing to
// send holds no goroutine of its own but its reader: a goroutine waiting
// on a channel for each connection held its stack (a few KiB, for as long
// as a game lasts) to wake a few times a minute.
type Outbox struct {
	send func([]byte) error
	run  func(func())
	end  func()

	mu      sync.Mutex
	queue   []outMsg
	sending bool
	closed  bool
}

// outMsg is a message waiting, whether a newer message of its kind takes
// its place (PostLatest), and its share of a lent buffer (nil: its own).
type outMsg struct {
	b      []byte
	latest bool
	lent   *Lent
}

// A Lent message is one buffer posted to many outboxes (a game's view,
// to each of its watchers), each holding a share of it until it has sent
// or dropped the message; the buffer goes back to its lender once every
// share is given back, to be written again. A view encoded once a change
// in a new slice was two fifths of what a server allocated.
type Lent struct {
	b    []byte
	refs atomic.Int32
	back func([]byte)
}

// Lend lends b, with a share for the lender; back, if not nil, is given
// b once every share is released.
func Lend(b []byte, back func([]byte)) *Lent {
	l := &Lent{b: b, back: back}
	l.refs.Store(1)
	return l
}

// Bytes are the message, to be read only while a share is held.
func (l *Lent) Bytes() []byte { return l.b }

// share takes another share.
func (l *Lent) share() { l.refs.Add(1) }

// Release gives a share back.
func (l *Lent) Release() {
	switch n := l.refs.Add(-1); {
	case n == 0 && l.back != nil:
		b := l.b
		l.b = nil
		l.back(b)
	case n < 0:
		panic("httpx: a lent message released once too often")
	}
}

func (m *outMsg) release() {
	if m.lent != nil {
		m.lent.Release()
	}
}

// MaxQueued bounds the messages an outbox holds for a client that does
// not take them: past it, Post drops what comes (as a full channel did).
const MaxQueued = 32

// NewOutbox returns an outbox that sends each message with send, run
// handing the sending to a goroutine (it must not wait for it), and calls
// end, once, where a send fails or End is called: the connection is to
// close.
func NewOutbox(send func([]byte) error, run func(func()), end func()) *Outbox {
	return &Outbox{send: send, run: run, end: end}
}

// Post queues msg, unless MaxQueued are waiting or the outbox is closed.
func (o *Outbox) Post(msg []byte) { o.post(outMsg{b: msg}) }

// PostLatest queues msg, a message that makes those before it stale (a
// game's view, whole: the newest is what a client wants). Two wait at
// most: the first that came while the client was being sent something,
// and the newest, which takes the place of any between. The first is
// kept so that a client sent a view as fast as changes come sees each
// (a person's move and the computer's quick answer to it, where one
// waiting view would have given the answer alone); one too slow for them
// gets the newest after.
func (o *Outbox) PostLatest(msg []byte) { o.post(outMsg{b: msg, latest: true}) }

// PostLent is PostLatest for a lent message: the outbox takes a share of
// it while it holds it, which the caller's own share must cover.
func (o *Outbox) PostLent(l *Lent) { o.post(outMsg{b: l.b, latest: true, lent: l}) }

func (o *Outbox) post(m outMsg) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	if m.latest {
		waiting := 0
		for i := range o.queue {
			if o.queue[i].latest {
				if waiting++; waiting == 2 {
					if m.lent != nil {
						m.lent.share()
					}
					o.queue[i].release()
					o.queue[i] = m
					return
				}
			}
		}
	}
	if len(o.queue) >= MaxQueued {
		return
	}
	if m.lent != nil {
		m.lent.share()
	}
	o.queue = append(o.queue, m)
	if !o.sending {
		o.sending = true
		o.run(o.drain)
	}
}

// drain sends what is queued, one message at a time, until nothing is
// left, the outbox closes or a send fails (which ends the connection).
func (o *Outbox) drain() {
	for {
		o.mu.Lock()
		if o.closed || len(o.queue) == 0 {
			o.sending = false
			o.queue = nil
			o.mu.Unlock()
			return
		}
		m := o.queue[0]
		o.queue[0] = outMsg{}
		o.queue = o.queue[1:]
		o.mu.Unlock()
		err := o.send(m.b)
		m.release()
		if err != nil {
			o.End()
			return
		}
	}
}

// End closes the outbox, dropping what waits, and ends its connection.
func (o *Outbox) End() {
	if o.Close() {
		o.end()
	}
}

// Close closes the outbox, dropping what waits; it reports whether it was
// open.
func (o *Outbox) Close() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return false
	}
	for i := range o.queue {
		o.queue[i].release()
	}
	o.closed, o.queue = true, nil
	return true
}
