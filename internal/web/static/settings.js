// settings.js is the header's settings menu: light, dark or the
// system's look, and the board's theme, kept for the next visit.

import { h } from "./dom.js";

const looks = [["auto", "as the system"], ["light", "light"], ["dark", "dark"]];
const boards = [["wood", "wood"], ["paper", "paper"], ["green", "green"], ["slate", "slate"]];

// settingsMenu returns the menu, to put in the header.
export function settingsMenu() {
  const root = document.documentElement;
  const select = (id, options, value, set) => h("select", { id, onchange: (e) => set(e.target.value) },
    options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)));
  // theme.js turns the choice (or the system's look) into data-theme.
  const look = select("theme", looks, localStorage.getItem("muster-theme") || "auto", (v) => {
    if (v === "auto") localStorage.removeItem("muster-theme"); else localStorage.setItem("muster-theme", v);
    root.dispatchEvent(new Event("muster-theme"));
  });
  const board = select("board-theme", boards, root.dataset.board || "wood", (v) => {
    if (v === "wood") { delete root.dataset.board; localStorage.removeItem("muster-board"); } else { root.dataset.board = v; localStorage.setItem("muster-board", v); }
  });
  return h("details", { class: "settings", id: "settings" },
    h("summary", { "aria-label": "settings", title: "settings" }, "⚙"),
    h("div", { class: "menu" }, h("label", {}, "Look ", look), h("label", {}, "Board ", board),
      h("nav", { class: "menu-links", "aria-label": "pages" }, h("a", { href: "/leaderboard" }, "Leaderboard"), h("a", { href: "/tournaments" }, "Tournaments"), h("a", { href: "/analysis" }, "Analysis board"), h("a", { href: "/puzzles" }, "Puzzles"), h("a", { href: "/" }, "Home"))));
}
