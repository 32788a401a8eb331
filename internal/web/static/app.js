// app.js is the web app: the home page (choose a game, ruleset, opponent
// and side, or import a record), the rules pages, and the game page (board,
// prompt, events, actions, move list by turns, invitations, resign and
// draws, live updates). It knows no game: everything game-specific comes
// from the server as the game's own description (traits, board view, the
// legal actions with the squares they pick, the prompt, the events, the
// turns). Every text from the server is set with textContent, never as HTML.

import { Board } from "./board.js";
import { sound } from "./sound.js";
import { h, cap, sentence, orList } from "./dom.js";
import { api, held, hold, playComputer, IDENTITY } from "./api.js";
import { pick, targets, buttons } from "./pick.js";
import { analysis } from "./analysis.js";
import { identityBar, accountPage, playerPage, leaderboardPage, notifyToggle, botBadge, reportsPage } from "./account.js";
import { Lobby } from "./lobby.js";
import { tournamentsPage, tournamentPage } from "./tournaments.js";
import { Chat } from "./chat.js";
import { recordField } from "./record.js";
import { settingsMenu } from "./settings.js";
import { puzzlesPage, puzzleOf, startPuzzle, markSolved } from "./puzzles.js";

const app = document.getElementById("app");

const docHref = (d) => "/docs/" + d.file;

// ---- home ----

async function home() {
  const cat = await api("GET", "/api/games");
  const lobby = new Lobby((me) => bar && bar(me));
  const err = h("p", { class: "error", id: "error", role: "alert" });
  const gameSel = h("select", { id: "game" }, cat.games.map((g) => h("option", { value: g.name }, g.title)));
  const rulesetSel = h("select", { id: "ruleset" });
  const sideSel = h("select", { id: "side" });
  const list = h("ul", { class: "rulesets" });
  const opponent = h("select", { id: "opponent" },
    h("option", { value: "ai" }, "the computer"),
    h("option", { value: "lobby" }, "anyone (a challenge in the lobby)"),
    h("option", { value: "player" }, "a player, by name"),
    h("option", { value: "friend" }, "a friend (invitation link)"),
    h("option", { value: "local" }, "two people at this screen"));
  const rival = h("input", { id: "rival", maxlength: 20, placeholder: "username", autocomplete: "off" });
  const rivalLabel = h("label", { hidden: true }, "Player ", rival);
  const rated = h("input", { id: "rated", type: "checkbox" });
  const ratedLabel = h("label", { hidden: true }, rated, " Rated (both players need an account)");
  const days = h("select", { id: "days" }, h("option", { value: "0" }, "live, on the clock above"), ...[1, 2, 3, 5, 7, 14].map((d) => h("option", { value: String(d) }, `correspondence: ${d} day${d > 1 ? "s" : ""} a move`)));
  // A first visitor meets the easiest computer; a returning one, the level
  // he chose last.
  const chosen = localStorage.getItem("muster-level") || "easy";
  const level = h("select", { id: "level", onchange: () => localStorage.setItem("muster-level", level.value) },
    cat.levels.map((l) => h("option", { value: l, selected: l === chosen }, l)));
  const levelLabel = h("label", {}, "Level ", level);
  const minutes = h("input", { id: "minutes", type: "number", min: 0, max: 600, step: 1, value: 0, size: 4 });
  const increment = h("input", { id: "increment", type: "number", min: 0, max: 600, step: 1, value: 0, size: 4 });
  const rulesLink = h("a", { href: "#" }, "Read the rules");
  const fill = () => {
    const g = cat.games.find((x) => x.name === gameSel.value);
    rulesetSel.replaceChildren(...g.rulesets.map((r) => h("option", { value: r.id, selected: r.default }, r.id + (r.default ? " (default)" : ""))));
    sideSel.replaceChildren(h("option", { value: "random" }, "random"), ...g.traits.players.map((p) => h("option", { value: p.name }, p.title)));
    list.replaceChildren(...g.rulesets.map((r) => h("li", {}, h("strong", {}, r.id), " — ", r.description, h("br"), h("span", { class: "muted" }, "Source: " + r.source))));
    rulesLink.setAttribute("href", "/rules/" + g.name);
  };
  gameSel.addEventListener("change", fill);
  const people = () => opponent.value === "lobby" || opponent.value === "player";
  const showFor = () => {
    levelLabel.hidden = opponent.value !== "ai";
    rivalLabel.hidden = opponent.value !== "player";
    ratedLabel.hidden = !people();
  };
  opponent.addEventListener("change", showFor);
  const params = new URLSearchParams(location.search);
  if (params.get("opponent")) { opponent.value = "player"; rival.value = params.get("opponent"); }
  showFor();
  const start = async () => {
    err.textContent = "";
    if (people()) {
      try {
        await api("POST", "/api/challenges", { game: gameSel.value, ruleset: rulesetSel.value, side: sideSel.value, rated: rated.checked,
          days: parseInt(days.value, 10) || 0, minutes: parseInt(days.value, 10) ? 0 : parseFloat(minutes.value) || 0, increment: parseInt(days.value, 10) ? 0 : parseFloat(increment.value) || 0,
          opponent: opponent.value === "player" ? rival.value.trim() : "" });
        err.textContent = "";
        lobby.update(await api("GET", "/api/lobby"));
        lobby.reconnect();
        lobby.el.scrollIntoView({ behavior: "smooth" });
      } catch (e) { err.textContent = e.message; }
      return;
    }
    try {
      const res = await api("POST", "/api/games", { game: gameSel.value, ruleset: rulesetSel.value, opponent: opponent.value, level: level.value, side: sideSel.value, minutes: parseFloat(minutes.value) || 0, increment: parseFloat(increment.value) || 0 });
      if (res.secrets) res.secrets.forEach((s, i) => hold(res.id, i, s));
      else hold(res.id, res.seat, res.secret);
      if (res.invite) localStorage.setItem("muster-invite:" + res.id, res.invite);
      location.href = "/g/" + res.id;
    } catch (e) { err.textContent = e.message; }
  };
  // A record says its own game: the form's choice plays no part.
  const record = recordField("record");
  const importIt = async () => {
    record.error.textContent = "";
    try {
      const res = await api("POST", "/api/import", { record: record.text(), opponent: "local", side: "random" });
      res.secrets.forEach((s, i) => hold(res.id, i, s));
      location.href = "/g/" + res.id;
    } catch (e) { record.error.textContent = e.message; }
  };
  // Each game as a card: its start drawn, what it is in its own words (a
  // newcomer knows neither), the way to learn it, a game against the
  // computer at once, and its rules.
  const quick = async (g) => {
    try { await playComputer({ game: g.name, level: localStorage.getItem("muster-level") || "easy" }); } catch (e) { err.textContent = e.message; }
  };
  const card = (g) => {
    const box = h("div", { class: "card-board" });
    const start = (cat.starts || {})[g.name];
    if (start) new Board(box, () => {}).render(start.board, start.traits, { still: `${g.title} at the start` });
    return h("article", { class: "game-card", id: `card-${g.name}` }, box,
      h("div", { class: "card-text" },
        h("h2", {}, g.title),
        h("p", { class: "game-intro", id: `about-${g.name}` }, g.description),
        h("p", { class: "card-actions" },
          g.lessons && g.lessons.length ? learnLink(g) : "",
          h("button", { id: `quick-${g.name}`, onclick: () => quick(g) }, "Play the computer"),
          (cat.puzzles || []).includes(g.name) ? h("a", { href: "/puzzles", id: `puzzles-${g.name}` }, "Puzzles") : "",
          h("a", { href: `/rules/${g.name}` }, "The rules"))));
  };
  app.replaceChildren(
    h("h1", { class: "home-title" }, "Play " + orList(cat.games.map((g) => g.title))),
    h("div", { class: "game-cards" }, ...cat.games.map(card)),
    h("div", { class: "home-top" },
    h("fieldset", { id: "new-game" }, h("legend", {}, "New game"),
      h("label", {}, "Game ", gameSel, " ", rulesLink),
      h("label", {}, "Ruleset ", rulesetSel),
      h("label", {}, "Opponent ", opponent), levelLabel, rivalLabel,
      h("label", {}, "Your side ", sideSel),
      h("label", {}, "Clock ", minutes, " minutes each, + ", increment, " seconds a turn (0: no clock)"),
      h("label", {}, "Pace ", days), ratedLabel,
      h("button", { class: "primary", id: "start", onclick: start }, "Start"), err),
    lobby.el),
    lobby.games, notifyToggle(),
    h("details", { class: "rulesets-box" }, h("summary", {}, h("h2", {}, "The rulesets of the game chosen")), list),
    h("fieldset", { id: "import-box" }, h("legend", {}, "Import a record"), record.el,
      h("div", { class: "import-row" }, h("button", { id: "import", onclick: importIt }, "Import and replay"), record.error),
      h("p", { class: "muted" }, "To study it instead, open it on the ", h("a", { href: "/analysis" }, "analysis board"), ".")),
    h("p", {}, h("a", { href: "/analysis", id: "analysis-link" }, "Analysis board: study any position with the computer")),
    cat.reports ? h("p", {}, h("a", { href: "/reports/", id: "reports" }, "Self-play reports: balance and metrics of every ruleset")) : "",
  );
  fill();
  lobby.start().catch((e) => { lobby.err.textContent = e.message; });
}

// learnLink leads to a game's walkthrough: its first step, or the first
// one not yet done.
function learnLink(g) {
  const done = learned(g.name);
  const n = g.lessons.length;
  let next = 1;
  while (done.has(next)) next++;
  if (!done.size || next > n) return h("a", { class: "button primary", href: `/learn/${g.name}`, id: `learn-${g.name}` }, `New to ${g.title}? Learn it in ${n} steps`);
  return h("a", { class: "button primary", href: `/learn/${g.name}/${next}`, id: `learn-${g.name}` }, `Go on learning: step ${next} of ${n}`);
}

// ---- rules ----

// rules is a game's rules page for players: how to play, the diagrams the
// game draws of itself, every ruleset with its date and source, and the
// options in words.
async function rules(name) {
  const cat = await api("GET", "/api/games");
  const g = cat.games.find((x) => x.name === name);
  if (!g) { app.replaceChildren(h("p", { class: "error" }, "No such game.")); return; }
  document.title = `The rules of ${g.title} — Muster`;
  const figures = await api("GET", `/api/rules/${name}/figures`);
  const rulesets = (ids) => ids.length === g.rulesets.length ? "every ruleset" : ids.join(", ");
  app.replaceChildren(
    h("h1", {}, "The rules of " + g.title),
    ...(g.how_to || []).map((p) => h("p", {}, p)),
    g.lessons && g.lessons.length ? h("p", {}, h("a", { class: "button", href: `/learn/${name}` }, `Learn it by playing, in ${g.lessons.length} steps`)) : "",
    h("h2", {}, "Diagrams"),
    h("div", { class: "figures" }, figures.map((f, i) => {
      const box = h("div", { class: "figure-board" });
      new Board(box, () => {}).render(f.board, f.traits, { still: `${f.title}: ${f.caption}` });
      return h("figure", { id: `figure-${i + 1}` }, box, h("figcaption", {}, h("strong", {}, f.title), " (", f.ruleset, "). ", f.caption));
    })),
    h("h2", {}, "Rulesets"),
    h("ul", { class: "rulesets" }, g.rulesets.map((r) => h("li", {},
      h("strong", {}, r.id + (r.default ? " (default)" : "")), r.date ? ` — ${r.date}` : "", h("br"), sentence(r.description), h("br"),
      h("span", { class: "muted" }, "Source: " + r.source),
      r.notes ? [h("br"), h("a", { href: docHref(r.notes), class: "findings", "data-ruleset": r.id }, r.notes.title)] : null))),
    h("h2", {}, "Options"),
    h("p", {}, `Each ruleset settles these questions its own way. For study you may change one when you start a game from the command line, as ${name}(${g.rulesets[0].id}, ${g.options[0].key}=${(g.options[0].values || ["0"])[0]}).`),
    h("dl", { class: "options" }, g.options.flatMap((o) => {
      const settings = new Map();
      for (const r of g.rulesets.filter((x) => !o.rulesets || o.rulesets.includes(x.id))) {
        const kv = (r.settings || []).find((x) => x.key === o.key);
        if (kv) settings.set(kv.value, [...(settings.get(kv.value) || []), r.id]);
      }
      return [h("dt", {}, cap(o.key.replaceAll("_", " "))),
        h("dd", {}, sentence(o.description), h("br"),
          h("span", { class: "muted" }, [...settings].map(([v, ids]) => `${v}: ${rulesets(ids)}`).join("; ")))];
    })),
    h("p", {}, "The texts, rulings and findings: ", ...(g.docs || []).flatMap((d, i) => [i ? " · " : "", h("a", { href: docHref(d), "data-doc": d.file }, d.title)])),
    h("p", {}, h("a", { href: "/" }, "Back to the games")),
  );
}

// ---- game ----

class GameView {
  // lesson, for a step of a walkthrough: {lesson, step, count, game}.
  constructor(id, lesson) {
    this.id = id;
    this.lesson = lesson || null;
    // A puzzle's game: its words beside the board, each turn checked.
    this.puzzle = lesson ? null : puzzleOf(id);
    this.view = null;
    this.selected = null;
    this.showPly = null; // null: the latest
    this.past = null; // the view at showPly
    this.board = new Board(null, (sq, how) => this.click(sq, how));
    this.err = h("p", { class: "error", id: "error", role: "alert" });
  }

  seats() { return held(this.id).seats; }
  secret(p) { return this.seats()[p]; }
  title(p) { const t = this.view && this.view.traits.players[p]; return t ? t.title : "chance"; }
  myTurn() {
    const v = this.view;
    return !!v && v.status === "playing" && v.to_act >= 0 && !!this.secret(v.to_act);
  }
  // mySeat is the seat this browser plays: the one to act if held, else any.
  mySeat() {
    const seats = this.seats();
    if (this.view && seats[this.view.to_act]) return this.view.to_act;
    const keys = Object.keys(seats);
    return keys.length ? parseInt(keys[0], 10) : -1;
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
    document.body.dataset.game = this.id;
    this.layout();
    const first = await api("GET", `/api/games/${this.id}`);
    // Seats this browser's player holds by its account or identity (a
    // lobby game, another browser signed in): the server knows them by the
    // session, so the secret sent is only a placeholder.
    for (const p of first.my_seats || []) if (!this.secret(p)) hold(this.id, p, IDENTITY);
    this.update(first);
    this.connect();
    this.chat.load();
  }

  // connect keeps the live view coming: on a lost connection it says so
  // and tries again after 1, 2, 4… up to 30 seconds, then reloads the
  // game, which may have moved on meanwhile.
  connect() {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/games/${this.id}`);
    ws.onopen = async () => {
      const again = this.failures > 0;
      this.failures = 0;
      this.showConnection("live", "Live");
      if (again) { try { this.update(await api("GET", `/api/games/${this.id}`)); this.chat.load(); } catch { /* the socket's view follows */ } }
    };
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.chat) this.chat.add(msg.chat);
      else this.update(msg);
    };
    ws.onclose = () => {
      this.failures = (this.failures || 0) + 1;
      const wait = Math.min(30, 2 ** (this.failures - 1));
      const why = this.failures >= 3 ? " The server may be limiting connections from your address: close other games' tabs." : "";
      this.showConnection("lost", `Connection lost: trying again in ${wait} s.${why}`);
      setTimeout(() => this.connect(), wait * 1000);
    };
    this.ws = ws;
  }

  showConnection(state, text) {
    this.conn.dataset.state = state;
    document.body.dataset.conn = state;
    this.conn.textContent = text;
  }

  layout() {
    this.boardEl = h("div", { id: "board" });
    this.board.container = this.boardEl;
    this.board.onHover = (sq) => this.hover(sq);
    this.pop = h("div", { class: "choice-pop", id: "choice-pop", hidden: true, role: "dialog", "aria-label": "choose" });
    // Each player's strip at his edge of the board: who, and his clock.
    this.strips = [h("div", { class: "strip", id: "strip-top" }), h("div", { class: "strip", id: "strip-bottom" })];
    this.boardBox = h("div", { class: "board-wrap" }, this.strips[0], h("div", { class: "board-box" }, this.boardEl, this.pop), this.strips[1], this.stepButtons());
    this.you = h("div", { class: "you", id: "you" });
    this.players = h("p", { class: "players", id: "players" });
    this.status = h("div", { class: "status", id: "status", "aria-live": "polite" });
    this.events = h("ul", { class: "events", id: "events", "aria-live": "polite" });
    this.clock = h("div", { class: "clocks", id: "clock" });
    this.conn = h("p", { class: "conn", id: "connection", role: "status" }, "Connecting…");
    this.banner = h("div", { class: "banner", id: "viewing" });
    this.ending = h("div", { class: "ending", id: "ending", "aria-live": "polite" });
    this.lessonBox = this.lesson ? this.lessonPanel() : this.puzzle ? this.puzzlePanel() : "";
    setInterval(() => this.tick(), 250);
    this.info = h("dl", { class: "facts", id: "info" });
    this.choices = h("div", { class: "choices", id: "choices" });
    this.moves = h("ol", { class: "moves", id: "moves", tabindex: "0", "aria-label": "moves: the arrow keys step through them, Home and End go to the start and the present" });
    this.moves.addEventListener("keydown", (e) => {
      const d = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: -Infinity, End: Infinity }[e.key];
      if (d === undefined) return;
      e.preventDefault();
      e.stopPropagation();
      this.step(d);
    });
    // The keys players know from lichess: ← and → through the moves,
    // Home and End, f to turn the board. The board's own arrow keys move
    // its cursor; a field being typed in keeps its keys.
    document.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      const t = e.target;
      if (t && (t.closest("input, textarea, select, [contenteditable]") || t.closest("svg.board"))) return;
      const d = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[e.key];
      if (d !== undefined) { e.preventDefault(); this.step(d); }
      else if (e.key === "f") { this.flip(); }
      else if (e.key === "Escape" && (this.pending || this.premove || this.preFrom)) { this.pending = null; this.selected = null; this.premove = null; this.preFrom = null; this.draw(); }
    });
    this.controls = h("div", { id: "controls" });
    this.chat = new Chat(this.id, () => { const p = this.mySeat(); return p >= 0 ? this.secret(p) : ""; });
    this.invite = h("div", { class: "invite", id: "invite" });
    app.replaceChildren(h("div", { class: "play" + (this.lesson || this.puzzle ? " lesson-page" : "") }, this.lessonBox, this.boardBox,
      h("div", { class: "side" }, this.ending, this.banner, this.status, this.choices, this.err, this.events, this.you, this.conn, this.players, this.clock, this.info, this.controls, this.invite,
        h("h3", {}, "Moves"), this.moves,
        h("p", {}, h("a", { href: `/api/games/${this.id}/record`, id: "export" }, "Export the record"), " · ", h("a", { href: "/" }, "New game")),
        this.lesson || this.puzzle ? null : this.chat.el)));
  }

  // steps are the buttons through the moves, under the board where they
  // never move.
  stepButtons() {
    return h("div", { class: "steps" },
          h("button", { onclick: () => this.step(-Infinity), title: "to the start (Home)", "aria-label": "to the start", id: "first" }, "|◀"),
          h("button", { onclick: () => this.step(-1), title: "back (←)", "aria-label": "back", id: "back" }, "◀"),
          h("button", { onclick: () => this.step(1), title: "forward (→)", "aria-label": "forward", id: "forward" }, "▶"),
          h("button", { onclick: () => this.step(Infinity), title: "to the present (End)", "aria-label": "to the present", id: "last" }, "▶|"),
          h("button", { onclick: () => this.flip(), title: "turn the board (f)", id: "flip" }, "Flip board"),
          h("label", { class: "inline" }, h("input", { type: "checkbox", id: "sound", checked: sound.on, onchange: (e) => sound.set(e.target.checked) }), " Sound"));
  }

  flip() { this.board.flipped = !this.board.flipped; this.draw(); }

  // hover shows, while a square is pointed at, what choosing it would
  // make (the rendezvous of a mark).
  hover(sq) {
    const a = sq && this.legal().find((x) => x.preview && x.squares && x.squares[0] === sq);
    this.board.showPreview(a ? a.preview : []);
  }

  // drawStrips names each player at his edge of the board, the one to
  // act marked; tick fills in the clocks.
  drawStrips(v) {
    const top = this.board.flipped ? v.traits.bottom : 1 - v.traits.bottom;
    [top, 1 - top].forEach((seat, i) => {
      const strip = this.strips[i];
      strip.dataset.seat = seat;
      strip.classList.toggle("acting", v.status === "playing" && v.to_act === seat);
      const s = v.seats[seat] || {};
      const who = s.kind === "ai" ? `Computer (${s.agent})` : s.name ? s.name : this.secret(seat) && Object.keys(this.seats()).length === 1 ? "You" : "";
      // The turn's budget stands by the player who spends it.
      const m = v.board.meter;
      const meter = m && v.status === "playing" && v.to_act === seat
        ? h("span", { class: "pips strip-pips", title: `${m.label}: ${m.left} of ${m.total}`, "aria-hidden": "true" }, ...Array.from({ length: m.total }, (_, i) => h("span", { class: i < m.left ? "pip on" : "pip" })))
        : "";
      strip.replaceChildren(h("span", { class: "who" }, h("span", { class: "to-act", "aria-hidden": "true" }), v.traits.players[seat].title,
        who ? h("span", { class: "muted" }, " · " + who) : "", s.bot ? botBadge() : "", s.rating ? h("span", { class: "muted" }, ` (${Math.round(s.rating)}${s.provisional ? "?" : ""})`) : ""),
      meter, v.clock ? h("span", { class: "clock clock-side", "data-seat": seat }) : "");
    });
    this.tick();
  }

  // tick shows each side's clock at his edge of the board, counting
  // down the running one; under a tenth of the base time (at most 20 s)
  // it turns red, and your own clock beeps each time it gets there.
  tick() {
    const v = this.view;
    const c = v && v.clock;
    if (!c) { this.clock.replaceChildren(); return; }
    const fmt = (ms) => {
      const s = Math.max(0, Math.ceil(ms / 1000));
      // Days by correspondence: days and hours, then hours and minutes.
      if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
      if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
      return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    };
    const gone = Date.now() - this.received;
    const low = Math.min(20000, c.base_ms / 10);
    for (const el of this.boardBox.querySelectorAll(".clock[data-seat]")) {
      const i = parseInt(el.dataset.seat, 10);
      const left = c.left_ms[i] - (c.running === i && v.status === "playing" ? gone : 0);
      const isLow = left < low && v.status === "playing";
      // Your clock beeps as it turns low, again after it has recovered.
      if (c.running === i && this.secret(i)) {
        if (isLow && !this.warned) sound.play("low");
        this.warned = isLow;
      }
      el.textContent = fmt(left);
      el.classList.toggle("running", c.running === i);
      el.classList.toggle("low", isLow);
      el.setAttribute("aria-label", `${v.traits.players[i].title}'s clock: ${fmt(left)}`);
    }
    const notes = [];
    if (c.running < 0 && v.status === "playing" && v.ply === 0) notes.push(h("p", { class: "muted" }, "The clocks start after the first move, once both players are here."));
    if (c.days_per_move) notes.push(h("p", { class: "muted", id: "deadline" }, `Correspondence: ${c.days_per_move} day${c.days_per_move > 1 ? "s" : ""} a move.` + (c.deadline && v.status === "playing" ? ` ${this.title(c.running)} must move by ${new Date(c.deadline).toLocaleString()}.` : "")));
    const text = notes.map((n) => n.textContent).join("|");
    if (text !== this.clockNotes) { this.clockNotes = text; this.clock.replaceChildren(...notes); }
  }

  update(v) {
    if (v.error) { this.err.textContent = v.error; return; }
    // Views come by WebSocket and as answers to requests, in either order:
    // never go back to an older one (a takeback is newer with fewer plies).
    if (this.view && v.updated < this.view.updated) return;
    const moved = !this.view || v.ply !== this.view.ply || v.history.length !== this.view.history.length;
    // The board is turned for the player's side (in a lesson, the
    // learner's: the side to act first).
    if (!this.view) { const me = this.lesson ? v.to_act : this.mySeatIn(v); this.board.flipped = me >= 0 && me !== v.traits.bottom; }
    else if (moved) this.sounds(v);
    else if (this.offers(v) > this.offers(this.view)) sound.play("turn");
    const before = this.view;
    this.view = v;
    this.received = Date.now();
    if (moved) { this.selected = null; this.past = null; this.showPly = null; this.pending = null; }
    if (this.lesson) this.checkLesson(v);
    if (this.puzzle) this.checkPuzzle(before, v);
    this.draw(moved && before && v.ply > before.ply ? this.othersMoves(v, before.ply) : []);
    if (this.premove && this.myTurn()) this.playPremove();
    else if (v.status !== "playing") { this.premove = null; this.preFrom = null; }
  }

  // othersMoves are the [from, to] of the actions after ply played from
  // another seat than this browser's, to be shown moving.
  othersMoves(v, ply) {
    const out = [];
    for (const t of v.turns || []) {
      if (this.secret(t.player) && Object.keys(this.seats()).length === 1) continue;
      (t.squares || []).forEach((sq, i) => { if (t.first + i >= ply && sq && sq.length === 2) out.push(sq); });
    }
    return out;
  }

  // sinceMine is what the others did since this browser's player last
  // played (an interchange demanded and the turn after it, say), as one
  // turn to show; null if he holds no single seat or played last.
  sinceMine(live) {
    const mine = Object.keys(this.seats()).map((k) => parseInt(k, 10));
    const turns = live.turns || [];
    if (mine.length !== 1 || !turns.length || turns.at(-1).player === mine[0]) return null;
    let i = turns.length;
    while (i > 0 && turns[i - 1].player !== mine[0]) i--;
    const others = turns.slice(i);
    return { squares: others.flatMap(withPaths), events: others.flatMap((t) => t.events || []) };
  }

  // turnAt is the turn that holds the action before ply (the turn shown
  // at ply), cut at ply, or null at the start.
  turnAt(live, ply) {
    for (const t of live.turns || []) {
      const n = ply - t.first;
      if (n > 0 && n <= t.actions.length) {
        const cut = { ...t, squares: withPaths(t).slice(0, n) };
        // A turn cut short shows only the events of the actions shown.
        if (n < t.actions.length) cut.events = null;
        return cut;
      }
    }
    return null;
  }

  // lessonPanel shows the step: the task in a line, the result and Next
  // beside it (kept in view on a phone), the why folded, a hint on
  // request, and the learner's progress through the steps.
  lessonPanel() {
    const { lesson, step, count, game, title } = this.lesson;
    const done = learned(game);
    this.lessonResult = h("div", { class: "lesson-result", id: "lesson-result", "aria-live": "polite" });
    const hint = h("p", { class: "hint", id: "hint", hidden: true }, lesson.hint);
    const why = h("p", { class: "why", id: "why-text", hidden: true }, lesson.text);
    const why2 = h("button", { id: "why", class: "link", "aria-expanded": "false", onclick: () => {
      why.hidden = !why.hidden;
      why2.setAttribute("aria-expanded", String(!why.hidden));
    } }, "Why?");
    return h("section", { class: "lesson", id: "lesson", "aria-label": "lesson" },
      h("div", { class: "step-of" },
        h("span", { class: "muted" }, h("span", { class: "long" }, `${title}: s`), h("span", { class: "short" }, "S"), `tep ${step} of ${count}`),
        h("span", { class: "progress", id: "progress" }, ...Array.from({ length: count }, (_, i) =>
          h("a", { href: `/learn/${game}/${i + 1}`, class: (done.has(i + 1) ? "done" : "") + (i + 1 === step ? " here" : ""), title: `step ${i + 1}` + (done.has(i + 1) ? ", done" : ""), "aria-label": `step ${i + 1}` + (done.has(i + 1) ? ", done" : "") }))),
        h("span", { class: "tools" }, why2, h("button", { id: "show-hint", class: "link", onclick: () => { hint.hidden = false; } }, "Hint"))),
      h("h2", {}, lesson.title),
      h("p", { class: "task", id: "task" }, lesson.task),
      hint, why,
      this.lessonResult);
  }

  // checkLesson tells the learner, after his action, whether the step's
  // goal is met (as game.Lesson.Met does), or that his turn went by. A
  // step with a reply plays the other side's answer first, to be seen.
  async checkLesson(v) {
    if (this.learner === undefined) this.learner = v.to_act;
    if (v.ply === 0 || this.lessonOver) return;
    const goal = this.lesson.lesson.goal;
    const turnOver = v.status === "over" || v.to_act !== this.learner;
    const met = goal === "act" || (goal === "turn" ? turnOver : (v.events || []).some((e) => e.kind === goal));
    const { step, count, game } = this.lesson;
    if (met) {
      this.lessonOver = true;
      markLearned(game, step);
      const dot = document.querySelector(`#progress a:nth-child(${step})`);
      if (dot) dot.classList.add("done");
      for (const text of this.lesson.lesson.reply || []) {
        try {
          this.update(await api("POST", `/api/games/${this.id}/act`, { secret: this.secret(1 - this.learner), action: text, ply: this.view.ply }));
        } catch (e) { this.err.textContent = e.message; }
      }
      const next = step < count
        ? h("a", { class: "button primary", id: "next-step", href: `/learn/${game}/${step + 1}` }, "Next step")
        : h("button", { class: "primary", id: "first-game", onclick: () => firstGame(game, this.lesson.lesson.ruleset) }, "Play your first game against the computer");
      this.lessonResult.replaceChildren(h("p", { class: "well-done" }, "Well done. " + this.lesson.lesson.done), next);
    } else if (turnOver) {
      this.lessonOver = true;
      this.lessonResult.replaceChildren(h("p", { class: "error" }, "Not this time: your turn has passed."),
        h("a", { class: "button", id: "try-again", href: location.pathname }, "Try again"));
    }
  }

  // puzzlePanel shows the puzzle: what to do, then after each of the
  // solver's turns whether the win is still there.
  puzzlePanel() {
    const p = this.puzzle;
    this.puzzleTurns = 0;
    this.puzzleResult = h("div", { class: "lesson-result", id: "puzzle-result", "aria-live": "polite" });
    return h("section", { class: "lesson", id: "puzzle" },
      h("div", { class: "step-of" }, h("span", { class: "muted" }, `Puzzle · rating ${p.rating}`), h("span", { class: "tools" }, h("a", { href: "/puzzles" }, "All puzzles"))),
      h("h2", {}, `Win in ${p.turns} turn${p.turns > 1 ? "s" : ""}`),
      h("p", { class: "task", id: "task" }, p.context),
      this.puzzleResult);
  }

  // checkPuzzle, each time one of the solver's turns is over, asks the
  // server for the exact verdict of the position: the win must still be
  // there, in the turns left. Every winning turn counts, not one stored
  // line. Views may come after the computer has answered too: the
  // verdict is then for the solver to move.
  async checkPuzzle(before, v) {
    if (this.puzzleOver) return;
    const me = this.mySeat();
    const turns = v.turns || [];
    const done = turns.filter((t, i) => t.player === me && (i < turns.length - 1 || v.to_act !== me || v.status === "over")).length;
    if (done <= this.puzzleTurns) return;
    this.puzzleTurns = done;
    const p = this.puzzle;
    const again = h("button", { id: "puzzle-again", onclick: () => startPuzzle(p) }, "Try again");
    const next = h("a", { class: "button", href: "/puzzles", id: "puzzle-next" }, "Other puzzles");
    let verdict;
    try { verdict = await api("POST", "/api/puzzles/verdict", { spec: v.spec, position: v.position }); } catch (e) { this.err.textContent = e.message; return; }
    if (this.puzzleOver) return;
    const mine = v.traits.players[me].name;
    if (verdict.over) {
      this.puzzleOver = true;
      if (verdict.result === mine) {
        markSolved(p.id);
        this.puzzleResult.replaceChildren(h("p", { class: "well-done", id: "puzzle-solved" }, "Solved: the win, in the turns given."), next);
      } else this.puzzleResult.replaceChildren(h("p", { class: "error" }, "Not this time: the game is lost."), again, next);
      return;
    }
    // The solver's turns left: from his move, a win in T turns (his
    // first); from his opponent's, a loss for him in T (the solver's
    // last).
    const myMove = verdict.to_act === me;
    const winning = verdict.decided && verdict.outcome === (myMove ? "win" : "loss");
    const left = winning ? (myMove ? Math.ceil(verdict.turns / 2) : verdict.turns / 2) : Infinity;
    if (done + left <= p.turns) {
      this.puzzleResult.replaceChildren(h("p", { class: "well-done", id: "puzzle-good" }, `Good: still a win, in ${left} more turn${left > 1 ? "s" : ""} of yours.`));
      return;
    }
    this.puzzleOver = true;
    const why = !verdict.decided ? "the tables no longer decide it" : winning ? `the win now takes ${left} more turns of yours, beyond the ${p.turns} given` : "the win is gone with best play";
    this.puzzleResult.replaceChildren(h("p", { class: "error", id: "puzzle-failed" }, `Not the best turn: ${why}.`), again, next);
  }

  // sounds plays the sound of what just happened: a capture or removal, a
  // move, or that it is now your turn.
  sounds(v) {
    const b = v.board;
    if ((b.captured && b.captured.length) || (b.removed && b.removed.length) || (b.converted && b.converted.length)) sound.play("capture");
    else sound.play("move");
    if (v.status === "playing" && v.to_act >= 0 && this.secret(v.to_act) && !(this.view && this.view.to_act === v.to_act)) setTimeout(() => sound.play("turn"), 150);
  }

  // offers counts the draw and takeback offers made to this browser.
  offers(v) { return [v.draw_offer, v.takeback_offer].filter((o) => o >= 0 && !this.secret(o)).length; }

  mySeatIn(v) {
    const keys = Object.keys(this.seats()).map((k) => parseInt(k, 10));
    return keys.length === 1 ? keys[0] : -1;
  }

  async step(d) {
    const v = this.view;
    let ply = this.showPly === null ? v.ply : this.showPly;
    ply = d === -Infinity ? 0 : d === Infinity ? v.ply : Math.max(0, Math.min(v.ply, ply + d));
    this.showPly = ply === v.ply ? null : ply;
    this.past = this.showPly === null ? null : await api("GET", `/api/games/${this.id}?ply=${ply}`);
    this.selected = null;
    this.draw();
  }

  // legal is what this browser may play now.
  legal() { return this.myTurn() && !this.past && !this.lessonOver ? this.view.legal : []; }

  targets() { return targets(this.legal(), this.selected); }

  draw(animate) {
    const v = this.past || this.view;
    const live = this.view;
    const asked = this.myTurn() && !this.past && !this.lessonOver && !this.pending ? live.prompt.squares || [] : [];
    // The turn shown: every man it moved, numbered, and all it did.
    const shown = this.showPly === null ? live.ply : this.showPly;
    const turn = this.showPly === null ? this.sinceMine(live) || this.turnAt(live, shown) : this.turnAt(live, shown);
    this.board.render(v.board, v.traits, { selected: this.selected || this.preFrom, targets: this.pending ? [] : this.targets(), asked, trail: turn ? turn.squares : [], animate: animate || [],
      premove: this.premove || [] });
    // A square tapped once to see what it makes stays shown.
    const previewing = this.previewed && this.legal().find((x) => x.preview && x.squares && x.squares[0] === this.previewed);
    if (previewing) this.board.showPreview(previewing.preview);
    // What is drawn, for tests and assistive tools: the live game's ply,
    // its player to act and status, and whether this browser acts now.
    Object.assign(document.body.dataset, { ply: live.ply, toAct: live.to_act, status: live.status, myTurn: this.myTurn() && !this.past ? "yes" : "no" });
    this.you.textContent = this.youText();
    this.drawPlayers(this.view);
    this.drawStrips(v === live ? live : { ...v, seats: live.seats, clock: live.clock, status: v.status });
    const wasOver = this.chatOver;
    this.chatOver = this.view.status === "over";
    this.chat.setRoom(Object.keys(this.seats()).length > 0, this.chatOver);
    if (this.chatOver && wasOver === false) this.chat.load(); // the spectators' room opens
    this.status.textContent = this.statusText();
    const events = turn && turn.events ? turn.events : v.events || [];
    this.events.replaceChildren(...events.map((e) => h("li", { "data-event": e.kind },
      ...(e.dice || []).map((n) => h("span", { class: "die", "aria-hidden": "true" }, "⚀⚁⚂⚃⚄⚅"[n - 1] || String(n))), e.text)));
    this.info.replaceChildren(...this.facts(v));
    const choices = this.pending ? this.pending.actions : buttons(this.legal());
    this.choices.replaceChildren(...(this.pending ? [h("span", {}, "Choose: ")] : []), ...choices
      .map((a) => h("button", { "data-action": a.text, onclick: () => this.play(a.text) }, a.label, a.note ? h("span", { class: "muted" }, ` · ${a.note}`) : "")));
    this.drawPop();
    this.drawMoves(live);
    this.drawControls(live);
    this.drawBanner(live);
    this.drawEnding(live);
  }

  // drawPop lays a choice between actions on the same squares (a line
  // move and a border slide) over the board by its square, with what
  // each costs; it stays until one is chosen or it is cancelled.
  drawPop() {
    const p = this.pending;
    if (!p) { this.pop.hidden = true; this.pop.replaceChildren(); return; }
    const b = this.board.box(p.square);
    const below = b.top < 0.55;
    this.pop.style.top = below ? `${(b.top + b.height) * 100}%` : "";
    this.pop.style.bottom = below ? "" : `${(1 - b.top) * 100}%`;
    this.pop.replaceChildren(h("p", {}, p.actions.every((a) => a.note) ? `Two ways to ${p.square}:` : `Choose for ${p.square}:`),
      ...p.actions.map((a) => h("button", { "data-choice": a.text, onclick: () => this.play(a.text) }, h("span", {}, a.label), a.note ? h("span", { class: "note" }, a.note) : "")),
      h("button", { id: "cancel-choice", onclick: () => { this.pending = null; this.selected = null; this.draw(); } }, "Cancel"));
    this.pop.hidden = false;
    this.pop.scrollIntoView({ block: "nearest" });
  }

  // drawBanner says that a past position is shown, with a way back.
  drawBanner(live) {
    if (!this.past) { this.banner.replaceChildren(); return; }
    // Counted as the move list counts: by turns (a turn may hold several
    // actions), with the action within the turn where it has more.
    const turns = live.turns || [];
    let at = turns.length;
    while (at > 0 && turns[at - 1].first >= this.showPly) at--;
    const t = turns[at - 1];
    const within = t && t.actions.length > 1 ? `, action ${this.showPly - t.first} of ${t.actions.length}` : "";
    const where = at === 0 ? "the start" : `turn ${t.number}${within}`;
    this.banner.replaceChildren(h("span", {}, `Viewing ${where}; the game has ${turns.length} turn${turns.length === 1 ? "" : "s"}. `),
      h("button", { id: "back-to-game", onclick: () => this.step(Infinity) }, "Back to the game"));
  }

  // drawPlayers names who holds each seat (an account with its rating, an
  // anonymous player, the computer, and its level) and whether the game is
  // rated; at one screen, nobody.
  drawPlayers(v) {
    if (!v || !v.seats.some((s) => s.name || s.kind === "ai")) { this.players.replaceChildren(); return; }
    const one = (i) => {
      const s = v.seats[i];
      const who = s.kind === "ai" ? `Computer (${s.agent})` : s.name ? h("a", { href: "/@/" + s.name }, s.name) : "Anonymous";
      return h("span", { class: "player", "data-seat": i }, `${v.traits.players[i].title}: `, who, s.bot ? botBadge() : "", s.rating ? ` (${Math.round(s.rating)}${s.provisional ? "?" : ""})` : "");
    };
    this.players.replaceChildren(one(0), " vs ", one(1), h("span", { class: "muted" }, v.rated ? " · rated" : " · casual"));
  }

  // drawEnding shows the end of the game from the player's side, and the
  // rematch.
  drawEnding(live) {
    if (live.status !== "over" || this.lesson) { this.ending.replaceChildren(); return; }
    // The end is shown where the player looks, once.
    if (!this.endShown) { this.endShown = true; setTimeout(() => this.ending.scrollIntoView({ block: "nearest", behavior: "smooth" }), 0); }
    const names = live.traits.players.map((p) => p.name);
    const winner = names.indexOf(live.result);
    const mine = Object.keys(this.seats()).map((k) => parseInt(k, 10));
    const reason = live.reason ? ` — ${live.reason}` : "";
    let head;
    if (live.result === "aborted") head = "Game aborted";
    else if (winner < 0) head = "Draw" + reason;
    else if (mine.length === 1) head = (mine[0] === winner ? "You won" : "You lost") + reason;
    else head = `${this.title(winner)} won${reason}`;
    const parts = [h("p", { class: "headline" }, head)];
    for (const c of live.rating_changes || []) {
      const d = c.after - c.before;
      parts.push(h("p", { class: "rating-change", "data-seat": c.seat }, `${live.seats[c.seat].name || this.title(c.seat)}: ${Math.round(c.before)} → ${Math.round(c.after)} `,
        h("span", { class: d >= 0 ? "gain" : "loss" }, `(${d >= 0 ? "+" : ""}${Math.round(d)})`)));
    }
    if (mine.length) {
      const label = live.rematch ? "Join the rematch" : "Rematch, sides swapped";
      parts.push(h("button", { class: "primary", id: "rematch", onclick: () => this.rematch() }, label));
    } else if (live.rematch) parts.push(h("a", { href: "/g/" + live.rematch }, "Watch the rematch"));
    if (this.past && this.past.prompt.player !== -2) {
      parts.push(h("button", { id: "vs-from-here", onclick: () => this.playFrom(this.past) }, `Play the computer from move ${this.showPly}`));
    }
    parts.push(h("a", { class: "button", id: "analyse", href: `/analysis/${this.id}?ply=${this.showPly === null ? live.ply : this.showPly}` }, "Analyse this game"));
    parts.push(h("a", { class: "button", id: "graph-link", href: `/analysis/${this.id}?graph=1` }, "Graph of the game"));
    parts.push(h("a", { href: "/", class: "new-game" }, "New game"));
    if (!this.past) parts.push(h("p", { class: "muted" }, "Step back through the moves to play the computer from any position."));
    // A past position the endgame tables decide: their verdict, exact.
    const verdict = h("p", { id: "verdict", class: "verdict" });
    if (this.past) this.tellVerdict(this.past, verdict);
    parts.push(verdict);
    this.ending.replaceChildren(...parts);
  }

  // tellVerdict writes into el what the server knows exactly of view v's
  // position (the endgame tables), if anything.
  async tellVerdict(v, el) {
    try {
      const r = await api("POST", "/api/puzzles/verdict", { spec: v.spec, position: v.position });
      if (!r.decided || r.over || r.to_act < 0) return;
      const who = this.title(r.to_act), other = this.title(1 - r.to_act);
      const turns = `in ${r.turns} turn${r.turns === 1 ? "" : "s"} (both sides' turns) with best play`;
      el.textContent = "Endgame tables: " + (r.outcome === "win" ? `${who}, to move, win ${turns}.` : r.outcome === "loss" ? `${other} win ${turns}.` : "a draw with best play.");
    } catch { /* nothing exact to say */ }
  }

  // playFrom starts a game against the computer from a shown position,
  // this browser taking the side to act there.
  async playFrom(v) {
    const p = v.prompt.player;
    const side = p >= 0 ? v.traits.players[p].name : "random";
    try {
      await playComputer({ game: v.spec, position: v.position, level: "medium", side });
    } catch (e) { this.err.textContent = e.message; }
  }

  // rematch takes this browser's seats in the game that follows.
  async rematch() {
    try {
      let id = null;
      for (const [, secret] of Object.entries(this.seats())) {
        const res = await api("POST", `/api/games/${this.id}/rematch`, { secret });
        hold(res.id, res.seat, res.secret);
        id = res.id;
      }
      if (id) location.href = "/g/" + id;
    } catch (e) { this.err.textContent = e.message; }
  }

  youText() {
    if (this.lesson && this.learner !== undefined && this.learner >= 0) return `You play ${this.title(this.learner)}.`;
    const keys = Object.keys(this.seats()).map((k) => parseInt(k, 10));
    if (!keys.length) return "You are watching this game.";
    if (keys.length > 1) return "Both sides play at this screen.";
    return `You play ${this.title(keys[0])}.`;
  }

  statusText() {
    const live = this.view;
    if (this.past || this.lessonOver) return "";
    if (live.status === "over") return ""; // the ending panel tells it
    if (this.previewed && this.myTurn()) return `The rendezvous of a mark on ${this.previewed} is shown: tap ${this.previewed} again to set it there, or another square.`;
    if (this.myTurn()) return `Your turn (${this.title(live.to_act)}): ${live.prompt.text}`;
    const thinking = live.thinking ? `${this.title(live.to_act)}: the computer is thinking…` : `${this.title(live.to_act)} to play.`;
    if (this.premove) return `${thinking} Your next move, ${this.premove[0]} to ${this.premove[1]}, is chosen ahead: it is played as soon as your turn comes (Escape or a click takes it back).`;
    if (this.canPremove()) return `${thinking} You may choose your next move ahead.`;
    if (live.thinking) return thinking;
    return `${this.title(live.to_act)} to play.`;
  }

  facts(v) {
    const out = [h("dt", {}, "Game"), h("dd", {}, v.spec)];
    for (const f of v.board.facts || []) out.push(h("dt", { "data-fact": f.key }, f.label), h("dd", {}, f.value));
    const m = v.board.meter;
    if (m && v.status === "playing") {
      const pips = h("span", { class: "pips", id: "budget", "aria-label": `${m.left} of ${m.total}` }, ...Array.from({ length: m.total }, (_, i) => h("span", { class: i < m.left ? "pip on" : "pip" })));
      out.push(h("dt", {}, m.label), h("dd", {}, pips, ` ${m.left} of ${m.total}`, m.cap ? `, at most ${m.cap} a man` : ""));
    }
    return out;
  }

  drawMoves(live) {
    const current = this.showPly === null ? live.ply : this.showPly;
    this.moves.replaceChildren(...(live.turns || []).map((t) => {
      const end = t.first + t.actions.length;
      return h("li", { class: current > t.first && current <= end && this.showPly !== null ? "current" : "", title: t.actions.join(" "), onclick: () => this.step(end - current) },
        h("span", { class: "n" }, `${t.number}. `), h("span", { class: "who" }, this.title(t.player) + ": "), t.labels.join(" "));
    }));
    if (this.showPly === null) this.moves.scrollTop = this.moves.scrollHeight;
  }

  drawControls(live) {
    if (this.lesson) return;
    const mine = Object.keys(this.seats()).length > 0;
    const c = [];
    if (mine && live.status === "playing") {
      c.push(...this.takebackControls(live));
      if (live.can_abort) c.push(h("button", { id: "abort", onclick: () => this.post("abort", {}) }, "Abort the game"));
      else if (this.confirming) c.push(h("span", {}, "Resign this game? "), h("button", { id: "confirm-resign", onclick: () => { this.confirming = false; this.post("resign", {}); } }, "Yes, resign"),
        h("button", { id: "keep-playing", onclick: () => { this.confirming = false; this.draw(); } }, "No, play on"));
      else c.push(h("button", { id: "resign", onclick: () => { this.confirming = true; this.draw(); } }, "Resign"));
      const seat = this.mySeat();
      if (live.draw_offer === -1) c.push(h("button", { id: "offer-draw", onclick: () => this.post("draw", { what: "offer" }) }, "Offer a draw"));
      else if (live.draw_offer !== seat) c.push(h("div", { class: "request", role: "alert" }, h("span", { id: "draw-offered" }, "Your opponent offers a draw. "), h("button", { id: "accept-draw", onclick: () => this.post("draw", { what: "accept" }) }, "Accept the draw"), h("button", { onclick: () => this.post("draw", { what: "decline" }) }, "Decline")));
      else c.push(h("span", { class: "muted" }, "Draw offered"));
    }
    if (!mine) c.push(h("span", { class: "muted", id: "spectator" }, "You are watching this game."));
    this.controls.replaceChildren(...c);
    const inv = localStorage.getItem("muster-invite:" + this.id);
    const waiting = inv && live.seats.some((s) => !s.claimed);
    if (waiting && !this.invite.firstChild) {
      const url = location.origin + inv;
      const field = h("input", { readonly: true, value: url, id: "invite-link", "aria-label": "invitation link" });
      this.invite.replaceChildren(h("p", {}, "Send this link to your friend; it gives the other seat, once:"), field,
        h("button", { id: "copy-invite", onclick: () => { field.select(); navigator.clipboard && navigator.clipboard.writeText(url); } }, "Copy"));
    } else if (!waiting) this.invite.replaceChildren();
  }

  // takebackControls: against the computer a takeback is done at once;
  // against a person it is asked for, and the opponent accepts or
  // declines; at one screen both seats agree at once.
  takebackControls(live) {
    const seats = Object.keys(this.seats()).map((k) => parseInt(k, 10));
    const tb = live.takeback || [-1, -1];
    const offer = live.takeback_offer;
    if (seats.length === 2) {
      const last = (live.turns || []).at(-1);
      const who = last ? last.player : -1;
      if (who < 0 || tb[who] < 0) return [];
      return [h("button", { id: "takeback", onclick: () => this.takebackHere(who) }, "Take back")];
    }
    const me = seats[0];
    if (live.seats[1 - me].kind === "ai") return tb[me] >= 0 ? [h("button", { id: "takeback", onclick: () => this.post("takeback", {}) }, "Take back")] : [];
    if (offer === 1 - me) {
      return [h("div", { class: "request", role: "alert" }, h("span", { id: "takeback-asked" }, "Your opponent asks to take back their last move. "),
        h("button", { id: "accept-takeback", onclick: () => this.post("takeback", { what: "accept" }) }, "Accept the takeback"),
        h("button", { id: "decline-takeback", onclick: () => this.post("takeback", { what: "decline" }) }, "Decline"))];
    }
    if (offer === me) return [h("span", { class: "muted" }, "Takeback asked for. "), h("button", { id: "cancel-takeback", onclick: () => this.post("takeback", { what: "decline" }) }, "Cancel")];
    return tb[me] >= 0 ? [h("button", { id: "takeback", onclick: () => this.post("takeback", { what: "offer" }) }, "Propose a takeback")] : [];
  }

  // takebackHere takes back seat's last turn at one screen: it asks, and
  // the other seat accepts.
  async takebackHere(seat) {
    try {
      await api("POST", `/api/games/${this.id}/takeback`, { secret: this.secret(seat), what: "offer" });
      this.update(await api("POST", `/api/games/${this.id}/takeback`, { secret: this.secret(1 - seat), what: "accept" }));
    } catch (e) { this.err.textContent = e.message; }
  }

  click(sq, how) {
    if (sq === undefined) { this.draw(); return; }
    if (sq === null) { this.selected = null; this.pending = null; this.premove = null; this.preFrom = null; this.draw(); return; }
    // A choice on the board waits for its answer.
    if (this.pending) return;
    if (this.canPremove()) { this.premoveClick(sq); return; }
    const legal = this.legal();
    if (!legal.length) return;
    // A drag starts from the man already chosen.
    if (how && how.drag && sq === this.selected) return;
    // A finger cannot point without choosing: its first tap on a mark's
    // square shows the rendezvous it would make, the second sets it.
    const shows = how && how.pointer === "touch" && legal.find((x) => x.preview && x.squares && x.squares.length === 1 && x.squares[0] === sq);
    if (shows && this.previewed !== sq) {
      this.previewed = sq;
      this.draw();
      return;
    }
    this.previewed = null;
    this.err.textContent = "";
    const p = pick(legal, this.selected, sq);
    if (p.play) { this.play(p.play); return; }
    if (p.offer) { this.offer(p.offer); return; }
    if (p.miss && this.view.prompt.squares && this.view.prompt.squares.length) this.err.textContent = `Not ${sq}: ${this.view.prompt.text}`;
    this.selected = p.select;
    this.draw();
  }

  // canPremove: in a game of one move a turn, while the other player
  // thinks, this browser's player may choose his next move ahead.
  canPremove() {
    const v = this.view;
    const mine = Object.keys(this.seats());
    return !!v && v.traits.premove && v.status === "playing" && !this.past && mine.length === 1 && !this.myTurn() && v.to_act >= 0;
  }

  // premoveClick chooses a man of one's own, then where he is to go; the
  // same square again, or Escape, takes it back.
  premoveClick(sq) {
    const me = parseInt(Object.keys(this.seats())[0], 10);
    const own = (this.view.board.pieces || []).some((p) => p.square === sq && p.side === me);
    if (this.premove) { this.premove = null; this.preFrom = null; }
    else if (this.preFrom && sq !== this.preFrom) { this.premove = [this.preFrom, sq]; this.preFrom = null; }
    else this.preFrom = own && sq !== this.preFrom ? sq : null;
    this.draw();
  }

  // playPremove plays the move chosen ahead once the turn comes, if the
  // rules allow it then; else it is dropped, and said so.
  playPremove() {
    const pm = this.premove;
    this.premove = null;
    this.preFrom = null;
    const a = this.legal().find((x) => x.squares && x.squares.length === 2 && x.squares[0] === pm[0] && x.squares[1] === pm[1]);
    if (a) { this.play(a.text); return true; }
    this.err.textContent = `The move chosen ahead, ${pm[0]} to ${pm[1]}, is not legal now.`;
    return false;
  }

  // offer asks for a choice between actions on the same squares, on the
  // board and beside it.
  offer(actions) {
    const sqs = actions[0].squares || [];
    this.pending = { actions, square: sqs[sqs.length - 1] };
    this.draw();
  }

  async play(text) {
    this.pending = null;
    try {
      this.update(await api("POST", `/api/games/${this.id}/act`, { secret: this.secret(this.view.to_act), action: text, ply: this.view.ply }));
    } catch (e) { this.err.textContent = e.message; }
  }

  async post(what, body) {
    try {
      body.secret = this.secret(this.mySeat());
      this.update(await api("POST", `/api/games/${this.id}/${what}`, body));
    } catch (e) { this.err.textContent = e.message; }
  }
}

// withPaths are a turn's actions' squares, each move's full path where it
// turned a corner.
function withPaths(t) {
  return (t.squares || []).map((sq, i) => (t.paths && t.paths[i]) || sq);
}

// learned are the steps of a game's walkthrough this browser has done.
function learned(game) {
  try { return new Set(JSON.parse(localStorage.getItem("muster-learned:" + game) || "[]")); } catch { return new Set(); }
}

function markLearned(game, step) {
  const done = learned(game);
  done.add(step);
  localStorage.setItem("muster-learned:" + game, JSON.stringify([...done]));
}

// learn runs step n of a game's walkthrough: a fresh game from the step's
// position, both seats here, and the step's words beside the board.
async function learn(name, n) {
  const cat = await api("GET", "/api/games");
  const g = cat.games.find((x) => x.name === name);
  const lessons = (g && g.lessons) || [];
  const step = Math.max(1, Math.min(lessons.length, parseInt(n || "1", 10) || 1));
  if (!lessons.length) { app.replaceChildren(h("p", {}, `No walkthrough for ${name} yet.`), h("a", { href: "/" }, "Home")); return; }
  document.title = `Learn ${g ? g.title : name} — Muster`;
  const lesson = lessons[step - 1];
  // A lesson's board is a game of its own, kept out of the learner's lists.
  const res = await api("POST", "/api/games", { game: name, ruleset: lesson.ruleset, position: lesson.position, opponent: "local", side: "random", lesson: true });
  res.secrets.forEach((s, i) => hold(res.id, i, s));
  await new GameView(res.id, { lesson, step, count: lessons.length, game: name, title: g.title }).start();
}

// firstGame starts a game against the easy computer after a walkthrough.
async function firstGame(name, ruleset) {
  await playComputer({ game: name, ruleset, level: "easy" });
}

// bar redraws the header's corner with what the server says of the
// browser (the lobby's live view carries it).
let bar = null;

async function route() {
  const path = location.pathname;
  document.querySelector("header").append(settingsMenu());
  identityBar().then((draw) => { bar = draw; }).catch(() => {});
  try {
    if (path.startsWith("/g/")) await new GameView(path.slice(3)).start();
    else if (path === "/account") await accountPage(app);
    else if (path.startsWith("/@/")) await playerPage(app, decodeURIComponent(path.slice(3)));
    else if (path === "/leaderboard") await leaderboardPage(app);
    else if (path === "/reports") await reportsPage(app);
    else if (path === "/tournaments") await tournamentsPage(app);
    else if (path.startsWith("/t/")) await tournamentPage(app, path.slice(3));
    else if (path.startsWith("/rules/")) await rules(path.slice(7));
    else if (path.startsWith("/learn/")) await learn(...path.slice(7).split("/"));
    else if (path === "/analysis" || path.startsWith("/analysis/")) await analysis(app, path.slice(10));
    else if (path === "/puzzles") await puzzlesPage(app);
    else await home();
  } catch (e) {
    app.replaceChildren(h("p", { class: "error" }, e.message));
  }
}

route();
