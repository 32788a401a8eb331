// clock.js says a clock's time in words: minutes and seconds, hours and
// minutes, or days and hours by correspondence. Pure, tested under node.

// clockText writes ms left as 4:05, 2h 07m or 3d 4h.
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

// lowMs is when a clock turns low: a tenth of the base time, at most 20 s.
export function lowMs(baseMs) { return Math.min(20000, baseMs / 10); }

// leftMs is what a seat has left now, its clock running since the view
// came gone ms ago.
export function leftMs(clock, seat, playing, gone) {
  return clock.left_ms[seat] - (clock.running === seat && playing ? gone : 0);
}
