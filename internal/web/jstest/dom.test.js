import { test } from "node:test";
import assert from "node:assert/strict";
import { install } from "./fakedom.js";

install();
const { h, patch, sentence, orList } = await import("../static/dom.js");

test("h sets attributes as text and children in order", () => {
  const e = h("p", { id: "x", class: "a", hidden: true, title: null }, "one ", 2, null, false, h("b", {}, "<i>"));
  assert.equal(e.getAttribute("id"), "x");
  assert.equal(e.getAttribute("hidden"), "");
  assert.equal(e.hasAttribute("title"), false);
  assert.equal(e.textContent, "one 2<i>");
  assert.equal(e.childNodes.length, 3);
});

test("patch keeps the elements that stay and changes only what differs", () => {
  const list = h("ul", {});
  patch(list, h("li", { "data-key": "1" }, "first"), h("li", { "data-key": "2" }, "second"));
  const [first, second] = list.childNodes;
  patch(list, h("li", { "data-key": "1", class: "current" }, "first"), h("li", { "data-key": "2" }, "second, changed"), h("li", { "data-key": "3" }, "third"));
  assert.equal(list.childNodes[0], first, "the first item is the same element");
  assert.equal(list.childNodes[1], second, "the second item is the same element");
  assert.equal(first.getAttribute("class"), "current");
  assert.equal(second.textContent, "second, changed");
  assert.equal(list.childNodes.length, 3);
  patch(list, h("li", { "data-key": "1" }, "first"));
  assert.equal(list.childNodes.length, 1);
  assert.equal(list.childNodes[0], first);
  assert.equal(first.hasAttribute("class"), false, "an attribute gone is removed");
});

test("patch replaces an element of another tag, id or key", () => {
  const box = h("div", {}, h("p", { id: "a" }, "a"), h("span", {}, "b"), h("i", { "data-key": "k1" }));
  const [p, span, i] = box.childNodes;
  patch(box, h("p", { id: "other" }, "a"), h("b", {}, "b"), h("i", { "data-key": "k2" }));
  assert.notEqual(box.childNodes[0], p);
  assert.notEqual(box.childNodes[1], span);
  assert.notEqual(box.childNodes[2], i);
  assert.equal(box.childNodes[0].id, "other");
});

test("a kept button calls the listener of its newest copy", () => {
  const box = h("div", {});
  const calls = [];
  patch(box, h("button", { id: "b", onclick: () => calls.push("old") }, "Play"));
  const button = box.childNodes[0];
  patch(box, h("button", { id: "b", onclick: () => calls.push("new") }, "Play"));
  assert.equal(box.childNodes[0], button);
  button.dispatch("click");
  assert.deepEqual(calls, ["new"], "only the new listener runs, once");
  patch(box, h("button", { id: "b" }, "Play"));
  button.dispatch("click");
  assert.deepEqual(calls, ["new"], "a listener taken away no longer runs");
});

test("a field being typed into keeps its text", () => {
  const box = h("div", {});
  patch(box, h("input", { id: "say", value: "" }));
  const field = box.childNodes[0];
  field.value = "hello";
  globalThis.document.activeElement = field;
  patch(box, h("input", { id: "say", value: "" }));
  assert.equal(field.value, "hello");
  globalThis.document.activeElement = null;
  patch(box, h("input", { id: "say", value: "" }));
  assert.equal(field.value, "", "a field not in use follows the page");
});

test("sentence and orList", () => {
  assert.equal(sentence("the board's side"), "The board's side.");
  assert.equal(sentence("ends here."), "Ends here.");
  assert.equal(orList(["Lanrick", "Tablut", "Kōnane"]), "Lanrick, Tablut or Kōnane");
  assert.equal(orList(["Tablut"]), "Tablut");
});
