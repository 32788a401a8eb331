// socket.js keeps a live WebSocket to the server: on a lost connection it
// says so and tries again after 1, 2, 4… up to 30 seconds. The game page
// (which sends its moves on it) and the lobby use it; what a message
// means is theirs.

// ANSWER_WAIT_MS is how long a message the server always answers waits
// for a word on the socket before the socket is taken for dead.
export const ANSWER_WAIT_MS = 5000;

// retryWait is the seconds to wait before the nth try after a loss.
export function retryWait(failures) { return Math.min(30, 2 ** (failures - 1)); }

// Live is one socket kept open on path (such as /ws/lobby). onMessage(msg)
// gets each message, parsed; onState(state, text) hears "live" or "lost"
// with words for people; onOpen(again) is told each opening, again being
// true after a loss (the page may have missed changes meanwhile).
export class Live {
  constructor(path, { onMessage, onState = () => {}, onOpen = () => {} }) {
    this.path = path;
    this.onMessage = onMessage;
    this.onState = onState;
    this.onOpen = onOpen;
    this.failures = 0;
    this.ws = null;
    this.heard = 0; // messages received, on every opening
    this.connect();
  }

  connect() {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${this.path}`);
    ws.onopen = () => {
      const again = this.failures > 0;
      this.failures = 0;
      this.onState("live", "Live");
      this.onOpen(again);
    };
    ws.onmessage = (e) => {
      this.heard++;
      this.onMessage(JSON.parse(e.data));
    };
    ws.onclose = () => {
      this.failures++;
      const wait = retryWait(this.failures);
      const why = this.failures >= 3 ? " The server may be limiting connections from your address: close other tabs of this site." : "";
      this.onState("lost", `Connection lost: trying again in ${wait} s.${why}`);
      this.timer = setTimeout(() => this.connect(), wait * 1000);
    };
    this.ws = ws;
  }

  // send sends msg, as JSON, where the socket is open, and tells whether
  // it was sent.
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  // sendAwaiting sends msg, where the socket is open, as send does, for a
  // message the server always answers (a move: its view or a refusal);
  // if nothing at all comes on the socket within ms milliseconds, the
  // socket is taken for dead though open (a phone's network gone without
  // a word), opened again, and dead() called to do the thing otherwise.
  // It tells whether msg was sent.
  sendAwaiting(msg, dead, ms = ANSWER_WAIT_MS) {
    if (!this.send(msg)) return false;
    const heard = this.heard;
    setTimeout(() => {
      if (this.heard !== heard) return;
      this.reopen();
      dead();
    }, ms);
    return true;
  }

  // close closes the socket for good: no retry follows.
  close() {
    if (this.ws) { this.ws.onclose = null; this.ws.close(); }
    clearTimeout(this.timer);
  }

  // reopen closes the socket and opens it again at once (the browser's
  // identity may have just changed, which the server reads as it opens).
  reopen() {
    this.close();
    this.connect();
  }
}
