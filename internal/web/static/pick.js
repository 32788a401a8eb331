// pick.js turns clicks on squares into actions, from the legal action
// descriptors alone (each with its text, label and the squares it picks):
// one square plays an action on it, or selects a piece whose moves start
// there; a second square plays the move between them. It knows no rules.

// targets are the squares the selected piece may go to.
export function targets(legal, selected) {
  if (!selected) return [];
  return legal.filter((a) => a.squares && a.squares.length === 2 && a.squares[0] === selected).map((a) => a.squares[1]);
}

// pick says what a click on sq means with selected already chosen:
// {play: text}, {offer: [actions]} when several share the squares,
// {select: square or null}, or {miss: true} for a square nothing uses.
export function pick(legal, selected, sq) {
  if (selected) {
    const moves = legal.filter((a) => a.squares && a.squares.length === 2 && a.squares[0] === selected && a.squares[1] === sq);
    if (moves.length === 1 || alike(moves)) return { play: moves[0].text };
    if (moves.length > 1) return { offer: moves };
  }
  const here = legal.filter((a) => a.squares && a.squares.length === 1 && a.squares[0] === sq);
  if (here.length === 1 || alike(here)) return { play: here[0].text };
  if (here.length > 1) return { offer: here };
  if (legal.some((a) => a.squares && a.squares.length === 2 && a.squares[0] === sq)) return { select: selected === sq ? null : sq };
  return { miss: !selected, select: null };
}

// alike reports whether several actions all lead to the same position
// (their descriptors say so): choosing between them would mean nothing.
function alike(actions) {
  return actions.length > 1 && !!actions[0].after && actions.every((a) => a.after === actions[0].after);
}

// buttons are the actions that pick no square (end the turn, decline).
export function buttons(legal) { return legal.filter((a) => !a.squares || !a.squares.length); }
