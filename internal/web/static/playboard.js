// playboard.js is the page's one board to play on, in chessground's
// shape: a configuration in (the view, what may be played now, what to
// show), events out (an action chosen, a square missed, the board's own
// state changed). The game page, its lessons and puzzles, and the
// analysis board all use it; it holds what a player does between two
// actions — the piece picked, a choice between actions on the same
// squares, a mark's rendezvous shown to a finger, a move chosen ahead —
// and knows no rules: the legal actions' descriptors say what each click
// picks (pick.js).

import { Board } from "./board.js";
import { h, patch } from "./dom.js";
import { pick, targets, buttons } from "./pick.js";

export class PlayBoard {
  // events: onPlay(text), an action chosen; onMiss(sq), a click on a
  // square no action uses while the prompt asks for some; onChange(), the
  // board's own state changed (the page redraws what shows it: the
  // buttons, the status); onClick(sq), a click on the board that picks.
  // The board drawn is a Board (board.js) unless the tests give another
  // with its methods.
  constructor(events, BoardType = Board) {
    this.events = { onPlay() {}, onMiss() {}, onChange() {}, onClick() {}, ...events };
    this.board = new BoardType(null, (sq, how) => this.click(sq, how));
    this.boardEl = h("div", { id: "board" });
    this.board.container = this.boardEl;
    this.board.onHover = (sq) => this.hover(sq);
    this.pop = h("div", { class: "choice-pop", id: "choice-pop", hidden: true, role: "dialog", "aria-label": "choose" });
    this.el = h("div", { class: "board-box" }, this.boardEl, this.pop);
    this.config = null;
    this.selected = null;
    this.pending = null; // {actions, square}: a choice asked for
    this.previewed = null; // a mark's square a finger tapped once
    this.premove = null; // [from, to] chosen ahead
    this.preFrom = null;
  }

  get flipped() { return this.board.flipped; }
  set flipped(f) { this.board.flipped = f; }

  // set draws the board from a configuration: view (the game's board
  // view) and traits; legal, the actions this browser may play now (none
  // to watch); asked, the squares the prompt asks for; trail, animate and
  // arrows, what to show of the turn played and the engine's line;
  // premove, the seat that may choose its next move ahead while the other
  // thinks (or -1).
  set(config) {
    this.config = { legal: [], asked: [], trail: [], animate: [], arrows: [], premove: -1, ...config };
    this.draw(this.config.animate);
  }

  draw(animate) {
    const c = this.config;
    if (!c) return;
    this.board.render(c.view, c.traits, {
      selected: this.selected || this.preFrom, targets: this.pending ? [] : targets(c.legal, this.selected),
      asked: this.pending || this.selected ? [] : c.asked, trail: c.trail, animate: animate || [], arrows: c.arrows, premove: this.premove || [],
    });
    const previewing = this.previewed && c.legal.find((x) => x.preview && x.squares && x.squares[0] === this.previewed);
    if (previewing) this.board.showPreview(previewing.preview);
    this.drawPop();
  }

  // reset forgets what was picked: a new position.
  reset() { this.selected = null; this.pending = null; this.previewed = null; }

  // cancel takes back a pick, a choice asked for and a move chosen ahead.
  cancel() {
    this.reset();
    this.premove = null;
    this.preFrom = null;
    this.draw();
    this.events.onChange();
  }

  // busy says the player is in the middle of something Escape cancels.
  busy() { return !!(this.pending || this.premove || this.preFrom || this.selected); }

  // choices are the actions to offer as buttons beside the board: a
  // choice asked for, else the legal actions that pick no square.
  choices() { return this.pending ? this.pending.actions : buttons(this.config ? this.config.legal : []); }

  choose(text) {
    this.reset();
    this.events.onPlay(text);
  }

  click(sq, how) {
    if (sq === undefined) { this.draw(); return; }
    if (sq === null) { this.cancel(); return; }
    if (this.pending) {
      // A choice on the board waits for its answer, but for the one a
      // finger's first tap on a mark opens: the same square again sets it,
      // another square starts again.
      const p = this.pending;
      if (!p.confirm) return;
      if (sq === p.square) {
        if (p.actions.length === 1) { this.choose(p.actions[0].text); return; }
        this.pending = { ...p, confirm: false };
        this.draw();
        this.events.onChange();
        return;
      }
      this.pending = null;
      this.previewed = null;
    }
    if (this.config.premove >= 0 && !this.config.legal.length) { this.premoveClick(sq); return; }
    const legal = this.config.legal;
    if (!legal.length) return;
    if (how && how.drag && sq === this.selected) return; // a drag starts from the man chosen
    // A finger cannot point without choosing: its first tap on a mark's
    // square shows the rendezvous it would make, the second sets it.
    const shows = how && how.pointer === "touch" && legal.find((x) => x.preview && x.squares && x.squares.length === 1 && x.squares[0] === sq);
    if (shows && this.previewed !== sq) {
      this.previewed = sq;
      // The way to set it in one more tap stands over the board, away
      // from the rendezvous shown.
      this.pending = { actions: legal.filter((x) => x.squares && x.squares.length === 1 && x.squares[0] === sq), square: sq, confirm: true };
      this.draw();
      this.events.onChange();
      return;
    }
    this.previewed = null;
    this.events.onClick(sq);
    const p = pick(legal, this.selected, sq);
    if (p.play) { this.choose(p.play); return; }
    if (p.offer) {
      const sqs = p.offer[0].squares || [];
      this.pending = { actions: p.offer, square: sqs[sqs.length - 1] };
    } else {
      if (p.miss && this.config.asked.length) this.events.onMiss(sq);
      this.selected = p.select;
    }
    this.draw();
    this.events.onChange();
  }

  // hover shows, while a square is pointed at, what choosing it would
  // make (the rendezvous of a mark).
  hover(sq) {
    const a = sq && this.config && this.config.legal.find((x) => x.preview && x.squares && x.squares[0] === sq);
    this.board.showPreview(a ? a.preview : []);
  }

  // premoveClick picks a piece of the seat's own, then where it is to go;
  // the same square again takes it back.
  premoveClick(sq) {
    const own = (this.config.view.pieces || []).some((p) => p.square === sq && p.side === this.config.premove);
    if (this.premove) { this.premove = null; this.preFrom = null; }
    else if (this.preFrom && sq !== this.preFrom) { this.premove = [this.preFrom, sq]; this.preFrom = null; }
    else this.preFrom = own && sq !== this.preFrom ? sq : null;
    this.draw();
    this.events.onChange();
  }

  // takePremove plays the move chosen ahead, now that the turn has come,
  // if the rules allow it; it returns the move dropped (not legal now), or
  // null.
  takePremove() {
    const pm = this.premove;
    this.premove = null;
    this.preFrom = null;
    if (!pm) return null;
    const a = this.config.legal.find((x) => x.squares && x.squares.length === 2 && x.squares[0] === pm[0] && x.squares[1] === pm[1]);
    if (a) { this.choose(a.text); return null; }
    return pm;
  }

  // drawPop lays a choice between actions on the same squares over the
  // board by its square, with what each costs; it stays until one is
  // chosen or it is cancelled.
  drawPop() {
    const p = this.pending;
    if (!p) { this.pop.hidden = true; patch(this.pop); return; }
    const b = this.board.box(p.square);
    const below = b.top < 0.55;
    if (p.confirm) {
      // At the board's far edge from the square: the region stays seen.
      this.pop.style.top = below ? "" : "0";
      this.pop.style.bottom = below ? "0" : "";
    } else {
      this.pop.style.top = below ? `${(b.top + b.height) * 100}%` : "";
      this.pop.style.bottom = below ? "" : `${(1 - b.top) * 100}%`;
    }
    const title = p.confirm ? `Shown on the board: tap ${p.square} again, or` : p.actions.every((a) => a.note) ? `Two ways to ${p.square}:` : `Choose for ${p.square}:`;
    patch(this.pop, h("p", {}, title),
      ...p.actions.map((a) => h("button", { "data-choice": a.text, onclick: () => this.choose(a.text) }, h("span", {}, a.label), a.note ? h("span", { class: "note" }, a.note) : "")),
      h("button", { id: "cancel-choice", onclick: () => this.cancel() }, "Cancel"));
    this.pop.hidden = false;
    this.pop.scrollIntoView({ block: "nearest" });
  }
}
