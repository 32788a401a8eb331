// board.js draws any game's board as SVG from the server's view (width,
// height, pieces, regions, the last action and what it took) and turns
// clicks, taps and keys on it into square names. It knows geometry and
// styles and nothing of the rules or of which game it shows: per-game
// differences come as data (the traits' colours, region and piece kinds).

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Squares are named a1… from the bottom-left (the game contract's naming).
export function sqName(file, rank) { return String.fromCharCode(97 + file) + (rank + 1); }
export function parseSq(s) { return [s.charCodeAt(0) - 97, parseInt(s.slice(1), 10) - 1]; }

// Region styles by kind: a fill for the square, or a drawn overlay.
const regionFill = { castle: "#c9a86a", camp: "#d8c49a", rendezvous: "#8fbc8f", swap: "#9ec5e8" };
const pieceFill = { dark: "#2b2b2b", light: "#f7f3e6" };
const pieceStroke = { dark: "#000", light: "#4a4a4a" };

// Board is one SVG board. onSquare(name) is called for a click, a tap or
// Enter on the keyboard cursor; onSquare(null) for Escape; onSquare()
// asks for a redraw.
export class Board {
  constructor(container, onSquare) {
    this.container = container;
    this.onSquare = onSquare;
    this.flipped = false;
    this.cursor = null;
    this.svg = null;
  }

  // render draws board (a game's View) with traits, the selected square,
  // the squares to offer as targets and the squares the prompt asks for;
  // marks.still draws a diagram instead, named by it, that takes no input.
  render(board, traits, marks) {
    const { selected = null, targets = [], asked = [], still = "" } = marks || {};
    this.board = board;
    const W = board.width, H = board.height;
    this.W = W; this.H = H;
    const cell = 60, pad = 24;
    const tw = W * cell + 2 * pad, th = H * cell + 2 * pad;
    // A still board (a diagram) is one picture, named by still.
    const svg = el("svg", still ? { viewBox: `0 0 ${tw} ${th}`, class: "board still", role: "img", "aria-label": still }
      : { viewBox: `0 0 ${tw} ${th}`, class: "board", tabindex: "0", role: "grid", "aria-label": "board" });
    el("rect", { x: 0, y: 0, width: tw, height: th, fill: "#e8d9b8" }, svg);
    const fills = new Map();
    const overlays = [];
    for (const r of board.regions || []) {
      if (regionFill[r.kind]) for (const q of r.squares) fills.set(q, regionFill[r.kind]);
      else overlays.push(r);
    }
    const last = new Set(board.last || []);
    const taken = new Set([...(board.captured || []), ...(board.removed || [])]);
    const converted = new Set(board.converted || []);
    const tset = new Set(targets);
    const askedSet = new Set(asked);
    const pieces = new Map((board.pieces || []).map((p) => [p.square, p]));
    const pos = (name) => {
      const [f, r] = parseSq(name);
      const x = this.flipped ? W - 1 - f : f;
      const y = this.flipped ? r : H - 1 - r;
      return [pad + x * cell, pad + y * cell];
    };
    this.pos = pos;
    for (let r = 0; r < H; r++) {
      for (let f = 0; f < W; f++) {
        const name = sqName(f, r);
        const [x, y] = pos(name);
        let fill = traits.chequered ? ((f + r) % 2 ? "#f0d9b5" : "#b58863") : "#f4ead2";
        if (fills.has(name)) fill = fills.get(name);
        if (last.has(name)) fill = "#e3c35a";
        const p = pieces.get(name);
        const label = name + (p ? ", " + pieceName(traits, p) : ", empty") + (askedSet.has(name) ? ", can be chosen" : "") + (tset.has(name) ? ", a target" : "");
        const rect = el("rect", { x, y, width: cell, height: cell, fill, stroke: "#7a6a4a", "stroke-width": 1, class: "sq", "data-sq": name, role: "gridcell", "aria-label": label }, svg);
        rect.addEventListener("click", () => this.onSquare(name));
      }
    }
    for (let i = 0; i < W; i++) {
      const file = this.flipped ? W - 1 - i : i;
      el("text", { x: pad + i * cell + cell / 2, y: th - 6, "text-anchor": "middle", "font-size": 14, fill: "#4a3a1a", "aria-hidden": "true" }, svg).textContent = String.fromCharCode(97 + file);
    }
    for (let i = 0; i < H; i++) {
      const rank = this.flipped ? i : H - 1 - i;
      el("text", { x: 6, y: pad + i * cell + cell / 2 + 5, "font-size": 14, fill: "#4a3a1a", "aria-hidden": "true" }, svg).textContent = String(rank + 1);
    }
    // The squares the prompt asks for.
    for (const q of askedSet) {
      if (selected) break;
      const [x, y] = pos(q);
      el("rect", { x: x + 3, y: y + 3, width: cell - 6, height: cell - 6, fill: "none", stroke: "#1e6fd9", "stroke-width": 2, "stroke-dasharray": "5 4", "pointer-events": "none", "data-asked": q }, svg);
    }
    // Overlays: the mark as a coin, lines drawn along their squares.
    for (const r of overlays) {
      if (r.kind === "mark") {
        for (const q of r.squares) {
          const [x, y] = pos(q);
          el("circle", { cx: x + cell - 12, cy: y + 12, r: 8, fill: "#d4af37", stroke: "#7a5a10", "pointer-events": "none", "data-mark": q }, svg);
        }
      } else if (r.squares.length) {
        const [x1, y1] = pos(r.squares[0]), [x2, y2] = pos(r.squares[r.squares.length - 1]);
        el("line", { x1: x1 + cell / 2, y1: y1 + cell / 2, x2: x2 + cell / 2, y2: y2 + cell / 2, stroke: "#c0392b", "stroke-width": 3, "stroke-dasharray": "6 5", "pointer-events": "none", "data-region": r.kind, "data-end": r.squares[r.squares.length - 1] }, svg);
      }
    }
    for (const p of board.pieces || []) this.piece(svg, traits, p, cell, taken.has(p.square));
    for (const q of taken) {
      if (pieces.has(q)) continue;
      const [x, y] = pos(q);
      el("path", { d: `M${x + 15} ${y + 15} L${x + cell - 15} ${y + cell - 15} M${x + cell - 15} ${y + 15} L${x + 15} ${y + cell - 15}`, stroke: "#a00", "stroke-width": 4, "pointer-events": "none", "data-taken": q }, svg);
    }
    const ring = (name, colour, width, attrs) => {
      const [x, y] = pos(name);
      el("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, fill: "none", stroke: colour, "stroke-width": width, "pointer-events": "none", ...attrs }, svg);
    };
    if (selected) ring(selected, "#1e6fd9", 4, { "data-selected": selected });
    for (const c of converted) ring(c, "#a00", 3, { "data-converted": c });
    for (const t of tset) {
      const [x, y] = pos(t);
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: 10, fill: "#1e6fd9", opacity: 0.6, "pointer-events": "none", "data-target": t }, svg);
    }
    if (this.cursor) ring(this.cursor, "#d9531e", 3, {});
    svg.addEventListener("keydown", (e) => this.key(e));
    const hadFocus = this.svg && document.activeElement === this.svg;
    this.container.replaceChildren(svg);
    this.svg = svg;
    if (hadFocus) svg.focus();
  }

  // piece draws one piece: a disc in its side's colour, a crown on a king,
  // dimmed when spent this turn, struck through when taken.
  piece(svg, traits, p, cell, taken) {
    const [x, y] = this.pos(p.square);
    const cx = x + cell / 2, cy = y + cell / 2;
    const colour = (traits.players[p.side] || {}).colour || "dark";
    const g = el("g", { "pointer-events": "none", "data-piece": p.kind, "data-side": p.side, "data-at": p.square }, svg);
    el("circle", { cx, cy, r: cell * 0.36, fill: pieceFill[colour], stroke: pieceStroke[colour], "stroke-width": 2, opacity: p.spent ? 0.55 : 1 }, g);
    if (p.kind === "king") {
      el("path", { d: `M${cx - 12} ${cy + 6} L${cx - 12} ${cy - 6} L${cx - 6} ${cy} L${cx} ${cy - 10} L${cx + 6} ${cy} L${cx + 12} ${cy - 6} L${cx + 12} ${cy + 6} Z`, fill: "#b8860b" }, g);
    }
    if (taken) {
      g.setAttribute("data-taken", p.square);
      el("path", { d: `M${x + 12} ${y + 12} L${x + cell - 12} ${y + cell - 12} M${x + cell - 12} ${y + 12} L${x + 12} ${y + cell - 12}`, stroke: "#c00", "stroke-width": 5 }, g);
    }
  }

  key(e) {
    const W = this.W, H = this.H;
    let [f, r] = this.cursor ? parseSq(this.cursor) : [Math.floor(W / 2), Math.floor(H / 2)];
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
    f = Math.max(0, Math.min(W - 1, f));
    r = Math.max(0, Math.min(H - 1, r));
    this.cursor = sqName(f, r);
    this.onSquare(undefined); // redraw
    if (this.svg) this.svg.focus();
  }
}

// pieceName names a piece for screen readers from the traits.
export function pieceName(traits, p) {
  const t = (traits.pieces || []).find((k) => k.kind === p.kind && k.side === p.side);
  return (t ? t.name : p.kind) + (p.spent ? " (moved this turn)" : "");
}
