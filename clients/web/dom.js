// @ts-check
// Small helpers: HTML that escapes by construction, remembered settings, HTML updates
// that keep focus.

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeText(value) {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * A piece of HTML built by `html` (or drawn by the page itself from constants). It is
 * not a string: concatenating it with `+` or a plain template throws, so a server
 * value can only reach the page through `html`, which escapes it.
 */
export class Html {
  constructor(text) {
    this.text = text;
    Object.freeze(this);
  }

  toString() {
    throw new TypeError("Html is not a string: interpolate it with html``");
  }
}

/** HTML the page draws from its own constants (SVG card faces, the rules page). */
export function trusted(text) {
  return new Html(text);
}

function fragment(value) {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(fragment).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeText(value);
}

/**
 * The HTML template tag: every interpolated value is escaped unless it is itself
 * `Html`; arrays are joined; null, undefined and false are left out. Attribute
 * values must be quoted in the template (the escape covers both quotes).
 *   html`<b title="${name}">${name}</b>`
 */
export function html(strings, ...values) {
  let out = strings[0];
  for (let i = 0; i < values.length; i += 1) out += fragment(values[i]) + strings[i + 1];
  return new Html(out);
}

/** A translated sentence with Html pieces in it: fill("… {time} …", {time: html`…`}). */
export function fill(template, parts) {
  const pieces = String(template).split(/\{(\w+)\}/);
  return new Html(pieces.map((p, i) => (i % 2 ? fragment(parts[p] ?? "") : escapeText(p))).join(""));
}

/** localStorage with a prefix, quiet when storage is unavailable. */
export const saved = {
  get(key, fallback = null) {
    try {
      const raw = window.localStorage.getItem(`cardavia.${key}`);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      if (value === null || value === undefined) window.localStorage.removeItem(`cardavia.${key}`);
      else window.localStorage.setItem(`cardavia.${key}`, JSON.stringify(value));
    } catch {
      /* private mode: settings are not remembered */
    }
  },
};

/** The same for this tab only (sessionStorage). */
export const tabSaved = {
  get(key, fallback = null) {
    try {
      const raw = window.sessionStorage.getItem(`cardavia.${key}`);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      if (value === null || value === undefined) window.sessionStorage.removeItem(`cardavia.${key}`);
      else window.sessionStorage.setItem(`cardavia.${key}`, JSON.stringify(value));
    } catch {
      /* ignore */
    }
  },
};

/**
 * Replace an element's HTML only when it changed; keep the keyboard focus on the
 * element with the same `data-key` (or `id`) if there was one.
 */
export function setHTML(el, content) {
  if (!(content instanceof Html)) throw new TypeError("setHTML takes Html built by html``");
  const markup = content.text;
  if (!el || el._html === markup) return false;
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  let key = null;
  if (active && el.contains(active)) key = active.dataset.key || (active.id ? `#${active.id}` : null);
  el.innerHTML = markup;
  el._html = markup;
  if (key) {
    const again = key.startsWith("#")
      ? el.querySelector(key)
      : el.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  return true;
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A number as a score: 45, 52.5, −58 (with a true minus sign), +174 with `signed`. */
export function fmt(n, signed = false) {
  if (n === null || n === undefined) return "–";
  const abs = Math.abs(n);
  const text = Number.isInteger(abs) ? String(abs) : abs.toFixed(1);
  if (n < 0) return `−${text}`;
  return signed && n > 0 ? `+${text}` : text;
}
