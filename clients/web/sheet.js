// @ts-check
// The score sheet at the end of a deal (docs/RECORD.md's sheet, as the server scored it):
// contract, bouts, points against the target, each bonus and its side, each seat's
// score and the running totals.

import { fill, html } from "./dom.js";
import { contractLabel, num, t } from "./i18n.js";
import { seatedAs, seatLabel } from "./seats.js";

function row(label, value, field) {
  return html`<tr><th scope="row">${label}</th><td data-field="${field}">${value}</td></tr>`;
}

function bonusName(b) {
  if (b.kind === "poignee") return t(`poignee.${b.detail || "simple"}`);
  if (b.kind === "chelem") return t(`bonus.chelem.${b.detail || "unannounced"}`);
  return t(`bonus.${b.kind}`);
}

function bonusesHTML(table, sheet) {
  if (!sheet.bonuses || !sheet.bonuses.length) return html`<p class="muted" data-field="no-bonus">${t("sheet.noBonus")}</p>`;
  const rows = sheet.bonuses.map((b, i) => {
    const by = b.seat !== null && b.seat !== undefined ? html` <span class="muted">(${t("sheet.shownBy", { name: seatLabel(table, b.seat) })})</span>` : "";
    return html`<tr data-bonus="${i}" data-kind="${b.kind}" data-side="${b.side}"><td>${bonusName(b)}${by}</td><td><span class="side ${b.side}-side">${t(`side.${b.side}`)}</span></td><td class="num" data-field="bonus-points">${num(b.points, true)}</td></tr>`;
  });
  return html`<table class="grid bonuses"><thead><tr><th>${t("sheet.bonus")}</th><th>${t("sheet.side")}</th><th class="num">${t("sheet.perDefenderValue")}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function scoresHTML(table, sheet, totals) {
  const rows = [0, 1, 2, 3].map((s) => {
    const role = s === sheet.taker ? t("side.taker") : t("side.defence");
    const sign = sheet.scores[s] > 0 ? "plus" : sheet.scores[s] < 0 ? "minus" : "";
    return html`<tr class="${s === table.seat ? "me" : ""}" data-seat="${s}"><td>${seatLabel(table, s)} <span class="muted small">${role}</span></td><td class="num score ${sign}" data-field="score-${s}">${num(sheet.scores[s], true)}</td><td class="num" data-field="running-${s}">${num(totals[s])}</td></tr>`;
  });
  return html`<table class="grid scores"><thead><tr><th>${t("sheet.seat")}</th><th class="num">${t("sheet.thisDeal")}</th><th class="num">${t("sheet.total")}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function historyHTML(current) {
  if (current.history.length < 2) return "";
  const table = seatedAs(current, current.history[current.history.length - 1].seats);
  const head = [0, 1, 2, 3].map((s) => html`<th class="num">${seatLabel(table, s)}</th>`);
  const rows = table.history.map((h) => {
    const what =
      h.sheet.status === "cancelled"
        ? t("sheet.cancelledShort")
        : `${seatLabel(seatedAs(table, h.seats), h.sheet.taker)} · ${contractLabel(h.sheet.contract)} ${h.sheet.made ? "✓" : "✗"}`;
    return html`<tr><td>${h.deal_number}</td><td>${what}</td>${h.sheet.scores.map((x) => html`<td class="num">${num(x, true)}</td>`)}</tr>`;
  });
  return html`<details class="history"><summary>${t("sheet.history")}</summary><table class="grid"><thead><tr><th>#</th><th>${t("info.contract")}</th>${head}</tr></thead><tbody>${rows}</tbody></table></details>`;
}

function playedHTML(table, entry) {
  const sheet = entry.sheet;
  const diff = Math.abs(sheet.points - sheet.target);
  const verdict = t(sheet.made ? "sheet.made" : "sheet.failed", { n: num(diff), count: diff });
  const summary = [
    row(t("side.taker"), seatLabel(table, sheet.taker), "taker"),
    row(t("info.contract"), contractLabel(sheet.contract, true), "contract"),
    row(t("sheet.bouts"), String(sheet.bouts), "bouts"),
    row(t("sheet.points"), html`<strong>${num(sheet.points)}</strong> / ${t("sheet.target")} ${sheet.target}`, "points"),
    row(t("sheet.contractScore"), html`(25 + ${num(diff)}) × ${sheet.multiplier} = <strong>${num(sheet.contract_score)}</strong>`, "contract-score"),
    row(t("sheet.perDefender"), num(sheet.per_defender, true), "per-defender"),
  ];
  return html`<div class="verdict ${sheet.made ? "made" : "failed"}" data-field="verdict">${verdict}</div><table class="grid summary">${summary}</table><h3>${t("sheet.bonuses")}</h3>${bonusesHTML(table, sheet)}<h3>${t("sheet.scores")}</h3>${scoresHTML(table, sheet, entry.totals)}`;
}

/** Between deals: when the next deal starts at the latest (a countdown), and whom it waits for. */
function waitHTML(table) {
  const deadline = table.summary.next_deal_ms;
  if (!deadline) return "";
  const timer = html`<span class="timer" data-deadline="${deadline}"></span>`;
  const parts = [html`<span data-field="next-in">${fill(t("sheet.nextIn"), { time: timer })}</span>`];
  const others = (table.waitingFor || []).filter((s) => s !== table.seat);
  if (others.length) {
    const names = others.map((s) => seatLabel(table, s)).join(", ");
    parts.push(html`<span data-field="waiting-for">${t("sheet.waitingFor", { names })}</span>`);
  }
  return html`<p class="next-deal muted" data-field="next-deal">${parts.flatMap((p, i) => (i ? [" · ", p] : [p]))}</p>`;
}

/** Each rated seat's rating before and after the deal (a `ratings` event), when it came. */
function ratingsHTML(current, entry) {
  const changes = (current.ratings || {})[entry.deal_number];
  if (!changes || !changes.length) return "";
  const rows = changes.map((c) => {
    const diff = Math.round((c.after - c.before) * 10) / 10;
    const sign = diff > 0 ? "plus" : diff < 0 ? "minus" : "";
    const line = t("sheet.ratingLine", { before: Math.round(c.before), after: Math.round(c.after) });
    return html`<tr data-seat="${c.seat}"><td>${c.name}</td><td class="num" data-field="rating-${c.seat}">${line}</td><td class="num score ${sign}" data-field="rating-change-${c.seat}">${num(diff, true)}</td></tr>`;
  });
  return html`<h3>${t("sheet.rating")}</h3><table class="grid ratings" data-field="ratings"><tbody>${rows}</tbody></table>`;
}

/** A line of the rematch panel. */
function rematchLine(key, vars = {}) {
  return html`<span class="muted small" data-field="rematch-status">${t(key, vars)}</span>`;
}

/**
 * Why the rematch offer takes no answer from this seat any more (a sheet key), or null
 * while it is open to it. Closed: this seat accepted (final), every human seat answered,
 * the new table started, the offer timed out, or the server said so (rematch_closed).
 */
function rematchClosedKey(table, humans) {
  const offer = table.rematch;
  if (table.rematchAnswer === true || (offer && offer.accepted.includes(table.seat))) return "sheet.rematchWaiting";
  if (offer && offer.timed_out && offer.timed_out.length) {
    if (offer.timed_out.includes(table.seat)) return "sheet.rematchMissed";
    return offer.started ? "sheet.rematchClosed" : "sheet.rematchOver";
  }
  const answered = offer ? humans.every((s) => offer.accepted.includes(s) || offer.declined.includes(s)) : false;
  if (offer && offer.started) return "sheet.rematchStarted";
  if (answered) return "sheet.rematchNobody";
  return table.rematchClosed ? "sheet.rematchOver" : null;
}

/** At a finished table with other humans: the rematch, who accepted it so far, and the
 * answers this seat may still give (none once the offer is closed to it). */
function rematchHTML(table) {
  const humans = table.summary.seats.filter((s) => s.occupant === "human").map((s) => s.seat);
  if (table.seat === null || humans.length < 2) return null;
  const closed = rematchClosedKey(table, humans);
  if (closed) return rematchLine(closed);
  const offer = table.rematch;
  const names = offer ? offer.accepted.map((s) => table.summary.seats[s]?.name || "").filter(Boolean).join(", ") : "";
  const declined = table.rematchAnswer === false || (offer && offer.declined.includes(table.seat));
  const said = names ? rematchLine("sheet.rematchAsked", { names }) : "";
  const mine = declined ? rematchLine("sheet.rematchDeclined") : "";
  // The open offer's deadline, counted down as the next deal's is (render.updateTimers).
  const ends = offer && offer.deadline_ms ? html`<span class="muted small rematch-ends" data-field="rematch-ends">${fill(t("sheet.rematchEnds"), { time: html`<span class="timer" data-deadline="${offer.deadline_ms}"></span>` })}</span>` : "";
  const no = offer && offer.accepted.length && !declined ? html`<button type="button" class="btn" data-action="rematch-no">${t("sheet.rematchNo")}</button>` : "";
  return html`${said}${ends}${mine}${no}<button type="button" class="btn primary" data-action="rematch">${t("sheet.rematch")}</button>`;
}

/** The sheet dialog for a history entry, with what comes next. */
export function sheetHTML(current, entry) {
  const table = seatedAs(current, entry.seats); // who held the seats in that deal
  const sheet = entry.sheet;
  const body =
    sheet.status === "cancelled"
      ? html`<div class="verdict">${t(`cancel.${sheet.reason}`)}</div>${scoresHTML(table, sheet, entry.totals)}`
      : playedHTML(table, entry);
  const latest = table.history.length && table.history[table.history.length - 1] === entry;
  const buttons = [];
  if (latest && table.over) {
    const rematch = rematchHTML(current);
    if (rematch) buttons.push(rematch);
    else if (table.seat !== null) {
      buttons.push(html`<button type="button" class="btn primary" data-action="play-again">${t("sheet.playAgain")}</button>`);
    }
    buttons.push(html`<button type="button" class="btn" data-action="leave">${t("sheet.lobby")}</button>`);
  } else if (latest && table.seat !== null && table.deal && table.deal.phase === "done" && !table.deal.cancelled) {
    buttons.push(
      table.ready
        ? html`<button type="button" class="btn" disabled>${t("sheet.waitingOthers")}</button>`
        : html`<button type="button" class="btn primary" data-action="next-deal" data-key="next-deal">${t("sheet.next")}</button>`,
    );
  }
  const wait = html`${ratingsHTML(current, entry)}${latest && !table.over ? waitHTML(current) : ""}`;
  const minor = [html`<button type="button" class="btn small" data-action="close-sheet">${t("sheet.close")}</button>`];
  if (latest && sheet.status === "played" && table.records[entry.deal_number]) {
    minor.push(html`<button type="button" class="btn small" data-action="review-deal" data-arg="${entry.deal_number}">${t("review.open")}</button>`);
  }
  if (table.records[entry.deal_number]) {
    minor.push(
      html`<button type="button" class="btn small" data-action="save-record" data-arg="${entry.deal_number}" title="tarot-record/1">${t("sheet.save")}</button>`,
    );
  }
  const title = table.over && latest ? t("sheet.gameOver") : t("sheet.title");
  return html`<div class="overlay" data-action="close-sheet-backdrop"><div class="sheet" role="dialog" aria-modal="true" aria-labelledby="sheet-title" data-deal="${entry.deal_number}"><h2 id="sheet-title">${title} <span class="muted">· ${t("info.deal", { n: entry.deal_number })}</span></h2>${body}${historyHTML(table)}${wait}<div class="sheet-buttons"><div class="buttons">${minor}</div><div class="buttons">${buttons}</div></div></div></div>`;
}
