// chat.js is a game's chat: its players talk in one room, its spectators
// in another that the players do not see until the game is over. Lines
// are text only (set with textContent). A reader may hide the chat, or
// mute one name; both are kept in this browser.

import { h } from "./dom.js";
import { api } from "./api.js";

const mutedKey = "muster-muted";
const hiddenKey = "muster-chat-hidden";

function muted() {
  try { return new Set(JSON.parse(localStorage.getItem(mutedKey)) || []); } catch { return new Set(); }
}

// mergeLines joins the lines read from the server with those the socket
// brought while the read was under way (said after the server read them):
// each line once, in the order said (by id), the last 200. The lines held
// before the read are not kept: the reader may have changed (signed in as
// a player, who does not see the spectators' room).
export function mergeLines(loaded, had) {
  const byId = new Map();
  for (const m of [...had, ...loaded]) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id).slice(-200);
}

export class Chat {
  // secret() gives the seat's secret this browser holds, if any.
  constructor(id, secret) {
    this.id = id;
    this.secret = secret;
    this.lines = [];
    this.list = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" });
    this.input = h("input", { id: "chat-input", maxlength: 300, placeholder: "Say something", autocomplete: "off", "aria-label": "chat message" });
    this.err = h("p", { class: "error", id: "chat-error", role: "alert" });
    this.note = h("p", { class: "muted", id: "chat-room" });
    this.hide = h("input", { type: "checkbox", id: "chat-hide", checked: localStorage.getItem(hiddenKey) === "1" });
    this.hide.addEventListener("change", () => { localStorage.setItem(hiddenKey, this.hide.checked ? "1" : "0"); this.draw(); });
    const form = h("form", { class: "chat-form" }, this.input, h("button", { type: "submit", id: "chat-send" }, "Send"));
    form.addEventListener("submit", (e) => { e.preventDefault(); this.send(); });
    this.muteSel = h("select", { id: "chat-mute", "aria-label": "name to mute" });
    this.unmute = h("button", { id: "chat-unmute", onclick: () => { localStorage.setItem(mutedKey, "[]"); this.draw(); } }, "Unmute all");
    this.muteBox = h("div", { class: "chat-mute" }, h("span", { class: "muted" }, "Mute a name:"), this.muteSel,
      h("button", { id: "chat-mute-button", onclick: () => this.muteSel.value && this.mute(this.muteSel.value) }, "Mute"), this.unmute);
    this.body = h("div", { class: "chat-body" }, this.note, this.list, form, this.err, this.muteBox);
    this.el = h("section", { class: "chat", id: "chat" }, h("h3", {}, "Chat"),
      h("label", { class: "switch" }, this.hide, " Hide the chat"), this.body);
  }

  // load reads the lines this browser may see (again after a reconnect,
  // or as another reader: those it may no longer see go), keeping those
  // the socket brought while it read.
  async load() {
    const arrived = [];
    this.arriving = arrived;
    let got;
    try { got = await api("GET", `/api/games/${this.id}/chat`); } catch { return; } finally { if (this.arriving === arrived) this.arriving = null; }
    this.lines = mergeLines(got, arrived);
    this.draw();
  }

  add(m) {
    if (this.lines.some((x) => x.id === m.id)) return;
    this.arriving?.push(m);
    this.lines.push(m);
    if (this.lines.length > 200) this.lines.shift();
    this.draw();
  }

  // room tells the reader where his lines go.
  setRoom(player, over) {
    this.note.textContent = player
      ? (over ? "Players' chat; the spectators' is shown too now that the game is over." : "Players' chat: your opponent reads it; the spectators talk apart.")
      : "Spectators' chat: the players do not see it until the game is over.";
  }

  draw() {
    this.body.hidden = this.hide.checked;
    const mute = muted();
    this.list.replaceChildren(...this.lines.filter((m) => !mute.has(m.name)).map((m) => h("li", { class: "chat-line " + m.room, "data-room": m.room },
      h("span", { class: "who" }, m.name), m.room === "spectators" ? h("span", { class: "muted" }, " (spectator)") : null, ": ",
      h("span", { class: "text" }, m.text),
      h("button", { class: "report-line link", title: "Report this message to the moderators", "aria-label": "report this message", onclick: () => this.report(m) }, "report"))));
    this.list.scrollTop = this.list.scrollHeight;
    const names = [...new Set(this.lines.map((m) => m.name))].filter((n) => !mute.has(n));
    this.muteSel.replaceChildren(...names.map((n) => h("option", { value: n }, n)));
    this.muteBox.hidden = names.length === 0 && mute.size === 0;
    this.unmute.hidden = mute.size === 0;
  }

  mute(name) {
    const s = muted();
    s.add(name);
    localStorage.setItem(mutedKey, JSON.stringify([...s]));
    this.draw();
  }

  // report sends a line to the moderators, with the reader's reason.
  async report(m) {
    const reason = prompt(`Report ${m.name}'s message "${m.text}" to the moderators. Why?`);
    if (!reason) return;
    try {
      await api("POST", "/api/reports", { game: this.id, line: m.id, reason });
      this.err.textContent = "Reported: the moderators will look at it.";
    } catch (e) { this.err.textContent = e.message; }
  }

  async send() {
    this.err.textContent = "";
    const text = this.input.value.trim();
    if (!text) return;
    try {
      const m = await api("POST", `/api/games/${this.id}/chat`, { text, secret: this.secret() || "" });
      this.input.value = "";
      this.add(m);
    } catch (e) { this.err.textContent = e.message; }
  }
}
