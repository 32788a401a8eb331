import { test } from "node:test";
import assert from "node:assert/strict";
import { mergeLines } from "../static/chat.js";

const line = (id) => ({ id, room: "players", name: "ann", text: `line ${id}`, at: id });

test("mergeLines keeps a line the socket brought while the chat was read", () => {
  // The read was made before line 3 was said; the socket brought it.
  assert.deepEqual(mergeLines([line(1), line(2)], [line(3)]).map((m) => m.id), [1, 2, 3]);
});

test("mergeLines lists each line once, in the order said", () => {
  assert.deepEqual(mergeLines([line(2), line(3), line(4)], [line(4), line(1), line(3)]).map((m) => m.id), [1, 2, 3, 4]);
  assert.deepEqual(mergeLines([], []), []);
});

test("mergeLines keeps the last 200", () => {
  const loaded = Array.from({ length: 200 }, (_, i) => line(i + 1));
  const got = mergeLines(loaded, [line(201)]);
  assert.equal(got.length, 200);
  assert.equal(got[0].id, 2);
  assert.equal(got[199].id, 201);
});

test("mergeLines takes the server's copy of a line it has", () => {
  const edited = { ...line(2), text: "as stored" };
  assert.equal(mergeLines([edited], [line(2)])[0].text, "as stored");
});
