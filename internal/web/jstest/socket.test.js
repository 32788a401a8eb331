import { test } from "node:test";
import assert from "node:assert/strict";

// A fake WebSocket: it opens when the test says, and keeps what is sent.
class FakeSocket {
  static OPEN = 1;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.made.push(this);
  }
  send(data) { this.sent.push(data); }
  close() { this.readyState = 3; }
  open() { this.readyState = FakeSocket.OPEN; this.onopen(); }
}
globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: "http:", host: "example.test" };
const { Live, retryWait } = await import("../static/socket.js");

test("send sends a message, as JSON, only while the socket is open", () => {
  const live = new Live("/ws/games/g1", { onMessage: () => {} });
  const ws = FakeSocket.made.at(-1);
  assert.equal(ws.url, "ws://example.test/ws/games/g1");
  // Not yet open: the page posts instead.
  assert.equal(live.send({ act: { secret: "s", action: "a4-a3", ply: 0 } }), false);
  assert.deepEqual(ws.sent, []);
  ws.open();
  assert.equal(live.send({ act: { secret: "s", action: "a4-a3", ply: 0 } }), true);
  assert.deepEqual(ws.sent.map((s) => JSON.parse(s)), [{ act: { secret: "s", action: "a4-a3", ply: 0 } }]);
  // Closed (a lost connection, trying again later): not sent.
  ws.readyState = 3;
  assert.equal(live.send({ act: {} }), false);
  assert.equal(ws.sent.length, 1);
});

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("sendAwaiting takes a socket that says nothing after a move for dead", async () => {
  const live = new Live("/ws/games/g2", { onMessage: () => {} });
  let ws = FakeSocket.made.at(-1);
  let dead = 0;
  assert.equal(live.sendAwaiting({ act: { ply: 0 } }, () => dead++, 20), false, "not open: not sent");
  ws.open();
  // Answered (the move's view): nothing more.
  assert.equal(live.sendAwaiting({ act: { ply: 0 } }, () => dead++, 20), true);
  ws.onmessage({ data: JSON.stringify({ ply: 1 }) });
  await wait(40);
  assert.equal(dead, 0);
  assert.equal(FakeSocket.made.at(-1), ws, "a socket that answered is kept");
  // Silent: opened again, and the move done otherwise.
  assert.equal(live.sendAwaiting({ act: { ply: 1 } }, () => dead++, 20), true);
  await wait(40);
  assert.equal(dead, 1);
  assert.notEqual(FakeSocket.made.at(-1), ws, "a silent socket is opened again");
  assert.equal(ws.readyState, 3);
});

test("retryWait doubles up to 30 seconds", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map(retryWait), [1, 2, 4, 8, 16, 30, 30]);
});
