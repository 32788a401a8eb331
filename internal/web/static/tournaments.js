// tournaments.js: the list of tournaments with the form that creates one,
// and a tournament's page — its players, standings with tie-breaks, and
// each round's games — kept fresh while it runs.

import { h, cap } from "./dom.js";
import { api } from "./api.js";

// startsText says when an open tournament starts.
export function startsText(ms) {
  const min = Math.round((ms - Date.now()) / 60000);
  if (min <= 0) return "starting now";
  if (min < 120) return `starting in ${min} minute${min === 1 ? "" : "s"}`;
  return "starting " + new Date(ms).toLocaleString();
}

function kindText(t) {
  return t.kind === "swiss" ? `Swiss, ${t.rounds} rounds` : t.kind === "arena" ? `arena, ${t.rounds} minutes` : "round robin";
}

function line(t) {
  const what = t.status === "open" ? startsText(t.starts) : t.status === "running" ? (t.kind === "arena" ? "under way" : `round ${t.round} of ${t.rounds}`) : "finished";
  return h("li", { "data-tournament": t.id }, h("a", { href: "/t/" + t.id }, t.name), ` — ${kindText(t)}, ${t.spec}, ${t.clock}${t.rated ? ", rated" : ""}; ${t.players} player${t.players === 1 ? "" : "s"}; `,
    h("span", { class: "muted" }, what));
}

// tournamentsPage lists the tournaments and creates one.
export async function tournamentsPage(app) {
  document.title = "Tournaments — Muster";
  const list = await api("GET", "/api/tournaments");
  const cat = await api("GET", "/api/games");
  const err = h("p", { class: "error", role: "alert", id: "tournament-error" });
  const field = (label, input) => h("label", {}, label + " ", input);
  const name = h("input", { id: "t-name", maxlength: 60, required: true, placeholder: "Winter round robin" });
  const kind = h("select", { id: "t-kind" }, h("option", { value: "roundrobin" }, "Round robin"), h("option", { value: "swiss" }, "Swiss"), h("option", { value: "arena" }, "Arena (live clocks)"));
  const duration = h("input", { id: "t-duration", type: "number", min: 10, max: 720, value: 60 });
  const rounds = h("input", { id: "t-rounds", type: "number", min: 1, max: 11, value: 5 });
  const gameSel = h("select", { id: "t-game" }, ...cat.games.flatMap((g) => g.rulesets.map((r) => h("option", { value: `${g.name}|${r.id}`, selected: r.default }, `${g.title} — ${r.id}`))));
  const clock = h("select", { id: "t-clock" }, ...[["5+3", "5 min + 3 s"], ["10+5", "10 min + 5 s"], ["30+20", "30 min + 20 s"], ["d1", "1 day a move"], ["d3", "3 days a move"]].map(([v, l]) => h("option", { value: v }, l)));
  const rated = h("input", { id: "t-rated", type: "checkbox" });
  const bots = h("input", { id: "t-bots", type: "checkbox" });
  const starts = h("input", { id: "t-starts", type: "number", min: 0, max: 10080, value: 10 });
  const form = h("form", { id: "new-tournament", class: "account-form" }, h("h2", {}, "New tournament"),
    field("Name", name), field("Kind", kind), field("Rounds (Swiss)", rounds), field("Minutes (arena)", duration), field("Game", gameSel), field("Clock", clock),
    h("label", {}, rated, " Rated"), h("label", {}, bots, " Open to bot accounts"), field("Starts in (minutes)", starts), h("button", { class: "primary", type: "submit" }, "Create"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const [game, ruleset] = gameSel.value.split("|");
    const c = clock.value;
    const body = { name: name.value, kind: kind.value, rounds: Number(rounds.value), duration: Number(duration.value), game, ruleset, rated: rated.checked, bots: bots.checked, starts_in: Number(starts.value) };
    if (c.startsWith("d")) body.days = Number(c.slice(1)); else { const [m, i] = c.split("+"); body.minutes = Number(m); body.increment = Number(i); }
    try { const t = await api("POST", "/api/tournaments", body); location.href = "/t/" + t.id; } catch (x) { err.textContent = x.message; }
  });
  const section = (title, id, ts, none) => [h("h2", {}, title), ts.length ? h("ul", { class: "tournaments", id }, ts.map(line)) : h("p", { class: "muted" }, none)];
  app.replaceChildren(h("h1", {}, "Tournaments"),
    h("p", { class: "muted" }, "Round robins (everyone meets everyone, by Berger's tables) and Swiss events (players on equal points meet, never twice), with live clocks or days a move: the server pairs each round as the last one ends, and ties are broken by Sonneborn-Berger (round robins) or Buchholz (Swiss). Arenas last a fixed time on a live clock: you are paired again as soon as your game ends, 2 points a win, 1 a draw, double after two wins in a row (🔥)."),
    ...section("Starting soon", "open-tournaments", list.open, "None open: create one below."),
    ...section("Being played", "running-tournaments", list.running, "None now."),
    ...section("Finished", "finished-tournaments", list.over, "None yet."),
    err, form);
}

// tournamentPage shows a tournament, with Join and Withdraw.
export async function tournamentPage(app, id) {
  const draw = async () => {
    const t = await api("GET", "/api/tournaments/" + id);
    document.title = t.name + " — Muster";
    const err = h("p", { class: "error", role: "alert", id: "tournament-error" });
    const act = (label, path, bid) => h("button", { id: bid, class: label === "Join" ? "primary" : "", onclick: async () => {
      try { await api("POST", `/api/tournaments/${id}/${path}`, {}); await draw(); } catch (x) { err.textContent = x.message; }
    } }, label);
    const arena = t.kind === "arena";
    const buttons = t.status === "over" ? null : t.in ? act(arena && t.status === "running" ? "Pause" : "Withdraw", "withdraw", "t-withdraw") : t.status === "open" || arena ? act("Join", "join", "t-join") : null;
    const early = t.mine && t.status === "open" && t.players >= 2 ? act("Start now", "start", "t-start") : null;
    const left = Math.max(0, Math.round((t.ends - Date.now()) / 60000));
    const status = t.status === "open" ? startsText(t.starts) : t.status === "running" ? (arena ? (left > 0 ? `Under way: ends in ${left} minute${left === 1 ? "" : "s"}` : "Time is up: the last games are ending") : `Round ${t.round} of ${t.rounds}`) : "Finished";
    const tbNames = { "sonneborn-berger": "SB", "wins": "Wins", "direct-encounter": "DE", "buchholz": "Buchholz", "buchholz-cut1": "Bh-1" };
    const table = h("table", { class: "standings", id: "standings" },
      h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Points"), ...(t.status === "open" ? [] : arena ? [h("th", { title: "points game by game" }, "Scores")] : (t.tiebreaks || []).map((n) => h("th", { title: n }, tbNames[n] || n)))),
      ...t.standings.map((l) => h("tr", {}, h("td", {}, t.status === "open" ? "" : String(l.rank)), h("td", {}, h("a", { href: "/@/" + l.name }, l.name), l.withdrawn ? h("span", { class: "muted" }, " (withdrew)") : ""),
        h("td", {}, t.status === "open" ? "" : String(l.points), l.fire ? h("span", { class: "fire", title: "on a streak: the next win scores double" }, " 🔥") : ""),
        ...(arena && t.status !== "open" ? [h("td", { class: "scores" }, (l.scores || []).join(" "))] : (l.tiebreaks || []).map((x) => h("td", {}, String(x)))))));
    const rounds = t.round_games.map((r, i) => [h("h3", {}, arena ? `Pairing ${i + 1}` : `Round ${i + 1}`), h("ol", { class: "round", "data-round": i + 1 },
      r.map((b) => h("li", {}, b.black ? [b.white, " – ", b.black, " ", b.game ? h("a", { href: "/g/" + b.game }, b.result === "*" ? "playing" : b.result) : b.result] : [b.white, h("span", { class: "muted" }, " has the bye")])))]).reverse();
    // A round robin's crosstable: each player's result against each, in
    // the order of the standings.
    let cross = null;
    if (t.kind === "roundrobin" && t.status !== "open") {
      const names = t.standings.map((l) => l.name);
      const cell = {};
      for (const r of t.round_games) for (const b of r) {
        if (!b.black || b.result === "*") continue;
        const [w, k] = { "1-0": ["1", "0"], "0-1": ["0", "1"] }[b.result] || ["½", "½"];
        cell[b.white + "|" + b.black] = (cell[b.white + "|" + b.black] || "") + w;
        cell[b.black + "|" + b.white] = (cell[b.black + "|" + b.white] || "") + k;
      }
      cross = [h("h2", {}, "Crosstable"), h("table", { class: "standings crosstable", id: "crosstable" },
        h("tr", {}, h("th", {}, ""), ...names.map((_, i) => h("th", {}, String(i + 1)))),
        ...names.map((a, i) => h("tr", {}, h("th", {}, `${i + 1}. ${a}`), ...names.map((b) => h("td", {}, a === b ? "×" : cell[a + "|" + b] || "")))))];
    }
    app.replaceChildren(h("h1", {}, t.name),
      h("p", { class: "muted" }, `${cap(kindText(t))} · ${t.spec} · ${t.clock}${t.rated ? " · rated" : ""}${t.bots ? " · open to bots" : ""} · created by ${t.creator} · ${t.players} of at most ${t.max_players} players`),
      h("p", { id: "t-status" }, status, " ", buttons, " ", early), err,
      h("h2", {}, t.status === "open" ? "Players" : "Standings"), table, ...(cross || []), ...rounds.flat());
    return t;
  };
  const t = await draw();
  if (t.status !== "over") {
    const timer = setInterval(async () => { try { const n = await draw(); if (n.status === "over") clearInterval(timer); } catch { /* try again */ } }, 5000);
  }
}
