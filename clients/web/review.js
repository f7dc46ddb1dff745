// @ts-check
// "Review this deal": the server's AI judges every decision of the deal just played
// (PROTOCOL.md, review_deal / review_progress / deal_review). This module holds the
// review's state and draws it: a progress bar while the server analyses, then the deal
// stepped through decision by decision (the seat's hand at that moment, the trick so far,
// the choice made and the better one marked on the cards, the mark and its reason) and
// an evaluation graph (the taker's expected score after each decision) whose points jump
// to their decision. No rule is computed here: who played each card, and when, is the
// review's own data; the hands are the record's, less the cards each seat played.

import { html } from "./dom.js";
import { contractLabel, num, t } from "./i18n.js";
import { cardName } from "./cards.js";
import { cardHTML } from "./cardview.js";
import { seatLabel } from "./seats.js";

const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const GRAPH = { width: 640, height: 160, pad: 12 };

/** A fresh review of deal `deal` of the record `record`, asked for now. */
export function startReview(deal, record) {
  return { deal, record, status: "running", done: 0, total: 0, data: null, step: 0, error: null };
}

/** A server message about a review; true when it was one. */
export function onReviewMessage(review, msg) {
  if (!review || msg.re !== reviewId(review.deal)) return false;
  if (msg.type === "review_progress") {
    review.done = msg.done;
    review.total = msg.total;
  } else if (msg.type === "deal_review" || msg.type === "stored_deal_review") {
    review.data = msg.review;
    review.status = "done";
    review.step = firstMarked(msg.review.decisions);
  } else if (msg.type === "error") {
    review.status = "failed";
    review.error = msg;
  }
  return true;
}

export function reviewId(deal) {
  return `review-${deal}`;
}

function firstMarked(decisions) {
  const i = decisions.findIndex((d) => d.label in MARKS);
  return i < 0 ? 0 : i;
}

/** Move to decision `step` (clamped). */
export function goTo(review, step) {
  if (!review.data) return;
  review.step = Math.max(0, Math.min(review.data.decisions.length - 1, step));
}

// ------------------------------------------------------------------ drawing

export function reviewHTML(table, review, ctx) {
  let body;
  if (review.status === "running") body = progressHTML(review);
  else if (review.status === "failed") body = html`<p class="review-error" data-field="review-error">${review.error?.message || ""}</p>`;
  else body = [graphHTML(review, ctx), stepHTML(table, review, ctx), summaryHTML(table, review.data)];
  return html`<div class="overlay" data-action="close-review-backdrop"><div class="sheet review" role="dialog" aria-modal="true" aria-labelledby="review-title" data-deal="${review.deal}" data-status="${review.status}"><h2 id="review-title">${t("review.title")} <span class="muted">· ${t("info.deal", { n: review.deal })}</span></h2>${body}<div class="sheet-buttons"><div class="buttons"><button type="button" class="btn small" data-action="close-review">${ctx.back || t("review.back")}</button></div></div></div></div>`;
}

function progressHTML(review) {
  const share = review.total ? Math.round((100 * review.done) / review.total) : 0;
  const text = review.total ? t("review.progress", { done: review.done, total: review.total }) : t("review.waiting");
  return html`<div class="review-progress" role="progressbar" aria-valuemin="0" aria-valuemax="${review.total}" aria-valuenow="${review.done}" data-field="review-progress"><span style="width:${share}%"></span></div><p class="muted">${text}</p>`;
}

// Each estimate is made from what the deciding player could see (their own hand): from one
// player to the next it jumps. The graph shows the mean of the last SMOOTH estimates (one
// round of the table), so that it follows the deal rather than whose turn it was.
const SMOOTH = 4;

/** The mean of each estimate and the SMOOTH - 1 before it. */
export function smoothed(values) {
  return values.map((_, i) => {
    const window = values.slice(Math.max(0, i - SMOOTH + 1), i + 1);
    return window.reduce((a, b) => a + b, 0) / window.length;
  });
}

/** The taker's expected score along the deal (smoothed); a point per decision that gives one. */
function graphHTML(review, ctx) {
  const decisions = review.data.decisions;
  const points = decisions.filter((d) => d.taker_score !== null);
  if (!points.length) return "";
  const { width, height, pad } = GRAPH;
  const values = smoothed(points.map((d) => d.taker_score));
  const top = Math.max(1, ...values.map((v) => Math.abs(v)));
  const x = (i) => (pad + ((width - 2 * pad) * i) / Math.max(1, decisions.length - 1)).toFixed(1);
  const y = (v) => (height / 2 - ((height / 2 - pad) * v) / top).toFixed(1);
  const line = points.map((d, i) => `${x(d.index)},${y(values[i])}`).join(" ");
  const dots = points.map((d, i) => {
    const cls = ["pt", `label-${d.label}`, d.index === review.step ? "current" : ""].join(" ").trim();
    const r = d.label in MARKS || d.index === review.step ? 5 : 3;
    const title = `${d.index + 1}. ${choiceText(d, d.chosen, ctx)} · ${t(`review.label.${d.label}`)} · ${t("review.pointScore", { score: num(d.taker_score, true), mean: num(Math.round(values[i]), true) })}`;
    return html`<circle class="${cls}" cx="${x(d.index)}" cy="${y(values[i])}" r="${r}" data-action="review-step" data-arg="${d.index}" data-step="${d.index}"><title>${title}</title></circle>`;
  });
  const now = x(review.step);
  const caption = t("review.graphCaption", { top: num(Math.round(top)) });
  return html`<figure class="review-graph"><svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${t("review.graph")}" data-field="review-graph"><line class="zero" x1="${pad}" x2="${width - pad}" y1="${height / 2}" y2="${height / 2}"/><line class="now" x1="${now}" x2="${now}" y1="${pad}" y2="${height - pad}"/><polyline points="${line}"/>${dots}</svg><figcaption class="muted small">${caption}</figcaption></figure>`;
}

/** A decision's choice in words: a contract, a card's name, the discard's cards by name. */
function choiceText(d, choice, ctx) {
  if (d.kind === "bid") return contractLabel(choice);
  if (d.kind === "chelem") return t(choice === "true" ? "review.chelemYes" : "review.chelemNo");
  if (d.kind === "poignee") return t(`review.poignee.${choice}`);
  return String(choice || "")
    .split(" ")
    .filter(Boolean)
    .map((code) => cardName(code, ctx.lang, ctx.face))
    .join(", ");
}

/** The seat's cards at decision `step`: as dealt (the taker's after the discard), less those played. */
function handAt(review, seat, step) {
  const { record, data } = review;
  let hand = [...record.hands[seat]];
  const discard = data.decisions.find((d) => d.kind === "discard");
  if (discard && discard.seat === seat && step > discard.index) {
    const gone = new Set(record.discard || []);
    hand = [...hand, ...record.chien].filter((c) => !gone.has(c));
  }
  const played = new Set(data.decisions.filter((d) => d.kind === "card" && d.seat === seat && d.index < step).map((d) => d.chosen));
  return hand.filter((c) => !played.has(c));
}

function trickSoFar(review, d) {
  if (d.kind !== "card" && d.kind !== "poignee") return [];
  return review.data.decisions.filter((e) => e.kind === "card" && e.trick === d.trick && e.index < d.index);
}

/**
 * Why the choice was worse, in the page's language: the server's reason code and the values
 * it names (seats, cards, contracts, scores); its English sentence for a code this page lacks.
 */
function reasonText(table, d, ctx) {
  const key = `review.reason.${d.reason_code}`;
  if (!d.reason_code || t(key) === key) return d.reason;
  const args = d.reason_args || {};
  const card = (code) => choiceText(d, code, ctx);
  return t(key, {
    winner: typeof args.winner === "number" ? seatLabel(table, args.winner) : "",
    best: card(args.best ?? d.best),
    chosen: card(args.chosen ?? d.chosen),
    best_score: num(Math.round(args.best_score ?? 0), true),
    chosen_score: num(Math.round(args.chosen_score ?? 0), true),
  });
}

function stepHTML(table, review, ctx) {
  const decisions = review.data.decisions;
  const d = decisions[review.step];
  const symbol = d.label in MARKS ? `${MARKS[d.label]} ` : "";
  const mark = html`<span class="mark label-${d.label}" data-field="review-mark">${symbol}${t(`review.label.${d.label}`)}</span>`;
  const where = d.trick ? ` · ${t("review.trick", { n: d.trick })}` : "";
  const what = `${t("review.decision", { n: d.index + 1, total: decisions.length })} · ${seatLabel(table, d.seat)} · ${t(`review.kind.${d.kind}`)}${where}`;
  const better =
    d.best !== d.chosen ? html`<p data-field="review-better">${t("review.better", { best: choiceText(d, d.best, ctx), loss: num(d.loss) })}</p>` : "";
  const scores =
    d.chosen_score === null
      ? t("review.forced")
      : t("review.scores", { chosen: choiceText(d, d.chosen, ctx), score: num(d.chosen_score, true), samples: d.samples });
  const said = reasonText(table, d, ctx);
  const reason = said ? html`<p class="reason" data-field="review-reason">${said}</p>` : "";
  const hindsight =
    d.hindsight && d.hindsight.loss > 0
      ? html`<p class="muted" data-field="review-hindsight">${t("review.hindsight", { best: choiceText(d, d.hindsight.best, ctx), loss: num(d.hindsight.loss) })}</p>`
      : "";
  const prev = review.step === 0;
  const last = review.step === decisions.length - 1;
  return html`<section class="review-step" data-step="${d.index}" data-kind="${d.kind}" data-label="${d.label}"><div class="review-head"><span data-field="review-where">${what}</span> ${mark}</div>${cardsHTML(table, review, d, ctx)}${better}<p class="muted" data-field="review-score">${scores}</p>${reason}${hindsight}<div class="buttons review-nav"><button type="button" class="btn small" data-action="review-prev" ${prev ? html`disabled` : ""}>${t("review.prev")}</button><button type="button" class="btn small" data-action="review-next-mark">${t("review.nextMark")}</button><button type="button" class="btn small" data-action="review-next" ${last ? html`disabled` : ""}>${t("review.next")}</button></div></section>`;
}

/** The trick so far and the seat's hand, the card played and the better one marked. */
function cardsHTML(table, review, d, ctx) {
  const inChoice = (choice, code) => (d.kind === "card" ? code === choice : d.kind === "discard" && choice.split(" ").includes(code));
  const marked = (code) => {
    const chosen = inChoice(d.chosen, code);
    const best = d.best !== d.chosen && inChoice(d.best, code);
    const cls = ["mini", chosen ? "chosen" : "", best ? "better" : ""].join(" ").trim();
    return cardHTML(code, ctx, { cls });
  };
  const trick = trickSoFar(review, d);
  const trickRow = trick.length
    ? html`<div class="review-trick" data-field="review-trick"><span class="muted small">${t("review.trickSoFar")}</span> ${trick.map((e) => html`<span class="played" title="${seatLabel(table, e.seat)}">${cardHTML(e.chosen, ctx, { cls: "mini" })}</span>`)}</div>`
    : "";
  let hand = handAt(review, d.seat, d.index);
  if (d.kind === "discard") hand = [...hand, ...review.record.chien];
  const legend = d.kind === "card" || d.kind === "discard" ? html`<p class="muted small review-legend">${t("review.legend")}</p>` : "";
  return html`${trickRow}<div class="review-hand" data-field="review-hand"><span class="minis">${hand.map(marked)}</span></div>${legend}`;
}

function summaryHTML(table, data) {
  const rows = Object.entries(data.summary).map(([seat, s]) => {
    const marks = Object.keys(MARKS).map((k) => html`<td class="num">${s.labels[k] || 0}</td>`);
    return html`<tr data-seat="${seat}"><td>${seatLabel(table, Number(seat))}</td><td class="num">${num(s.average_loss)}</td>${marks}</tr>`;
  });
  const heads = Object.keys(MARKS).map((k) => html`<th class="num">${t(`review.label.${k}`)}</th>`);
  return html`<details class="review-summary"><summary>${t("review.summary")}</summary><table class="grid"><thead><tr><th>${t("sheet.seat")}</th><th class="num">${t("review.averageLoss")}</th>${heads}</tr></thead><tbody>${rows}</tbody></table><p class="muted small">${t("review.about", { budget: data.budget_ms })}</p></details>`;
}

/** The next marked decision after the current one (wrapping round), or the same. */
export function nextMarked(review) {
  const decisions = review.data?.decisions || [];
  for (let k = 1; k <= decisions.length; k++) {
    const i = (review.step + k) % decisions.length;
    if (decisions[i].label in MARKS) return i;
  }
  return review.step;
}
