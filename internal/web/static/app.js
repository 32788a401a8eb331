// app.js is the web app: the home page (choose a game, ruleset, opponent
// and side, or import a record), the rules pages, and the game page (board,
// actions, move list, invitations, resign and draws, live updates). Every
// text from the server is set with textContent, never as HTML.

import { Board } from "./board.js";

const app = document.getElementById("app");

function h(tag, attrs, ...children) {
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

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

// Seats held in this browser: localStorage "muster:<id>" = {seats: {seat: secret}}.
function held(id) {
  try { return JSON.parse(localStorage.getItem("muster:" + id)) || { seats: {} }; } catch { return { seats: {} }; }
}
function hold(id, seat, secret) {
  const h0 = held(id);
  h0.seats[seat] = secret;
  localStorage.setItem("muster:" + id, JSON.stringify(h0));
}

// ---- home ----

async function home() {
  const cat = await api("GET", "/api/games");
  const err = h("p", { class: "error", id: "error" });
  const gameSel = h("select", { id: "game" }, cat.games.map((g) => h("option", { value: g.Name }, g.Name)));
  const rulesetSel = h("select", { id: "ruleset" });
  const sideSel = h("select", { id: "side" });
  const list = h("ul", { class: "rulesets" });
  const opponent = h("select", { id: "opponent" },
    h("option", { value: "ai" }, "the computer"),
    h("option", { value: "friend" }, "a friend (invitation link)"),
    h("option", { value: "local" }, "two people at this screen"));
  const level = h("select", { id: "level" }, cat.levels.map((l) => h("option", { value: l, selected: l === "medium" }, l)));
  const minutes = h("input", { id: "minutes", type: "number", min: 0, max: 600, step: 1, value: 0, size: 4 });
  const increment = h("input", { id: "increment", type: "number", min: 0, max: 600, step: 1, value: 0, size: 4 });
  const fill = () => {
    const g = cat.games.find((x) => x.Name === gameSel.value);
    rulesetSel.replaceChildren(...g.Rulesets.map((r) => h("option", { value: r.ID, selected: r.Default }, r.ID + (r.Default ? " (default)" : ""))));
    const players = g.Name === "tablut" ? ["attackers", "defenders"] : ["black", "white"];
    sideSel.replaceChildren(h("option", { value: "random" }, "random"), ...players.map((p) => h("option", { value: p }, p)));
    list.replaceChildren(...g.Rulesets.map((r) => h("li", {}, h("strong", {}, r.ID), " — ", r.Description, h("br"), h("span", { class: "muted" }, "Source: " + r.Source))));
    rulesLink.setAttribute("href", "/rules/" + g.Name);
  };
  const rulesLink = h("a", { href: "#" }, "Read the rules");
  gameSel.addEventListener("change", fill);
  const start = async () => {
    err.textContent = "";
    try {
      const res = await api("POST", "/api/games", { game: gameSel.value, ruleset: rulesetSel.value, opponent: opponent.value, level: level.value, side: sideSel.value, minutes: parseFloat(minutes.value) || 0, increment: parseFloat(increment.value) || 0 });
      if (res.secrets) res.secrets.forEach((s, i) => hold(res.id, i, s));
      else hold(res.id, res.seat, res.secret);
      if (res.invite) sessionStorage.setItem("invite:" + res.id, res.invite);
      location.href = "/g/" + res.id;
    } catch (e) { err.textContent = e.message; }
  };
  const record = h("textarea", { id: "record", rows: 5, cols: 60, placeholder: "Paste a Muster or OpenTafl record" });
  const importIt = async () => {
    err.textContent = "";
    try {
      const res = await api("POST", "/api/import", { game: gameSel.value, record: record.value, opponent: "local", side: "random" });
      res.secrets.forEach((s, i) => hold(res.id, i, s));
      location.href = "/g/" + res.id;
    } catch (e) { err.textContent = e.message; }
  };
  app.replaceChildren(
    h("h1", {}, "Play Lanrick or Tablut"),
    h("fieldset", {}, h("legend", {}, "New game"),
      h("label", {}, "Game ", gameSel, " ", rulesLink),
      h("label", {}, "Ruleset ", rulesetSel),
      h("label", {}, "Opponent ", opponent, " level ", level),
      h("label", {}, "Your side ", sideSel),
      h("label", {}, "Clock ", minutes, " minutes each, + ", increment, " seconds a turn (0: no clock)"),
      h("button", { class: "primary", id: "start", onclick: start }, "Start")),
    err,
    h("h2", {}, "Rulesets"), list,
    h("fieldset", {}, h("legend", {}, "Import a record"), record, h("br"), h("button", { id: "import", onclick: importIt }, "Import and replay")),
    cat.reports ? h("p", {}, h("a", { href: "/reports/", id: "reports" }, "Self-play reports: balance and metrics of every ruleset")) : null,
  );
  fill();
}

// ---- rules ----

const howTo = {
  lanrick: [
    "Lanrick is Lewis Carroll's game for two players (1879–1893). Each side has men on a chess-board; a coin marks a 'rendezvous', a set of squares with room for all the men but one, and both try to play all their men into it.",
    "Men move in a straight line, straight or slanting, through empty squares, never jumping. A turn has a budget of squares that may be shared among several men; then press End turn (or the turn ends when the budget is spent).",
    "In 1893 the rendezvous shrinks as men are lost: odd sizes are 'close' (the mark and squares round it), even sizes 'open' (border squares a queen on the mark would check, where men may slide along the border). The non-setter may demand an interchange of men. Whoever gets all his men in first converts or removes an outlying enemy man; a side left with one man loses.",
    "The earlier versions use a 3×3 rendezvous: thrown with dice (1879), chosen by the other player (1880), or set by the beginner (1881), with removals and moves back to the border after each win.",
  ],
  tablut: [
    "Tablut is the game Linnaeus saw in Lapland in 1732. The Swedes (defenders, light, with their king) start in the middle; the Muscovites (attackers, dark) at the edges.",
    "All pieces move like a rook, any distance along a rank or file, without jumping. Nobody stops on the castle (the centre square).",
    "A piece is captured when the enemy moves to trap it between two of his pieces (the castle may help, by ruleset). The king is taken by two (or by four on the castle, three and the castle beside it) and escapes to any edge square: the defenders win when he gets out, the attackers when they take him.",
  ],
};

async function rules(name) {
  const cat = await api("GET", "/api/games");
  const g = cat.games.find((x) => x.Name === name);
  if (!g) { app.replaceChildren(h("p", { class: "error" }, "No such game.")); return; }
  app.replaceChildren(
    h("h1", {}, "The rules of " + name),
    ...(howTo[name] || []).map((p) => h("p", {}, p)),
    h("h2", {}, "Rulesets"),
    h("ul", { class: "rulesets" }, g.Rulesets.map((r) => h("li", {}, h("strong", {}, r.ID + (r.Default ? " (default)" : "")), " — ", r.Description, h("br"), h("span", { class: "muted" }, "Source: " + r.Source),
      name === "lanrick" ? [h("br"), h("a", { href: `/docs/carroll.md#ruleset-${r.ID}`, class: "findings", "data-ruleset": r.ID }, `What Carroll's correspondents asked about ${r.ID}, answered`)] : null))),
    h("h2", {}, "Options"),
    h("ul", {}, g.Options.map((o) => h("li", {}, h("code", {}, o.Key), ": ", o.Description, o.Values ? " (" + o.Values.join(", ") + ")" : ""))),
    h("p", {}, "More: ",
      h("a", { href: `/docs/${name}.md` }, `the ${name} rulings and notation`), " · ",
      h("a", { href: "/docs/findings.md" }, "self-play findings"), " · ",
      name === "lanrick" ? h("a", { href: "/docs/carroll.md", id: "carroll" }, "Carroll's correspondents answered") : h("a", { href: "/docs/strength.md" }, "the agents' strength")),
    h("p", {}, h("a", { href: "/" }, "Back to the games")),
  );
}

// ---- game ----

class GameView {
  constructor(id) {
    this.id = id;
    this.view = null;
    this.selected = null;
    this.showPly = null; // null: the latest
    this.history = null;
    this.board = new Board(null, (sq) => this.click(sq));
    this.err = h("p", { class: "error", id: "error" });
  }

  seat() {
    // The seat this browser plays now: the one to act if held, else any.
    const seats = held(this.id).seats;
    const v = this.view;
    if (v && v.to_act) {
      const p = v.players.indexOf(v.to_act);
      if (seats[p]) return p;
    }
    const keys = Object.keys(seats);
    return keys.length ? parseInt(keys[0], 10) : -1;
  }
  secret(p) { return held(this.id).seats[p]; }
  myTurn() {
    const v = this.view;
    if (!v || !v.to_act || v.status !== "playing") return false;
    const p = v.players.indexOf(v.to_act);
    return p >= 0 && !!this.secret(p);
  }

  async start() {
    const params = new URLSearchParams(location.search);
    const join = params.get("join");
    if (join) {
      try {
        const res = await api("POST", `/api/games/${this.id}/join`, { token: join });
        hold(this.id, res.seat, res.secret);
      } catch (e) { this.err.textContent = e.message; }
      history.replaceState(null, "", "/g/" + this.id);
    }
    this.layout();
    this.update(await api("GET", `/api/games/${this.id}`));
    this.connect();
  }

  connect() {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/games/${this.id}`);
    ws.onmessage = (e) => this.update(JSON.parse(e.data));
    ws.onclose = () => setTimeout(() => this.connect(), 1500);
    this.ws = ws;
  }

  layout() {
    this.boardBox = h("div", { class: "board-wrap", id: "board" });
    this.board.container = this.boardBox;
    this.status = h("div", { class: "status", id: "status", "aria-live": "polite" });
    this.clock = h("div", { class: "clock", id: "clock" });
    setInterval(() => this.tick(), 250);
    this.info = h("div", { class: "muted", id: "info" });
    this.choices = h("div", { class: "choices", id: "choices" });
    this.moves = h("div", { class: "moves", id: "moves" });
    this.controls = h("div", { id: "controls" });
    this.invite = h("div", { class: "invite", id: "invite" });
    app.replaceChildren(h("div", { class: "play" }, this.boardBox,
      h("div", { class: "side" }, this.status, this.clock, this.info, this.choices, this.err, this.controls, this.invite,
        h("h3", {}, "Moves"), this.moves,
        h("div", {},
          h("button", { onclick: () => this.step(-Infinity), title: "to the start", id: "first" }, "|◀"),
          h("button", { onclick: () => this.step(-1), id: "back" }, "◀"),
          h("button", { onclick: () => this.step(1), id: "forward" }, "▶"),
          h("button", { onclick: () => this.step(Infinity), title: "to the present", id: "last" }, "▶|"),
          h("button", { onclick: () => { this.board.flipped = !this.board.flipped; this.draw(); }, id: "flip" }, "Flip board")),
        h("p", {}, h("a", { href: `/api/games/${this.id}/record`, id: "export" }, "Export the record"), " · ", h("a", { href: "/" }, "New game")))));
    const inv = sessionStorage.getItem("invite:" + this.id);
    if (inv) {
      const url = location.origin + inv;
      this.invite.replaceChildren(h("p", {}, "Send this link to your friend; it gives the other seat, once:"), h("input", { readonly: true, value: url, id: "invite-link" }));
    }
  }

  // tick shows the clocks, counting down the running one.
  tick() {
    const c = this.view && this.view.clock;
    if (!c) { this.clock.textContent = ""; return; }
    const fmt = (ms) => { const s = Math.max(0, Math.ceil(ms / 1000)); return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); };
    const gone = Date.now() - this.received;
    this.clock.textContent = this.view.players.map((p, i) => `${p} ${fmt(c.left_ms[i] - (c.running === i && this.view.status === "playing" ? gone : 0))}${c.running === i ? " ◀" : ""}`).join("   ");
  }

  update(v) {
    if (v.error) { this.err.textContent = v.error; return; }
    // Views come by WebSocket and as answers to requests, in either order:
    // never go back to an older one.
    if (this.view && (v.ply < this.view.ply || (v.ply === this.view.ply && this.view.status === "over" && v.status !== "over"))) return;
    const moved = !this.view || v.ply !== this.view.ply;
    this.view = v;
    this.received = Date.now();
    if (moved) { this.selected = null; this.history = null; this.showPly = null; }
    this.draw();
  }

  async step(d) {
    const v = this.view;
    let ply = this.showPly === null ? v.ply : this.showPly;
    ply = d === -Infinity ? 0 : d === Infinity ? v.ply : Math.max(0, Math.min(v.ply, ply + d));
    this.showPly = ply === v.ply ? null : ply;
    this.history = this.showPly === null ? null : await api("GET", `/api/games/${this.id}?ply=${ply}`);
    this.selected = null;
    this.draw();
  }

  targets() {
    if (!this.selected || !this.myTurn() || this.history) return [];
    return this.view.legal.filter((a) => (a.kind === "move" || a.kind === "slide") && a.squares[0] === this.selected).map((a) => a.squares[1]);
  }

  draw() {
    const v = this.history || this.view;
    this.board.render(v, this.selected, this.targets());
    const live = this.view;
    let text;
    if (live.status === "over") text = `Game over: ${live.result}${live.reason ? " (" + live.reason + ")" : ""}`;
    else if (live.thinking) text = `${live.to_act || "chance"}: the computer is thinking…`;
    else if (this.myTurn()) text = `Your turn (${live.to_act})`;
    else text = `${live.to_act || ""} to act`;
    this.status.textContent = text;
    this.info.replaceChildren(...this.describe(v));
    // Actions without squares, and choices between actions on one square.
    this.choices.replaceChildren();
    if (this.myTurn() && !this.history) {
      for (const a of live.legal) {
        if (a.squares && a.squares.length) continue;
        const label = { end: "End turn", pass: "Pass", interchange: "Interchange", "no-interchange": "No interchange" }[a.kind] || a.text;
        this.choices.appendChild(h("button", { "data-action": a.text, onclick: () => this.play(a.text) }, label));
      }
    }
    // Move list.
    this.moves.replaceChildren(...live.history.map((m, i) => h("span", { class: this.showPly === i + 1 ? "current" : "", onclick: () => this.step(i + 1 - (this.showPly === null ? live.ply : this.showPly)) }, `${i + 1}. ${m} `)));
    this.moves.scrollTop = this.moves.scrollHeight;
    // Resign and draws.
    const mine = Object.keys(held(this.id).seats).length > 0;
    const c = [];
    if (mine && live.status === "playing") {
      c.push(h("button", { id: "resign", onclick: () => this.post("resign", {}) }, "Resign"));
      const seat = this.seat();
      if (live.draw_offer === -1) c.push(h("button", { id: "offer-draw", onclick: () => this.post("draw", { what: "offer" }) }, "Offer a draw"));
      else if (live.draw_offer !== seat) c.push(h("button", { id: "accept-draw", onclick: () => this.post("draw", { what: "accept" }) }, "Accept the draw"), h("button", { onclick: () => this.post("draw", { what: "decline" }) }, "Decline"));
      else c.push(h("span", { class: "muted" }, "Draw offered"));
    }
    if (!mine) c.push(h("span", { class: "muted", id: "spectator" }, "You are watching this game."));
    this.controls.replaceChildren(...c);
  }

  describe(v) {
    const b = v.board || {};
    const out = [h("div", {}, v.spec)];
    if (v.game === "lanrick") {
      const men = b.men || {};
      out.push(h("div", {}, `Men: black ${(men.black || []).length}, white ${(men.white || []).length}`));
      if (b.mark) out.push(h("div", {}, `Rendezvous ${b.number}: ${b.rendezvous.length} squares, ${b.open ? "open" : "close"}, mark ${b.mark}${b.line ? " (" + b.line + ")" : ""}`));
      if (b.phase === "move" && v.to_act) out.push(h("div", { id: "budget" }, `${b.budget} squares left this turn${b.opening ? " (opening turn)" : ""}${b.version >= "1893" ? "; at most 3 a man unless he is the only one outside" : ""}`));
      else if (v.to_act) out.push(h("div", {}, `Next: ${b.phase}`));
      if (b.scores) out.push(h("div", {}, `Marks: black ${b.scores[0]}, white ${b.scores[1]}`));
    } else {
      if (b.routes === 1) out.push(h("div", {}, "Raichi! The king has an open line."));
      if (b.routes > 1) out.push(h("div", {}, `Tuichu! The king has ${b.routes} open lines.`));
    }
    return out;
  }

  click(sq) {
    if (sq === undefined) { this.draw(); return; }
    if (sq === null) { this.selected = null; this.draw(); return; }
    if (!this.myTurn() || this.history) return;
    const legal = this.view.legal;
    const err = this.err;
    err.textContent = "";
    if (this.selected) {
      const moves = legal.filter((a) => (a.kind === "move" || a.kind === "slide") && a.squares[0] === this.selected && a.squares[1] === sq);
      if (moves.length === 1) { this.play(moves[0].text); return; }
      if (moves.length > 1) { this.offer(moves); return; }
    }
    const here = legal.filter((a) => a.kind !== "move" && a.kind !== "slide" && a.squares && a.squares.length === 1 && a.squares[0] === sq);
    if (here.length === 1) { this.play(here[0].text); return; }
    if (here.length > 1) { this.offer(here); return; }
    if (legal.some((a) => (a.kind === "move" || a.kind === "slide") && a.squares[0] === sq)) {
      this.selected = this.selected === sq ? null : sq;
      this.draw();
      return;
    }
    this.selected = null;
    this.draw();
  }

  // offer shows buttons for a choice between actions (a line move or a
  // border slide; the line of a 3-square rendezvous).
  offer(actions) {
    this.choices.replaceChildren(h("span", {}, "Choose: "), ...actions.map((a) => h("button", { "data-action": a.text, onclick: () => this.play(a.text) }, a.text)));
  }

  async play(text) {
    const p = this.view.players.indexOf(this.view.to_act);
    try {
      this.update(await api("POST", `/api/games/${this.id}/act`, { secret: this.secret(p), action: text, ply: this.view.ply }));
    } catch (e) { this.err.textContent = e.message; }
  }

  async post(what, body) {
    try {
      body.secret = this.secret(this.seat());
      this.update(await api("POST", `/api/games/${this.id}/${what}`, body));
    } catch (e) { this.err.textContent = e.message; }
  }
}

async function route() {
  const path = location.pathname;
  try {
    if (path.startsWith("/g/")) await new GameView(path.slice(3)).start();
    else if (path.startsWith("/rules/")) await rules(path.slice(7));
    else await home();
  } catch (e) {
    app.replaceChildren(h("p", { class: "error" }, e.message));
  }
}

route();
