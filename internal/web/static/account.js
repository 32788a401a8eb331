// account.js is who the browser is: the header's corner (sign in, or the
// account's name, and "your turn in N games" on every page), the page to
// register or sign in, a player's page and the leaderboards. Playing needs
// no account: the server keeps an anonymous identity for the browser, and
// an account made later keeps its games.

import { h, cap } from "./dom.js";
import { api } from "./api.js";

// ratingText shows a rating, with "?" while it is provisional.
export function ratingText(r, provisional) {
  return Math.round(r) + (provisional ? "?" : "");
}

// clockText describes a time control.
export function clockText(c) {
  if (c.days) return `${c.days} day${c.days > 1 ? "s" : ""} a move`;
  if (c.minutes) return `${c.minutes}+${c.increment || 0}`;
  return "no clock";
}

// identityBar fills the header's corner and keeps "your turn" current.
export async function identityBar() {
  const header = document.querySelector("header");
  let bar = document.getElementById("identity");
  if (!bar) {
    bar = h("nav", { id: "identity", "aria-label": "account" });
    header.appendChild(bar);
  }
  const draw = (me) => {
    const turn = me.your_turn > 0
      ? h("a", { id: "your-turn", class: "your-turn", href: me.username ? "/@/" + me.username : "/#your-games" }, "Your turn",
        h("span", { class: "long" }, `\u00a0in ${me.your_turn} game${me.your_turn > 1 ? "s" : ""}`), h("span", { class: "short", "aria-hidden": "true" }, `\u00a0(${me.your_turn})`))
      : null;
    const who = me.username
      ? h("a", { id: "me", href: "/@/" + me.username }, me.username)
      : h("a", { id: "sign-in", href: "/account" }, "Sign in");
    // Signed in, signing out is one click away on every page.
    const out = me.username
      ? h("button", { id: "sign-out", class: "link", onclick: async () => {
          try { await api("POST", "/api/account/logout", {}); location.href = "/"; } catch (e) { alert(e.message); }
        } }, "Sign out")
      : null;
    bar.replaceChildren(...[h("a", { href: "/tournaments", class: "wide-only", id: "tournaments-link" }, "Tournaments"), h("a", { href: "/leaderboard", class: "wide-only" }, "Leaderboard"), turn, who, out].filter(Boolean));
    const before = parseInt(bar.dataset.turn || "0", 10);
    bar.dataset.turn = String(me.your_turn);
    if (me.your_turn > before && before >= 0 && bar.dataset.ready && document.hidden) notify(`Muster: your turn in ${me.your_turn} game${me.your_turn > 1 ? "s" : ""}`);
    bar.dataset.ready = "1";
  };
  const refresh = async () => { try { draw(await api("GET", "/api/me")); } catch { /* offline: keep the last */ } };
  await refresh();
  setInterval(refresh, 30000);
  // A page that sees a game's turn pass or its end says so: "your turn"
  // follows at once, not at the next half minute.
  let soon = null;
  document.addEventListener("muster:turns", () => { clearTimeout(soon); soon = setTimeout(refresh, 200); });
  return draw;
}

// notify shows a browser notification, if the player turned them on.
export function notify(text) {
  if (typeof Notification !== "undefined" && Notification.permission === "granted" && localStorage.getItem("muster-notify") === "1") {
    new Notification(text);
  }
}

// notifyToggle is a button that asks the browser for notifications.
export function notifyToggle() {
  if (typeof Notification === "undefined") return null;
  const on = () => Notification.permission === "granted" && localStorage.getItem("muster-notify") === "1";
  const b = h("button", { id: "notify" });
  const label = () => { b.textContent = on() ? "Notifications on (turn off)" : "Notify me when it is my turn"; };
  b.addEventListener("click", async () => {
    if (on()) localStorage.setItem("muster-notify", "0");
    else if ((await Notification.requestPermission()) === "granted") localStorage.setItem("muster-notify", "1");
    label();
  });
  label();
  return b;
}

// accountPage lets the browser register or sign in, or sign out.
export async function accountPage(app) {
  document.title = "Account — Muster";
  const me = await api("GET", "/api/me");
  if (me.username) {
    app.replaceChildren(h("h1", {}, "Signed in as " + me.username, me.bot ? botBadge() : null),
      me.banned ? h("p", { class: "error", id: "banned" }, "This account is banned: it can no longer challenge, accept, start games with others or chat.")
        : me.muted ? h("p", { class: "error", id: "muted" }, "This account is muted: its chat messages are not accepted.") : null,
      h("p", {}, h("a", { class: "button", href: "/@/" + me.username }, "Your page"),
        me.admin ? h("a", { class: "button", id: "reports-link", href: "/reports" }, "Reports") : null),
      h("button", { id: "logout", onclick: async () => { await api("POST", "/api/account/logout", {}); location.href = "/"; } }, "Sign out"),
      await botSection(me));
    return;
  }
  const err = h("p", { class: "error", id: "account-error", role: "alert" });
  const form = (id, title, path, note) => {
    const user = h("input", { id: id + "-username", name: "username", autocomplete: "username", required: true, minlength: 2, maxlength: 20, pattern: "[A-Za-z0-9_\\-]+" });
    const pass = h("input", { id: id + "-password", name: "password", type: "password", required: true, minlength: 8, maxlength: 256, autocomplete: id === "register" ? "new-password" : "current-password" });
    const f = h("form", { id, class: "account-form" },
      h("h2", {}, title), note ? h("p", { class: "muted" }, note) : null,
      h("label", {}, "Username ", user), h("label", {}, "Password ", pass),
      h("button", { class: "primary", type: "submit" }, title));
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      err.textContent = "";
      try {
        const res = await api("POST", path, { username: user.value, password: pass.value });
        location.href = "/@/" + res.username;
      } catch (x) {
        // A refused password is not kept: the next try starts empty.
        err.textContent = x.message;
        pass.value = "";
        pass.focus();
      }
    });
    return f;
  };
  app.replaceChildren(h("h1", {}, "Your account"),
    h("p", {}, "You can play without an account: this browser keeps your games. An account keeps them everywhere, gives you a rating and a page, and lets others challenge you by name. No e-mail is asked for."),
    err,
    h("div", { class: "account-forms" },
      form("login", "Sign in", "/api/account/login"),
      form("register", "Register", "/api/account/register", "The games you played in this browser become your account's. Usernames: 2 to 20 letters, digits, - or _; passwords: at least 8 characters.")));
}

// botBadge marks an account a program plays.
export function botBadge() {
  return h("span", { class: "bot-badge", title: "A program plays this account" }, "BOT");
}

// botSection lets an account become a bot, and a bot's owner make and
// revoke its tokens (each shown once).
async function botSection(me) {
  const box = h("section", { id: "bot", class: "bot-section" });
  const err = h("p", { class: "error", role: "alert" });
  const fail = (x) => { err.textContent = x.message; };
  if (!me.bot) {
    box.replaceChildren(h("h2", {}, "A program's account"),
      h("p", { class: "muted" }, "Make this account a bot to play it with a program (an engine of your own, Muster's, or OpenTafl's through muster bot). A bot is marked as one everywhere, plays only those who challenge it by name, and must be a new account: one that has played no game. This cannot be undone."),
      err,
      h("button", { id: "become-bot", onclick: async () => {
        if (!confirm("Make " + me.username + " a bot, for good?")) return;
        try { await api("POST", "/api/account/bot", {}); location.reload(); } catch (x) { fail(x); }
      } }, "Make this account a bot"));
    return box;
  }
  const list = h("ul", { id: "tokens", class: "tokens" });
  const shown = h("p", { id: "new-token", class: "new-token" });
  const draw = async () => {
    const ts = await api("GET", "/api/account/tokens");
    list.replaceChildren(...(ts.length ? ts.map((t) => h("li", { "data-token": t.id },
      `Made ${new Date(t.created).toLocaleString()} · ${t.used ? "last used " + new Date(t.used).toLocaleDateString() : "never used"} `,
      h("button", { class: "revoke", onclick: async () => {
        try { await api("DELETE", "/api/account/tokens/" + t.id, {}); await draw(); } catch (x) { fail(x); }
      } }, "Revoke"))) : [h("li", { class: "muted" }, "No token yet.")]));
  };
  await draw();
  box.replaceChildren(h("h2", {}, "Bot tokens"),
    h("p", { class: "muted" }, "A program signs in as this bot with a token: it sends Authorization: Bearer TOKEN with every request (see the bot API in the docs, or run muster bot --url URL --token TOKEN). A token is shown once, when it is made; revoke it here and it stops working at once. At most 5."),
    err, shown, list,
    h("button", { id: "make-token", class: "primary", onclick: async () => {
      try {
        const t = await api("POST", "/api/account/tokens", {});
        shown.replaceChildren("New token (copy it now: it is not shown again): ", h("code", { id: "token-text" }, t.token));
        await draw();
      } catch (x) { fail(x); }
    } }, "New token"));
  return box;
}

// reportsPage lists the open reports for an administrator, each closed
// by dismissing it or by muting or banning the player.
export async function reportsPage(app) {
  document.title = "Reports — Muster";
  const list = h("ol", { class: "reports", id: "reports" });
  const err = h("p", { class: "error", role: "alert" });
  const draw = async () => {
    const rs = await api("GET", "/api/reports");
    const act = (r, resolution) => h("button", { class: "resolve", "data-resolution": resolution, onclick: async () => {
      try { await api("POST", `/api/reports/${r.id}/close`, { resolution }); await draw(); } catch (x) { err.textContent = x.message; }
    } }, { dismissed: "Dismiss", muted: "Mute", banned: "Ban" }[resolution]);
    list.replaceChildren(...(rs.length ? rs.map((r) => h("li", { "data-report": r.id },
      h("p", {}, h("a", { href: "/@/" + r.target }, r.target), r.banned ? " (banned)" : r.muted ? " (muted)" : "",
        h("span", { class: "muted" }, ` reported by ${r.reporter}, ${new Date(r.created).toLocaleString()}`)),
      r.quoted ? h("blockquote", {}, r.quoted, " ", h("a", { href: "/g/" + r.game }, "(the game)")) : null,
      h("p", {}, "Why: ", r.reason),
      h("p", {}, act(r, "dismissed"), act(r, "muted"), act(r, "banned"))))
      : [h("li", { class: "muted" }, "No open report.")]));
  };
  try { await draw(); } catch (x) { app.replaceChildren(h("h1", {}, "Reports"), h("p", { class: "error" }, x.message)); return; }
  app.replaceChildren(h("h1", {}, "Reports"),
    h("p", { class: "muted" }, "Reports of players and chat messages, the oldest first. Muting refuses the player's chat messages; banning stops him challenging, accepting, starting games with others and chatting (his games in play go on). muster admin makes administrators."),
    err, list);
}

// gameLine is a row of a list of games.
export function gameLine(g) {
  const vs = g.players.map((p, i) => `${p} (${g.sides[i] || i})`).join(" vs ");
  let state;
  if (g.status === "playing") state = g.your_turn ? "your turn" : "in play";
  else state = { win: g.winner >= 0 && cap(g.sides[g.winner] || "") + " won", draw: "draw", aborted: "aborted", scored: g.result }[g.ending] || "over";
  const bits = [h("a", { href: "/g/" + g.id }, g.spec), " ", vs, " — ", h("span", { class: g.your_turn ? "your-turn" : "" }, state)];
  if (g.rated) bits.push(" · rated");
  if (g.change) bits.push(h("span", { class: g.change > 0 ? "gain" : "loss" }, ` ${g.change > 0 ? "+" : ""}${Math.round(g.change)}`));
  if (g.deadline) bits.push(h("span", { class: "muted" }, " · move by " + new Date(g.deadline).toLocaleString()));
  return h("li", { "data-game": g.id }, ...bits);
}

// playerPage shows an account: ratings, games, and a challenge button.
export async function playerPage(app, name) {
  const p = await api("GET", "/api/players/" + encodeURIComponent(name));
  document.title = p.username + " — Muster";
  const cat = await api("GET", "/api/games");
  const ratings = h("table", { class: "ratings" }, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Rating"), h("th", {}, "Rated games")),
    ...cat.games.map((g) => {
      const r = p.ratings[g.name];
      return h("tr", { "data-game": g.name }, h("td", {}, cap(g.name)),
        h("td", { class: "rating" }, r ? ratingText(r.rating, r.provisional) : "1500?"), h("td", {}, r ? String(r.games) : "0"));
    }),
    // The puzzle rating: each puzzle's first try a game against its rating.
    p.ratings.puzzles ? h("tr", { "data-game": "puzzles" }, h("td", {}, h("a", { href: "/puzzles" }, "Puzzles")),
      h("td", { class: "rating" }, ratingText(p.ratings.puzzles.rating, p.ratings.puzzles.provisional)), h("td", {}, `${p.ratings.puzzles.games} tried`)) : null);
  const challenge = p.me ? notifyToggle() : h("a", { class: "button primary", id: "challenge-player", href: "/?opponent=" + encodeURIComponent(p.username) + "#new-game" }, "Challenge " + p.username);
  const reportNote = h("span", { class: "muted", id: "report-note", role: "status" });
  const report = p.me ? null : h("button", { id: "report-player", onclick: async () => {
    const reason = prompt(`Report ${p.username} to the moderators. Why?`);
    if (!reason) return;
    try { await api("POST", "/api/reports", { username: p.username, reason }); reportNote.textContent = " Reported: the moderators will look at it."; }
    catch (x) { reportNote.textContent = " " + x.message; }
  } }, "Report");
  app.replaceChildren(
    h("h1", {}, p.username, p.bot ? botBadge() : null),
    h("p", { class: "muted" }, (p.bot ? "A bot: a program plays this account. " : "") + "Joined " + new Date(p.joined).toLocaleDateString() + (p.me ? " · this is you" : "")),
    h("p", {}, challenge, report, reportNote),
    h("h2", {}, "Ratings"), ratings,
    h("p", { class: "muted" }, "Glicko-2; a ? marks a provisional rating: about 10 rated games against established players settle it (deviation 110 or less), up to 22 against newcomers."),
    h("h2", {}, `Playing now (${p.playing.length})`),
    p.playing.length ? h("ul", { class: "games", id: "playing" }, p.playing.map(gameLine)) : h("p", { class: "muted" }, "No game in play."),
    h("h2", {}, "Finished games"),
    p.finished.length ? h("ul", { class: "games", id: "finished" }, p.finished.map(gameLine)) : h("p", { class: "muted" }, "No finished game yet."));
}

// leaderboardPage lists each game's best established ratings.
export async function leaderboardPage(app) {
  document.title = "Leaderboard — Muster";
  const cat = await api("GET", "/api/games");
  const sections = await Promise.all(cat.games.map(async (g) => {
    const rows = await api("GET", "/api/leaderboard/" + g.name);
    return [h("h2", {}, cap(g.name)), rows.length
      ? h("ol", { class: "leaders" }, rows.map((r) => h("li", {}, h("a", { href: "/@/" + r.username }, r.username), " ", ratingText(r.rating, false), h("span", { class: "muted" }, ` (${r.games} games)`))))
      : h("p", { class: "muted" }, "Nobody yet: a rating joins the board once it is established, after about 10 rated games against established players (up to 22 against newcomers).")];
  }));
  app.replaceChildren(h("h1", {}, "Leaderboard"), ...sections.flat());
}
