// @ts-check
// The deal viewer: a stored deal (GET /api/deals/TABLE/NUMBER) stepped through from its
// record: the four hands as dealt, the bids, the chien and the discard, the poignées
// and chelem, each trick with its leader and winner, then the score sheet. Forwards and
// backwards with the arrow keys (Home / End); the step is in the address, so a link
// opens the deal where it was. No rule is worked out here: the trick winners are the
// score sheet's (`trick_winners`), the order of play the record's.

import { cardName, cardSVG, sortHand } from "./cards.js";
import { html } from "./dom.js";
import { contractLabel, getLang, num, t } from "./i18n.js";

const TRICKS = 18;

export function seatName(deal, seat) {
  const who = deal.seats.find((s) => s.seat === seat);
  if (!who) return t("viewer.seat", { n: seat + 1 });
  if (who.kind === "account" || who.kind === "guest") return who.name;
  if (who.kind === "ai") return t("viewer.ai", { n: seat + 1, level: t(`ai.${who.ai_level}`) }); // the level in words
  return t("viewer.seat", { n: seat + 1 });
}

/** The steps of a deal: what each shows (its title and the cards left in each hand). */
export function steps(deal) {
  const { record, sheet } = deal;
  const first = (record.dealer + 1) % 4;
  /** @type {any[]} */
  const out = [{ kind: "hands", hands: record.hands }];
  if (record.bids) out.push({ kind: "bids" });
  const taker = sheet.taker ?? null;
  let hands = record.hands.map((h) => [...h]);
  if (record.discard && taker !== null) {
    hands[taker] = [...hands[taker], ...record.chien].filter((c) => !record.discard.includes(c));
  }
  if (taker !== null) out.push({ kind: "chien", hands: hands.map((h) => [...h]) });
  let leader = record.chelem && taker !== null ? taker : first;
  const winners = sheet.trick_winners || [];
  const plays = record.plays || [];
  for (let k = 0; k < TRICKS && 4 * k < plays.length; k += 1) {
    const cards = plays.slice(4 * k, 4 * k + 4).map((card, i) => ({ seat: (leader + i) % 4, card }));
    hands = hands.map((h, seat) => h.filter((c) => !cards.some((p) => p.seat === seat && p.card === c)));
    out.push({ kind: "trick", number: k + 1, leader, cards, winner: winners[k], hands: hands.map((h) => [...h]) });
    leader = winners[k] ?? leader;
  }
  out.push({ kind: "sheet", hands });
  return out;
}

function cards(codes, face) {
  return html`<span class="mini-hand">${codes.map((c) => html`<span class="mini-card" data-card="${c}" title="${cardName(c, getLang(), face)}">${cardSVG(c, face, getLang())}</span>`)}</span>`;
}

function handsView(deal, hands, face) {
  return html`<div class="viewer-hands">${hands.map(
    (h, seat) => html`<div class="viewer-seat" data-seat="${seat}"><h4>${seatName(deal, seat)}</h4>${cards(sortHand(h), face)}</div>`,
  )}</div>`;
}

function body(deal, step, face) {
  const { record, sheet } = deal;
  switch (step.kind) {
    case "hands":
      return html`${handsView(deal, step.hands, face)}<div class="viewer-seat"><h4>${t("viewer.chien")}</h4>${cards(record.chien, face)}</div>`;
    case "bids":
      return html`<ol class="viewer-bids">${record.bids.map(
        (bid, i) => html`<li>${seatName(deal, (record.dealer + 1 + i) % 4)}: ${contractLabel(bid)}</li>`,
      )}</ol>`;
    case "chien": {
      const poignees = Object.entries(record.poignees || {}).map(
        ([seat, shown]) => html`<div class="viewer-seat"><h4>${t("viewer.poignee", { name: seatName(deal, Number(seat)) })}</h4>${cards(shown, face)}</div>`,
      );
      return html`<p>${t("viewer.taker", { name: seatName(deal, sheet.taker), contract: contractLabel(sheet.contract) })}</p>
        <div class="viewer-seat"><h4>${t("viewer.chien")}</h4>${cards(record.chien, face)}</div>
        ${record.discard ? html`<div class="viewer-seat"><h4>${t("viewer.discard")}</h4>${cards(record.discard, face)}</div>` : null}
        ${record.chelem ? html`<p>${t("viewer.chelem", { name: seatName(deal, sheet.taker) })}</p>` : null}
        ${poignees}${handsView(deal, step.hands, face)}`;
    }
    case "trick":
      return html`<p id="trick-line">${t("viewer.trickLine", { leader: seatName(deal, step.leader), winner: seatName(deal, step.winner) })}</p>
        <div class="viewer-trick">${step.cards.map(
          (p) => html`<div class="viewer-play${p.seat === step.winner ? " winner" : ""}" data-seat="${p.seat}"><h4>${seatName(deal, p.seat)}</h4>${cards([p.card], face)}</div>`,
        )}</div>${handsView(deal, step.hands, face)}`;
    default:
      return sheetView(deal);
  }
}

function sheetView(deal) {
  const { sheet } = deal;
  const lines = sheet.scores.map((s, seat) => html`<tr><td>${seatName(deal, seat)}</td><td class="num" data-field="score-${seat}">${num(s, true)}</td></tr>`);
  const summary =
    sheet.status === "played"
      ? t("viewer.result", {
          name: seatName(deal, sheet.taker),
          contract: contractLabel(sheet.contract),
          points: num(sheet.points),
          target: sheet.target,
          result: sheet.made ? t("players.made") : t("players.failed"),
        })
      : t("players.cancelled");
  return html`<p id="sheet-line">${summary}</p>${sheet.status === "played" ? workingView(deal) : ""}<table class="history-table" id="viewer-sheet"><tbody>${lines}</tbody></table>`;
}

/** How the score was reached, as the table's score sheet shows it: bouts, points against
 * the target, the contract's score and each bonus (the sheet's figures, nothing worked out). */
function workingView(deal) {
  const { sheet } = deal;
  const diff = Math.abs(sheet.points - sheet.target);
  const row = (label, value, field) => html`<tr><th scope="row">${label}</th><td data-field="${field}">${value}</td></tr>`;
  const bonuses = (sheet.bonuses || []).map((b) => {
    const name = b.kind === "poignee" ? t(`poignee.${b.detail || "simple"}`) : b.kind === "chelem" ? t(`bonus.chelem.${b.detail || "unannounced"}`) : t(`bonus.${b.kind}`);
    return row(name, html`${t(`side.${b.side}`)} · ${num(b.points, true)}`, `bonus-${b.kind}`);
  });
  return html`<table class="history-table" id="viewer-working"><tbody>${[
    row(t("sheet.bouts"), String(sheet.bouts), "bouts"),
    row(t("sheet.points"), html`<strong>${num(sheet.points)}</strong> / ${t("sheet.target")} ${sheet.target}`, "points"),
    row(t("sheet.contractScore"), html`(25 + ${num(diff)}) × ${sheet.multiplier} = <strong>${num(sheet.contract_score)}</strong>`, "contract-score"),
    ...bonuses,
    row(t("sheet.perDefender"), num(sheet.per_defender, true), "per-defender"),
  ]}</tbody></table>`;
}

function title(step) {
  if (step.kind === "trick") return t("viewer.trick", { n: step.number });
  return t(`viewer.${step.kind}`);
}

/** The viewer at step `index` of `all` (clamped), with its controls. */
export function viewerView(deal, all, index, face) {
  const step = all[index];
  const link = (i) => `#/deal/${deal.table_id}/${deal.deal_number}/${i}`;
  return html`<section class="panel viewer" id="viewer" tabindex="-1" data-step="${index}" data-kind="${step.kind}">
    <h2 id="viewer-title">${t("viewer.title", { n: deal.deal_number + 1, players: [0, 1, 2, 3].map((s) => seatName(deal, s)).join(", ") })}</h2>
    <nav class="viewer-nav">
      <a class="btn small" href="${link(0)}" data-action="first" aria-label="${t("viewer.first")}">«</a>
      <a class="btn small" href="${link(Math.max(0, index - 1))}" data-action="back" aria-label="${t("viewer.back")}">◀</a>
      <span id="step-title">${title(step)} · ${index + 1}/${all.length}</span>
      <a class="btn small" href="${link(Math.min(all.length - 1, index + 1))}" data-action="forward" aria-label="${t("viewer.forward")}">▶</a>
      <a class="btn small" href="${link(all.length - 1)}" data-action="last" aria-label="${t("viewer.last")}">»</a>
    </nav>
    <p class="muted">${t("viewer.keys")}</p>
    ${body(deal, step, face)}
  </section>`;
}
