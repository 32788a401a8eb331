package httpx

import "sync"

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

// outMsg is a message waiting, and whether a newer message of its kind
// takes its place (PostLatest).
type outMsg struct {
	b      []byte
	latest bool
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
func (o *Outbox) Post(msg []byte) { o.post(msg, false) }

// PostLatest queues msg, a message that makes those before it stale (a
// game's view, whole: the newest is what a client wants). Two wait at
// most: the first that came while the client was being sent something,
// and the newest, which takes the place of any between. The first is
// kept so that a client sent a view as fast as changes come sees each
// (a person's move and the computer's quick answer to it, where one
// waiting view would have given the answer alone); one too slow for them
// gets the newest after.
func (o *Outbox) PostLatest(msg []byte) { o.post(msg, true) }

func (o *Outbox) post(msg []byte, latest bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	if latest {
		waiting := 0
		for i := range o.queue {
			if o.queue[i].latest {
				if waiting++; waiting == 2 {
					o.queue[i].b = msg
					return
				}
			}
		}
	}
	if len(o.queue) >= MaxQueued {
		return
	}
	o.queue = append(o.queue, outMsg{msg, latest})
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
		if o.send(m.b) != nil {
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
	o.closed, o.queue = true, nil
	return true
}
