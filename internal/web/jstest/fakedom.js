// fakedom.js is the little of the DOM the page's pure modules use, for
// their tests under node: elements with attributes, children, listeners
// and text. It is installed as globalThis.document.

class Node {
  constructor(type, name) {
    this.nodeType = type;
    this.nodeName = name;
    this.childNodes = [];
    this.parentNode = null;
  }
  get lastChild() { return this.childNodes[this.childNodes.length - 1] || null; }
  get firstChild() { return this.childNodes[0] || null; }
  appendChild(c) {
    if (c.parentNode) c.parentNode.removeChild(c);
    c.parentNode = this;
    this.childNodes.push(c);
    return c;
  }
  removeChild(c) {
    const i = this.childNodes.indexOf(c);
    if (i < 0) throw new Error("not a child");
    this.childNodes.splice(i, 1);
    c.parentNode = null;
    return c;
  }
  replaceChild(nu, old) {
    if (nu.parentNode) nu.parentNode.removeChild(nu);
    const i = this.childNodes.indexOf(old);
    if (i < 0) throw new Error("not a child");
    this.childNodes[i] = nu;
    nu.parentNode = this;
    old.parentNode = null;
    return old;
  }
  replaceChildren(...cs) {
    for (const c of [...this.childNodes]) this.removeChild(c);
    for (const c of cs) this.appendChild(typeof c === "string" ? new Text(c) : c);
  }
  get textContent() { return this.nodeType === 3 ? this.nodeValue : this.childNodes.map((c) => c.textContent).join(""); }
}

class Text extends Node {
  constructor(text) { super(3, "#text"); this.nodeValue = text; }
}

class Element extends Node {
  constructor(tag) {
    super(1, tag.toUpperCase());
    this.attrs = new Map();
    this.listeners = {};
    this.style = {};
    if (tag === "input" || tag === "select" || tag === "textarea") this.value = "";
    if (tag === "input") this.checked = false;
  }
  get attributes() { return [...this.attrs].map(([name, value]) => ({ name, value })); }
  getAttribute(n) { return this.attrs.has(n) ? this.attrs.get(n) : null; }
  setAttribute(n, v) {
    this.attrs.set(n, String(v));
    if (n === "value" && "value" in this) this.value = String(v);
    if (n === "checked" && "checked" in this) this.checked = true;
  }
  removeAttribute(n) { this.attrs.delete(n); }
  hasAttribute(n) { return this.attrs.has(n); }
  get id() { return this.getAttribute("id") || ""; }
  scrollIntoView() {}
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  dispatch(type, ev = {}) { for (const fn of this.listeners[type] || []) fn({ type, target: this, ...ev }); }
  querySelector(sel) {
    const id = sel.startsWith("#") ? sel.slice(1) : null;
    for (const c of this.childNodes) {
      if (c.nodeType !== 1) continue;
      if (id ? c.id === id : c.nodeName === sel.toUpperCase()) return c;
      const deeper = c.querySelector(sel);
      if (deeper) return deeper;
    }
    return null;
  }
}

export function install() {
  globalThis.document = {
    activeElement: null,
    createElement: (tag) => new Element(tag),
    createElementNS: (_, tag) => new Element(tag),
    createTextNode: (text) => new Text(text),
  };
  return globalThis.document;
}
