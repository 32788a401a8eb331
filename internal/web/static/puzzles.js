// puzzles.js is the puzzles page: positions the server draws from what a
// game knows exactly (Lanrick's endgame tables), each solved in a game
// against the computer, which defends perfectly there; the page checks
// every turn of the solver's with the server's verdict.

import { h } from "./dom.js";
import { api, hold } from "./api.js";

// solved are the puzzles this browser has solved.
export function solved() {
  try { return new Set(JSON.parse(localStorage.getItem("muster-puzzles-solved") || "[]")); } catch { return new Set(); }
}

export function markSolved(id) {
  const s = solved();
  s.add(id);
  localStorage.setItem("muster-puzzles-solved", JSON.stringify([...s]));
}

// puzzleOf is the puzzle a game was started for, if any.
export function puzzleOf(id) {
  try { return JSON.parse(sessionStorage.getItem("muster-puzzle:" + id) || "null"); } catch { return null; }
}

// startPuzzle starts a game from the puzzle's position against the
// computer, the solver on the side to move, kept out of the lists.
export async function startPuzzle(p) {
  const res = await api("POST", "/api/games", { game: p.spec, position: p.position, opponent: "ai", level: "hard", side: p.side, lesson: true });
  hold(res.id, res.seat, res.secret);
  sessionStorage.setItem("muster-puzzle:" + res.id, JSON.stringify(p));
  location.href = "/g/" + res.id;
}

// puzzlesPage lists the puzzles, easiest first.
export async function puzzlesPage(app) {
  document.title = "Puzzles — Muster";
  const res = await api("GET", "/api/puzzles");
  const done = solved();
  const err = h("p", { class: "error", role: "alert" });
  app.replaceChildren(
    h("h1", {}, "Puzzles"),
    h("p", { class: "game-intro" }, "Positions that Muster's endgame tables decide exactly: you are to move, and you win with best play. Any turn that keeps the win in the turns given counts; the computer defends as well as it can be done."),
    res.note ? h("p", { class: "muted", id: "puzzles-note" }, res.note) : "",
    err,
    h("ol", { class: "puzzles", id: "puzzles" }, res.puzzles.map((p, i) => h("li", { "data-rating": p.rating },
      h("button", { class: done.has(p.id) ? "" : "primary", "data-puzzle": i, onclick: () => startPuzzle(p).catch((e) => { err.textContent = e.message; }) },
        `Puzzle ${i + 1}: win in ${p.turns}`),
      h("span", {}, ` ${p.context} `), h("span", { class: "muted" }, `Rating ${p.rating}.`), done.has(p.id) ? h("span", { class: "gain" }, " Solved.") : ""))),
    h("p", {}, h("a", { href: "/" }, "Home")));
}
