// board.js draws any game's board as SVG from the server's view (width,
// height, pieces, regions, the last action and what it took) and turns
// clicks, taps, drags and keys on it into square names. It knows geometry
// and styles and nothing of the rules or of which game it shows: per-game
// differences come as data (the traits' colours, region and piece kinds).
// Colours come from the stylesheet (classes on the squares and men), so
// the board follows the chosen theme.

import { patch } from "./dom.js";

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

// How a region is drawn comes from the game's traits: its style (fill:
// its squares tinted with the stylesheet's tint-NAME; marker: each square
// ringed, with a coin; line: a line along its squares).
function regionStyles(traits) {
  return new Map((traits.regions || []).map((r) => [r.kind, r]));
}

const cell = 60;

// Board is one SVG board. onSquare(name) is called for a click, a tap,
// the end of a drag or Enter on the keyboard cursor; onSquare(null) for
// Escape; onSquare() asks for a redraw. onHover(name), if set, is told
// the square under the pointer or the cursor (null when it leaves).
export class Board {
  constructor(container, onSquare) {
    this.container = container;
    this.onSquare = onSquare;
    this.onHover = null;
    this.flipped = false;
    this.cursor = null;
    this.svg = null;
    this.drag = null;
  }

  // render draws board (a game's View) with traits and marks:
  // selected, the selected square; targets, the squares to offer;
  // asked, the squares the prompt asks for; trail, the [from, to] (or
  // [square]) of each action of the turn shown, drawn as arrows;
  // arrows, [{from, to, kind}] drawn over all (an engine's line, a
  // player's own); preview, squares to tint (a rendezvous a mark would
  // make); animate, the [from, to] moves to show moving, one after
  // another; still, a name: draw a diagram that takes no input.
  render(board, traits, marks) {
    const { selected = null, targets = [], asked = [], trail = [], arrows = [], preview = [], animate = [], premove = [], still = "" } = marks || {};
    this.board = board;
    this.traits = traits;
    const W = board.width, H = board.height;
    this.W = W; this.H = H;
    const tw = W * cell, th = H * cell;
    const svg = el("svg", still ? { viewBox: `0 0 ${tw} ${th}`, class: "board still", role: "img", "aria-label": still }
      : { viewBox: `0 0 ${tw} ${th}`, class: "board", tabindex: "0", role: "grid", "aria-label": "board" });
    this.defs(svg);
    const fills = new Map();
    const overlays = [];
    const styles = regionStyles(traits);
    for (const r of board.regions || []) {
      const st = styles.get(r.kind) || {};
      if (st.style === "fill") for (const q of r.squares) fills.set(q, st.tint);
      else overlays.push({ ...r, style: st.style, short: st.short });
    }
    // The turn shown: every square a man left or reached, and the last
    // action's squares.
    const moved = new Set(trail.flatMap((m) => m && m.length ? [m[0], m[m.length - 1]] : []));
    for (const q of board.last || []) moved.add(q);
    const taken = new Set([...(board.captured || []), ...(board.removed || [])]);
    const converted = new Set(board.converted || []);
    const tset = new Set(targets);
    const askedSet = new Set(asked);
    const previewSet = new Set(preview);
    const marked = new Map(overlays.filter((r) => r.style === "marker").flatMap((r) => r.squares.map((q) => [q, r.short || r.kind])));
    // For screen readers: the regions a square is in, by their kinds
    // ("in the rendezvous"), the markers said apart.
    const within = new Map();
    for (const r of board.regions || []) {
      const st = styles.get(r.kind) || {};
      if (st.style === "marker") continue;
      for (const q of r.squares) within.set(q, [...(within.get(q) || []), r.kind]);
    }
    const pieces = new Map((board.pieces || []).map((p) => [p.square, p]));
    const pos = (name) => {
      const [f, r] = parseSq(name);
      const x = this.flipped ? W - 1 - f : f;
      const y = this.flipped ? r : H - 1 - r;
      return [x * cell, y * cell];
    };
    this.pos = pos;
    for (let r = 0; r < H; r++) {
      for (let f = 0; f < W; f++) {
        const name = sqName(f, r);
        const [x, y] = pos(name);
        const cls = ["sq", traits.chequered ? ((f + r) % 2 ? "light" : "dark") : "plain"];
        if (fills.has(name)) cls.push("tint-" + fills.get(name));
        const p = pieces.get(name);
        const label = name + (p ? ", " + pieceName(traits, p) : ", empty") + (marked.has(name) ? ", " + marked.get(name) : "") +
          (within.has(name) ? ", in the " + within.get(name).join(" and the ") : "") +
          (askedSet.has(name) ? ", can be chosen" : "") + (tset.has(name) ? ", a target" : "");
        const rect = el("rect", { x, y, width: cell, height: cell, class: cls.join(" "), "data-sq": name, role: "gridcell", "aria-label": label }, svg);
        rect.addEventListener("click", (e) => { if (!this.dragged) this.onSquare(name, { pointer: e.pointerType }); });
        if (this.onHover) rect.addEventListener("pointerenter", () => this.onHover(name));
      }
    }
    if (this.onHover) svg.addEventListener("pointerleave", () => this.onHover(null));
    // The turn's squares and a preview, tinted over the squares' colours.
    for (const [set, cls] of [[moved, "hl-moved"], [previewSet, "hl-preview"]]) {
      for (const q of set) {
        const [x, y] = pos(q);
        el("rect", { x, y, width: cell, height: cell, class: cls, "pointer-events": "none", [`data-${cls}`]: q }, svg);
      }
    }
    // Coordinates inside the edge squares, as on a printed board: files
    // along the bottom, ranks down the left.
    for (let i = 0; i < W; i++) {
      const file = this.flipped ? W - 1 - i : i;
      const t = el("text", { x: i * cell + cell - 4, y: th - 5, "text-anchor": "end", class: "coord " + this.coordTone(traits, file, this.flipped ? H - 1 : 0), "aria-hidden": "true" }, svg);
      t.textContent = String.fromCharCode(97 + file);
    }
    for (let i = 0; i < H; i++) {
      const rank = this.flipped ? i : H - 1 - i;
      const t = el("text", { x: 4, y: i * cell + 16, class: "coord " + this.coordTone(traits, this.flipped ? W - 1 : 0, rank), "aria-hidden": "true" }, svg);
      t.textContent = String(rank + 1);
    }
    // The squares the prompt asks for.
    for (const q of askedSet) {
      if (selected) break;
      const [x, y] = pos(q);
      el("rect", { x: x + 3, y: y + 3, width: cell - 6, height: cell - 6, class: "asked", "pointer-events": "none", "data-asked": q }, svg);
    }
    // Overlays: the mark (its square ringed, a coin on it), lines drawn
    // along their squares.
    for (const r of overlays) {
      if (r.style === "marker") {
        for (const q of r.squares) {
          const [x, y] = pos(q);
          el("rect", { x: x + 2.5, y: y + 2.5, width: cell - 5, height: cell - 5, class: "mark-ring", "pointer-events": "none" }, svg);
          const free = !pieces.has(q);
          el("circle", { cx: free ? x + cell / 2 : x + cell - 13, cy: free ? y + cell / 2 : y + 13, r: free ? 13 : 9, class: "coin", "pointer-events": "none", "data-mark": q }, svg);
        }
      } else if (r.squares.length) {
        const [x1, y1] = pos(r.squares[0]), [x2, y2] = pos(r.squares[r.squares.length - 1]);
        el("line", { x1: x1 + cell / 2, y1: y1 + cell / 2, x2: x2 + cell / 2, y2: y2 + cell / 2, class: "line-region", "pointer-events": "none", "data-region": r.kind, "data-end": r.squares[r.squares.length - 1] }, svg);
      }
    }
    const pieceLayer = el("g", { class: "pieces" }, svg);
    for (const p of board.pieces || []) this.piece(pieceLayer, traits, p, taken.has(p.square));
    for (const q of taken) {
      if (pieces.has(q)) continue;
      const [x, y] = pos(q);
      el("path", { d: `M${x + 15} ${y + 15} L${x + cell - 15} ${y + cell - 15} M${x + cell - 15} ${y + 15} L${x + 15} ${y + cell - 15}`, class: "taken", "pointer-events": "none", "data-taken": q }, svg);
    }
    const ring = (name, cls, attrs) => {
      const [x, y] = pos(name);
      el("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, class: cls, "pointer-events": "none", ...attrs }, svg);
    };
    if (selected) ring(selected, "selected", { "data-selected": selected });
    // A move chosen ahead: its squares ringed, an arrow between them.
    for (const q of premove) ring(q, "premove", { "data-premove": q });
    if (premove.length === 2) this.arrow(svg, premove, "arrow premove", 0, { "data-premove-arrow": premove.join("-") });
    for (const c of converted) ring(c, "converted", { "data-converted": c });
    // The turn's moves, numbered where a turn has several.
    // A move's arrow follows its path where it turned a corner (a slide
    // along the border).
    const moves = trail.filter((m) => m && m.length >= 2 && m[0] !== m[m.length - 1]);
    moves.forEach((m, i) => this.arrow(svg, m, "trail", moves.length > 1 ? i + 1 : 0, { "data-trail": `${m[0]}-${m[m.length - 1]}` }));
    for (const a of arrows) this.arrow(svg, [a.from, a.to], "arrow " + (a.kind || ""), 0, { "data-arrow": `${a.from}-${a.to}` });
    for (const t of tset) {
      const [x, y] = pos(t);
      if (pieces.has(t)) el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.44, class: "target-ring", "pointer-events": "none", "data-target": t }, svg);
      else el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: 10, class: "target", "pointer-events": "none", "data-target": t }, svg);
    }
    if (this.cursor && !still) ring(this.cursor, "cursor", {});
    if (!still) {
      svg.addEventListener("keydown", (e) => this.key(e));
      svg.addEventListener("pointerdown", (e) => this.down(e));
      svg.addEventListener("pointermove", (e) => this.move(e));
      svg.addEventListener("pointerup", (e) => this.up(e));
      svg.addEventListener("pointercancel", () => this.cancelDrag());
    }
    // The board drawn before is patched into the new one, so that the
    // element under a finger or holding the focus stays (its listeners
    // were set when it was first drawn); a still diagram is drawn anew.
    if (this.svg && !still && this.svg.parentNode === this.container && this.svg.getAttribute("class") === svg.getAttribute("class")) {
      patch(this.container, svg);
    } else {
      const hadFocus = this.svg && document.activeElement === this.svg;
      this.container.replaceChildren(svg);
      this.svg = svg;
      if (hadFocus) svg.focus();
    }
    this.pieceLayer = this.svg.querySelector("g.pieces");
    if (animate.length) this.animate(animate);
  }

  // showPreview tints squares (a rendezvous a mark would make) without
  // drawing the board again; none clears them.
  showPreview(squares) {
    if (!this.svg) return;
    for (const r of this.svg.querySelectorAll("rect.hl-preview.hover")) r.remove();
    const before = this.svg.querySelector("text.coord");
    for (const q of squares || []) {
      const [x, y] = this.pos(q);
      this.svg.insertBefore(el("rect", { x, y, width: cell, height: cell, class: "hl-preview hover", "pointer-events": "none", "data-preview": q }), before);
    }
  }

  // coordTone is the class of a coordinate's text: light on a dark
  // square, dark on a light one.
  coordTone(traits, f, r) { return traits.chequered && (f + r) % 2 === 0 ? "on-dark" : "on-light"; }

  // defs are the men's shading and the arrows' heads.
  defs(svg) {
    const d = el("defs", {}, svg);
    for (const c of ["light", "dark"]) {
      const g = el("radialGradient", { id: "man-" + c, cx: "38%", cy: "32%", r: "70%" }, d);
      el("stop", { offset: "0%", class: `man-${c}-hi` }, g);
      el("stop", { offset: "100%", class: `man-${c}-lo` }, g);
    }
    for (const k of ["trail", "arrow", "mine", "engine"]) {
      const m = el("marker", { id: "head-" + k, viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: "auto-start-reverse" }, d);
      el("path", { d: "M0 0 L10 5 L0 10 z", class: "head-" + k }, m);
    }
  }

  // arrow draws an arrow through the centres of squares (two for a
  // straight move, more for one round a corner), with n, if not 0, at its
  // tail (the order of a turn's moves).
  arrow(svg, squares, cls, n, attrs) {
    const pts = squares.map((q) => { const [x, y] = this.pos(q); return [x + cell / 2, y + cell / 2]; });
    // Keep the corners only: the points where the direction changes.
    const keep = pts.filter((p, i) => {
      if (i === 0 || i === pts.length - 1) return true;
      const [a, b] = [pts[i - 1], pts[i + 1]];
      return (p[0] - a[0]) * (b[1] - p[1]) !== (p[1] - a[1]) * (b[0] - p[0]);
    });
    const [ax, ay] = keep[keep.length - 2], [bx, by] = keep[keep.length - 1];
    const len = Math.hypot(bx - ax, by - ay) || 1;
    keep[keep.length - 1] = [bx - (bx - ax) / len * 14, by - (by - ay) / len * 14];
    const kind = cls.split(" ").find((k) => ["trail", "mine", "engine"].includes(k)) || "arrow";
    const d = keep.map(([x, y], i) => `${i ? "L" : "M"}${x} ${y}`).join(" ");
    el("path", { d, class: cls + " arrow-path", "marker-end": `url(#head-${kind})`, "pointer-events": "none", ...attrs }, svg);
    if (n) {
      el("circle", { cx: pts[0][0], cy: pts[0][1], r: 10, class: "trail-n", "pointer-events": "none" }, svg);
      el("text", { x: pts[0][0], y: pts[0][1] + 5, "text-anchor": "middle", class: "trail-n-text", "pointer-events": "none" }, svg).textContent = String(n);
    }
  }

  // piece draws one man: a shaded disc in its side's colour with a rim,
  // a crown on a king, dimmed when spent this turn, struck through when
  // taken.
  piece(layer, traits, p, taken) {
    const [x, y] = this.pos(p.square);
    const cx = x + cell / 2, cy = y + cell / 2;
    const colour = (traits.players[p.side] || {}).colour || "dark";
    const g = el("g", { "pointer-events": "none", class: `man ${colour}` + (p.spent ? " spent" : ""), "data-piece": p.kind, "data-side": p.side, "data-at": p.square }, layer);
    el("circle", { cx, cy: cy + 2, r: cell * 0.37, class: "man-shadow" }, g);
    el("circle", { cx, cy, r: cell * 0.37, fill: `url(#man-${colour})`, class: "man-body" }, g);
    el("circle", { cx, cy, r: cell * 0.25, class: "man-rim" }, g);
    const kind = (traits.pieces || []).find((k) => k.kind === p.kind && k.side === p.side) || {};
    if (kind.emblem === "crown") {
      el("path", { d: `M${cx - 12} ${cy + 7} L${cx - 12} ${cy - 5} L${cx - 6} ${cy + 1} L${cx} ${cy - 10} L${cx + 6} ${cy + 1} L${cx + 12} ${cy - 5} L${cx + 12} ${cy + 7} Z`, class: "crown" }, g);
    }
    if (taken) {
      g.setAttribute("data-taken", p.square);
      el("path", { d: `M${x + 12} ${y + 12} L${x + cell - 12} ${y + cell - 12} M${x + cell - 12} ${y + 12} L${x + 12} ${y + cell - 12}`, class: "taken" }, g);
    }
    return g;
  }

  // animate shows the moves of a turn one after another: each man is
  // drawn where he stood and slides to where he is now.
  animate(moves) {
    if (matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const men = moves.filter((m) => m && m.length === 2).map(([from, to]) => {
      const g = this.pieceLayer.querySelector(`[data-at="${to}"]`);
      if (!g) return null;
      const [x1, y1] = this.pos(from), [x2, y2] = this.pos(to);
      g.style.transform = `translate(${x1 - x2}px, ${y1 - y2}px)`;
      return g;
    });
    // A man moved twice in a turn is handled by his last move only.
    men.forEach((g, i) => {
      if (!g) return;
      setTimeout(() => {
        g.style.transition = "transform 260ms ease-out";
        g.style.transform = "";
      }, 30 + i * 300);
    });
  }

  // squareAt is the square under a pointer event, or null.
  squareAt(e) {
    const box = this.svg.getBoundingClientRect();
    const x = Math.floor((e.clientX - box.left) / box.width * this.W);
    const y = Math.floor((e.clientY - box.top) / box.height * this.H);
    if (x < 0 || y < 0 || x >= this.W || y >= this.H) return null;
    return this.flipped ? sqName(this.W - 1 - x, y) : sqName(x, this.H - 1 - y);
  }

  // box is a square's place in the board, in fractions of its width and
  // height (for something laid over the board, like a choice).
  box(name) {
    const [x, y] = this.pos(name);
    return { left: x / (this.W * cell), top: y / (this.H * cell), width: 1 / this.W, height: 1 / this.H };
  }

  // A drag: a man pressed and carried to another square plays as two
  // clicks, the man's and the target's. A press released where it began
  // is a click.
  down(e) {
    if (e.button !== 0) return;
    const sq = this.squareAt(e);
    const g = sq && this.pieceLayer.querySelector(`[data-at="${sq}"]`);
    this.dragged = false;
    if (!g) return;
    this.drag = { from: sq, g, x: e.clientX, y: e.clientY, id: e.pointerId };
  }

  move(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    const dx = e.clientX - d.x, dy = e.clientY - d.y;
    if (!d.live && Math.hypot(dx, dy) < 6) return;
    if (!d.live) {
      d.live = true;
      try { this.svg.setPointerCapture(e.pointerId); } catch { /* a synthetic event */ }
      d.g.classList.add("dragging");
    }
    const box = this.svg.getBoundingClientRect();
    const k = this.W * cell / box.width;
    d.g.style.transform = `translate(${dx * k}px, ${dy * k}px)`;
  }

  up(e) {
    const d = this.drag;
    this.drag = null;
    if (!d || !d.live) return;
    const to = this.squareAt(e);
    d.g.style.transform = "";
    d.g.classList.remove("dragging");
    // The click that follows a drag is not a click.
    this.dragged = true;
    setTimeout(() => { this.dragged = false; }, 0);
    if (!to || to === d.from) return;
    this.onSquare(d.from, { drag: true });
    this.onSquare(to, { drag: true });
  }

  cancelDrag() {
    if (this.drag && this.drag.live) { this.drag.g.style.transform = ""; this.drag.g.classList.remove("dragging"); }
    this.drag = null;
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
        e.stopPropagation();
        return;
      case "Escape": this.onSquare(null); return;
      default: return;
    }
    e.preventDefault();
    e.stopPropagation();
    f = Math.max(0, Math.min(W - 1, f));
    r = Math.max(0, Math.min(H - 1, r));
    this.cursor = sqName(f, r);
    if (this.onHover) this.onHover(this.cursor);
    this.onSquare(undefined); // redraw
    if (this.svg) this.svg.focus();
  }
}

// pieceName names a piece for screen readers from the traits.
export function pieceName(traits, p) {
  const t = (traits.pieces || []).find((k) => k.kind === p.kind && k.side === p.side);
  return (t ? t.name : p.kind) + (p.spent ? " (moved this turn)" : "");
}
