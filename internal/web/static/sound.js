// Sounds of the game page: short tones made with Web Audio (no files to
// load). The switch is kept in localStorage "muster-sound" ("off" or on).

let ctx = null;

// tones are the notes of each sound: [frequency Hz, start s, length s].
const tones = {
  move: [[520, 0, 0.06]],
  capture: [[330, 0, 0.08], [220, 0.07, 0.12]],
  turn: [[660, 0, 0.07], [880, 0.08, 0.09]],
  low: [[990, 0, 0.08], [990, 0.15, 0.08], [990, 0.3, 0.08]],
};

export const sound = {
  on: localStorage.getItem("muster-sound") !== "off",
  set(on) {
    this.on = on;
    localStorage.setItem("muster-sound", on ? "on" : "off");
  },
  // play plays a sound by name, if sounds are on and the browser allows.
  play(name) {
    if (!this.on || !tones[name]) return;
    try {
      ctx = ctx || new AudioContext();
      const now = ctx.currentTime;
      for (const [f, at, len] of tones[name]) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.frequency.value = f;
        gain.gain.setValueAtTime(0.0001, now + at);
        gain.gain.exponentialRampToValueAtTime(0.15, now + at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
        osc.connect(gain).connect(ctx.destination);
        osc.start(now + at);
        osc.stop(now + at + len + 0.02);
      }
    } catch { /* no audio here */ }
  },
};
