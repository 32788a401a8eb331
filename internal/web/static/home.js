// home.js is the home page (each game as a card, the new-game form, the
// lobby, the import of a record) and each game's rules page (how to play,
// the diagrams the game draws of itself, its rulesets and options). It
// knows no game: all of it comes from the catalogue (/api/games).

import { Board } from "./board.js";
import { h, cap, sentence, orList } from "./dom.js";
import { api, hold, playComputer } from "./api.js";
import { notifyToggle } from "./account.js";
import { Lobby } from "./lobby.js";
import { recordField } from "./record.js";
import { learned } from "./lesson.js";

const docHref = (d) => "/docs/" + d.file;

// home draws the home page into app; onMe(me) hears what the lobby's live
// view says of the browser (for the header).
export async function home(app, onMe) {
  const cat = await api("GET", "/api/games");
  const lobby = new Lobby(onMe);
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

// rules is a game's rules page for players: how to play, the diagrams the
// game draws of itself, every ruleset with its date and source, and the
// options in words.
export async function rules(app, name) {
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
