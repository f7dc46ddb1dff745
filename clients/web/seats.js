// @ts-check
// The four seats around the felt: names, badges, bids, card backs, who is to act.

import { backSVG } from "./cards.js";
import { isFresh } from "./cardview.js";
import { html } from "./dom.js";
import { position } from "./game.js";
import { contractLabel, t } from "./i18n.js";

/** @typedef {import("./dom.js").Html} Html */

export function seatName(table, seat) {
  const info = table.summary.seats[seat];
  if (!info || info.occupant === "empty") return t("seat.free");
  if (info.occupant === "ai") {
    // A quick-play table names its AI with their level ("AI 4 · expert"): said here in the
    // player's language.
    const level = (info.name || "").split(" · ")[1];
    const name = t("seat.ai", { n: seat + 1 });
    return level && ["random", "basic", "expert", "strong"].includes(level) ? `${name} · ${t(`ai.${level}`)}` : name;
  }
  // The server names a nameless player "Player N": say it in the player's language.
  if (!info.name || info.name === `Player ${seat + 1}`) return t("seat.player", { n: seat + 1 });
  return info.name;
}

/**
 * The table as seated by `seats` (who held each seat during a deal, game.js): the sheet,
 * the log and the deal's details name them, not whoever sits there now.
 * @template T
 * @param {T & {summary: any}} table
 * @param {any[] | undefined} seats
 * @returns {T}
 */
export function seatedAs(table, seats) {
  return seats ? { ...table, summary: { ...table.summary, seats } } : table;
}

export function seatLabel(table, seat) {
  const name = seatName(table, seat);
  return seat === table.seat ? t("seat.you", { name }) : name;
}

function lastBid(deal, seat) {
  if (!deal) return null;
  const bid = deal.bids.filter((b) => b.seat === seat).pop();
  return bid ? bid.contract : null;
}

export function seatHTML(table, seat, ctx) {
  const d = table.deal;
  const info = table.summary.seats[seat];
  const pos = position(seat, table.seat);
  const name = seatName(table, seat);
  const me = seat === table.seat;
  const badges = [];
  if (d && d.dealer === seat) badges.push(html`<span class="badge dealer" title="${t("seat.dealer")}">${t("seat.dealerShort")}</span>`);
  if (d && d.taker === seat) badges.push(html`<span class="badge taker"><span class="role">${t("seat.taker")} · </span>${contractLabel(d.contract)}</span>`);
  if (info.occupant === "human" && !info.connected) badges.push(awayHTML(info));
  const active = d && d.toAct === seat && d.phase !== "done";
  const bid = d && d.phase === "bidding" && d.taker === null ? lastBid(d, seat) : null;
  /** @type {Html | string} */
  let bubble = "";
  if (bid) {
    const fresh = isFresh(ctx, `bid-${d.number}-${d.dealer}-${seat}-${bid}`);
    bubble = html`<div class="bubble${bid === "pass" ? " pass" : ""}${fresh ? " enter" : ""}">${contractLabel(bid)}</div>`;
  }
  const size = d ? d.handSizes[seat] : 0;
  const backs =
    !me && d && size > 0
      ? html`<div class="backs" title="${t("seat.cards", { n: size })}">${Array.from({ length: Math.min(size, 24) }, () => html`<span class="back" aria-hidden="true">${backSVG()}</span>`)}<span class="count">${size}</span></div>`
      : "";
  const tricks = (d && d.phase === "play") || (d && d.tricks.length) ? html`<span class="won" title="${t("info.tricksWon")}">${t("seat.tricks", { n: d.tricksWon[seat] })}</span>` : "";
  const thinking = active && !me ? html`<span class="thinking" aria-hidden="true"><i></i><i></i><i></i></span>` : "";
  const timer = active && table.deadline ? html`<span class="timer" data-deadline="${table.deadline}"></span>` : "";
  const label = [name, me ? t("seat.youShort") : "", active ? t("seat.toPlay") : ""].filter(Boolean).join(", ");
  const empty = info.occupant === "empty";
  const cls = `seat pos-${pos}${active ? " active" : ""}${d && d.taker === seat ? " is-taker" : ""}${me ? " me" : ""}${empty ? " empty" : ""}`;
  const you = me ? html` <em>(${t("seat.youShort")})</em>` : "";
  return html`<div class="${cls}" data-seat="${seat}" aria-label="${label}"><div class="plate">${avatarHTML(info, name, seat)}<span class="who"><span class="name">${name}${you}</span><span class="badges">${badges}${tricks}${timer}</span></span>${thinking}</div>${bubble}${backs}</div>`;
}

/** An away player: the grace period counted down, then "AI plays" (PROTOCOL.md 11). */
function awayHTML(info) {
  const until = info.away_until_ms;
  if (until && Date.now() >= until) {
    return html`<span class="badge away" data-field="ai-plays" title="${t("log.aiPlays", { name: info.name })}">${t("seat.aiPlays")}</span>`;
  }
  const timer = until ? html` <span class="timer" data-deadline="${until}"></span>` : "";
  return html`<span class="badge away" data-field="away" title="${t("seat.awayTitle")}">${t("seat.away")}${timer}</span>`;
}

const EMBLEMS = ["S", "H", "D", "C"];

/** A player's initial; an AI seat gets a suit emblem of its own. */
function avatarHTML(info, name, seat) {
  if (info.occupant === "empty") return html`<span class="avatar empty" aria-hidden="true">+</span>`;
  if (info.occupant === "ai") {
    return html`<span class="avatar ai" aria-hidden="true"><svg viewBox="0 0 100 100"><use href="#sym-marseille-${EMBLEMS[seat]}"/></svg></span>`;
  }
  return html`<span class="avatar" aria-hidden="true">${(name || "?").trim().charAt(0).toUpperCase()}</span>`;
}

export function toActText(table, d) {
  if (d.toAct === null || d.toAct === undefined || table.over || d.phase === "done") return "";
  const phase = t(`phase.${d.phase}`);
  if (d.toAct === table.seat) return `${phase} · ${t("turn.yours")}`;
  return `${phase} · ${t("turn.other", { name: seatName(table, d.toAct) })}`;
}
