// Small helpers: escaping, remembered settings, HTML updates that keep focus.

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escape text for HTML. */
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]);
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
export function setHTML(el, html) {
  if (!el || el._html === html) return false;
  const active = document.activeElement;
  let key = null;
  if (active && el.contains(active)) key = active.dataset.key || (active.id ? `#${active.id}` : null);
  el.innerHTML = html;
  el._html = html;
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
