// gameparts.js draws the game page's parts that are only words and
// buttons from the view: the players' line, a player's strip, the controls
// (takeback, abort, resign, draws) and the ending. Each returns elements
// for the page to patch in; the buttons call back into the page (host).

import { h } from "./dom.js";
import { botBadge } from "./account.js";

// playersLine names who holds each seat (an account with its rating, an
// anonymous player, the computer and its level) and whether the game is
// rated; at one screen, nobody.
export function playersLine(v) {
  if (!v || !v.seats.some((s) => s.name || s.kind === "ai")) return [];
  const one = (i) => {
    const s = v.seats[i];
    const who = s.kind === "ai" ? `Computer (${s.agent})` : s.name ? h("a", { href: "/@/" + s.name }, s.name) : "Anonymous";
    return h("span", { class: "player", "data-seat": i }, `${v.traits.players[i].title}: `, who, s.bot ? botBadge() : "", s.rating ? ` (${Math.round(s.rating)}${s.provisional ? "?" : ""})` : "");
  };
  return [one(0), " vs ", one(1), h("span", { class: "muted" }, v.rated ? " · rated" : " · casual")];
}

// stripParts are a seat's strip by its edge of the board: its side, who
// holds it (you, when yours alone), the turn's budget while it acts, and
// a place for its clock.
export function stripParts(v, seat, you) {
  const s = v.seats[seat] || {};
  const who = s.kind === "ai" ? `Computer (${s.agent})` : s.name ? s.name : you ? "You" : "";
  const m = v.board.meter;
  const meter = m && v.status === "playing" && v.to_act === seat
    ? h("span", { class: "pips strip-pips", title: `${m.label}: ${m.left} of ${m.total}`, "aria-hidden": "true" }, ...Array.from({ length: m.total }, (_, i) => h("span", { class: i < m.left ? "pip on" : "pip" })))
    : "";
  return [h("span", { class: "who" }, h("span", { class: "to-act", "aria-hidden": "true" }), v.traits.players[seat].title,
    who ? h("span", { class: "muted" }, " · " + who) : "", s.bot ? botBadge() : "", s.rating ? h("span", { class: "muted" }, ` (${Math.round(s.rating)}${s.provisional ? "?" : ""})`) : ""),
  meter, v.clock ? h("span", { class: "clock clock-side", "data-seat": seat }) : ""];
}

// gameControls are a player's buttons while the game is on: takeback,
// abort or resign (asked to confirm), and draw offers; a spectator is told
// he watches.
export function gameControls(host, live) {
  const mine = host.mine();
  const c = [];
  if (mine.length && live.status === "playing") {
    c.push(...takebackControls(host, live));
    if (live.can_abort) c.push(h("button", { id: "abort", onclick: () => host.post("abort", {}) }, "Abort the game"));
    else if (host.confirming) c.push(h("span", {}, "Resign this game? "), h("button", { id: "confirm-resign", onclick: () => { host.confirming = false; host.post("resign", {}); } }, "Yes, resign"),
      h("button", { id: "keep-playing", onclick: () => { host.confirming = false; host.drawSide(); } }, "No, play on"));
    else c.push(h("button", { id: "resign", onclick: () => { host.confirming = true; host.drawSide(); } }, "Resign"));
    const seat = host.mySeat();
    if (live.draw_offer === -1) c.push(h("button", { id: "offer-draw", onclick: () => host.post("draw", { what: "offer" }) }, "Offer a draw"));
    else if (live.draw_offer !== seat) c.push(h("div", { class: "request", role: "alert" }, h("span", { id: "draw-offered" }, "Your opponent offers a draw. "), h("button", { id: "accept-draw", onclick: () => host.post("draw", { what: "accept" }) }, "Accept the draw"), h("button", { onclick: () => host.post("draw", { what: "decline" }) }, "Decline")));
    else c.push(h("span", { class: "muted" }, "Draw offered"));
  }
  if (!mine.length) c.push(h("span", { class: "muted", id: "spectator" }, "You are watching this game."));
  return c;
}

// takebackControls: against the computer a takeback is done at once;
// against a person it is asked for, and the opponent accepts or declines;
// at one screen both seats agree at once.
function takebackControls(host, live) {
  const seats = host.mine();
  const tb = live.takeback || [-1, -1];
  const offer = live.takeback_offer;
  if (seats.length === 2) {
    const last = (live.turns || []).at(-1);
    const who = last ? last.player : -1;
    if (who < 0 || tb[who] < 0) return [];
    return [h("button", { id: "takeback", onclick: () => host.takebackHere(who) }, "Take back")];
  }
  const me = seats[0];
  if (live.seats[1 - me].kind === "ai") return tb[me] >= 0 ? [h("button", { id: "takeback", onclick: () => host.post("takeback", {}) }, "Take back")] : [];
  if (offer === 1 - me) {
    return [h("div", { class: "request", role: "alert" }, h("span", { id: "takeback-asked" }, "Your opponent asks to take back their last move. "),
      h("button", { id: "accept-takeback", onclick: () => host.post("takeback", { what: "accept" }) }, "Accept the takeback"),
      h("button", { id: "decline-takeback", onclick: () => host.post("takeback", { what: "decline" }) }, "Decline"))];
  }
  if (offer === me) return [h("span", { class: "muted" }, "Takeback asked for. "), h("button", { id: "cancel-takeback", onclick: () => host.post("takeback", { what: "decline" }) }, "Cancel")];
  return tb[me] >= 0 ? [h("button", { id: "takeback", onclick: () => host.post("takeback", { what: "offer" }) }, "Propose a takeback")] : [];
}

// headline is the end of the game in words, from the side of the seats
// this browser holds (mine): "You won — …", "Draw", "Black won — …",
// read from the view's outcome (ending, winner), not from its words.
export function headline(live, mine) {
  const winner = live.winner;
  const reason = live.reason ? ` — ${live.reason}` : "";
  if (live.ending === "aborted") return "Game aborted";
  if (live.ending === "scored") return `Ended on scores: ${live.result}`;
  if (winner < 0) return "Draw" + reason;
  if (mine.length === 1) return (mine[0] === winner ? "You won" : "You lost") + reason;
  return `${live.traits.players[winner].title} won${reason}`;
}

// endingParts are the end of the game: who won and why, the rating
// changes, the rematch, a game against the computer from a past
// position, and the ways to study it.
export function endingParts(host, live) {
  const mine = host.mine();
  const parts = [h("p", { class: "headline" }, headline(live, mine))];
  for (const c of live.rating_changes || []) {
    const d = c.after - c.before;
    parts.push(h("p", { class: "rating-change", "data-seat": c.seat }, `${live.seats[c.seat].name || host.title(c.seat)}: ${Math.round(c.before)} → ${Math.round(c.after)} `,
      h("span", { class: d >= 0 ? "gain" : "loss" }, `(${d >= 0 ? "+" : ""}${Math.round(d)})`)));
  }
  if (mine.length) parts.push(h("button", { class: "primary", id: "rematch", onclick: () => host.rematch() }, live.rematch ? "Join the rematch" : "Rematch, sides swapped"));
  else if (live.rematch) parts.push(h("a", { href: "/g/" + live.rematch }, "Watch the rematch"));
  const past = host.past;
  if (past && past.prompt.player !== -2) {
    parts.push(h("button", { id: "vs-from-here", onclick: () => host.playFrom(past) }, `Play the computer from move ${host.showPly}`));
  }
  parts.push(h("a", { class: "button", id: "analyse", href: `/analysis/${host.id}?ply=${host.showPly === null ? live.ply : host.showPly}` }, "Analyse this game"));
  parts.push(h("a", { class: "button", id: "graph-link", href: `/analysis/${host.id}?graph=1` }, "Graph of the game"));
  parts.push(h("a", { href: "/", class: "new-game" }, "New game"));
  if (!past) parts.push(h("p", { class: "muted" }, "Step back through the moves to play the computer from any position."));
  return parts;
}
