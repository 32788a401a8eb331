// lesson.js is a game's walkthrough: each step a game of its own from the
// step's position, both seats at this screen, with the step's words beside
// the board (the task in a line, the why folded, a hint on request) and,
// after each of the learner's actions, whether the step's goal is met.

import { h } from "./dom.js";
import { api, hold, playComputer } from "./api.js";
import { GameView } from "./game.js";
import { Board } from "./board.js";

// learned are the steps of a game's walkthrough this browser has done.
export function learned(game) {
  try { return new Set(JSON.parse(localStorage.getItem("muster-learned:" + game) || "[]")); } catch { return new Set(); }
}

function markLearned(game, step) {
  const done = learned(game);
  done.add(step);
  localStorage.setItem("muster-learned:" + game, JSON.stringify([...done]));
}

// goalMet says whether a view, just after the learner acted, meets a
// step's goal, as game.Lesson.Met does: any action ("act"), the end of
// his turn ("turn"), or an event of the goal's kind.
export function goalMet(goal, v, learner) {
  const turnOver = v.status === "over" || v.to_act !== learner;
  return goal === "act" || (goal === "turn" ? turnOver : (v.events || []).some((e) => e.kind === goal));
}

// LessonPanel is the step beside a game's board; GameView calls check
// after every view.
class LessonPanel {
  // again, for a step to watch, shows it again from the start in place
  // (a fresh game of the step); play starts it playing at once.
  constructor({ lesson, step, count, game, title, again, play }) {
    Object.assign(this, { lesson, step, count, game, title, again, autoplay: play });
    this.kind = "lesson";
    this.closed = false; // the step is over: the board takes no more clicks
    const finished = learned(game);
    this.result = h("div", { class: "lesson-result", id: "lesson-result", "aria-live": "polite" });
    const hint = h("p", { class: "hint", id: "hint", hidden: true }, lesson.hint);
    const why = h("p", { class: "why", id: "why-text", hidden: true }, lesson.text);
    const whyButton = h("button", { id: "why", class: "link", "aria-expanded": "false", onclick: () => {
      why.hidden = !why.hidden;
      whyButton.setAttribute("aria-expanded", String(!why.hidden));
    } }, "Why?");
    this.el = h("section", { class: "lesson", id: "lesson", "aria-label": "lesson" },
      h("div", { class: "step-of" },
        h("span", { class: "muted" }, h("span", { class: "long" }, `${title}: s`), h("span", { class: "short" }, "S"), `tep ${step} of ${count}`),
        h("span", { class: "progress", id: "progress" }, ...Array.from({ length: count }, (_, i) =>
          h("a", { href: `/learn/${game}/${i + 1}`, class: (finished.has(i + 1) ? "done" : "") + (i + 1 === step ? " here" : ""), title: `step ${i + 1}` + (finished.has(i + 1) ? ", done" : ""), "aria-label": `step ${i + 1}` + (finished.has(i + 1) ? ", done" : "") }))),
        h("span", { class: "tools" }, whyButton, h("button", { id: "show-hint", class: "link", onclick: () => { hint.hidden = false; } }, "Hint"))),
      h("h2", {}, lesson.title),
      lesson.rule ? h("p", { class: "rule", id: "rule" }, lesson.rule) : null,
      h("p", { class: "task", id: "task" }, lesson.task),
      lesson.figures && lesson.figures.length ? this.figures(game, lesson.figures) : null,
      hint, why,
      lesson.goal === "watch" ? null : this.result);
    // A step to watch takes no clicks on the board: the page plays it,
    // its buttons and captions beside the board (under it on a phone),
    // where the eye follows the men.
    if (lesson.goal === "watch") {
      this.closed = true;
      this.near = this.watchControls();
    }
  }

  // watchControls play a step's stretch of play out: all of it at a
  // reading pace (each caption stays as long as it takes to read), or a
  // move at a time; the caption of the latest move that has one stays.
  watchControls() {
    this.shown = 0;
    this.playing = false;
    this.say = h("p", { class: "watch-say", id: "watch-say", "aria-live": "polite" });
    this.counter = h("span", { class: "muted", id: "watch-count" }, `Move 0 of ${this.lesson.watch.length}`);
    this.playButton = h("button", { class: "primary", id: "watch-play", onclick: () => this.togglePlay() }, "▶ Play");
    this.stepButton = h("button", { id: "watch-step", onclick: () => { this.pause(); this.showNext(); } }, "Next move ›");
    // The step's result comes here too, under the last caption.
    return h("div", { class: "watch", id: "watch" }, h("div", { class: "watch-buttons" }, this.playButton, this.stepButton, this.counter), this.say, this.result);
  }

  togglePlay() {
    if (this.playing) { this.pause(); return; }
    this.playing = true;
    this.playButton.textContent = "❚❚ Pause";
    this.run();
  }

  pause() {
    this.playing = false;
    clearTimeout(this.timer);
    if (this.playButton) this.playButton.textContent = this.shown < this.lesson.watch.length ? "▶ Play" : "▶ Watch again";
  }

  async run() {
    if (!this.playing) return;
    const w = await this.showNext();
    if (!w || this.shown >= this.lesson.watch.length) { this.pause(); return; }
    // A caption stays long enough to read: a second and a quarter of a
    // second a word; a move without one, two thirds of a second.
    const words = w.say ? w.say.split(/\s+/).length : 0;
    this.timer = setTimeout(() => this.run(), words ? 1000 + 250 * words : 650);
  }

  // showNext plays the next action of the stretch, as whichever side is
  // to act (both seats are this page's), and says what it shows.
  async showNext() {
    const host = this.host;
    const w = this.lesson.watch[this.shown];
    if (!host || this.busy) return null;
    if (!w) { this.watchAgain(); return null; }
    this.busy = true;
    try {
      host.update(await api("POST", `/api/games/${host.id}/act`, { secret: host.secret(host.view.to_act), action: w.action, ply: host.view.ply }));
      this.shown++;
      if (this.shown === 1) this.showBoard(host);
      this.counter.textContent = `Move ${this.shown} of ${this.lesson.watch.length}`;
      if (w.say) this.say.textContent = w.say;
      if (this.shown === this.lesson.watch.length) this.finish();
    } catch (e) {
      host.err.textContent = e.message;
      this.pause();
      return null;
    } finally {
      this.busy = false;
    }
    return w;
  }

  // watchAgain plays the stretch again from the start: a fresh game of
  // the step in this game's place, played at once.
  watchAgain() {
    if (!this.again || this.restarting) return;
    this.restarting = true;
    this.pause();
    this.host.stop();
    this.again();
  }

  // showBoard brings the board and the captions under it into view
  // together where they are not (a phone, scrolled to the lesson above).
  showBoard(host) {
    // The board's frame: the strip above it with the player's name, or
    // the board (their wrapper lays them out, with no box of its own on
    // a phone).
    const frame = host.boardBox.querySelector("#strip-top") || host.boardBox.querySelector(".board-box");
    const top = frame.getBoundingClientRect().top;
    const bottom = this.near.getBoundingClientRect().bottom;
    if (top >= 0 && bottom <= innerHeight) return;
    if (bottom - top <= innerHeight) scrollBy(0, top);
    else this.near.scrollIntoView({ block: "nearest" });
  }

  // finish marks the step learned and offers the next.
  finish() {
    markLearned(this.game, this.step);
    const dot = document.querySelector(`#progress a:nth-child(${this.step})`);
    if (dot) dot.classList.add("done");
    this.stepButton.disabled = true;
    this.pause();
    this.result.replaceChildren(h("p", { class: "well-done" }, this.lesson.done), this.nextLink());
    reveal(this.result);
  }

  nextLink() {
    return this.step < this.count
      ? h("a", { class: "button primary", id: "next-step", href: `/learn/${this.game}/${this.step + 1}` }, "Next step")
      : h("button", { class: "primary", id: "first-game", onclick: () => playComputer({ game: this.game, ruleset: this.lesson.ruleset, level: "easy" }) }, "Play your first game against the computer");
  }

  // figures draws the game's figures the step shows, small, in a row the
  // finger scrolls, each with its title.
  figures(game, which) {
    const row = h("div", { class: "lesson-figures", id: "lesson-figures" });
    api("GET", `/api/rules/${game}/figures`).then((all) => {
      row.replaceChildren(...which.filter((i) => all[i]).map((i) => {
        const f = all[i];
        const box = h("div", { class: "figure-board" });
        new Board(box, () => {}).render(f.board, f.traits, { still: `${f.title}: ${f.caption}` });
        // Only the game's board is a board to play on: its squares alone
        // are named.
        for (const e of box.querySelectorAll("[data-sq]")) e.removeAttribute("data-sq");
        return h("figure", { "data-figure": String(i) }, box, h("figcaption", {}, f.title));
      }));
    }).catch(() => {});
    return row;
  }

  // seat is the side the board is turned for: the learner's, the side to
  // act first.
  seat(v) {
    if (this.lesson.goal === "watch") return v.traits.bottom; // as the next steps turn it
    return this.learner === undefined ? v.to_act : this.learner;
  }

  // check tells the learner, after his action, whether the step's goal is
  // met, or that his turn went by. A step with a reply plays the other
  // side's answer first, to be seen.
  async check(host, v) {
    this.host = host;
    if (this.lesson.goal === "watch") {
      if (this.autoplay && !this.playing && this.shown === 0) {
        this.autoplay = false;
        this.togglePlay();
      }
      return;
    }
    if (this.learner === undefined) this.learner = v.to_act;
    if (v.ply === 0 || this.closed) return;
    const met = goalMet(this.lesson.goal, v, this.learner);
    if (met) {
      this.closed = true;
      markLearned(this.game, this.step);
      const dot = document.querySelector(`#progress a:nth-child(${this.step})`);
      if (dot) dot.classList.add("done");
      for (const text of this.lesson.reply || []) {
        try {
          host.update(await api("POST", `/api/games/${host.id}/act`, { secret: host.secret(1 - this.learner), action: text, ply: host.view.ply }));
        } catch (e) { host.err.textContent = e.message; }
      }
      this.result.replaceChildren(h("p", { class: "well-done" }, "Well done. " + this.lesson.done), this.nextLink());
      reveal(this.result);
    } else if (v.status === "over" || v.to_act !== this.learner) {
      this.closed = true;
      this.result.replaceChildren(h("p", { class: "error" }, "Not this time: your turn has passed."),
        h("a", { class: "button", id: "try-again", href: location.pathname }, "Try again"));
      reveal(this.result);
    }
  }

  you(host) {
    if (this.lesson.goal === "watch") return "You watch: both sides are played for you.";
    return this.learner !== undefined && this.learner >= 0 ? `You play ${host.title(this.learner)}.` : null;
  }
}

// reveal scrolls an element into view where it is not wholly on the
// screen: on a phone the learner has scrolled down to the board, and the
// lesson's result above it would be unseen.
function reveal(el) {
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight) el.scrollIntoView({ block: "nearest" });
}

// learn runs step n of a game's walkthrough: a fresh game from the step's
// position, both seats here, and the step's words beside the board.
export async function learn(app, name, n, play = false) {
  const cat = await api("GET", "/api/games");
  const g = cat.games.find((x) => x.name === name);
  const lessons = (g && g.lessons) || [];
  const step = Math.max(1, Math.min(lessons.length, parseInt(n || "1", 10) || 1));
  if (!lessons.length) { app.replaceChildren(h("p", {}, `No walkthrough for ${name} yet.`), h("a", { href: "/" }, "Home")); return; }
  document.title = `Learn ${g.title} — Muster`;
  const lesson = lessons[step - 1];
  // A lesson's board is a game of its own, kept out of the learner's lists.
  const res = await api("POST", "/api/games", { game: name, ruleset: lesson.ruleset, position: lesson.position, opponent: "local", side: "random", lesson: true });
  res.secrets.forEach((s, i) => hold(res.id, i, s));
  const again = () => learn(app, name, String(step), true);
  await new GameView(app, res.id, new LessonPanel({ lesson, step, count: lessons.length, game: name, title: g.title, again, play })).start();
}
