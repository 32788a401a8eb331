import { test } from "node:test";
import assert from "node:assert/strict";
import { withPaths, othersMoves, sinceMine, turnAt, whereAt } from "../static/turns.js";
import { clockText, lowMs, leftMs } from "../static/clock.js";

// Three turns: black lifts, white lifts, black jumps twice (a run).
const turns = [
  { number: 1, player: 0, first: 0, actions: ["e4"], squares: [["e4"]], events: [{ kind: "removed" }] },
  { number: 2, player: 1, first: 1, actions: ["e5"], squares: [["e5"]], events: [{ kind: "removed" }] },
  { number: 3, player: 0, first: 2, actions: ["c4-e4", "e4-g4"], squares: [["c4", "e4"], ["e4", "g4"]], paths: [null, null], events: [{ kind: "capture" }, { kind: "capture" }] },
];

test("withPaths puts a move's path where it has one", () => {
  assert.deepEqual(withPaths({ squares: [["a1", "c3"], ["d4"]], paths: [["a1", "a3", "c3"], null] }), [["a1", "a3", "c3"], ["d4"]]);
});

test("othersMoves are the moves after ply not played from my seat", () => {
  assert.deepEqual(othersMoves(turns, 2, 1), [["c4", "e4"], ["e4", "g4"]]);
  assert.deepEqual(othersMoves(turns, 3, 1), [["e4", "g4"]]);
  assert.deepEqual(othersMoves(turns, 2, 0), [], "my own moves are not shown moving");
});

test("sinceMine gathers the others' turns since mine", () => {
  assert.equal(sinceMine(turns, 0), null, "I played last");
  assert.equal(sinceMine(turns, -1), null, "I hold no single seat");
  const s = sinceMine(turns, 1);
  assert.equal(s.squares.length, 2);
  assert.equal(s.events.length, 2);
});

test("turnAt cuts a turn at ply, without its events when cut short", () => {
  assert.equal(turnAt(turns, 0), null);
  assert.equal(turnAt(turns, 1).number, 1);
  const cut = turnAt(turns, 3);
  assert.equal(cut.number, 3);
  assert.deepEqual(cut.squares, [["c4", "e4"]]);
  assert.equal(cut.events, null);
  assert.equal(turnAt(turns, 4).events.length, 2);
});

test("whereAt counts by turns, and by actions within a long one", () => {
  assert.equal(whereAt(turns, 0), "the start");
  assert.equal(whereAt(turns, 2), "turn 2");
  assert.equal(whereAt(turns, 3), "turn 3, action 1 of 2");
  assert.equal(whereAt(turns, 4), "turn 3, action 2 of 2");
});

test("clockText, lowMs and leftMs", () => {
  assert.equal(clockText(245000), "4:05");
  assert.equal(clockText(999), "0:01");
  assert.equal(clockText(-5), "0:00");
  assert.equal(clockText(2 * 3600000 + 7 * 60000), "2h 07m");
  assert.equal(clockText(3 * 86400000 + 4 * 3600000), "3d 4h");
  assert.equal(lowMs(60000), 6000);
  assert.equal(lowMs(600000), 20000);
  const c = { left_ms: [60000, 50000], running: 1 };
  assert.equal(leftMs(c, 1, true, 2000), 48000);
  assert.equal(leftMs(c, 0, true, 2000), 60000);
  assert.equal(leftMs(c, 1, false, 2000), 50000, "a finished game's clock stands");
});
