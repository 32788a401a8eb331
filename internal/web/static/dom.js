// dom.js builds elements: h(tag, attributes, ...children). Attributes
// starting with "on" are listeners; text is always set as text, never as
// HTML. patch(parent, ...children) puts children into parent changing
// only what differs from what is there, so that an element that stays
// keeps its focus, its scroll and the click under the pointer.

export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) listen(e, k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

// listen sets an element's one listener of a type through a dispatcher,
// so that patch can hand a kept element the listener of its new copy.
function listen(e, type, fn) {
  if (!e.on) e.on = {};
  if (!e.on[type]) e.addEventListener(type, (ev) => e.on[type] && e.on[type](ev));
  e.on[type] = fn;
}

// patch makes parent's children the given ones (elements, strings,
// numbers; null, undefined and false left out): a child that matches the
// one at its place (the same tag, id and data-key) is kept and patched in
// turn (its attributes, listeners, value and children); any other takes
// its place.
export function patch(parent, ...children) {
  const fresh = [];
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    fresh.push(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  for (let i = 0; i < fresh.length; i++) {
    const old = parent.childNodes[i];
    if (!old) parent.appendChild(fresh[i]);
    else if (old !== fresh[i]) {
      if (same(old, fresh[i])) morph(old, fresh[i]);
      else parent.replaceChild(fresh[i], old);
    }
  }
  while (parent.childNodes.length > fresh.length) parent.removeChild(parent.lastChild);
  return parent;
}

function same(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeType !== 1) return true;
  return a.getAttribute("id") === b.getAttribute("id") && a.getAttribute("data-key") === b.getAttribute("data-key");
}

function morph(old, fresh) {
  if (old.nodeType !== 1) {
    if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
    return;
  }
  for (const a of [...old.attributes]) if (!fresh.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of [...fresh.attributes]) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  for (const type of Object.keys(old.on || {})) if (!fresh.on || !fresh.on[type]) old.on[type] = null;
  for (const [type, fn] of Object.entries(fresh.on || {})) listen(old, type, fn);
  patch(old, ...fresh.childNodes);
  // A field keeps what is being typed into it.
  if (typeof fresh.value === "string" && old.value !== fresh.value && old !== document.activeElement) old.value = fresh.value;
  if (typeof fresh.checked === "boolean" && old.checked !== fresh.checked) old.checked = fresh.checked;
}

export function cap(s) { return s[0].toUpperCase() + s.slice(1); }

// sentence is s begun with a capital and ended with a full stop, unless
// it ends with one already.
export function sentence(s) { return /[.!?]$/.test(s) ? cap(s) : cap(s) + "."; }

// orList joins words as "a, b or c".
export function orList(words) { return words.length < 2 ? words.join("") : words.slice(0, -1).join(", ") + " or " + words[words.length - 1]; }
