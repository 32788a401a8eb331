import { test } from "node:test";
import assert from "node:assert/strict";
import { install } from "./fakedom.js";

install();
const { headline, playersLine } = await import("../static/gameparts.js");

const traits = { players: [{ name: "attackers", title: "Attackers" }, { name: "defenders", title: "Defenders" }] };

test("the ending is told from the side of the seats held here", () => {
  const over = { traits, ending: "win", winner: 1, result: "defenders", reason: "the king escaped" };
  assert.equal(headline(over, [1]), "You won — the king escaped");
  assert.equal(headline(over, [0]), "You lost — the king escaped");
  assert.equal(headline(over, [0, 1]), "Defenders won — the king escaped");
  assert.equal(headline(over, []), "Defenders won — the king escaped");
  assert.equal(headline({ traits, ending: "draw", winner: -1, result: "draw", reason: "repetition" }, [0]), "Draw — repetition");
  assert.equal(headline({ traits, ending: "aborted", winner: -1, result: "aborted" }, [0]), "Game aborted");
  // A game won on marks keeps its scores as its words: still a win.
  const marks = { traits: { players: [{ name: "black", title: "Black" }, { name: "white", title: "White" }] }, ending: "win", winner: 0, result: "black 5, white 2", reason: "black scored 5 marks" };
  assert.equal(headline(marks, [0]), "You won — black scored 5 marks");
});

test("the players' line names the computer and accounts, and says nothing at one screen", () => {
  assert.deepEqual(playersLine({ traits, seats: [{}, {}] }), []);
  const line = playersLine({ traits, rated: false, seats: [{ name: "ann", rating: 1512.4, provisional: true }, { kind: "ai", agent: "easy" }] });
  const text = line.map((e) => (typeof e === "string" ? e : e.textContent)).join("");
  assert.equal(text, "Attackers: ann (1512?) vs Defenders: Computer (easy) · casual");
});
