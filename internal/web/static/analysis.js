// analysis.js is the analysis board: from a finished game or any position,
// play actions under the rules, keep the variations as a tree, see the
// engine's evaluation and expected line (a switch), and play the computer
// from any position. The tree lives in the page; the server answers each
// node's view (POST /api/analysis) and evaluation (POST
// /api/analysis/eval) from the root position and the actions to the node.
// A game still in play is never analysed here.

import { PlayBoard } from "./playboard.js";
import { h, patch } from "./dom.js";
import { api, playComputer } from "./api.js";
import { recordField } from "./record.js";

// A Node is a position of the tree: the root, or the action that led to
// it from its parent. children[0] continues the line; the others are
// variations.
class Node {
  constructor(parent, step) {
    this.parent = parent;
    this.children = [];
    this.view = null;
    this.eval = null;
    if (!step) { this.ply = 0; this.turn = 0; return; }
    this.text = step.text;
    this.label = step.label;
    this.squares = step.path || step.squares || [];
    this.player = step.player;
    this.endsTurn = step.ends_turn;
    this.ply = parent.ply + 1;
    const prev = parent.parent ? parent : null;
    this.turnStart = !prev || prev.endsTurn || prev.player !== this.player;
    // Numbered as the records number turns: one number for each change of
    // player (an interchange demanded and the turn after it share one).
    this.turn = parent.turn + (!prev || prev.player !== this.player ? 1 : 0);
  }

  path() {
    const out = [];
    for (let n = this; n.parent; n = n.parent) out.push(n.text);
    return out.reverse();
  }

  child(step) {
    let c = this.children.find((x) => x.text === step.text);
    if (!c) { c = new Node(this, step); this.children.push(c); }
    return c;
  }
}

class Analysis {
  constructor(app, spec, position, levels) {
    this.app = app;
    this.spec = spec;
    this.position = position || "";
    this.levels = levels;
    this.root = new Node(null, null);
    this.node = this.root;
    this.engineOn = localStorage.getItem("muster-engine") === "on";
    this.err = h("p", { class: "error", id: "error", role: "alert" });
    this.pb = new PlayBoard({
      onPlay: (text) => this.play(text),
      onClick: () => { this.err.textContent = ""; },
      onMiss: (sq) => { this.err.textContent = `Not ${sq}: ${this.node.view.prompt.text}`; },
      onChange: () => this.drawChoices(),
    });
  }

  // load gives the tree a main line of actions and shows its node at ply.
  async load(actions, ply) {
    const v = await this.fetchView(actions);
    let n = this.root;
    for (const step of v.path) n = n.child(step);
    n.view = v;
    let at = n;
    while (at.ply > ply && at.parent) at = at.parent;
    this.layout();
    await this.show(at);
  }

  fetchView(actions) { return api("POST", "/api/analysis", { spec: this.spec, position: this.position, actions }); }

  async show(node) {
    try {
      if (!node.view) node.view = await this.fetchView(node.path());
    } catch (e) { this.err.textContent = e.message; return; }
    this.node = node;
    this.pb.reset();
    this.err.textContent = "";
    this.draw();
    if (this.engineOn) this.evaluate(node);
  }

  async evaluate(node) {
    if (!node.eval || node.eval.error) {
      node.eval = { pending: true };
      this.drawEval();
      try {
        node.eval = await api("POST", "/api/analysis/eval", { spec: this.spec, position: this.position, actions: node.path() });
      } catch (e) { node.eval = { error: e.message }; }
    }
    if (this.node === node) this.draw();
  }

  title(p) { const t = this.node.view.traits.players[p]; return t ? t.title : "Chance"; }

  layout() {
    const boardEl = this.pb.boardEl;
    const boardBox = h("div", { class: "board-wrap" }, this.pb.el,
      // Arrows are drawn with a mouse's other button: a touch screen is
      // not told of them.
      matchMedia("(pointer: coarse)").matches ? null : h("p", { class: "muted graph-note", id: "arrows-note" }, "Right-drag on the board to draw your own arrows; a right-click clears them."));
    // Your own arrows: a right-drag from a square to another draws one,
    // again takes it away; a right-click on one square clears them all.
    boardEl.addEventListener("contextmenu", (e) => e.preventDefault());
    boardEl.addEventListener("pointerdown", (e) => {
      if (e.button !== 2) return;
      this.rightFrom = this.pb.board.squareAt(e);
    });
    boardEl.addEventListener("pointerup", (e) => {
      if (e.button !== 2 || !this.rightFrom) return;
      const to = this.pb.board.squareAt(e);
      const from = this.rightFrom;
      this.rightFrom = null;
      const mine = this.node.arrows || (this.node.arrows = []);
      if (!to || to === from) { this.node.arrows = []; this.draw(); return; }
      const i = mine.findIndex((a) => a.from === from && a.to === to);
      if (i >= 0) mine.splice(i, 1); else mine.push({ from, to, kind: "mine" });
      this.draw();
    });
    this.graph = h("div", { id: "graph" });
    this.graphButton = h("button", { id: "graph-game", onclick: () => this.graphGame() }, "Graph the game");
    document.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      const t = e.target;
      if (t && (t.closest("input, textarea, select, [contenteditable]") || t.closest("svg.board") || t.closest("#tree"))) return;
      if (e.key === "f") { this.flip(); return; }
      if (e.key === "Escape" && this.pb.busy()) { this.pb.cancel(); return; }
      if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(e.key)) this.key(e);
    });
    this.status = h("div", { class: "status", id: "status", "aria-live": "polite" });
    this.events = h("ul", { class: "events", id: "events", "aria-live": "polite" });
    this.choices = h("div", { class: "choices", id: "choices" });
    this.evalBox = h("div", { class: "eval", id: "eval", "aria-live": "polite" });
    this.tree = h("div", { class: "tree", id: "tree", tabindex: "0", "aria-label": "moves and variations: left and right step, up and down change variation, Home and End" });
    this.tree.addEventListener("keydown", (e) => this.key(e));
    this.posText = h("textarea", { id: "position-text", rows: 3, readonly: true, "aria-label": "this position as text" });
    const level = h("select", { id: "vs-level", "aria-label": "level" }, this.levels.map((l) => h("option", { value: l, selected: l === "medium" }, l)));
    this.vsButton = h("button", { class: "primary", id: "play-from-here", onclick: () => this.playFromHere(level.value) }, "Play the computer from here");
    const engine = h("input", { type: "checkbox", id: "engine", checked: this.engineOn, onchange: (e) => this.setEngine(e.target.checked) });
    this.app.replaceChildren(h("div", { class: "play" }, boardBox,
      h("div", { class: "side" },
        h("h1", {}, "Analysis board"),
        h("p", { class: "muted", id: "analysis-spec" }, this.spec),
        h("label", { class: "switch" }, engine, " Computer evaluation"), this.evalBox,
        h("div", { class: "graph-box" }, this.graphButton, this.graph),
        this.status, this.choices, this.err, this.events,
        h("h3", {}, "Moves and variations"), this.tree,
        h("div", { class: "steps" },
          h("button", { onclick: () => this.go(this.root), "aria-label": "to the start", id: "first" }, "|◀"),
          h("button", { onclick: () => this.go(this.node.parent), "aria-label": "back", id: "back" }, "◀"),
          h("button", { onclick: () => this.go(this.node.children[0]), "aria-label": "forward", id: "forward" }, "▶"),
          h("button", { onclick: () => this.go(this.lineEnd()), "aria-label": "to the end of the line", id: "last" }, "▶|"),
          h("button", { onclick: () => this.flip(), id: "flip" }, "Flip board")),
        h("div", { class: "tree-tools" },
          h("button", { id: "promote", onclick: () => this.promote() }, "Make this the main line"),
          h("button", { id: "delete", onclick: () => this.remove() }, "Delete from here")),
        h("p", {}, this.vsButton, " ", h("label", { class: "inline" }, "Level ", level)),
        h("details", {}, h("summary", {}, "This position as text"), this.posText,
          h("button", { id: "copy-position", onclick: () => { this.posText.select(); navigator.clipboard && navigator.clipboard.writeText(this.posText.value); } }, "Copy")),
        h("p", {}, h("a", { href: "/analysis" }, "Set up another position"), " · ", h("a", { href: "/" }, "Home")))));
  }

  draw() {
    const v = this.node.view;
    this.pb.set({ view: v.board, traits: v.traits, legal: v.legal || [], asked: v.prompt.squares || [],
      trail: this.node.parent ? [this.node.squares || []] : [], arrows: [...this.engineArrows(), ...(this.node.arrows || [])] });
    this.status.textContent = v.over ? v.prompt.text : `${this.title(v.to_act)} to play: ${v.prompt.text}`;
    patch(this.events, ...(this.node.parent ? v.events || [] : []).map((e) => h("li", { "data-event": e.kind }, e.text)));
    this.drawChoices();
    this.posText.value = v.position;
    this.vsButton.disabled = v.over;
    this.drawTree();
    this.drawEval();
    if (this.graphLine) this.drawGraph(this.graphLine, this.graphKnown);
  }

  // engineArrows are the computer's next turn, drawn on the board: the
  // actions of its line until another player's.
  engineArrows() {
    const ev = this.node.eval;
    if (!this.engineOn || !ev || !ev.line_squares) return [];
    const out = [];
    for (let i = 0; i < ev.line_squares.length && ev.line_players[i] === ev.line_players[0]; i++) {
      const sq = ev.line_squares[i];
      if (sq && sq.length === 2) out.push({ from: sq[0], to: sq[1], kind: "engine" });
    }
    return out;
  }

  // graphGame has the computer take a quick look at every position of
  // the main line and draws the balance through the game, the turning
  // points marked; a click on it goes there.
  async graphGame() {
    const line = [this.root];
    for (let n = this.root.children[0]; n; n = n.children[0]) line.push(n);
    this.graphButton.disabled = true;
    for (const [i, n] of line.entries()) {
      if (n.quick === undefined) {
        try {
          const ev = await api("POST", "/api/analysis/eval", { spec: this.spec, position: this.position, actions: n.path(), ms: 300 });
          n.quick = ev.bar;
        } catch (e) { this.err.textContent = e.message; break; }
      }
      this.drawGraph(line, i + 1);
    }
    this.graphButton.disabled = false;
  }

  drawGraph(line, known) {
    // The plot, with a band on the left for the middle's word and one
    // below for the move numbers; who is better is written inside, at the
    // top and the bottom.
    const W = 600, H = 150, L = 34, B = 18, NS = "http://www.w3.org/2000/svg";
    const PH = H - B;
    const mk = (name, attrs, parent) => { const e = document.createElementNS(NS, name); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (parent) parent.appendChild(e); return e; };
    const players = this.node.view.traits.players;
    const first = players[0].title, second = players[1] ? players[1].title : "the other";
    const svg = mk("svg", { viewBox: `0 0 ${W} ${H}`, class: "graph", role: "img", "aria-label": `the balance through the game: up is better for ${first}, down for ${second}` });
    const x = (i) => L + (line.length > 1 ? i / (line.length - 1) * (W - L - 6) : (W - L) / 2);
    const y = (b) => PH / 2 - b * (PH / 2 - 6);
    const text = (t, attrs) => { const e = mk("text", attrs, svg); e.textContent = t; return e; };
    // The scale: who is better, and even in the middle.
    text(`↑ ${first} better`, { x: L + 4, y: 13, class: "axis" });
    text("even", { x: 3, y: PH / 2 + 4, class: "axis" });
    text(`↓ ${second} better`, { x: L + 4, y: PH - 5, class: "axis" });
    mk("line", { x1: L, y1: 0, x2: L, y2: PH, class: "axis-line" }, svg);
    mk("line", { x1: L, y1: PH, x2: W, y2: PH, class: "axis-line" }, svg);
    // The move numbers: about six marks along the game.
    const step = Math.max(1, Math.ceil((line.length - 1) / 6));
    for (let i = 0; i < line.length; i += step) {
      mk("line", { x1: x(i), y1: PH, x2: x(i), y2: PH + 4, class: "axis-line" }, svg);
      text(i === 0 ? "start" : String(line[i].turn), { x: x(i), y: H - 3, class: "axis tick" });
    }
    const pts = line.slice(0, known).map((n, i) => [x(i), y(n.quick || 0)]);
    mk("path", { d: `M${L} ${PH / 2} ` + pts.map(([a, b]) => `L${a} ${b}`).join(" ") + ` L${pts.at(-1)[0]} ${PH / 2} Z`, class: "area" }, svg);
    mk("line", { x1: L, y1: PH / 2, x2: W, y2: PH / 2, class: "mid" }, svg);
    mk("path", { d: pts.map(([a, b], i) => `${i ? "L" : "M"}${a} ${b}`).join(" "), class: "curve" }, svg);
    // Turning points: the balance swung by more than a third of the scale
    // in one action. A swing against the player who acted is his mistake;
    // one for him, a find the computer had not seen at a quick look.
    const mistakes = [], finds = [];
    for (let i = 1; i < known; i++) {
      const d = (line[i].quick || 0) - (line[i - 1].quick || 0);
      if (Math.abs(d) <= 0.35) continue;
      const against = line[i].player === 0 ? d < 0 : d > 0;
      (against ? mistakes : finds).push(line[i]);
      mk("circle", { cx: x(i), cy: y(line[i].quick || 0), r: 5, class: against ? "turning mistake" : "turning find", "data-ply": line[i].ply }, svg);
    }
    const here = line.indexOf(this.node);
    if (here >= 0) mk("line", { x1: x(here), y1: 0, x2: x(here), y2: PH, class: "here" }, svg);
    svg.addEventListener("click", (e) => {
      const box = svg.getBoundingClientRect();
      const px = (e.clientX - box.left) / box.width * W;
      const i = Math.round((px - L) / (W - L - 6) * (line.length - 1));
      this.go(line[Math.max(0, Math.min(line.length - 1, i))]);
    });
    this.graphLine = line;
    this.graphKnown = known;
    const links = (ns) => ns.map((n, i) => [i ? ", " : "", h("a", { href: "#", onclick: (e) => { e.preventDefault(); this.go(n); } }, `${this.number(n)}. ${this.playerTitle(n.player)}: ${n.label}`)]).flat();
    const legend = h("p", { class: "graph-legend muted", id: "graph-legend" },
      h("span", { class: "key curve-key" }), ` the balance after each action, up for ${first}, down for ${second} `,
      h("span", { class: "key mistake-key" }), " a mistake (a swing against the player who acted) ",
      h("span", { class: "key find-key" }), " a find (a swing for him) ",
      h("span", { class: "key here-key" }), " this position; click the graph to go there.");
    const notes = known < line.length
      ? [h("p", { class: "graph-note muted", id: "turning-points" }, `Looking at position ${known} of ${line.length}…`)]
      : [h("p", { class: "graph-note muted", id: "turning-points" }, mistakes.length ? "Mistakes: " : "No mistakes: the balance never swung by a third against the player who acted.", ...(mistakes.length ? links(mistakes) : [])),
        finds.length ? h("p", { class: "graph-note muted", id: "finds" }, "Finds: ", ...links(finds)) : null];
    this.graph.replaceChildren(svg, legend, ...notes.filter(Boolean));
  }

  drawEval() {
    const ev = this.node.eval;
    if (!this.engineOn) { this.evalBox.replaceChildren(); return; }
    if (!ev || ev.pending) { this.evalBox.replaceChildren(h("p", { class: "muted" }, "The computer is thinking…")); return; }
    if (ev.error) {
      this.evalBox.replaceChildren(h("p", { class: "error" }, ev.error), h("button", { id: "eval-again", onclick: () => this.evaluate(this.node) }, "Try again"));
      return;
    }
    const first = this.node.view.traits.players[0].title;
    const share = Math.round(50 + 50 * ev.bar);
    const bar = h("div", { class: "eval-bar", role: "img", "aria-label": `${first}: ${share} of 100` }, h("div", { class: "eval-fill", style: `width:${share}%` }));
    const line = ev.line.length ? h("p", { class: "eval-line", id: "eval-line" }, "Expected: ", ev.line.join(", ")) : "";
    // The second line: the engine's best that begins otherwise.
    const second = ev.second && ev.second.line.length
      ? h("p", { class: "eval-line eval-second", id: "eval-second" }, "Second line: ", ev.second.line.join(", "), h("span", { class: "muted" }, ` (${ev.second.text})`))
      : "";
    this.evalBox.replaceChildren(bar, h("p", { id: "eval-text" }, ev.text), line, second,
      ev.agent ? h("p", { class: "muted" }, "Engine: " + ev.agent) : "");
  }

  // drawTree writes the line from the root with its variations in
  // brackets after the action they replace.
  drawTree() {
    const line = (first) => {
      const out = [];
      for (let n = first; n; n = n.children[0]) {
        out.push(this.moveEl(n, n === first), " ");
        const p = n.parent;
        if (p.children[0] === n) {
          for (const alt of p.children.slice(1)) out.push(h("span", { class: "variation" }, "(", ...line(alt).slice(0, -1), ")"), " ");
        }
      }
      return out;
    };
    this.tree.replaceChildren(...(this.root.children[0] ? line(this.root.children[0]) : [h("span", { class: "muted" }, "Play an action on the board to begin.")]));
    // The current node is kept in view within the tree's own box; the
    // page does not move (on a phone the tree is below the board).
    const cur = this.tree.querySelector(".current");
    if (cur) {
      const top = cur.offsetTop - this.tree.offsetTop, box = this.tree;
      if (top < box.scrollTop) box.scrollTop = top;
      else if (top + cur.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top + cur.offsetHeight - box.clientHeight;
    }
  }

  moveEl(n, first) {
    const who = n.turnStart || first ? h("span", { class: "who" }, `${this.number(n)}. ${this.playerTitle(n.player)}: `) : "";
    return h("span", { class: "node" + (n === this.node ? " current" : ""), "data-ply": n.ply, title: n.text, onclick: () => this.go(n) }, who, n.label);
  }

  // number is a move's number as the game's records write it: one for
  // each change of player, or one for each pair of moves (Tablut's).
  number(n) {
    const traits = (this.root.view || this.node.view || {}).traits || {};
    return traits.turn_pairs ? Math.floor((n.ply - 1) / 2) + 1 : n.turn;
  }

  playerTitle(p) {
    const t = this.node.view.traits.players[p];
    return t ? t.title : "Chance";
  }

  lineEnd() { let n = this.node; while (n.children[0]) n = n.children[0]; return n; }

  go(n) { if (n) this.show(n); }

  key(e) {
    const n = this.node;
    const sib = (d) => { if (!n.parent) return null; const c = n.parent.children; return c[c.indexOf(n) + d] || null; };
    const keys = { ArrowLeft: n.parent, ArrowRight: n.children[0], ArrowUp: sib(-1), ArrowDown: sib(1), Home: this.root, End: this.lineEnd() };
    if (!(e.key in keys)) return;
    // The keys step through the moves, never scroll the page, even with
    // nowhere to step to.
    e.preventDefault();
    this.go(keys[e.key]);
  }

  flip() { this.pb.flipped = !this.pb.flipped; this.draw(); }

  // drawChoices offers the actions that pick no square, or the choice the
  // board asks for, as buttons.
  drawChoices() {
    patch(this.choices, this.pb.pending ? h("span", {}, "Choose: ") : null, ...this.pb.choices()
      .map((a) => h("button", { "data-action": a.text, "data-key": a.text, onclick: () => this.pb.choose(a.text) }, a.label)));
  }

  // play goes to the child of the action, making it a new variation if
  // it is not in the tree yet.
  play(text) {
    const step = (this.node.view.legal || []).find((a) => a.text === text);
    if (!step) return;
    this.show(this.node.child({ ...step, player: this.node.view.to_act }));
  }

  promote() {
    for (let n = this.node; n.parent; n = n.parent) {
      const c = n.parent.children;
      c.splice(c.indexOf(n), 1);
      c.unshift(n);
    }
    this.drawTree();
  }

  remove() {
    const n = this.node;
    if (!n.parent) return;
    n.parent.children.splice(n.parent.children.indexOf(n), 1);
    this.show(n.parent);
  }

  setEngine(on) {
    this.engineOn = on;
    localStorage.setItem("muster-engine", on ? "on" : "off");
    if (on) this.evaluate(this.node);
    else this.drawEval();
  }

  // playFromHere starts a game against the computer from this position,
  // the player taking the side to act.
  async playFromHere(level) {
    const v = this.node.view;
    const side = v.to_act >= 0 ? v.traits.players[v.to_act].name : "random";
    try {
      await playComputer({ game: this.spec, position: v.position, level, side });
    } catch (e) { this.err.textContent = e.message; }
  }
}

// setup is the form that opens the board on a game's start or a pasted
// position.
function setup(app, cat, error) {
  const gameSel = h("select", { id: "setup-game" }, cat.games.map((g) => h("option", { value: g.name }, g.title)));
  const rulesetSel = h("select", { id: "setup-ruleset" });
  const fill = () => {
    const g = cat.games.find((x) => x.name === gameSel.value);
    rulesetSel.replaceChildren(...g.rulesets.map((r) => h("option", { value: r.id, selected: r.default }, `${r.id} — ${r.description}`)));
  };
  gameSel.addEventListener("change", fill);
  const pos = h("textarea", { id: "setup-position", rows: 4, placeholder: "Paste a position (as the board's \"This position as text\" gives it), or leave empty for the start" });
  const open = () => {
    const q = new URLSearchParams({ spec: `${gameSel.value}(${rulesetSel.value})` });
    if (pos.value.trim()) q.set("position", pos.value.trim());
    location.href = "/analysis?" + q;
  };
  // A record opens with its game and its moves as the main line.
  const record = recordField("analysis-record");
  const openRecord = async () => {
    record.error.textContent = "";
    try {
      const r = await api("POST", "/api/analysis/record", { record: record.text() });
      history.replaceState(null, "", "/analysis?" + new URLSearchParams({ spec: r.spec, ...(r.position ? { position: r.position } : {}) }));
      await new Analysis(app, r.spec, r.position, cat.levels).load(r.actions, 0);
    } catch (e) { record.error.textContent = e.message; }
  };
  app.replaceChildren(h("h1", {}, "Analysis board"),
    h("p", {}, "Study a position: play actions under the rules, keep variations, and ask the computer for its evaluation. Games in play are never analysed here."),
    error ? h("p", { class: "error", role: "alert" }, error) : "",
    h("div", { class: "home-top" },
      h("fieldset", {}, h("legend", {}, "Set up"),
        h("label", {}, "Game ", gameSel), h("label", {}, "Ruleset ", rulesetSel), h("label", {}, "Position ", pos),
        h("button", { class: "primary", id: "setup-open", onclick: open }, "Open the board")),
      h("fieldset", { id: "analysis-import" }, h("legend", {}, "Open a record"), record.el,
        h("div", { class: "import-row" }, h("button", { class: "primary", id: "analysis-open-record", onclick: openRecord }, "Open the record"), record.error))),
    h("p", {}, h("a", { href: "/" }, "Home")));
  fill();
}

// analysis runs the page at /analysis (a spec and position in the query,
// or the set-up form) and /analysis/{id} (a finished game, at ?ply=N).
export async function analysis(app, rest) {
  const cat = await api("GET", "/api/games");
  document.title = "Analysis board — Muster";
  const q = new URLSearchParams(location.search);
  const ply = q.has("ply") ? parseInt(q.get("ply"), 10) : Infinity;
  const id = rest.replace(/^\//, "");
  if (id) {
    const v = await api("GET", `/api/games/${id}`);
    if (v.status === "playing") {
      app.replaceChildren(h("h1", {}, "Analysis board"), h("p", { id: "not-yet" }, "This game is still being played: it can be analysed once it is over."), h("a", { href: "/g/" + id }, "Back to the game"));
      return;
    }
    const start = await api("GET", `/api/games/${id}?ply=0`);
    const a = new Analysis(app, v.spec, start.position, cat.levels);
    await a.load(v.history, ply);
    if (q.get("graph")) a.graphGame();
    return;
  }
  if (!q.get("spec")) { setup(app, cat, ""); return; }
  try {
    await new Analysis(app, q.get("spec"), q.get("position") || "", cat.levels).load([], 0);
  } catch (e) { setup(app, cat, e.message); }
}
