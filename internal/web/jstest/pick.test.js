import { test } from "node:test";
import assert from "node:assert/strict";
import { pick, targets, buttons } from "../static/pick.js";

// Kōnane-like descriptors: a jump picks two squares, a lift one, the stop
// of a run none.
const legal = [
  { text: "c4-e4", squares: ["c4", "e4"] },
  { text: "g4-e4", squares: ["g4", "e4"] },
  { text: "c4-c6", squares: ["c4", "c6"] },
  { text: "d5", squares: ["d5"] },
  { text: "pass" },
];

test("a square with one action plays it", () => {
  assert.deepEqual(pick(legal, null, "d5"), { play: "d5" });
});

test("a piece is selected, then its move is played", () => {
  assert.deepEqual(pick(legal, null, "c4"), { select: "c4" });
  assert.deepEqual(targets(legal, "c4"), ["e4", "c6"]);
  assert.deepEqual(pick(legal, "c4", "e4"), { play: "c4-e4" });
});

test("the selected piece clicked again is let go; another piece is taken instead", () => {
  assert.deepEqual(pick(legal, "c4", "c4"), { select: null });
  assert.deepEqual(pick(legal, "c4", "g4"), { select: "g4" });
});

test("a square nothing uses is a miss, unless a piece was selected", () => {
  assert.deepEqual(pick(legal, null, "a1"), { miss: true, select: null });
  assert.deepEqual(pick(legal, "c4", "a1"), { miss: false, select: null });
});

test("actions on the same squares are offered to choose from", () => {
  const two = [{ text: "c1-f1", squares: ["c1", "f1"], label: "line" }, { text: "c1~f1", squares: ["c1", "f1"], label: "border" }];
  assert.deepEqual(pick(two, "c1", "f1"), { offer: two });
});

test("actions on the same squares that end alike are played without asking", () => {
  const same = [{ text: "a1-a2", squares: ["a1", "a2"], after: "00ab" }, { text: "a1~a2", squares: ["a1", "a2"], after: "00ab" }];
  assert.deepEqual(pick(same, "a1", "a2"), { play: "a1-a2" });
  const differ = [{ text: "a1-c1", squares: ["a1", "c1"], after: "00ab" }, { text: "a1~c1", squares: ["a1", "c1"], after: "00cd" }];
  assert.deepEqual(pick(differ, "a1", "c1"), { offer: differ });
  const marks = [{ text: "mark d5 n", squares: ["d5"], after: "01" }, { text: "mark d5 e", squares: ["d5"], after: "02" }];
  assert.deepEqual(pick(marks, null, "d5"), { offer: marks });
});

test("the actions without squares are buttons", () => {
  assert.deepEqual(buttons(legal).map((a) => a.text), ["pass"]);
});
