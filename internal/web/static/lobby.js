// lobby.js is the lobby on the home page: the open challenges, live (a
// WebSocket sends the lobby again whenever it changes), each with its
// Accept, Cancel or Decline; the viewer's own games in play; and the
// games people are playing now, each with a small board to open and
// watch. When someone accepts the viewer's challenge, the page goes to
// the game.

import { h, cap } from "./dom.js";
import { api, hold } from "./api.js";
import { Board } from "./board.js";
import { ratingText, clockText, gameLine, botBadge } from "./account.js";
import { startsText } from "./tournaments.js";
import { Live } from "./socket.js";

export class Lobby {
  constructor(onMe) {
    this.onMe = onMe;
    this.err = h("p", { class: "error", id: "lobby-error", role: "alert" });
    this.challenges = h("div", { id: "challenges" });
    this.mine = h("div", { id: "your-games" });
    this.live = h("div", { id: "live-games", class: "live-games" });
    this.seen = new Set(); // accepted challenges already followed
    this.conn = h("p", { class: "conn", id: "lobby-conn" }, "Connecting…");
    // el is the lobby proper, games the lists of games below it.
    this.tours = h("div", { id: "lobby-tournaments" });
    this.el = h("section", { class: "lobby", id: "lobby" }, h("h2", {}, "Lobby"), this.conn, this.err, this.challenges, this.tours);
    this.games = h("section", { class: "games-now" }, h("h2", {}, "Your games"), this.mine, h("h2", {}, "Being played now"), this.live);
  }

  async start() {
    this.update(await api("GET", "/api/lobby"));
    this.connect();
    this.drawTournaments();
    setInterval(() => this.drawTournaments(), 30000);
  }

  // drawTournaments lists the tournaments starting soon.
  async drawTournaments() {
    let list;
    try { list = await api("GET", "/api/tournaments"); } catch { return; }
    const open = list.open.slice(0, 5);
    this.tours.replaceChildren(h("h3", {}, "Tournaments"), open.length
      ? h("ul", { class: "tournaments" }, open.map((t) => h("li", { "data-tournament": t.id }, h("a", { href: "/t/" + t.id }, t.name), ` (${t.spec}, ${t.clock}, ${t.players} in) — `, h("span", { class: "muted" }, startsText(t.starts)))))
      : h("p", { class: "muted" }, "None starting soon."), h("a", { href: "/tournaments" }, "All tournaments, or create one"));
  }

  // reconnect opens the lobby's socket again: the browser may have just
  // been given its identity (its first challenge), which the server reads
  // from the cookie when the socket opens.
  reconnect() { this.socket.reopen(); }

  connect() {
    this.socket = new Live("/ws/lobby", {
      onMessage: (v) => this.update(v),
      onState: (state, text) => { this.conn.dataset.state = state; this.conn.textContent = text; },
    });
  }

  update(v) {
    if (this.onMe) this.onMe(v.me);
    // A challenge of ours accepted a moment ago: go to its game.
    for (const c of v.challenges) {
      if (c.mine && c.started && !this.seen.has(c.id)) {
        this.seen.add(c.id);
        if (this.ready) { location.href = "/g/" + c.started; return; }
      }
    }
    this.ready = true;
    const open = v.challenges.filter((c) => c.status === "open");
    this.challenges.replaceChildren(open.length
      ? h("table", { class: "challenges" },
        h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Game"), h("th", {}, "Time"), h("th", {}, "Mode"), h("th", {}, "Plays"), h("th", {}, ""))),
        h("tbody", {}, open.map((c) => this.row(c))))
      : h("p", { class: "muted" }, "No open challenge. Make one in New game, with anyone as the opponent: whoever accepts it plays you."));
    this.mine.replaceChildren((v.mine || []).length
      ? h("ul", { class: "games" }, v.mine.map(gameLine))
      : h("p", { class: "muted" }, "None in play."));
    this.live.replaceChildren(...v.live.map((g) => this.tile(g)));
    this.live.hidden = !v.live.length;
    this.liveNone = this.liveNone || this.live.parentNode.insertBefore(h("p", { class: "muted", id: "live-none" }, "Nobody is playing another person right now."), this.live);
    this.liveNone.hidden = v.live.length > 0;
  }

  row(c) {
    const who = c.creator === "Anonymous" ? "Anonymous" : h("span", {}, h("a", { href: "/@/" + c.creator }, c.creator), c.creator_bot ? botBadge() : "");
    const rating = c.rating ? " " + ratingText(c.rating, c.provisional) : "";
    let act;
    if (c.mine) act = h("button", { class: "cancel", onclick: () => this.post(`/api/challenges/${c.id}/cancel`) }, "Cancel");
    else {
      act = h("span", {},
        h("button", { class: "primary accept", onclick: () => this.accept(c) }, "Accept"),
        c.for_me ? h("button", { class: "decline", onclick: () => this.post(`/api/challenges/${c.id}/cancel`) }, "Decline") : null);
    }
    const to = c.target ? (c.mine ? ` → ${c.target}` : " → you") : "";
    return h("tr", { "data-challenge": c.id, class: c.for_me ? "for-me" : "" },
      h("td", {}, who, rating, to), h("td", {}, c.spec), h("td", {}, clockText(c)), h("td", {}, c.rated ? "rated" : "casual"),
      h("td", {}, c.side === "random" ? "random side" : cap(c.side)), h("td", {}, act));
  }

  tile(g) {
    const box = h("div", { class: "mini" });
    new Board(box, () => {}).render(g.board, g.traits, { still: `${g.players.join(" vs ")}, ${g.spec}` });
    return h("a", { class: "tile", href: "/g/" + g.id, "data-game": g.id }, box,
      h("span", {}, g.players.join(" vs ")), h("span", { class: "muted" }, `${g.spec} · move ${Math.floor(g.ply / 2) + 1}${g.rated ? " · rated" : ""}`));
  }

  async post(path) {
    this.err.textContent = "";
    try { await api("POST", path, {}); this.update(await api("GET", "/api/lobby")); } catch (e) { this.err.textContent = e.message; }
  }

  async accept(c) {
    this.err.textContent = "";
    try {
      const res = await api("POST", `/api/challenges/${c.id}/accept`, {});
      hold(res.id, res.seat, res.secret);
      location.href = "/g/" + res.id;
    } catch (e) { this.err.textContent = e.message; }
  }
}
