// @ts-check
// The table: four seats around the felt, the trick in the middle, my hand, what I
// may do now (from `your_turn.legal` only), and the public information beside it.
// Each part has its module: seats.js, prompt.js (prompt and hand), info.js.

import { cardHTML, isFresh } from "./cardview.js";
import { html } from "./dom.js";
import { position } from "./game.js";
import { t } from "./i18n.js";
import { infoHTML } from "./info.js";
import { handHTML, promptHTML } from "./prompt.js";
import { seatHTML, seatName, toActText } from "./seats.js";

function trickHTML(table, ctx) {
  const d = table.deal;
  const trick = d.trick;
  if (!trick) return "";
  const cards = trick.cards.map((code, i) => {
    const seat = (trick.leader + i) % 4;
    const pos = position(seat, table.seat);
    const win = trick.winner === seat;
    const fresh = isFresh(ctx, `t-${d.number}-${d.dealer}-${seat}-${code}`);
    const label = win ? html`<span class="win-label">${t("trick.wins", { name: seatName(table, seat) })}</span>` : "";
    const lead = i === 0 && !win ? html`<span class="lead-label" data-field="led">${t("trick.led")}</span>` : "";
    return html`<div class="slot pos-${pos}${win ? " winner" : ""}${i === 0 ? " led" : ""}${fresh ? " enter" : ""}" data-seat="${seat}">${cardHTML(code, ctx, { cls: "played" })}${label}${lead}</div>`;
  });
  const leaving = trick.leaving ? ` leaving to-${position(trick.winner, table.seat)}` : "";
  return html`<div class="trick${leaving}" aria-label="${t("trick.label")} · ${t("trick.ledBy", { name: seatName(table, trick.leader) })}">${cards}</div>`;
}


function centreHTML(table, ctx) {
  const d = table.deal;
  if (table.summary.status === "waiting" && !d) {
    return html`<div class="centre-msg big waiting-msg">${t("wait.title")}<br><small>${t("wait.text")}</small></div>`;
  }
  if (!d) return html`<div class="centre-msg">${t("table.starting")}</div>`;
  if (d.cancelled) {
    return html`<div class="centre-msg big">${t(`cancel.${d.cancelled}`)}<br><small>${t("cancel.redeal")}</small></div>`;
  }
  if (d.phase === "play" || d.trick) {
    const msg = !d.trick && d.toAct !== null ? html`<div class="centre-msg">${toActText(table, d)}</div>` : "";
    return html`${trickHTML(table, ctx)}${msg}${announceHTML(ctx)}`;
  }
  if (d.chien && !d.discarded) {
    return html`<div class="chien-show"><div class="centre-title">${t("info.chien")}</div><div class="chien-cards">${d.chien.map((c) => cardHTML(c, ctx, { cls: "played" }))}</div></div>`;
  }
  return html`<div class="centre-msg">${toActText(table, d)}</div>${announceHTML(ctx)}`;
}

function announceHTML(ctx) {
  if (!ctx.announce) return "";
  return html`<div class="announce" data-key="${ctx.announce.key}">${ctx.announce.text}</div>`;
}

/** The parts of the table view, each rendered into its own container. */
export function tableParts(table, ctx) {
  const d = table.deal;
  const seats = html`${[0, 1, 2, 3].map((s) => seatHTML(table, s, ctx))}`;
  return {
    seats,
    centre: centreHTML(table, ctx),
    prompt: promptHTML(table, ctx),
    hand: handHTML(table, ctx),
    info: infoHTML(table, ctx),
    phase: d ? d.phase : table.summary.status,
  };
}
