// app.js is the web app's entry: it puts the settings and the browser's
// identity in the header and sends each address to the page that shows
// it: the home page and the rules (home.js), a game (game.js), a game's
// walkthrough (lesson.js), the analysis board, the puzzles, the
// tournaments and the players' pages. The pages know no game: everything
// game-specific comes from the server as the game's own description.
// Every text from the server is set as text, never as HTML.

import { h } from "./dom.js";
import { home, rules } from "./home.js";
import { GameView } from "./game.js";
import { learn } from "./lesson.js";
import { analysis } from "./analysis.js";
import { identityBar, accountPage, playerPage, leaderboardPage, reportsPage } from "./account.js";
import { tournamentsPage, tournamentPage } from "./tournaments.js";
import { settingsMenu } from "./settings.js";
import { puzzlesPage } from "./puzzles.js";

const app = document.getElementById("app");

// bar redraws the header's corner with what the server says of the
// browser (the lobby's live view carries it).
let bar = null;

// routes are the pages by address: a prefix (ending in "/") or an exact
// path, and what draws the page from the rest of the path.
const routes = [
  ["/g/", (rest) => new GameView(app, rest).start()],
  ["/account", () => accountPage(app)],
  ["/@/", (rest) => playerPage(app, decodeURIComponent(rest))],
  ["/leaderboard", () => leaderboardPage(app)],
  ["/reports", () => reportsPage(app)],
  ["/tournaments", () => tournamentsPage(app)],
  ["/t/", (rest) => tournamentPage(app, rest)],
  ["/rules/", (rest) => rules(app, rest)],
  ["/learn/", (rest) => learn(app, ...rest.split("/"))],
  ["/analysis", (rest) => analysis(app, rest)],
  ["/analysis/", (rest) => analysis(app, "/" + rest)],
  ["/puzzles", () => puzzlesPage(app)],
];

// page finds the route of a path: its page and the rest of the path.
export function page(path) {
  for (const [at, draw] of routes) {
    if (at.endsWith("/") ? path.startsWith(at) : path === at) return () => draw(path.slice(at.length));
  }
  return () => home(app, (me) => bar && bar(me));
}

async function route() {
  document.querySelector("header").append(settingsMenu());
  identityBar().then((draw) => { bar = draw; }).catch(() => {});
  try {
    await page(location.pathname)();
  } catch (e) {
    app.replaceChildren(h("p", { class: "error" }, e.message));
  }
}

route();
