// @ts-check
// Cards as the page draws them: a card as a picture or as a button of my hand, a row
// of small cards, and the clock of an element's entrance animation.

import { cardName, cardSVG, isCard, isTrump } from "./cards.js";
import { html } from "./dom.js";

/** A card as a button (in my hand) or a picture. */
export function cardHTML(code, ctx, opts = {}) {
  const name = cardName(code, ctx.lang, ctx.face);
  const cls = ["card", opts.cls || ""].join(" ").trim();
  const suit = !isCard(code) ? "unknown" : code === "EX" ? "ex" : isTrump(code) ? "trump" : code.slice(-1);
  const face = cardSVG(code, ctx.face, ctx.lang);
  if (opts.button) {
    const label = opts.label ? `${name}, ${opts.label}` : name;
    const disabled = opts.disabled ? html` aria-disabled="true"` : "";
    const pressed = opts.pressed !== undefined ? html` aria-pressed="${opts.pressed}"` : "";
    const title = opts.title ? html` title="${opts.title}"` : "";
    return html`<button type="button" class="${cls}" data-card="${code}" data-key="card-${code}" data-suit="${suit}" aria-label="${label}"${disabled}${pressed} tabindex="${opts.tabindex ?? -1}"${title}>${face}${opts.badge || ""}</button>`;
  }
  return html`<span class="${cls}" role="img" aria-label="${name}" data-card="${code}" data-suit="${suit}">${face}</span>`;
}

export function miniCards(codes, ctx, empty = "") {
  if (!codes || !codes.length) return empty ? html`<span class="muted">${empty}</span>` : "";
  return html`<span class="minis">${codes.map((c) => cardHTML(c, ctx, { cls: "mini" }))}</span>`;
}

/** True while an element first shown now should still play its entrance animation.
 * Keys name the deal by number and dealer: a deal dealt again after a cancelled one
 * has its number, and its bids must animate even when a snapshot brought it. */
export function isFresh(ctx, key) {
  const now = performance.now();
  const first = ctx.seen.get(key);
  if (first === undefined) {
    ctx.seen.set(key, now);
    return true;
  }
  return now - first < 450;
}

