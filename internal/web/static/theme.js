// theme.js sets the page's light or dark look and the board's theme
// before the page is drawn (a classic script in the head, so no flash):
// the visitor's choice is kept in localStorage; without one the system's
// preference decides.
(function () {
  const root = document.documentElement;
  const theme = localStorage.getItem("muster-theme");
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  const board = localStorage.getItem("muster-board");
  if (board) root.dataset.board = board;
})();
