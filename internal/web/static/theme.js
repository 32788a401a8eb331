// theme.js sets the page's light or dark look and the board's theme
// before the page is drawn (a classic script in the head, so no flash):
// the visitor's choice is kept in localStorage; without one the system's
// preference decides, and is followed when it changes. The stylesheet
// reads only data-theme.
(function () {
  const root = document.documentElement;
  const system = matchMedia("(prefers-color-scheme: dark)");
  const apply = () => {
    const chosen = localStorage.getItem("muster-theme");
    root.dataset.theme = chosen === "light" || chosen === "dark" ? chosen : system.matches ? "dark" : "light";
  };
  apply();
  system.addEventListener("change", apply);
  // settings.js asks again when the choice changes.
  root.addEventListener("muster-theme", apply);
  const board = localStorage.getItem("muster-board");
  if (board) root.dataset.board = board;
})();
