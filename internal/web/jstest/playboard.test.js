import { test } from "node:test";
import assert from "node:assert/strict";
import { install } from "./fakedom.js";

install();
const { PlayBoard } = await import("../static/playboard.js");

// FakeBoard stands for board.js: it keeps what it was asked to draw and
// lets the test click squares as the board would.
class FakeBoard {
  constructor(container, click) { this.click = click; this.drawn = []; this.previews = []; this.flipped = false; }
  render(view, traits, opts) { this.drawn.push(opts); }
  showPreview(sqs) { this.previews.push(sqs); }
  box() { return { top: 0.2, height: 0.1 }; }
  get last() { return this.drawn.at(-1); }
}

// Legal actions as a Tablut or Lanrick turn describes them: moves pick
// two squares, a mark one (with the rendezvous it makes), and two ways to
// the same square are a choice.
const legal = [
  { text: "a1-a3", squares: ["a1", "a3"] },
  { text: "a1-c1", squares: ["a1", "c1"], label: "line", note: "2 squares" },
  { text: "a1-c1/", squares: ["a1", "c1"], label: "border", note: "4 squares" },
  { text: "mark d5", squares: ["d5"], preview: ["c4", "d4", "e4"] },
  { text: "end", label: "End turn" },
];
const view = { pieces: [{ square: "a1", side: 0 }, { square: "h8", side: 1 }] };

function board(extra) {
  const seen = { played: [], missed: [], changes: 0 };
  const pb = new PlayBoard({ onPlay: (t) => seen.played.push(t), onMiss: (sq) => seen.missed.push(sq), onChange: () => seen.changes++ }, FakeBoard);
  pb.set({ view, traits: {}, legal, asked: ["a1", "d5"], ...extra });
  return { pb, seen, b: pb.board };
}

test("a piece picked shows its targets; its target plays the move", () => {
  const { pb, seen, b } = board();
  assert.deepEqual(b.last.asked, ["a1", "d5"], "the prompt's squares are shown before a pick");
  b.click("a1");
  assert.equal(b.last.selected, "a1");
  assert.deepEqual([...new Set(b.last.targets)], ["a3", "c1"]);
  assert.deepEqual(b.last.asked, [], "a pick hides the prompt's squares");
  b.click("a3");
  assert.deepEqual(seen.played, ["a1-a3"]);
  assert.equal(pb.selected, null, "a play forgets the pick");
});

test("two ways to a square are a choice, on the board and as buttons", () => {
  const { pb, seen, b } = board();
  b.click("a1");
  b.click("c1");
  assert.deepEqual(seen.played, [], "nothing is played before the choice");
  assert.deepEqual(pb.choices().map((a) => a.text), ["a1-c1", "a1-c1/"]);
  assert.equal(pb.pop.hidden, false);
  assert.match(pb.pop.textContent, /Two ways to c1/);
  b.click("h8");
  assert.deepEqual(seen.played, [], "the board waits for the choice");
  pb.choose("a1-c1/");
  assert.deepEqual(seen.played, ["a1-c1/"]);
  assert.equal(pb.pending, null);
});

test("cancel and a click off the board take a pick back", () => {
  const { pb, b } = board();
  b.click("a1");
  b.click("c1");
  assert.ok(pb.busy());
  pb.cancel();
  assert.ok(!pb.busy());
  assert.deepEqual(pb.choices().map((a) => a.text), ["end"], "the buttons are the actions without squares again");
  b.click("a1");
  b.click(null);
  assert.equal(pb.selected, null);
});

test("a square no action uses is a miss while the prompt asks for squares", () => {
  const { seen, b } = board();
  b.click("h5");
  assert.deepEqual(seen.missed, ["h5"]);
  const other = board({ asked: [] });
  other.b.click("h5");
  assert.deepEqual(other.seen.missed, [], "no prompt, no miss");
});

test("a finger's first tap on a mark shows its rendezvous, the second sets it", () => {
  const { pb, seen, b } = board();
  b.click("d5", { pointer: "touch" });
  assert.equal(pb.previewed, "d5");
  assert.deepEqual(b.previews.at(-1), ["c4", "d4", "e4"]);
  assert.deepEqual(seen.played, []);
  // The way to set it is offered at once, a tap away.
  assert.deepEqual(pb.choices().map((a) => a.text), ["mark d5"]);
  b.click("d5", { pointer: "touch" });
  assert.deepEqual(seen.played, ["mark d5"]);
  // Or its button; or another square starts again.
  const one = board();
  one.b.click("d5", { pointer: "touch" });
  one.pb.choose(one.pb.choices()[0].text);
  assert.deepEqual(one.seen.played, ["mark d5"]);
  const other = board();
  other.b.click("d5", { pointer: "touch" });
  other.b.click("h5", { pointer: "touch" });
  assert.equal(other.pb.pending, null);
  assert.deepEqual(other.seen.played, []);
  const mouse = board();
  mouse.b.click("d5", { pointer: "mouse" });
  assert.deepEqual(mouse.seen.played, ["mark d5"], "a mouse sets it at once");
});

test("a move chosen ahead is played when the turn comes, if legal then", () => {
  const { pb, seen, b } = board({ legal: [], premove: 0 });
  b.click("h8");
  assert.equal(pb.preFrom, null, "another's piece is not picked");
  b.click("a1");
  b.click("a3");
  assert.deepEqual(pb.premove, ["a1", "a3"]);
  assert.deepEqual(b.last.premove, ["a1", "a3"]);
  pb.set({ view, traits: {}, legal, premove: -1 });
  assert.equal(pb.takePremove(), null);
  assert.deepEqual(seen.played, ["a1-a3"]);

  const late = board({ legal: [], premove: 0 });
  late.b.click("a1");
  late.b.click("b2");
  late.pb.set({ view, traits: {}, legal, premove: -1 });
  assert.deepEqual(late.pb.takePremove(), ["a1", "b2"], "a move not legal now is given back, not played");
  assert.deepEqual(late.seen.played, []);
});

test("nothing to play: clicks do nothing", () => {
  const { pb, seen, b } = board({ legal: [] });
  b.click("a1");
  assert.equal(pb.selected, null);
  assert.deepEqual(seen.played, []);
  assert.deepEqual(pb.choices(), []);
});
