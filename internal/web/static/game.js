// game.js is the game page: the board (PlayBoard), each player's strip
// with his clock, the prompt, the events, the actions offered, the moves by
// turns, the controls (takeback, resign, draws, invitation), the ending
// and the chat, kept live by one socket. A lesson's step or a puzzle is a
// panel beside the board (lesson.js, puzzles.js). It knows no game:
// everything game-specific comes from the server as the game's own
// description. Each update patches what changed (dom.js), so a button
// under the pointer or a field being typed in stays.

import { sound } from "./sound.js";
import { h, patch } from "./dom.js";
import { api, held, hold, playComputer, IDENTITY } from "./api.js";
import { Live } from "./socket.js";
import { PlayBoard } from "./playboard.js";
import { Chat } from "./chat.js";
import { puzzleOf, PuzzlePanel } from "./puzzles.js";
import { othersMoves, sinceMine, turnAt, whereAt } from "./turns.js";
import { clockText, lowMs, leftMs } from "./clock.js";
import { gameControls, endingParts, playersLine, stripParts } from "./gameparts.js";

export class GameView {
  // panel, beside the board: a lesson's step or a puzzle, with el, kind,
  // check(host, v) after every view, and maybe seat(v) (the side the
  // board is turned for), you(host) (whom this browser plays), closed
  // (the board takes no more actions) and near (its controls beside the
  // board, first on the side; under the board on a phone). A game started
  // for a puzzle finds its panel itself.
  constructor(app, id, panel) {
    this.app = app;
    this.id = id;
    const p = panel ? null : puzzleOf(id);
    this.panel = panel || (p ? new PuzzlePanel(p) : null);
    this.view = null;
    this.showPly = null; // null: the latest
    this.past = null; // the view at showPly
    this.err = h("p", { class: "error", id: "error", role: "alert" });
    this.pb = new PlayBoard({
      onPlay: (text) => this.play(text),
      onClick: () => { this.err.textContent = ""; },
      onMiss: (sq) => { this.err.textContent = `Not ${sq}: ${this.view.prompt.text}`; },
      onChange: () => this.drawSide(),
    });
  }

  get lesson() { return this.panel && this.panel.kind === "lesson"; }
  seats() { return held(this.id).seats; }
  mine() { return Object.keys(this.seats()).map((k) => parseInt(k, 10)); }
  secret(p) { return this.seats()[p]; }
  title(p) { const t = this.view && this.view.traits.players[p]; return t ? t.title : "chance"; }
  myTurn() {
    const v = this.view;
    return !!v && v.status === "playing" && v.to_act >= 0 && !!this.secret(v.to_act);
  }
  // mySeat is the seat this browser plays: the one to act if held, else any.
  mySeat() {
    if (this.view && this.secret(this.view.to_act)) return this.view.to_act;
    const m = this.mine();
    return m.length ? m[0] : -1;
  }
  // single is the one seat this browser holds, or -1 (none, or both).
  single() { const m = this.mine(); return m.length === 1 ? m[0] : -1; }

  async start() {
    const join = new URLSearchParams(location.search).get("join");
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
    // The live view; after a lost connection the game is read again, as
    // it may have moved on meanwhile. The chat is read again at each
    // opening's first view: the socket sends the chat's lines from just
    // before that view, so a line said as it opened is in the one or the
    // other.
    this.live = new Live(`/ws/games/${this.id}`, {
      onMessage: (msg) => {
        if (msg.chat) return this.chat.add(msg.chat);
        this.update(msg);
        if (this.chatStale) {
          this.chatStale = false;
          this.chat.load();
        }
      },
      onState: (state, text) => {
        this.conn.dataset.state = state;
        document.body.dataset.conn = state;
        this.conn.textContent = text;
      },
      onOpen: async (again) => {
        this.chatStale = true;
        if (!again) return;
        try { this.update(await api("GET", `/api/games/${this.id}`)); } catch { /* the socket's view follows */ }
      },
    });
    this.chat.load();
  }

  // stop lets the game go: its socket closed, no retry. The page that
  // shows another game in its place (a lesson's watch again) stops this
  // one first.
  stop() {
    if (this.live) this.live.close();
  }

  layout() {
    // Each player's strip at his edge of the board: who, and his clock.
    this.strips = [h("div", { class: "strip", id: "strip-top" }), h("div", { class: "strip", id: "strip-bottom" })];
    this.boardBox = h("div", { class: "board-wrap" }, this.strips[0], this.pb.el, this.strips[1], this.stepButtons());
    this.you = h("div", { class: "you", id: "you" });
    this.players = h("p", { class: "players", id: "players" });
    this.status = h("div", { class: "status", id: "status", "aria-live": "polite" });
    this.events = h("ul", { class: "events", id: "events", "aria-live": "polite" });
    this.clock = h("div", { class: "clocks", id: "clock" });
    this.conn = h("p", { class: "conn", id: "connection", role: "status" }, "Connecting…");
    this.banner = h("div", { class: "banner", id: "viewing" });
    this.endingBody = h("div");
    this.verdict = h("p", { id: "verdict", class: "verdict" });
    this.ending = h("div", { class: "ending", id: "ending", "aria-live": "polite" }, this.endingBody, this.verdict);
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
      else if (e.key === "f") this.flip();
      else if (e.key === "Escape" && this.pb.busy()) this.pb.cancel();
    });
    this.controls = h("div", { id: "controls" });
    this.chat = new Chat(this.id, () => { const p = this.mySeat(); return p >= 0 ? this.secret(p) : ""; });
    this.invite = h("div", { class: "invite", id: "invite" });
    this.app.replaceChildren(h("div", { class: "play" + (this.panel ? " lesson-page" : "") }, this.panel ? this.panel.el : "", this.boardBox,
      h("div", { class: "side" }, this.panel && this.panel.near ? this.panel.near : null, this.ending, this.banner, this.status, this.choices, this.err, this.events, this.you, this.conn, this.players, this.clock, this.info, this.controls, this.invite,
        h("h3", {}, "Moves"), this.moves,
        h("p", {}, h("a", { href: `/api/games/${this.id}/record`, id: "export" }, "Export the record"), " · ", h("a", { href: "/" }, "New game")),
        this.panel ? null : this.chat.el)));
  }

  // stepButtons go through the moves, under the board where they never
  // move.
  stepButtons() {
    return h("div", { class: "steps" },
      h("button", { onclick: () => this.step(-Infinity), title: "to the start (Home)", "aria-label": "to the start", id: "first" }, "|◀"),
      h("button", { onclick: () => this.step(-1), title: "back (←)", "aria-label": "back", id: "back" }, "◀"),
      h("button", { onclick: () => this.step(1), title: "forward (→)", "aria-label": "forward", id: "forward" }, "▶"),
      h("button", { onclick: () => this.step(Infinity), title: "to the present (End)", "aria-label": "to the present", id: "last" }, "▶|"),
      h("button", { onclick: () => this.flip(), title: "turn the board (f)", id: "flip" }, "Flip board"),
      h("label", { class: "inline" }, h("input", { type: "checkbox", id: "sound", checked: sound.on, onchange: (e) => sound.set(e.target.checked) }), " Sound"));
  }

  flip() { this.pb.flipped = !this.pb.flipped; this.draw(); }

  update(v) {
    if (v.error) { this.err.textContent = v.error; return; }
    // Views come by WebSocket and as answers to requests, in either order:
    // never go back to an older one (a takeback is newer with fewer plies).
    if (this.view && v.updated < this.view.updated) return;
    const moved = !this.view || v.ply !== this.view.ply || v.history.length !== this.view.history.length;
    // The board is turned for the player's side (in a lesson, the
    // learner's).
    if (!this.view) {
      const me = this.panel && this.panel.seat ? this.panel.seat(v) : this.single();
      this.pb.flipped = me >= 0 && me !== v.traits.bottom;
    } else if (moved) this.sounds(v);
    else if (this.offers(v) > this.offers(this.view)) sound.play("turn");
    const before = this.view;
    this.view = v;
    // The header's "your turn" counts this game too.
    if (before && (before.status !== v.status || before.to_act !== v.to_act)) document.dispatchEvent(new Event("muster:turns"));
    this.received = Date.now();
    if (moved) { this.past = null; this.showPly = null; this.pb.reset(); }
    if (this.panel) this.panel.check(this, v);
    this.draw(moved && before && v.ply > before.ply ? othersMoves(v.turns, before.ply, this.single()) : []);
    if (this.myTurn()) {
      const dropped = this.pb.takePremove();
      if (dropped) this.err.textContent = `The move chosen ahead, ${dropped[0]} to ${dropped[1]}, is not legal now.`;
    } else if (v.status !== "playing" && this.pb.premove) this.pb.cancel();
  }

  // legal is what this browser may play now.
  legal() { return this.myTurn() && !this.past && !(this.panel && this.panel.closed) ? this.view.legal : []; }

  // canPremove: in a game of one move a turn, while the other player
  // thinks, this browser's player may choose his next move ahead.
  canPremove() {
    const v = this.view;
    return !!v && v.traits.premove && v.status === "playing" && !this.past && this.single() >= 0 && !this.myTurn() && v.to_act >= 0;
  }

  draw(animate) {
    const v = this.past || this.view;
    const live = this.view;
    const legal = this.legal();
    // The turn shown: every man it moved, numbered, and all it did.
    const shown = this.showPly === null ? live.ply : this.showPly;
    const turn = this.showPly === null ? sinceMine(live.turns, this.single()) || turnAt(live.turns, shown) : turnAt(live.turns, shown);
    this.shownTurn = turn;
    this.pb.set({ view: v.board, traits: v.traits, legal, asked: legal.length ? live.prompt.squares || [] : [],
      trail: turn ? turn.squares : [], animate: animate || [], premove: this.canPremove() ? this.single() : -1 });
    this.drawSide();
  }

  // drawSide draws all beside the board; the board's own picks (a choice
  // asked for, a move chosen ahead) redraw it alone.
  drawSide() {
    const v = this.past || this.view;
    const live = this.view;
    // What is drawn, for tests and assistive tools: the live game's ply,
    // its player to act and status, and whether this browser acts now.
    Object.assign(document.body.dataset, { ply: live.ply, toAct: live.to_act, status: live.status, myTurn: this.myTurn() && !this.past ? "yes" : "no" });
    this.you.textContent = (this.panel && this.panel.you && this.panel.you(this)) || this.youText();
    patch(this.players, ...playersLine(live));
    this.drawStrips(v === live ? live : { ...v, seats: live.seats, clock: live.clock, status: v.status });
    const wasOver = this.chatOver;
    this.chatOver = live.status === "over";
    this.chat.setRoom(this.mine().length > 0, this.chatOver);
    if (this.chatOver && wasOver === false) this.chat.load(); // the spectators' room opens
    this.status.textContent = this.statusText();
    const turn = this.shownTurn;
    const events = turn && turn.events ? turn.events : v.events || [];
    patch(this.events, ...events.map((e) => h("li", { "data-event": e.kind },
      ...(e.dice || []).map((n) => h("span", { class: "die", "aria-hidden": "true" }, "⚀⚁⚂⚃⚄⚅"[n - 1] || String(n))), e.text)));
    patch(this.info, ...this.facts(v));
    patch(this.choices, this.pb.pending ? h("span", {}, "Choose: ") : null, ...this.pb.choices()
      .map((a) => h("button", { "data-action": a.text, "data-key": a.text, onclick: () => this.pb.choose(a.text) }, a.label, a.note ? h("span", { class: "muted" }, ` · ${a.note}`) : "")));
    this.drawMoves(live);
    if (!this.lesson) patch(this.controls, ...gameControls(this, live));
    this.drawInvite(live);
    this.drawBanner(live);
    this.drawEnding(live);
  }

  youText() {
    const m = this.mine();
    if (!m.length) return "You are watching this game.";
    if (m.length > 1) return "Both sides play at this screen.";
    return `You play ${this.title(m[0])}.`;
  }

  statusText() {
    const live = this.view;
    if (this.past || (this.panel && this.panel.closed)) return "";
    if (live.status === "over") return ""; // the ending panel tells it
    const previewed = this.pb.previewed;
    if (previewed && this.myTurn()) return `The rendezvous of a mark on ${previewed} is shown: tap ${previewed} again to set it there, or another square.`;
    if (this.myTurn()) return `Your turn (${this.title(live.to_act)}): ${live.prompt.text}`;
    const thinking = live.thinking ? `${this.title(live.to_act)}: the computer is thinking…` : `${this.title(live.to_act)} to play.`;
    const pm = this.pb.premove;
    if (pm) return `${thinking} Your next move, ${pm[0]} to ${pm[1]}, is chosen ahead: it is played as soon as your turn comes (Escape or a click takes it back).`;
    if (this.canPremove()) return `${thinking} You may choose your next move ahead.`;
    return thinking;
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
    patch(this.moves, ...(live.turns || []).map((t) => {
      const end = t.first + t.actions.length;
      return h("li", { "data-key": t.first, class: current > t.first && current <= end && this.showPly !== null ? "current" : "", title: t.actions.join(" "), onclick: () => this.step(end - current) },
        h("span", { class: "n" }, `${t.number}. `), h("span", { class: "who" }, this.title(t.player) + ": "), t.labels.join(" "));
    }));
    if (this.showPly === null) this.moves.scrollTop = this.moves.scrollHeight;
  }

  // drawInvite offers the invitation link while a friend's seat waits.
  drawInvite(live) {
    const inv = localStorage.getItem("muster-invite:" + this.id);
    const waiting = inv && live.seats.some((s) => !s.claimed);
    if (waiting && !this.invite.firstChild) {
      const url = location.origin + inv;
      const field = h("input", { readonly: true, value: url, id: "invite-link", "aria-label": "invitation link" });
      this.invite.replaceChildren(h("p", {}, "Send this link to your friend; it gives the other seat, once:"), field,
        h("button", { id: "copy-invite", onclick: () => { field.select(); navigator.clipboard && navigator.clipboard.writeText(url); } }, "Copy"));
    } else if (!waiting) this.invite.replaceChildren();
  }

  // drawStrips names each player at his edge of the board, the one to
  // act marked; tick fills in the clocks.
  drawStrips(v) {
    const top = this.pb.flipped ? v.traits.bottom : 1 - v.traits.bottom;
    [top, 1 - top].forEach((seat, i) => {
      const strip = this.strips[i];
      strip.dataset.seat = seat;
      strip.classList.toggle("acting", v.status === "playing" && v.to_act === seat);
      patch(strip, ...stripParts(v, seat, this.secret(seat) && this.mine().length === 1));
    });
    this.tick();
  }

  // tick shows each side's clock at his edge of the board, counting down
  // the running one; it turns red when low, and your own clock beeps each
  // time it gets there.
  tick() {
    const v = this.view;
    const c = v && v.clock;
    if (!c) { this.clock.replaceChildren(); return; }
    const playing = v.status === "playing";
    const gone = Date.now() - this.received;
    for (const el of this.boardBox.querySelectorAll(".clock[data-seat]")) {
      const i = parseInt(el.dataset.seat, 10);
      const left = leftMs(c, i, playing, gone);
      const isLow = left < lowMs(c.base_ms) && playing;
      // Your clock beeps as it turns low, again after it has recovered.
      if (c.running === i && this.secret(i)) {
        if (isLow && !this.warned) sound.play("low");
        this.warned = isLow;
      }
      el.textContent = clockText(left);
      el.classList.toggle("running", c.running === i);
      el.classList.toggle("low", isLow);
      el.setAttribute("aria-label", `${v.traits.players[i].title}'s clock: ${clockText(left)}`);
    }
    const notes = [];
    if (c.running < 0 && playing && v.ply === 0) notes.push(h("p", { class: "muted" }, "The clocks start after the first move, once both players are here."));
    if (c.days_per_move) notes.push(h("p", { class: "muted", id: "deadline" }, `Correspondence: ${c.days_per_move} day${c.days_per_move > 1 ? "s" : ""} a move.` + (c.deadline && playing ? ` ${this.title(c.running)} must move by ${new Date(c.deadline).toLocaleString()}.` : "")));
    patch(this.clock, ...notes);
  }

  // drawBanner says that a past position is shown, with a way back;
  // counted as the move list counts, by turns.
  drawBanner(live) {
    if (!this.past) { this.banner.replaceChildren(); return; }
    const n = (live.turns || []).length;
    patch(this.banner, h("span", {}, `Viewing ${whereAt(live.turns, this.showPly)}; the game has ${n} turn${n === 1 ? "" : "s"}. `),
      h("button", { id: "back-to-game", onclick: () => this.step(Infinity) }, "Back to the game"));
  }

  // drawEnding shows the end of the game from the player's side, with the
  // rematch, and for a past position the endgame tables' verdict.
  drawEnding(live) {
    const over = live.status === "over" && !this.lesson;
    this.ending.hidden = !over;
    if (!over) { this.endingBody.replaceChildren(); return; }
    // The end is shown where the player looks, once.
    if (!this.endShown) { this.endShown = true; setTimeout(() => this.ending.scrollIntoView({ block: "nearest", behavior: "smooth" }), 0); }
    patch(this.endingBody, ...endingParts(this, live));
    if (this.verdictFor !== this.past) {
      this.verdictFor = this.past;
      this.verdict.textContent = "";
      if (this.past) this.tellVerdict(this.past);
    }
  }

  // tellVerdict says what the server knows exactly of view v's position
  // (the endgame tables), if anything.
  async tellVerdict(v) {
    try {
      const r = await api("POST", "/api/puzzles/verdict", { spec: v.spec, position: v.position });
      if (!r.decided || r.over || r.to_act < 0 || this.verdictFor !== v) return;
      const who = this.title(r.to_act), other = this.title(1 - r.to_act);
      const turns = `in ${r.turns} turn${r.turns === 1 ? "" : "s"} (both sides' turns) with best play`;
      this.verdict.textContent = "Endgame tables: " + (r.outcome === "win" ? `${who}, to move, win ${turns}.` : r.outcome === "loss" ? `${other} win ${turns}.` : "a draw with best play.");
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
      for (const secret of Object.values(this.seats())) {
        const res = await api("POST", `/api/games/${this.id}/rematch`, { secret });
        hold(res.id, res.seat, res.secret);
        id = res.id;
      }
      if (id) location.href = "/g/" + id;
    } catch (e) { this.err.textContent = e.message; }
  }

  // takebackHere takes back seat's last turn at one screen: it asks, and
  // the other seat accepts.
  async takebackHere(seat) {
    try {
      await api("POST", `/api/games/${this.id}/takeback`, { secret: this.secret(seat), what: "offer" });
      this.update(await api("POST", `/api/games/${this.id}/takeback`, { secret: this.secret(1 - seat), what: "accept" }));
    } catch (e) { this.err.textContent = e.message; }
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

  async step(d) {
    const v = this.view;
    let ply = this.showPly === null ? v.ply : this.showPly;
    ply = d === -Infinity ? 0 : d === Infinity ? v.ply : Math.max(0, Math.min(v.ply, ply + d));
    this.showPly = ply === v.ply ? null : ply;
    this.past = this.showPly === null ? null : await api("GET", `/api/games/${this.id}?ply=${ply}`);
    this.pb.reset();
    this.draw();
  }

  // play sends an action: on the game's socket while it is open, as
  // lichess's pages do (its view, or an error, comes back on the socket);
  // else as a request, answered with the view. A socket that says nothing
  // after the action is taken for dead: the action is posted then.
  async play(text) {
    const act = { secret: this.secret(this.view.to_act), action: text, ply: this.view.ply };
    if (this.live && this.live.sendAwaiting({ act }, () => this.postAct(act, true))) return;
    await this.postAct(act, false);
  }

  // postAct posts an action; again, after a socket that may have carried
  // it: a stale ply (409) then means it did, and the game is read anew.
  async postAct(act, again) {
    try {
      this.update(await api("POST", `/api/games/${this.id}/act`, act));
    } catch (e) {
      if (again && e.status === 409) {
        try { this.update(await api("GET", `/api/games/${this.id}`)); } catch { /* the socket's view follows */ }
        return;
      }
      this.err.textContent = e.message;
    }
  }

  async post(what, body) {
    try {
      body.secret = this.secret(this.mySeat());
      this.update(await api("POST", `/api/games/${this.id}/${what}`, body));
    } catch (e) { this.err.textContent = e.message; }
  }
}
