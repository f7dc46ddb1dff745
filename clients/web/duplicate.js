// @ts-check
// The players page's duplicate events (docs/DUPLICATE.md), from the JSON API
// (docs/API.md, "Duplicate events"): the events (#/duplicate), an event's standings
// (#/duplicate/ID), and one deal's results in every seat (#/duplicate/ID/deal/K), each
// linked to its stored deal in the viewer and to its AI review. The API knows no
// viewer: an open event shows its window, its results once it closes.

import { html } from "./dom.js";
import { contractLabel, num, t } from "./i18n.js";

const PERCENT = new Set(["matchpoints"]);

/** A mark as shown: a percentage (matchpoints) or points above the datum. */
function markText(event, mark) {
  if (mark === undefined || mark === null) return "—";
  if (PERCENT.has(event.scoring)) return `${num(Math.round(mark * 100) / 100)} %`;
  return `${mark > 0 ? "+" : ""}${num(Math.round(mark * 100) / 100)}`;
}

function when(ms) {
  return new Date(ms).toLocaleString(document.documentElement.lang || undefined, {
    dateStyle: "medium",
    timeStyle: "short",
  });
}

function who(entry) {
  return entry.name || t("duplicate.ai", { level: entry.ai_level || "" });
}

function phaseText(event) {
  if (event.phase === "open") return t("duplicate.openUntil", { when: when(event.closes_ms) });
  if (event.phase === "upcoming") return t("duplicate.opensAt", { when: when(event.opens_ms) });
  return event.scored ? t("duplicate.closed") : t("duplicate.scoring");
}

function kindText(event) {
  return t(event.kind === "robot" ? "duplicate.kindRobot" : "duplicate.kindTables");
}

export function eventsView(list) {
  const rows = list.events.map(
    (e) => html`<tr data-event="${e.event_id}">
      <td><a href="#/duplicate/${e.event_id}">${e.name}</a></td>
      <td>${kindText(e)}</td>
      <td class="num">${num(e.deals)}</td>
      <td>${phaseText(e)}</td>
    </tr>`,
  );
  const empty = list.events.length ? null : html`<p class="muted">${t("duplicate.none")}</p>`;
  return html`<section class="panel" id="duplicate-events">
    <h2>${t("duplicate.title")}</h2>
    <p class="muted">${t("duplicate.about")}</p>
    <table class="history-table">
      <thead><tr><th>${t("duplicate.event")}</th><th>${t("duplicate.kind")}</th><th>${t("duplicate.deals")}</th><th>${t("duplicate.state")}</th></tr></thead>
      <tbody>${rows}</tbody>
    </table>${empty}
  </section>`;
}

function dealLinks(event) {
  const links = [];
  for (let k = 0; k < event.deals; k++) {
    links.push(html`<a class="btn small" href="#/duplicate/${event.event_id}/deal/${k}" data-deal="${k}">${t("duplicate.dealN", { n: k + 1 })}</a>`);
  }
  return html`<nav class="pager duplicate-deals" aria-label="${t("duplicate.deals")}">${links}</nav>`;
}

export function standingsView(body) {
  const event = body.event;
  const heading = html`<h2>${event.name}</h2>
    <p class="muted" id="duplicate-state">${kindText(event)} · ${t("duplicate.dealsCount", { n: event.deals })} · ${phaseText(event)}</p>`;
  if (!body.standings) {
    return html`<section class="panel" id="duplicate-event">${heading}
      <p id="duplicate-hidden">${t("duplicate.hidden")}</p></section>`;
  }
  const rows = body.standings.map(
    (s) => html`<tr>
      <td class="num">${s.rank}</td>
      <td>${who(s)}</td>
      <td class="num" data-field="mark">${markText(event, s.mark)}</td>
      <td class="num">${num(s.played)}</td>
    </tr>`,
  );
  return html`<section class="panel" id="duplicate-event">${heading}
    ${dealLinks(event)}
    <table class="history-table" id="duplicate-standings">
      <thead><tr><th>#</th><th>${t("players.name")}</th><th>${t("duplicate.standing")}</th><th>${t("duplicate.played")}</th></tr></thead>
      <tbody>${rows}</tbody>
    </table>
  </section>`;
}

export function dealView(eventBody, deal) {
  const event = eventBody.event;
  const seats = event.kind === "tables"; // a robot event's entrants all sit in seat 1
  const rows = deal.results.map((r) => {
    const linked = r.table_id !== undefined && r.deal_number !== undefined;
    const viewer = linked ? html`<a href="#/deal/${encodeURIComponent(r.table_id)}/${r.deal_number}" data-link="viewer">${t("duplicate.viewDeal")}</a>` : null;
    // A deal every seat passed has no play to review.
    const review = linked && r.contract ? html`<a href="#/deal/${encodeURIComponent(r.table_id)}/${r.deal_number}/0/review" data-link="review">${t("duplicate.review")}</a>` : null;
    return html`<tr data-seat="${r.seat}">
      ${seats ? html`<td class="num">${r.seat + 1}</td>` : null}
      <td>${who(r)}<div class="links">${viewer}${review}</div></td>
      <td>${r.contract ? contractLabel(r.contract) : t("duplicate.passedOut")}</td>
      <td class="num">${num(r.score)}</td>
      <td class="num" data-field="mark">${markText(event, r.mark)}</td>
    </tr>`;
  });
  return html`<section class="panel" id="duplicate-deal">
    <h2>${event.name} · ${t("duplicate.dealN", { n: deal.deal + 1 })}</h2>
    <p><a href="#/duplicate/${event.event_id}">${t("duplicate.backToStandings")}</a></p>
    ${dealLinks(event)}
    <div class="table-scroll"><table class="history-table" id="duplicate-results">
      <thead><tr>${seats ? html`<th>${t("duplicate.seat")}</th>` : null}<th>${t("players.name")}</th><th>${t("players.contract")}</th><th>${t("players.score")}</th><th>${t("duplicate.mark")}</th></tr></thead>
      <tbody>${rows}</tbody>
    </table></div>
    <p class="muted">${t("duplicate.reviewHint")}</p>
  </section>`;
}
