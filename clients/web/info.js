// @ts-check
// The public information beside the table: the contract, the points and target, the
// scores, the way out, the last trick, the bids, chien, discard, poignées and tricks.

import { cardHTML, miniCards } from "./cardview.js";
import { html } from "./dom.js";
import { contractLabel, num, t, tableTitle } from "./i18n.js";
import { seatedAs, seatLabel, seatName } from "./seats.js";

export function infoHTML(current, ctx) {
  const d = current.deal;
  const table = seatedAs(current, d?.seats); // the deal's players, even after they left
  const opts = table.summary.options || {};
  const n = d ? d.number : table.summary.deal_number;
  let dealOf = opts.deals && n <= opts.deals ? t("info.dealOf", { n, total: opts.deals }) : t("info.deal", { n });
  if (!n) dealOf = `${t("status.waiting")} · ${opts.deals ? t("lobby.dealsN", { n: opts.deals }) : t("lobby.endlessShort")}`;
  const title = tableTitle(opts.name, table.tableId, humanNames(table.summary.seats));
  const dealer = d ? ` · ${t("info.dealer", { name: seatName(table, d.dealer) })}` : "";
  // What matters during play comes first, so that a laptop screen shows it without
  // scrolling: the contract, the points and target, the scores, the way out; then
  // the last trick, the log, and the deal's details.
  const parts = [html`<div class="info-head"><div class="info-title">${title}</div><div class="muted">${dealOf}${dealer}</div></div>`];
  if (d) {
    const chelem = d.chelem ? html` · <span class="tag">${t("info.chelemAnnounced")}</span>` : "";
    const contract =
      d.taker !== null
        ? html`<strong>${seatLabel(table, d.taker)}</strong> · ${contractLabel(d.contract, true)}${chelem}`
        : html`<span class="muted">${d.phase === "bidding" ? t("info.bidding") : "–"}</span>`;
    parts.push(section(t("info.contract"), contract, "contract"));
    if (d.taker !== null && (d.phase === "play" || d.tricks.length)) parts.push(section(t("info.points"), pointsHTML(d), "points"));
  }
  if (table.summary.status !== "waiting" || d) parts.push(section(t("info.scores"), scoresHTML(table), "scores"));
  const sheet = table.history.length ? html`<button type="button" class="btn small" data-action="show-sheet">${t("sheet.show")}</button>` : "";
  parts.push(html`<div class="info-actions">${sheet}${leaveHTML(table, ctx)}</div>`);
  if (d && ctx.inviteLink && table.seat !== null) {
    // A game under way (a private quick game too) can still be watched: its link.
    const invite = html`<div class="invite"><input id="invite-link" readonly value="${ctx.inviteLink}" aria-label="${t("info.inviteWatch")}"><button type="button" class="btn small" data-action="copy-invite">${ctx.copied ? t("wait.copied") : t("wait.copy")}</button></div>`;
    parts.push(section(t("info.inviteWatch"), invite, "invite"));
  }
  if (d) parts.push(...dealDetails(table, d, ctx));
  if (ctx.log.length) {
    parts.push(section(t("info.log"), html`<ol class="log">${ctx.log.slice(-8).map((l) => html`<li>${l}</li>`)}</ol>`, "log"));
  }
  return html`${parts}`;
}

/** The deal's public information: bids, chien, discard, poignees, tricks. */
function dealDetails(table, d, ctx) {
  const parts = [];
  const last = d.tricks.length ? d.tricks[d.tricks.length - 1] : null;
  if (last && (!d.trick || d.trick !== last)) {
    parts.push(section(t("info.lastTrick"), html`${trickLinesHTML(table, last, ctx)}<div class="muted small">${t("trick.wins", { name: seatLabel(table, last.winner) })}</div>`, "last-trick"));
  }
  if (d.bids.length) {
    const bids = d.bids.map((b) => html`<li><span title="${seatLabel(table, b.seat)}">${seatLabel(table, b.seat)}</span><span class="${b.contract === "pass" ? "muted" : ""}">${contractLabel(b.contract)}</span></li>`);
    parts.push(section(t("info.bids"), html`<ul class="bids">${bids}</ul>`, "bids"));
  }
  if (d.chien) parts.push(section(t("info.chien"), miniCards(d.chien, ctx), "chien"));
  if (d.discarded || d.discardTrumps.length) {
    parts.push(section(t("info.discardTrumps"), miniCards(d.discardTrumps, ctx, t("info.none")), "discard-trumps"));
  }
  if (d.discard && table.seat === d.taker) parts.push(section(t("info.myDiscard"), miniCards(d.discard, ctx), "my-discard"));
  if (d.poignees.length) {
    const lines = d.poignees.map((p) => html`<div class="poignee-line"><span>${seatLabel(table, p.seat)} · ${t(`poignee.${p.level}`)}</span>${miniCards(p.cards, ctx)}</div>`);
    parts.push(section(t("info.poignees"), html`${lines}`, "poignees"));
  }
  if (d.tricks.length > 1) parts.push(allTricksHTML(table, d, ctx));
  return parts;
}

/** The card points so far, the discard the taker knows of, and the live target (R15):
 * every figure is the server's (trick events, discard_kept); only added up here. */
function pointsHTML(d) {
  // Scored: the sheet's figures, the discard or the chien counted (R6, R7), as the sheet says.
  const scored = d.sheet && d.sheet.status === "played" ? d.sheet : null;
  const discard = d.discardPoints ?? 0;
  const taker = scored ? scored.points : d.points[0] + discard;
  const defence = scored ? 91 - scored.points : d.points[1];
  const pct = Math.max(0, Math.min(100, Math.round((taker / 91) * 100)));
  // What the taker's figure holds beyond the tricks; once scored, counted ("incl."), no longer "+ … at the end".
  let note = "";
  if (d.discardPoints !== null) note = t("info.withDiscard", { n: num(discard) });
  else if (d.contract === "prise" || d.contract === "garde") note = t(scored ? "info.discardCounted" : "info.discardLater");
  else if (d.contract === "garde_sans") note = t(scored ? "info.chienTakerCounted" : "info.chienTaker");
  else if (d.contract === "garde_contre") note = t(scored ? "info.chienDefenceCounted" : "info.chienDefence");
  const bouts = t("info.bouts", { n: scored ? scored.bouts : d.takerBouts });
  const target = t("info.target", { bouts, target: scored ? scored.target : d.target, points: num(taker) });
  return html`<div class="target" data-field="target">${target}</div><div class="points"><div><span class="side taker-side">${t("side.taker")}</span> <strong data-field="points-taker">${num(taker)}</strong></div><div><span class="side defence-side">${t("side.defence")}</span> <strong data-field="points-defence">${num(defence)}</strong></div></div><div class="bar" aria-hidden="true"><span style="width:${pct}%"></span><i style="left:${Math.round(((scored ? scored.target : d.target) / 91) * 100)}%"></i></div>${note ? html`<div class="muted small" data-field="points-note">${note}</div>` : ""}<div class="muted small">${t("info.tricksCount", { n: d.tricks.length })}</div>`;
}

/** A finished trick, card by card with who played it (from its leader). */
function trickLinesHTML(table, trick, ctx) {
  const rows = trick.cards.map((code, i) => {
    const seat = (trick.leader + i) % 4;
    const lead = i === 0 ? html`<small class="muted">${t("trick.led")}</small>` : "";
    return html`<li class="${seat === trick.winner ? "took" : ""}">${cardHTML(code, ctx, { cls: "mini" })}<span title="${seatName(table, seat)}">${seatName(table, seat)}</span>${lead}</li>`;
  });
  return html`<ol class="trick-lines">${rows}</ol>`;
}

function allTricksHTML(table, d, ctx) {
  const items = d.tricks.map(
    (trick, i) => html`<li><span class="muted small">${i + 1} · ${t("trick.wins", { name: seatName(table, trick.winner) })}</span>${trickLinesHTML(table, trick, ctx)}</li>`,
  );
  return html`<section class="info-sec" data-section="all-tricks"><details><summary>${t("info.allTricks", { n: d.tricks.length })}</summary><ol class="all-tricks">${items}</ol></details></section>`;
}

/** Leaving a game under way hands the seat to the AI: it asks first, apart from the
 * score sheet button. Watching, waiting or after the last deal it leaves at once. */
function leaveHTML(table, ctx) {
  if (table.seat === null) return html`<button type="button" class="btn small leave" data-action="leave">${t("table.stopWatching")}</button>`;
  const underWay = table.summary.status === "playing" && !table.over;
  if (!underWay) return html`<button type="button" class="btn small leave" data-action="leave">${t("table.leave")}</button>`;
  if (!ctx.confirmLeave) return html`<button type="button" class="btn small leave" data-action="leave-ask">${t("table.leave")}</button>`;
  return html`<div class="leave-ask" role="group" aria-labelledby="leave-ask"><p id="leave-ask">${t("table.leaveAsk")}</p><div class="buttons"><button type="button" class="btn small" data-action="leave-cancel" data-key="leave-cancel">${t("table.stay")}</button><button type="button" class="btn small danger" data-action="leave" data-key="leave-yes">${t("table.leaveYes")}</button></div></div>`;
}

/** The humans at a table, by name (a table without a name is called by them). */
export function humanNames(seats) {
  return (seats || []).filter((s) => s.occupant === "human" && s.name).map((s) => s.name).join(", ");
}

function section(title, body, key) {
  return html`<section class="info-sec" data-section="${key}"><h3>${title}</h3>${body}</section>`;
}

function scoresHTML(table) {
  const totals = table.summary.totals || [0, 0, 0, 0];
  const rows = [0, 1, 2, 3].map((s) => html`<li class="${s === table.seat ? "me" : ""}"><span title="${seatLabel(table, s)}">${seatLabel(table, s)}</span><strong data-field="total-${s}">${num(totals[s])}</strong></li>`);
  return html`<ul class="totals">${rows}</ul>`;
}
