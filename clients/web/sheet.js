// The score sheet at the end of a deal (docs/RECORD.md's sheet, as the server scored it):
// contract, bouts, points against the target, each bonus and its side, each seat's
// score and the running totals.

import { esc } from "./dom.js";
import { contractLabel, num, t } from "./i18n.js";
import { seatLabel } from "./table.js";

function row(label, value, field) {
  return `<tr><th scope="row">${esc(label)}</th><td data-field="${field}">${value}</td></tr>`;
}

function bonusName(b) {
  if (b.kind === "poignee") return t(`poignee.${b.detail || "simple"}`);
  if (b.kind === "chelem") return t(`bonus.chelem.${b.detail || "unannounced"}`);
  return t(`bonus.${b.kind}`);
}

function bonusesHTML(table, sheet) {
  if (!sheet.bonuses || !sheet.bonuses.length) return `<p class="muted" data-field="no-bonus">${esc(t("sheet.noBonus"))}</p>`;
  const rows = sheet.bonuses
    .map(
      (b, i) =>
        `<tr data-bonus="${i}" data-kind="${b.kind}" data-side="${b.side}"><td>${esc(bonusName(b))}${b.seat !== null && b.seat !== undefined ? ` <span class="muted">(${esc(t("sheet.shownBy", { name: seatLabel(table, b.seat) }))})</span>` : ""}</td>` +
        `<td><span class="side ${b.side}-side">${esc(t(`side.${b.side}`))}</span></td><td class="num" data-field="bonus-points">${num(b.points, true)}</td></tr>`,
    )
    .join("");
  return `<table class="grid bonuses"><thead><tr><th>${esc(t("sheet.bonus"))}</th><th>${esc(t("sheet.side"))}</th><th class="num">${esc(t("sheet.perDefenderValue"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function scoresHTML(table, sheet, totals) {
  const rows = [0, 1, 2, 3]
    .map((s) => {
      const role = s === sheet.taker ? t("side.taker") : t("side.defence");
      return (
        `<tr class="${s === table.seat ? "me" : ""}" data-seat="${s}"><td>${esc(seatLabel(table, s))} <span class="muted small">${esc(role)}</span></td>` +
        `<td class="num score ${sheet.scores[s] > 0 ? "plus" : sheet.scores[s] < 0 ? "minus" : ""}" data-field="score-${s}">${num(sheet.scores[s], true)}</td>` +
        `<td class="num" data-field="running-${s}">${num(totals[s])}</td></tr>`
      );
    })
    .join("");
  return `<table class="grid scores"><thead><tr><th>${esc(t("sheet.seat"))}</th><th class="num">${esc(t("sheet.thisDeal"))}</th><th class="num">${esc(t("sheet.total"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function historyHTML(table) {
  if (table.history.length < 2) return "";
  const head = [0, 1, 2, 3].map((s) => `<th class="num">${esc(seatLabel(table, s))}</th>`).join("");
  const rows = table.history
    .map(
      (h) =>
        `<tr><td>${h.deal_number}</td><td>${h.sheet.status === "cancelled" ? esc(t("sheet.cancelledShort")) : `${esc(seatLabel(table, h.sheet.taker))} · ${esc(contractLabel(h.sheet.contract))} ${h.sheet.made ? "✓" : "✗"}`}</td>` +
        h.sheet.scores.map((x) => `<td class="num">${num(x, true)}</td>`).join("") +
        "</tr>",
    )
    .join("");
  return `<details class="history"><summary>${esc(t("sheet.history"))}</summary><table class="grid"><thead><tr><th>#</th><th>${esc(t("info.contract"))}</th>${head}</tr></thead><tbody>${rows}</tbody></table></details>`;
}

function playedHTML(table, entry) {
  const sheet = entry.sheet;
  const diff = Math.abs(sheet.points - sheet.target);
  const verdict = sheet.made ? t("sheet.made", { n: num(diff) }) : t("sheet.failed", { n: num(diff) });
  const summary = [
    row(t("side.taker"), esc(seatLabel(table, sheet.taker)), "taker"),
    row(t("info.contract"), esc(contractLabel(sheet.contract, true)), "contract"),
    row(t("sheet.bouts"), String(sheet.bouts), "bouts"),
    row(t("sheet.points"), `<strong>${num(sheet.points)}</strong> / ${esc(t("sheet.target"))} ${sheet.target}`, "points"),
    row(
      t("sheet.contractScore"),
      `(25 + ${num(diff)}) × ${sheet.multiplier} = <strong>${num(sheet.contract_score)}</strong>`,
      "contract-score",
    ),
    row(t("sheet.perDefender"), num(sheet.per_defender, true), "per-defender"),
  ].join("");
  return (
    `<div class="verdict ${sheet.made ? "made" : "failed"}" data-field="verdict">${esc(verdict)}</div>` +
    `<table class="grid summary">${summary}</table>` +
    `<h3>${esc(t("sheet.bonuses"))}</h3>${bonusesHTML(table, sheet)}` +
    `<h3>${esc(t("sheet.scores"))}</h3>${scoresHTML(table, sheet, entry.totals)}`
  );
}

/** Between deals: when the next deal starts at the latest (a countdown), and whom it waits for. */
function waitHTML(table) {
  const deadline = table.summary.next_deal_ms;
  if (!deadline) return "";
  const timer = `<span class="timer" data-deadline="${deadline}"></span>`;
  const parts = [`<span data-field="next-in">${t("sheet.nextIn", { time: timer })}</span>`];
  const others = (table.waitingFor || []).filter((s) => s !== table.seat);
  if (others.length) {
    const names = others.map((s) => esc(seatLabel(table, s))).join(", ");
    parts.push(`<span data-field="waiting-for">${t("sheet.waitingFor", { names })}</span>`);
  }
  return `<p class="next-deal muted" data-field="next-deal">${parts.join(" · ")}</p>`;
}

/** The sheet dialog for a history entry, with what comes next. */
export function sheetHTML(table, entry) {
  const sheet = entry.sheet;
  const body =
    sheet.status === "cancelled"
      ? `<div class="verdict">${esc(t(`cancel.${sheet.reason}`))}</div>${scoresHTML(table, sheet, entry.totals)}`
      : playedHTML(table, entry);
  const latest = table.history.length && table.history[table.history.length - 1] === entry;
  const buttons = [];
  if (latest && table.over) {
    if (table.seat !== null) {
      buttons.push(`<button type="button" class="btn primary" data-action="play-again">${esc(t("sheet.playAgain"))}</button>`);
    }
    buttons.push(`<button type="button" class="btn" data-action="leave">${esc(t("sheet.lobby"))}</button>`);
  } else if (latest && table.seat !== null && table.deal && table.deal.phase === "done" && !table.deal.cancelled) {
    buttons.push(
      table.ready
        ? `<button type="button" class="btn" disabled>${esc(t("sheet.waitingOthers"))}</button>`
        : `<button type="button" class="btn primary" data-action="next-deal" data-key="next-deal">${esc(t("sheet.next"))}</button>`,
    );
  }
  const wait = latest && !table.over ? waitHTML(table) : "";
  const minor = [`<button type="button" class="btn small" data-action="close-sheet">${esc(t("sheet.close"))}</button>`];
  if (table.records[entry.deal_number]) {
    minor.push(
      `<button type="button" class="btn small" data-action="save-record" data-arg="${entry.deal_number}" title="tarot-record/1">${esc(t("sheet.save"))}</button>`,
    );
  }
  const title = table.over && latest ? t("sheet.gameOver") : t("sheet.title");
  return (
    `<div class="overlay" data-action="close-sheet-backdrop"><div class="sheet" role="dialog" aria-modal="true" aria-labelledby="sheet-title" data-deal="${entry.deal_number}">` +
    `<h2 id="sheet-title">${esc(title)} <span class="muted">· ${esc(t("info.deal", { n: entry.deal_number }))}</span></h2>` +
    body +
    historyHTML(table) +
    wait +
    `<div class="sheet-buttons"><div class="buttons">${minor.join("")}</div><div class="buttons">${buttons.join("")}</div></div></div></div>`
  );
}
