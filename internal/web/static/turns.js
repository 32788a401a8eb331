// turns.js reads the turns of a game's view (each with its player, its
// first ply, its actions' squares and paths, its events): what a board
// shows as the turn just played. Pure functions, tested under node.

// withPaths are a turn's actions' squares, each move's full path where it
// turned a corner.
export function withPaths(t) {
  return (t.squares || []).map((sq, i) => (t.paths && t.paths[i]) || sq);
}

// othersMoves are the [from, to] of the actions after ply played from
// another seat than mine (the one seat this browser holds, or -1), to be
// shown moving.
export function othersMoves(turns, ply, mine) {
  const out = [];
  for (const t of turns || []) {
    if (t.player === mine) continue;
    (t.squares || []).forEach((sq, i) => { if (t.first + i >= ply && sq && sq.length === 2) out.push(sq); });
  }
  return out;
}

// sinceMine is what the others did since my last turn (an interchange
// demanded and the turn after it, say), as one turn to show; null if I
// hold no single seat (mine < 0) or played last.
export function sinceMine(turns, mine) {
  turns = turns || [];
  if (mine < 0 || !turns.length || turns.at(-1).player === mine) return null;
  let i = turns.length;
  while (i > 0 && turns[i - 1].player !== mine) i--;
  const others = turns.slice(i);
  return { squares: others.flatMap(withPaths), events: others.flatMap((t) => t.events || []) };
}

// turnAt is the turn that holds the action before ply (the turn shown at
// ply), cut at ply, or null at the start. A turn cut short shows only
// the events of the actions shown: none.
export function turnAt(turns, ply) {
  for (const t of turns || []) {
    const n = ply - t.first;
    if (n > 0 && n <= t.actions.length) {
      const cut = { ...t, squares: withPaths(t).slice(0, n) };
      if (n < t.actions.length) cut.events = null;
      return cut;
    }
  }
  return null;
}

// whereAt says where ply lies for people: "the start", "turn 3", or
// "turn 3, action 2 of 4" in a turn of several actions.
export function whereAt(turns, ply) {
  turns = turns || [];
  let at = turns.length;
  while (at > 0 && turns[at - 1].first >= ply) at--;
  if (at === 0) return "the start";
  const t = turns[at - 1];
  return `turn ${t.number}` + (t.actions.length > 1 ? `, action ${ply - t.first} of ${t.actions.length}` : "");
}
