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

// ratingText is a puzzle rating as people read it: a ? while it is
// provisional.
export function ratingText(me) { return `${Math.round(me.rating)}${me.provisional ? "?" : ""}`; }

// nextPuzzle starts the stream's next puzzle for this player: the one he
// has not tried whose rating is nearest his.
export async function nextPuzzle(err, theme) {
  try {
    const res = await api("GET", "/api/puzzles/next" + (theme ? "?theme=" + encodeURIComponent(theme) : ""));
    if (!res.puzzle) { err.textContent = theme ? `You have tried every puzzle of ${theme}.` : "You have tried every puzzle there is."; return; }
    sessionStorage.setItem("muster-puzzle-theme", theme || "");
    await startPuzzle(res.puzzle);
  } catch (e) { err.textContent = e.message; }
}

// puzzlesPage lists the puzzles, easiest first, with the player's puzzle
// rating and the way into the stream.
export async function puzzlesPage(app) {
  document.title = "Puzzles — Muster";
  const res = await api("GET", "/api/puzzles");
  const done = solved();
  if (res.me) for (const [id, ok] of Object.entries(res.me.tried || {})) if (ok) done.add(id);
  const err = h("p", { class: "error", role: "alert" });
  const tried = res.me ? Object.keys(res.me.tried || {}).length : 0;
  app.replaceChildren(
    h("h1", {}, "Puzzles"),
    h("p", { class: "game-intro" }, "Positions Muster knows exactly, from a game's endgame tables or by searching every move and reply: you are to move, and you win with best play. Any turn that keeps the win in the turns given counts; the computer defends as well as it can be done."),
    res.note ? h("p", { class: "muted", id: "puzzles-note" }, res.note) : "",
    res.puzzles.length ? h("p", { class: "puzzle-me" },
      h("button", { class: "primary", id: "puzzles-stream", onclick: () => nextPuzzle(err) }, "Solve puzzles one after another"), " ",
      h("span", { id: "puzzle-rating" }, res.me ? `Your puzzle rating: ${ratingText(res.me)} · ${tried} tried` : "Your puzzle rating starts at 1500."),
      h("span", { class: "muted" }, " Each puzzle counts once, at your first try, against its own rating (Glicko-2); the stream gives you the untried puzzle nearest your rating.")) : "",
    (res.themes || []).length ? h("p", { class: "puzzle-themes", id: "puzzle-themes" }, "Or one theme: ",
      ...res.themes.map((th) => h("button", { "data-theme": th, onclick: () => nextPuzzle(err, th) }, th))) : "",
    err,
    h("ol", { class: "puzzles", id: "puzzles" }, res.puzzles.map((p, i) => h("li", { "data-rating": p.rating },
      h("button", { class: done.has(p.id) ? "" : "primary", "data-puzzle": i, onclick: () => { sessionStorage.removeItem("muster-puzzle-theme"); startPuzzle(p).catch((e) => { err.textContent = e.message; }); } },
        `Puzzle ${i + 1}: win in ${p.turns}`),
      h("span", {}, ` ${p.context} `), h("span", { class: "muted" }, `Rating ${p.rating}.` + ((p.themes || []).length ? ` Themes: ${p.themes.join(", ")}.` : "")), done.has(p.id) ? h("span", { class: "gain" }, " Solved.") : ""))),
    h("p", {}, h("a", { href: "/" }, "Home")));
}

// turnsLeft is what a verdict leaves the solver, seat me, after done of
// his turns in a puzzle of turns: {winning, left} (left being his turns
// still needed, Infinity when the win is gone). From his move a win in T
// turns of both sides is ceil(T/2) of his; from his opponent's, a loss for
// the opponent in T is T/2 of his.
export function turnsLeft(verdict, me) {
  const myMove = verdict.to_act === me;
  const winning = verdict.decided && verdict.outcome === (myMove ? "win" : "loss");
  return { winning, left: winning ? (myMove ? Math.ceil(verdict.turns / 2) : verdict.turns / 2) : Infinity };
}

// PuzzlePanel is the puzzle beside its game's board: what to do, then
// after each of the solver's turns whether the win is still there.
export class PuzzlePanel {
  constructor(p) {
    this.p = p;
    this.kind = "puzzle";
    this.over = false;
    this.turns = 0;
    this.result = h("div", { class: "lesson-result", id: "puzzle-result", "aria-live": "polite" });
    this.el = h("section", { class: "lesson", id: "puzzle" },
      h("div", { class: "step-of" }, h("span", { class: "muted" }, `Puzzle · rating ${p.rating}`), h("span", { class: "tools" }, h("a", { href: "/puzzles" }, "All puzzles"))),
      h("h2", {}, `Win in ${p.turns} turn${p.turns > 1 ? "s" : ""}`),
      h("p", { class: "task", id: "task" }, p.context),
      this.result);
  }

  // check, each time one of the solver's turns is over, asks the server
  // for the exact verdict of the position: the win must still be there,
  // in the turns left. Every winning turn counts, not one stored line.
  // Views may come after the computer has answered too: the verdict is
  // then for the solver to move.
  async check(host, v) {
    if (this.over) return;
    const me = host.mySeat();
    const turns = v.turns || [];
    const done = turns.filter((t, i) => t.player === me && (i < turns.length - 1 || v.to_act !== me || v.status === "over")).length;
    if (done <= this.turns) return;
    this.turns = done;
    const p = this.p;
    const again = h("button", { id: "puzzle-again", onclick: () => startPuzzle(p) }, "Try again");
    const next = h("a", { class: "button", href: "/puzzles", id: "puzzle-next" }, "Other puzzles");
    // The game's end is the view's (a position's text need not carry it:
    // Tablut's king, captured, still stands on the board).
    let verdict = { over: true, won: v.winner === me };
    if (v.status !== "over") {
      try { verdict = await api("POST", "/api/puzzles/verdict", { spec: v.spec, position: v.position, game: host.id }); } catch (e) { host.err.textContent = e.message; return; }
      verdict.won = verdict.over && verdict.result === v.traits.players[me].name;
    }
    if (this.over) return;
    if (verdict.over) {
      this.over = true;
      if (verdict.won) {
        markSolved(p.id);
        this.result.replaceChildren(h("p", { class: "well-done", id: "puzzle-solved" }, "Solved: the win, in the turns given."), next);
      } else this.result.replaceChildren(h("p", { class: "error" }, "Not this time: the game is lost."), again, next);
      this.rate(host);
      return;
    }
    const { winning, left } = turnsLeft(verdict, me);
    if (done + left <= p.turns) {
      this.result.replaceChildren(h("p", { class: "well-done", id: "puzzle-good" }, `Good: still a win, in ${left} more turn${left > 1 ? "s" : ""} of yours.`));
      return;
    }
    this.over = true;
    const why = !verdict.decided ? "it is no longer known exactly (the tables or the search no longer decide it)" : winning ? `the win now takes ${left} more turns of yours, beyond the ${p.turns} given` : "the win is gone with best play";
    this.result.replaceChildren(h("p", { class: "error", id: "puzzle-failed" }, `Not the best turn: ${why}.`), again, next);
    this.rate(host);
  }

  // rate has the server read the try from its game and move the puzzle
  // rating (the first try at a puzzle only), then offers the stream's next.
  async rate(host) {
    const line = h("p", { class: "puzzle-rated", id: "puzzle-rated" });
    const theme = sessionStorage.getItem("muster-puzzle-theme") || "";
    const stream = h("button", { class: "primary", id: "puzzle-stream-next", onclick: () => nextPuzzle(host.err, theme) }, theme ? `Next puzzle: ${theme}` : "Next puzzle");
    this.result.append(line, stream);
    try {
      const r = await api("POST", "/api/puzzles/result", { puzzle: this.p.id, game: host.id });
      const d = Math.round(r.after) - Math.round(r.before);
      line.textContent = r.counted
        ? `Puzzle rating ${Math.round(r.before)} → ${ratingText(r.me)} (${d >= 0 ? "+" : ""}${d}).`
        : r.why ? `Puzzle rating ${ratingText(r.me)}, not changed: ${r.why}.`
        : `Puzzle rating ${ratingText(r.me)}: only your first try at a puzzle counts.`;
    } catch (e) { line.textContent = e.message; }
  }
}
