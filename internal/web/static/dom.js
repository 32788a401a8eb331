// dom.js builds elements: h(tag, attributes, ...children). Attributes
// starting with "on" are listeners; text is always set as text, never as
// HTML.

export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

export function cap(s) { return s[0].toUpperCase() + s.slice(1); }

// sentence is s begun with a capital and ended with a full stop, unless
// it ends with one already.
export function sentence(s) { return /[.!?]$/.test(s) ? cap(s) : cap(s) + "."; }

// orList joins words as "a, b or c".
export function orList(words) { return words.length < 2 ? words.join("") : words.slice(0, -1).join(", ") + " or " + words[words.length - 1]; }
