// board.js draws a game's board as SVG and turns clicks, taps and keys on
// it into square names. It knows the two games' boards and nothing of the
// rules: what is legal comes from the server.

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function sqName(file, rank) { return String.fromCharCode(97 + file) + (rank + 1); }
function parseSq(s) { return [s.charCodeAt(0) - 97, parseInt(s.slice(1), 10) - 1]; }

// Board is one SVG board. onSquare(name) is called for a click, a tap or
// Enter on the keyboard cursor.
export class Board {
  constructor(container, onSquare) {
    this.container = container;
    this.onSquare = onSquare;
    this.flipped = false;
    this.cursor = null;
    this.svg = null;
  }

  // render draws the view: game "tablut" or "lanrick", with the selected
  // square and the squares to highlight as targets.
  render(v, selected, targets) {
    this.view = v;
    const size = v.game === "tablut" ? 9 : 8;
    this.size = size;
    const cell = 60, pad = 24, total = size * cell + 2 * pad;
    const svg = el("svg", { viewBox: `0 0 ${total} ${total}`, class: "board", tabindex: "0", role: "grid", "aria-label": `${v.game} board` });
    el("rect", { x: 0, y: 0, width: total, height: total, fill: "#e8d9b8" }, svg);
    const b = v.board;
    const rdv = new Set((b && b.rendezvous) || []);
    const camps = new Set((b && b.camps) || []);
    const last = new Set([b && b.last_from, b && b.last_to].filter(Boolean));
    const captured = new Set([...((b && b.captured) || []), ...((b && b.removed) || [])]);
    const converted = new Set((b && b.converted) || []);
    const moved = new Set((b && b.moved) || []);
    const tset = new Set(targets || []);
    const pos = (name) => {
      const [f, r] = parseSq(name);
      const x = this.flipped ? size - 1 - f : f;
      const y = this.flipped ? r : size - 1 - r;
      return [pad + x * cell, pad + y * cell];
    };
    for (let r = 0; r < size; r++) {
      for (let f = 0; f < size; f++) {
        const name = sqName(f, r);
        const [x, y] = pos(name);
        let fill = v.game === "tablut" ? "#f4ead2" : ((f + r) % 2 ? "#f0d9b5" : "#b58863");
        if (v.game === "tablut" && name === (b && b.castle)) fill = "#c9a86a";
        if (camps.has(name)) fill = "#d8c49a";
        if (rdv.has(name)) fill = v.game === "lanrick" ? "#8fbc8f" : fill;
        if (last.has(name)) fill = "#e3c35a";
        const rect = el("rect", { x, y, width: cell, height: cell, fill, stroke: "#7a6a4a", "stroke-width": 1, class: "sq", "data-sq": name, role: "gridcell", "aria-label": name }, svg);
        rect.addEventListener("click", () => this.onSquare(name));
        if (captured.has(name)) {
          el("path", { d: `M${x + 15} ${y + 15} L${x + cell - 15} ${y + cell - 15} M${x + cell - 15} ${y + 15} L${x + 15} ${y + cell - 15}`, stroke: "#a00", "stroke-width": 4, "pointer-events": "none" }, svg);
        }
      }
    }
    // Coordinates.
    for (let i = 0; i < size; i++) {
      const file = this.flipped ? size - 1 - i : i;
      const rank = this.flipped ? i : size - 1 - i;
      el("text", { x: pad + i * cell + cell / 2, y: total - 6, "text-anchor": "middle", "font-size": 14, fill: "#5a4a2a" }, svg).textContent = String.fromCharCode(97 + file);
      el("text", { x: 8, y: pad + i * cell + cell / 2 + 5, "font-size": 14, fill: "#5a4a2a" }, svg).textContent = String(rank + 1);
    }
    // The mark (Lanrick): a coin.
    if (b && b.mark) {
      const [x, y] = pos(b.mark);
      el("circle", { cx: x + cell - 12, cy: y + 12, r: 8, fill: "#d4af37", stroke: "#7a5a10", "pointer-events": "none", "data-mark": b.mark }, svg);
    }
    // Men and pieces.
    const piece = (name, kind) => {
      const [x, y] = pos(name);
      const cx = x + cell / 2, cy = y + cell / 2;
      const dark = kind === "t" || kind === "black";
      const g = el("g", { "pointer-events": "none", "data-piece": kind, "data-at": name }, svg);
      el("circle", { cx, cy, r: cell * 0.36, fill: dark ? "#2b2b2b" : (v.game === "lanrick" ? "#f5f0e0" : "#f8f8f8"), stroke: dark ? "#000" : "#555", "stroke-width": 2, opacity: moved.has(name) ? 0.6 : 1 }, g);
      if (kind === "K") {
        el("path", { d: `M${cx - 12} ${cy + 6} L${cx - 12} ${cy - 6} L${cx - 6} ${cy} L${cx} ${cy - 10} L${cx + 6} ${cy} L${cx + 12} ${cy - 6} L${cx + 12} ${cy + 6} Z`, fill: "#b8860b" }, g);
      }
    };
    if (v.game === "tablut" && b) for (const p of b.pieces || []) piece(p.sq, p.piece);
    if (v.game === "lanrick" && b) for (const colour of ["black", "white"]) for (const s of (b.men || {})[colour] || []) piece(s, colour);
    // The king's open lines to the edge (raichi, tuichu).
    const king = v.game === "tablut" && b ? (b.pieces || []).find((p) => p.piece === "K") : null;
    if (king) {
      for (const e of b.escapes || []) {
        const [x1, y1] = pos(king.sq), [x2, y2] = pos(e);
        el("line", { x1: x1 + cell / 2, y1: y1 + cell / 2, x2: x2 + cell / 2, y2: y2 + cell / 2, stroke: "#c0392b", "stroke-width": 3, "stroke-dasharray": "6 5", "pointer-events": "none", "data-escape": e }, svg);
      }
    }
    // Selection, targets and the keyboard cursor.
    const ring = (name, colour, width) => {
      const [x, y] = pos(name);
      el("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, fill: "none", stroke: colour, "stroke-width": width, "pointer-events": "none" }, svg);
    };
    if (selected) ring(selected, "#1e6fd9", 4);
    for (const c of converted) ring(c, "#a00", 3);
    for (const t of tset) {
      const [x, y] = pos(t);
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: 9, fill: "#1e6fd9", opacity: 0.55, "pointer-events": "none", "data-target": t }, svg);
    }
    if (this.cursor) ring(this.cursor, "#d9531e", 3);
    svg.addEventListener("keydown", (e) => this.key(e));
    const hadFocus = this.svg && document.activeElement === this.svg;
    this.container.replaceChildren(svg);
    this.svg = svg;
    if (hadFocus) svg.focus();
  }

  key(e) {
    const size = this.size;
    let [f, r] = this.cursor ? parseSq(this.cursor) : [Math.floor(size / 2), Math.floor(size / 2)];
    const d = this.flipped ? -1 : 1;
    switch (e.key) {
      case "ArrowLeft": f -= d; break;
      case "ArrowRight": f += d; break;
      case "ArrowUp": r += d; break;
      case "ArrowDown": r -= d; break;
      case "Enter": case " ":
        if (this.cursor) this.onSquare(this.cursor);
        e.preventDefault();
        return;
      case "Escape": this.onSquare(null); return;
      default: return;
    }
    e.preventDefault();
    f = Math.max(0, Math.min(size - 1, f));
    r = Math.max(0, Math.min(size - 1, r));
    this.cursor = sqName(f, r);
    this.onSquare(undefined); // redraw
    if (this.svg) this.svg.focus();
  }
}
