// api.js talks to the server's JSON API and keeps the seats this browser
// holds.

export async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) {
    const err = new Error(data.error || `HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

// IDENTITY stands for a seat's secret where the seat is held by the
// browser's session (its account or anonymous identity), not a secret.
export const IDENTITY = "@session";

// Seats held in this browser: localStorage "muster:<id>" = {seats: {seat: secret}}.
export function held(id) {
  try { return JSON.parse(localStorage.getItem("muster:" + id)) || { seats: {} }; } catch { return { seats: {} }; }
}

export function hold(id, seat, secret) {
  const h0 = held(id);
  h0.seats[seat] = secret;
  localStorage.setItem("muster:" + id, JSON.stringify(h0));
}

// playComputer starts a game against the computer (game a name or a spec;
// position, ruleset and side optional), holds this browser's seat and
// opens the game.
export async function playComputer(req) {
  const res = await api("POST", "/api/games", { opponent: "ai", side: "random", ...req });
  hold(res.id, res.seat, res.secret);
  location.href = "/g/" + res.id;
}
