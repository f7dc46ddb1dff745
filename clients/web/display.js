// @ts-check
// The look: Contrast, Grain and Color temperature (0-100 %, 50 % neutral), applied as
// CSS filters on the page (contrast, an SVG colour matrix for the temperature) and a
// canvas-drawn grain overlay. Remembered in localStorage.

import { saved } from "./dom.js";

export const DEFAULTS = { contrast: 50, grain: 50, temperature: 50 };

export function loadDisplay() {
  const stored = saved.get("display", {});
  const out = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS)) {
    const v = Number(stored?.[key]);
    if (Number.isFinite(v) && v >= 0 && v <= 100) out[key] = v;
  }
  return out;
}

let grainTile = null;

/** A tile of monochrome noise, drawn once on a canvas. */
function grainImage() {
  if (grainTile) return grainTile;
  const size = 160;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  const ctx = canvas.getContext("2d");
  const img = ctx.createImageData(size, size);
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  // Light and dark specks, blended normally (a blend mode would cost a full-page
  // composite on every animation frame).
  for (let i = 0; i < img.data.length; i += 4) {
    const light = rand() < 0.5;
    const v = light ? 255 : 0;
    img.data[i] = img.data[i + 1] = img.data[i + 2] = v;
    img.data[i + 3] = Math.floor(rand() * (light ? 70 : 90));
  }
  ctx.putImageData(img, 0, 0);
  grainTile = canvas.toDataURL("image/png");
  return grainTile;
}

/** The colour matrix of a temperature: -1 (cool, blue) .. 0 (neutral) .. +1 (warm, amber). */
export function temperatureMatrix(t) {
  const r = 1 + 0.16 * t;
  const g = 1 + 0.03 * t;
  const b = 1 - 0.2 * t;
  return `${r} 0 0 0 0  0 ${g} 0 0 0  0 0 ${b} 0 0  0 0 0 1 0`;
}

/** Apply the settings to the page. */
export function applyDisplay(settings, doc = document) {
  const root = doc.documentElement;
  const contrast = 0.6 + (settings.contrast / 100) * 0.8; // 0.6 .. 1.0 (at 50 %) .. 1.4
  const grain = (settings.grain / 100) * 0.5; // 0 .. 0.25 (at 50 %) .. 0.5
  const temp = (settings.temperature - 50) / 50; // -1 .. 1
  root.style.setProperty("--contrast", contrast.toFixed(3));
  root.style.setProperty("--grain-opacity", grain.toFixed(3));
  const matrix = doc.getElementById("temperature-matrix");
  if (matrix) matrix.setAttribute("values", temperatureMatrix(temp));
  const page = doc.getElementById("app");
  if (page) {
    const filters = [];
    if (Math.abs(contrast - 1) > 0.001) filters.push(`contrast(${contrast.toFixed(3)})`);
    if (Math.abs(temp) > 0.001) filters.push("url(#temperature)");
    page.style.filter = filters.join(" ") || "none";
  }
  const grainEl = doc.getElementById("grain");
  if (grainEl) {
    if (!grainEl.style.backgroundImage) grainEl.style.backgroundImage = `url(${grainImage()})`;
    grainEl.style.opacity = grain.toFixed(3);
  }
  for (const key of Object.keys(DEFAULTS)) {
    const input = /** @type {HTMLInputElement | null} */ (doc.getElementById(`slider-${key}`));
    if (input && Number(input.value) !== settings[key]) input.value = String(settings[key]);
    const out = doc.getElementById(`value-${key}`);
    if (out) out.textContent = `${settings[key]}%`;
  }
}

export function saveDisplay(settings) {
  saved.set("display", settings);
}
