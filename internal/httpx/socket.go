package httpx

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// ErrTooManySockets answers a WebSocket over a limit.
var ErrTooManySockets = NewError(http.StatusTooManyRequests, "too many connections: close some of this game's tabs, or wait")

// ErrServerFull answers a spectator's WebSocket when the server holds as
// many spectators as it may (Sockets.MaxSpectators).
var ErrServerFull = NewError(http.StatusServiceUnavailable, "the server is watched by as many as it can hold: try again later")

// SeatConns bounds the connections a seat's player holds to his game at
// once (his tabs, his bot's stream).
const SeatConns = 8

// Sockets counts the WebSocket connections and streams open and refuses
// those over the limits. A watcher is a spectator of what he watches (a
// game, the lobby) or, where Watch.Seat names him, a player of it: the
// spectators are counted per client, per key and per client of a key;
// a player's connections are counted apart, by his seat alone, so that
// no number of spectators can shut a game's players out.
type Sockets struct {
	// PerClient bounds one client's connections at once, as a spectator.
	PerClient int
	// MaxSpectators, if positive, bounds the spectators' connections of
	// every client together (the players' are never counted among them),
	// so that watchers of games and of the lobby, who are shed first,
	// cannot take the descriptors that players and requests need.
	MaxSpectators int
	// Stop ends every connection (the server stopping).
	Stop context.Context

	// idle holds the workers waiting for a socket's message, the one
	// that waited last on top (handle).
	idleMu sync.Mutex
	idle   []*socketWorker
	// workerIdle is WorkerIdle, but in tests.
	workerIdle time.Duration

	mu         sync.Mutex
	spectators int
	byWho      map[string]int
	byKey      map[string]int
	byKeyWho   map[string]int
	bySeat     map[string]int
}

// NewSockets returns the count of a server's connections, at most
// perClient a client, all closed when stop is done.
func NewSockets(stop context.Context, perClient int) *Sockets {
	return &Sockets{PerClient: perClient, Stop: stop, workerIdle: WorkerIdle, byWho: map[string]int{}, byKey: map[string]int{}, byKeyWho: map[string]int{}, bySeat: map[string]int{}}
}

// Watch says what a connection watches and the limits it counts against.
type Watch struct {
	// Key is what is watched: a game, the lobby, a player's events.
	Key string
	// Max bounds the spectators of Key at once; PerClient one client's
	// (0: Max).
	Max, PerClient int
	// Seat, if set, is the player holding a seat of what is watched: the
	// connection is his, counted only against SeatConns of his seat.
	Seat string
	// Read, if set, is given each message the client sends, one after
	// the other (on a worker, while the connection's reader reads the
	// next, which waits for it to be done), with the
	// connection's context and a send to answer it on the same socket;
	// an error closes the connection (a policy violation, the error its
	// reason). msg is lent for the call: it must not be kept.
	// Unset, a client's messages are read and dropped.
	Read func(ctx context.Context, msg []byte, send func([]byte) error) error
}

// Serve accepts a WebSocket counted against the limits of its watch and
// of the client, and runs serve with a context that ends when the client
// leaves or the server stops, and a send that gives each message 10
// seconds. It returns an error, to be answered, only when the connection
// was refused before it opened. websocket.Accept checks that the Origin
// is this host; a client's message larger than 1 KiB closes the
// connection.
//
// Once the connection is open, serve runs on a goroutine of its own and
// Serve returns: the request's goroutine grew its stack in the request's
// checks (who asks, the database) and would keep it for as long as the
// connection lives, hours for a game; the new one holds only what
// waiting and sending need. The request's own context ends when Serve
// returns: serve is given the request again with the connection's
// context, and must read that one, not the one Serve was given.
func (s *Sockets) Serve(w http.ResponseWriter, r *http.Request, watch Watch, serve func(ctx context.Context, r *http.Request, send func([]byte) error)) error {
	c, err := s.accept(w, r, watch)
	if c == nil {
		return err
	}
	if watch.Read != nil {
		go c.read(s, watch.Read, c.send)
	}
	go func() {
		defer c.close()
		serve(c.ctx, r.WithContext(c.ctx), c.send)
	}()
	return nil
}

// ServeOutbox is Serve for a connection that others feed: open is called,
// on the request's goroutine, with the connection's context and its
// outbox, to start what feeds it (which posts to the outbox from wherever
// it runs, and may end the connection with its End); it returns stop,
// called once when the connection ends, or an error, which closes the
// connection at once. No goroutine of the connection waits for what it
// is sent: its reader alone lives with it, and a worker while a message
// is sent.
func (s *Sockets) ServeOutbox(w http.ResponseWriter, r *http.Request, watch Watch, open func(ctx context.Context, r *http.Request, out *Outbox) (stop func(), err error)) error {
	c, err := s.accept(w, r, watch)
	if c == nil {
		return err
	}
	out := NewOutbox(c.send, c.runner(s), c.cancel)
	stop, err := open(c.ctx, r.WithContext(c.ctx), out)
	if err != nil {
		out.Close()
		c.close()
		return nil
	}
	end := func() {
		out.Close()
		stop()
		c.close()
	}
	if watch.Read == nil {
		context.AfterFunc(c.ctx, end) // it also ends when CloseRead's read does
		return nil
	}
	c.onEnd(end)
	// An answer is sent at once, as Serve sends it, beside what the
	// outbox sends (each message is written whole): it is sent before a
	// connection closed for the message it answers.
	go c.read(s, watch.Read, c.send)
	return nil
}

// socketConn is an open WebSocket as Serve and ServeOutbox hand it on.
type socketConn struct {
	conn *websocket.Conn
	// ctx ends when the client leaves (its reader stops), the server
	// stops or cancel is called.
	ctx context.Context
	// cancel ends ctx, then runs what onEnd was given.
	cancel func()
	// send gives a message 10 seconds.
	send func([]byte) error
	// close uncounts the connection and closes it; once.
	close func()

	// mu guards busy, set while a worker does a message of this
	// connection, and later, a sending of its outbox put off meanwhile
	// (runner).
	mu    sync.Mutex
	busy  bool
	later func()
	// ended is set once cancel is called; atEnd is what onEnd was
	// given, until then.
	ended bool
	atEnd func()
}

// onEnd has f run, on a goroutine of its own, once the connection's
// context has ended (at once if it has), as context.AfterFunc would,
// where the connection has a reader of its own (Watch.Read; else
// CloseRead's read ends the context too): its context then ends only by
// cancel, which runs f, so that no watch of the context is registered
// for it (with the list of children it makes the context keep: about
// 0.5 KB a socket in the heap profile of 1,000 live games).
func (c *socketConn) onEnd(f func()) {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		go f()
		return
	}
	c.atEnd = f
	c.mu.Unlock()
}

// end is cancel: it ends the context and runs what onEnd was given, once.
func (c *socketConn) end(cancel context.CancelFunc) {
	cancel()
	c.mu.Lock()
	f := c.atEnd
	c.ended, c.atEnd = true, nil
	c.mu.Unlock()
	if f != nil {
		go f()
	}
}

// runner is how the connection's outbox hands its sending on: to a
// worker, but while a worker does a message of this connection (a move,
// whose view comes back here), to that worker once the message is done.
// A move's view was sent by a second worker, woken for it while the
// first finished: each goroutine made ready can wake an idle processor,
// and at 1,000 live games the scheduler's waking and looking for work
// took a tenth of the server's processor time.
func (c *socketConn) runner(s *Sockets) func(func()) {
	return func(f func()) {
		c.mu.Lock()
		if c.busy && c.later == nil {
			c.later = f
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		s.handle(f)
	}
}

// doing notes that a worker does a message of the connection.
func (c *socketConn) doing() {
	c.mu.Lock()
	c.busy = true
	c.mu.Unlock()
}

// done notes that it is done, and runs what was put off meanwhile.
func (c *socketConn) done() {
	c.mu.Lock()
	f := c.later
	c.busy, c.later = false, nil
	c.mu.Unlock()
	if f != nil {
		f()
	}
}

// accept opens a WebSocket counted against the limits of its watch and
// of the client; a nil connection has been refused (with the error to
// answer, or none where Accept has answered).
func (s *Sockets) accept(w http.ResponseWriter, r *http.Request, watch Watch) (*socketConn, error) {
	drop, err := s.take(watch, Client(r))
	if err != nil {
		return nil, err
	}
	// A WebSocket lives past the server's read and write timeouts, which
	// bound plain requests: its own limits are the read limit and the
	// send's 10 seconds.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	sw := &socketWriter{ResponseWriter: w}
	conn, err := websocket.Accept(sw, r, nil)
	if err != nil {
		drop()
		return nil, nil // Accept has answered
	}
	out := sw.out
	conn.SetReadLimit(1024)
	// The request's context ends when its handler returns; the
	// connection's when the client leaves (its reader stops) or the
	// server stops.
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	if watch.Read == nil {
		ctx = conn.CloseRead(ctx)
	}
	c := &socketConn{conn: conn, ctx: ctx}
	c.cancel = func() { c.end(cancel) }
	stop := context.AfterFunc(s.Stop, func() {
		conn.Close(websocket.StatusGoingAway, "server stopping")
		c.cancel()
	})
	c.send = func(msg []byte) error {
		// The message's frames are gathered in memory and written to
		// the connection by flush, within sendTime, as any frame the
		// library writes through is (socketOut): the library's writer
		// waits on nothing else, so it is given a context that never
		// ends, which it need not watch (a timer, a context and the
		// library's watch on it, each message: 6% of what a server
		// allocated at 1,000 live games, by its allocation profile).
		out.gather()
		err := conn.Write(context.Background(), websocket.MessageText, msg)
		if werr := out.flush(); err == nil {
			err = werr
		}
		return err
	}
	var once sync.Once
	c.close = func() {
		once.Do(func() {
			stop()
			c.cancel()
			conn.CloseNow()
			drop()
		})
	}
	return c, nil
}

// read hands each message the client sends to f, as CloseRead would read
// them (a larger one than the read limit, or a binary one, closes the
// connection), until the connection ends; send answers on it.
//
// A message is read into a buffer lent for it (none is held while the
// reader waits), and taken back once f has done with it. The reads are
// given a context that never ends: each connection's end closes it,
// which ends its read, and a read given the connection's context set the
// library watching that context twice a message (what context.AfterFunc
// allocated in a server's first 30 s at 1,000 live games fell from 9.5
// to 6.1 MB, of about 350).
func (c *socketConn) read(s *Sockets, f func(ctx context.Context, msg []byte, send func([]byte) error) error, send func([]byte) error) {
	defer c.cancel()
	// Each message is done by a worker: what it does (a move, its
	// database write) grows a stack that the reader would keep for as
	// long as the connection lives (handle). The worker is handed the
	// same function each time: msg is set before it is handed over, and
	// set again only once the worker has said on done that it is done.
	// The reader does not wait for that to read the next message: it
	// waits in the read, as between messages, and a worker that has
	// done tells nobody that is waiting (a goroutine made ready to go on
	// reading, each message, could wake an idle processor: runner). A
	// message that fails closes the connection from its worker.
	var (
		msg    []byte
		lent   *[]byte // the buffer of the message handed over, until done
		failed bool    // its worker closed the connection
	)
	done := make(chan struct{}, 1)
	do := func() {
		c.doing()
		err := f(c.ctx, msg, send)
		c.done()
		if err != nil {
			why := err.Error()
			if len(why) > 120 {
				why = why[:120]
			}
			c.conn.Close(websocket.StatusPolicyViolation, why)
			failed = true
		}
		done <- struct{}{}
	}
	// wait waits for the message handed over, if any, to be done.
	wait := func() {
		if lent != nil {
			<-done
			readBuffers.Put(lent)
			msg, lent = nil, nil
		}
	}
	defer wait()
	for {
		typ, r, err := c.conn.Reader(context.Background())
		if err != nil {
			return
		}
		buf := readBuffers.Get().(*[]byte)
		b, err := readMessage(r, (*buf)[:0])
		*buf = b[:0]
		if err != nil {
			readBuffers.Put(buf)
			return
		}
		wait()
		if typ != websocket.MessageText {
			readBuffers.Put(buf)
			c.conn.Close(websocket.StatusUnsupportedData, "text messages only")
			return
		}
		if failed {
			// The message before closed the connection: this one,
			// read before it closed, is not done.
			readBuffers.Put(buf)
			return
		}
		msg, lent = b, buf
		s.handle(do)
	}
}

// readBuffers are the buffers lent to the messages being read.
var readBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// readMessage appends what r holds to b until its end.
func readMessage(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		switch {
		case err == io.EOF:
			return b, nil
		case err != nil:
			return b, err
		}
	}
}

// WorkerIdle is how long a worker that did a socket's message waits for
// the next before it ends.
const WorkerIdle = 10 * time.Second

// handle runs f, a socket's message, on a worker: the one that waited
// for work last, if any waits, else a new one. A worker keeps the stack
// that its messages grew, which a goroutine started for each message
// would grow anew, copying it at each doubling (7% of the server's CPU at
// 1,000 live games); the workers are as many as the messages done at
// once, a few, and each ends after WorkerIdle without one. The last to
// wait is the first to work, so that the workers a burst made and the
// load no longer needs go without work, and end, with their stacks (a
// worker's grows to 16 KB or more in SQLite, as execAside says): handed
// out in turn, as they were from one channel, the 94 that 1,000 live
// games had made all lived on.
func (s *Sockets) handle(f func()) {
	s.idleMu.Lock()
	if n := len(s.idle); n > 0 {
		w := s.idle[n-1]
		s.idle[n-1] = nil
		s.idle = s.idle[:n-1]
		s.idleMu.Unlock()
		w.work <- f // its room of one is free: it never blocks
		return
	}
	s.idleMu.Unlock()
	go s.worker(f)
}

// socketWorker is a worker as it waits in Sockets.idle.
type socketWorker struct {
	work chan func()
}

// worker runs f, then the messages handed to it, until none comes for
// WorkerIdle.
func (s *Sockets) worker(f func()) {
	w := &socketWorker{work: make(chan func(), 1)}
	idle := time.NewTimer(s.workerIdle)
	defer idle.Stop()
	for {
		f()
		s.idleMu.Lock()
		s.idle = append(s.idle, w)
		s.idleMu.Unlock()
		idle.Reset(s.workerIdle)
		select {
		case f = <-w.work:
			continue
		case <-idle.C:
		}
		s.idleMu.Lock()
		i := slices.Index(s.idle, w)
		if i >= 0 {
			s.idle = slices.Delete(s.idle, i, i+1)
			s.idleMu.Unlock()
			return
		}
		s.idleMu.Unlock()
		// Taken from idle as its time ran out: the message is on its way.
		f = <-w.work
	}
}

// take counts a new connection of client who under its watch, unless a
// count is at its limit (ErrTooManySockets, or ErrServerFull for the
// spectators of every client together); drop uncounts it.
func (s *Sockets) take(watch Watch, who string) (drop func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if watch.Seat != "" {
		seat := watch.Key + "\x00" + watch.Seat
		if s.bySeat[seat] >= SeatConns {
			return nil, ErrTooManySockets
		}
		s.bySeat[seat]++
		return func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			uncount(s.bySeat, seat)
		}, nil
	}
	perClient := watch.PerClient
	if perClient <= 0 {
		perClient = watch.Max
	}
	kw := watch.Key + "\x00" + who
	if s.byWho[who] >= s.PerClient || s.byKey[watch.Key] >= watch.Max || s.byKeyWho[kw] >= perClient {
		return nil, ErrTooManySockets
	}
	if s.MaxSpectators > 0 && s.spectators >= s.MaxSpectators {
		return nil, ErrServerFull
	}
	s.spectators++
	s.byWho[who]++
	s.byKey[watch.Key]++
	s.byKeyWho[kw]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.spectators--
		uncount(s.byWho, who)
		uncount(s.byKey, watch.Key)
		uncount(s.byKeyWho, kw)
	}, nil
}

// Open counts the connections open: the spectators' and the seats'.
func (s *Sockets) Open() (spectators, seats int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.byWho {
		spectators += n
	}
	for _, n := range s.bySeat {
		seats += n
	}
	return spectators, seats
}

// uncount takes one from m[k]; the lock is held.
func uncount(m map[string]int, k string) {
	if m[k]--; m[k] <= 0 {
		delete(m, k)
	}
}

var newline = []byte{'\n'}

// StreamKeepAlive is how often a stream with nothing to say sends an
// empty line, so that the client and any proxy know it is alive.
var StreamKeepAlive = 7 * time.Second

// ServeStream is Serve for programs without WebSockets: the messages go
// out as newline-delimited JSON (application/x-ndjson), one a line,
// flushed at once, with an empty line every StreamKeepAlive; counted
// against the same limits. It ends when the client leaves, the server
// stops, a line takes more than 10 seconds to send, or serve returns.
func (s *Sockets) ServeStream(w http.ResponseWriter, r *http.Request, watch Watch, serve func(ctx context.Context, r *http.Request, send func([]byte) error)) error {
	drop, err := s.take(watch, Client(r))
	if err != nil {
		return err
	}
	defer drop()
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.Stop, cancel)
	defer stop()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	var mu sync.Mutex // the keep-alive and serve's sends
	done := false     // set under mu once the handler returns: nothing more is written
	write := func(line []byte) error {
		mu.Lock()
		defer mu.Unlock()
		if done {
			return context.Canceled
		}
		rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if _, err := w.Write(bytes.TrimRight(line, "\n")); err != nil {
			cancel()
			return err
		}
		if _, err := w.Write(newline); err != nil {
			cancel()
			return err
		}
		if err := rc.Flush(); err != nil {
			cancel()
			return err
		}
		return nil
	}
	if write(nil) != nil { // the headers, at once
		return nil
	}
	var alive sync.WaitGroup
	defer func() {
		// The response is the handler's until it returns: stop the
		// keep-alive, and write nothing after.
		cancel()
		mu.Lock()
		done = true
		mu.Unlock()
		alive.Wait()
	}()
	alive.Add(1)
	go func() {
		defer alive.Done()
		t := time.NewTicker(StreamKeepAlive)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if write(nil) != nil {
					return
				}
			}
		}
	}()
	serve(ctx, r.WithContext(ctx), func(msg []byte) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return write(msg)
	})
	return nil
}

// ServeStreamOutbox is ServeStream for a stream that others feed, as
// ServeOutbox is Serve: the stream's own goroutine (its request's, which
// lives as long as the stream) sends what its outbox holds.
func (s *Sockets) ServeStreamOutbox(w http.ResponseWriter, r *http.Request, watch Watch, open func(ctx context.Context, r *http.Request, out *Outbox) (stop func(), err error)) error {
	return s.ServeStream(w, r, watch, func(ctx context.Context, r *http.Request, send func([]byte) error) {
		ctx, end := context.WithCancel(ctx)
		defer end()
		// One sending at a time is handed over (Outbox), so the channel
		// never holds more than one.
		work := make(chan func(), 1)
		out := NewOutbox(send, func(f func()) { work <- f }, end)
		defer out.Close()
		stop, err := open(ctx, r.WithContext(ctx), out)
		if err != nil {
			return
		}
		defer stop()
		for {
			select {
			case <-ctx.Done():
				return
			case f := <-work:
				f()
			}
		}
	})
}

// socketReadBuffer is the size of a WebSocket's read buffer: a client's
// messages are small (at most 1 KiB), and the connection's own reader of
// 4 KiB would be held for as long as the socket lives.
const socketReadBuffer = 512

// socketWriteBuffer is the size of the writer a WebSocket writes its
// frames through: a frame's header and a short message; what is longer
// goes through to the connection's gatherer (socketOut).
const socketWriteBuffer = 64

// sendTime bounds the sending of one message.
const sendTime = 10 * time.Second

// socketWriter hands a WebSocket its connection with a read buffer of
// socketReadBuffer bytes, holding what the connection's reader had read
// ahead, and a writer of socketWriteBuffer bytes writing to out.
type socketWriter struct {
	http.ResponseWriter
	out *socketOut
}

// Unwrap lets http.ResponseController reach the connection.
func (w *socketWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack hands over the connection with the smaller reader and writer.
func (w *socketWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return conn, rw, err
	}
	n := rw.Reader.Buffered()
	ahead, _ := rw.Reader.Peek(n)
	br := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(bytes.Clone(ahead)), conn), max(socketReadBuffer, n))
	if n > 0 {
		br.Peek(n) // buffered, as they were: from the copy, not the connection
	}
	w.out = &socketOut{conn: conn}
	return conn, bufio.NewReadWriter(br, bufio.NewWriterSize(w.out, socketWriteBuffer)), nil
}

// socketOut is what a WebSocket writes to. While a message is sent
// (between gather and flush) its frames are gathered into a buffer lent
// for the message, and written to the connection in one write: the
// connection's writer of 4 KiB, held for as long as the socket lives,
// wrote a view (about 9 KiB) in two. At other times (a pong, the closing
// frame) what comes is written through.
type socketOut struct {
	conn net.Conn
	mu   sync.Mutex
	buf  *[]byte // lent while a message is sent
}

// socketBuffers are the buffers lent to messages being sent.
var socketBuffers = sync.Pool{New: func() any { return new([]byte) }}

// gather starts gathering a message's frames.
func (o *socketOut) gather() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.buf == nil {
		o.buf = socketBuffers.Get().(*[]byte)
	}
}

// Write gathers p, or writes it through within sendTime (a pong, the
// closing frame: the library holds its writer meanwhile, which a message
// then waits for).
func (o *socketOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.buf != nil {
		*o.buf = append(*o.buf, p...)
		return len(p), nil
	}
	o.conn.SetWriteDeadline(time.Now().Add(sendTime))
	defer o.conn.SetWriteDeadline(time.Time{})
	return o.conn.Write(p)
}

// flush writes what was gathered, within sendTime, and gathers no more.
func (o *socketOut) flush() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	b := o.buf
	if b == nil {
		return nil
	}
	o.buf = nil
	defer func() {
		if cap(*b) <= 64<<10 {
			*b = (*b)[:0]
			socketBuffers.Put(b)
		}
	}()
	if len(*b) == 0 {
		return nil
	}
	o.conn.SetWriteDeadline(time.Now().Add(sendTime))
	_, err := o.conn.Write(*b)
	o.conn.SetWriteDeadline(time.Time{})
	return err
}
