import { test } from "node:test";
import assert from "node:assert/strict";
import { install } from "./fakedom.js";

install();
const store = new Map();
globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)) };
const { Chat, mergeLines } = await import("../static/chat.js");

const line = (id, room = "players") => ({ id, room, name: "ann", text: `line ${id}`, at: id });

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

// chatWith is a chat whose reads of the server answer lines, the socket
// bringing during each read the lines arriving gives.
function chatWith(lines, arriving = []) {
  const chat = new Chat("g1", () => "");
  globalThis.fetch = async () => {
    for (const m of arriving) chat.add(m);
    return { ok: true, status: 200, json: async () => lines };
  };
  return chat;
}

test("a chat read again keeps the lines the socket brought meanwhile", async () => {
  const chat = chatWith([line(1), line(2)], [line(3)]);
  await chat.load();
  assert.deepEqual(chat.lines.map((m) => m.id), [1, 2, 3]);
});

test("a chat read again lets go of lines its reader may no longer see", async () => {
  // Read as a spectator, then again as the player he signed in as: the
  // spectators' line 2 is not his to see while the game goes on.
  const chat = chatWith([line(1), line(2, "spectators")]);
  await chat.load();
  assert.deepEqual(chat.lines.map((m) => m.id), [1, 2]);
  globalThis.fetch = async () => ({ ok: true, status: 200, json: async () => [line(1)] });
  await chat.load();
  assert.deepEqual(chat.lines.map((m) => m.id), [1]);
});
