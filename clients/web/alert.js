// @ts-check
// The turn alert: a short sound and, while the tab is hidden, a flashing title, so a
// player who looked away knows the table waits for them. Off with a setting.

import { t } from "./i18n.js";
import { app } from "./state.js";

let flashing = null;
let audio = null;

function beep() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch {
    /* no audio here: the title flash still tells */
  }
}

function stopFlash() {
  if (flashing === null) return;
  clearInterval(flashing.timer);
  document.title = flashing.title;
  flashing = null;
}

/** It is this player's turn. */
export function turnAlert() {
  if (!app.settings.sound) return;
  beep();
  if (document.visibilityState !== "hidden" || flashing !== null) return;
  const title = document.title;
  let on = false;
  flashing = {
    title,
    timer: setInterval(() => {
      on = !on;
      document.title = on ? `● ${t("turn.alert")}` : title;
    }, 900),
  };
  document.title = `● ${t("turn.alert")}`;
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") stopFlash();
});
