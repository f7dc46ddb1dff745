// @ts-check
// The players page's views of the history API (docs/API.md): the leaderboard, a
// player's profile with the rating chart, recent tables and the player's deals, each deal
// a link to the viewer. Everything shown comes from the server through html`` (escaped).

import { html } from "./dom.js";
import { contractLabel, num, t } from "./i18n.js";

export const PAGE = 20;

/** GET /api/...: the JSON answer, or throws {code, message} from the API's error. */
export async function api(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await response.json().catch(() => ({ error: { code: "bad_answer", message: "" } }));
  if (!response.ok) throw body.error || { code: String(response.status), message: "" };
  return body;
}

export function ratingText(rating) {
  const value = num(Math.round(rating.value));
  return rating.provisional ? t("players.provisional", { value }) : value;
}

export function leaderboardView(board, offset) {
  const rows = board.players.map(
    (p) => html`<tr>
      <td>${p.rank}</td>
      <td><a href="#/player/${p.id}" data-key="player-${p.id}">${p.name}</a></td>
      <td class="num" data-field="rating">${ratingText(p.rating)}</td>
      <td class="num">${p.rating.deals}</td>
    </tr>`,
  );
  const empty = board.players.length ? null : html`<p class="muted">${t("players.noneRated")}</p>`;
  const back = offset > 0 ? html`<a class="btn small" href="#/leaderboard/${Math.max(0, offset - PAGE)}">${t("players.previous")}</a>` : null;
  const more = board.next !== null ? html`<a class="btn small" href="#/leaderboard/${board.next}">${t("players.next")}</a>` : null;
  return html`<section class="panel" id="leaderboard">
    <h2>${t("players.leaderboard")}</h2>
    <table class="history-table">
      <thead><tr><th>#</th><th>${t("players.name")}</th><th>${t("players.rating")}</th><th>${t("players.ratedDeals")}</th></tr></thead>
      <tbody>${rows}</tbody>
    </table>${empty}
    <div class="pager">${back}${more}</div>
  </section>`;
}

/** The rating after each rated deal, as an SVG line (the first point: the start rating). */
export function ratingChart(points) {
  if (!points.length) return html`<p class="muted" id="rating-chart-empty">${t("players.noChart")}</p>`;
  const values = [points[0].before, ...points.map((p) => p.after)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const [w, h, pad] = [600, 180, 14];
  const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (v) => h - pad - ((v - low) * (h - 2 * pad)) / span;
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const dots = values.map((v, i) => html`<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3"><title>${num(Math.round(v))}</title></circle>`);
  return html`<figure class="chart">
    <svg id="rating-chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${t("players.chart")}">
      <text x="${pad}" y="12" class="axis">${num(Math.round(high))}</text>
      <text x="${pad}" y="${h - 2}" class="axis">${num(Math.round(low))}</text>
      <polyline points="${line}" />${dots}
    </svg>
    <figcaption>${t("players.chart")}</figcaption>
  </figure>`;
}

export function dealRows(deals) {
  return deals.map(
    (d) => html`<tr data-deal="${d.table_id}/${d.deal_number}">
      <td><a href="#/deal/${d.table_id}/${d.deal_number}">${new Date(d.finished_at).toLocaleString()}</a></td>
      <td>${d.status === "played" ? contractLabel(d.contract) : t("players.cancelled")}</td>
      <td>${d.status !== "played" ? "–" : d.taker === d.seat ? t("players.youTook") : t("players.youDefended")}</td>
      <td>${d.made === null ? "–" : d.made ? t("players.made") : t("players.failed")}</td>
      <td class="num">${num(d.score, true)}</td>
      <td class="num">${d.rating_change === null ? "–" : num(d.rating_change, true)}</td>
    </tr>`,
  );
}

export function dealTable(deals) {
  return html`<table class="history-table" id="deal-list">
    <thead><tr><th>${t("players.when")}</th><th>${t("players.contract")}</th><th>${t("players.role")}</th>
      <th>${t("players.result")}</th><th>${t("players.score")}</th><th>${t("players.ratingChange")}</th></tr></thead>
    <tbody>${dealRows(deals)}</tbody>
  </table>`;
}

/** The player's recent tables: place and total once finished, a link to each deal. */
export function tableList(tables) {
  if (!tables.length) return html`<p class="muted" id="table-list-empty">${t("players.noTables")}</p>`;
  const rows = tables.map(
    (tb) => html`<tr data-table="${tb.table_id}">
      <td>${new Date(tb.finished_at).toLocaleString()}</td>
      <td class="num">${tb.deals_stored}</td>
      <td data-field="place">${tb.finished ? t("players.place", { place: tb.place }) : t("players.stillPlaying")}</td>
      <td class="num">${tb.total === null ? "–" : num(tb.total, true)}</td>
      <td class="deal-links">${tb.deal_numbers.map((n) => html`<a class="btn small" href="#/deal/${tb.table_id}/${n}">${n + 1}</a> `)}</td>
    </tr>`,
  );
  return html`<table class="history-table" id="table-list">
    <thead><tr><th>${t("players.lastDeal")}</th><th>${t("players.deals")}</th><th>${t("players.result")}</th>
      <th>${t("players.total")}</th><th></th></tr></thead>
    <tbody>${rows}</tbody>
  </table>`;
}

export function profileView(profile, ratings, deals, offset, tables = { tables: [] }) {
  const stats = profile.statistics;
  const contracts = Object.entries(stats.contracts).map(
    ([code, c]) => html`<li>${contractLabel(code)}: ${t("players.takenMade", { taken: c.taken, made: c.made })}</li>`,
  );
  const back = offset > 0 ? html`<a class="btn small" href="#/player/${profile.id}/${Math.max(0, offset - PAGE)}">${t("players.previous")}</a>` : null;
  const more = deals.next !== null ? html`<a class="btn small" href="#/player/${profile.id}/${deals.next}">${t("players.next")}</a>` : null;
  return html`<section class="panel" id="profile">
    <h2 id="profile-name">${profile.name}</h2>
    <p class="big" data-field="rating">${t("players.rating")}: ${ratingText(profile.rating)}</p>
    <p>${t("players.stats", {
      played: stats.played,
      taken: stats.taken,
      poignees: stats.poignees_shown,
      chelems: stats.chelems_made,
    })}</p>
    <ul class="contracts">${contracts}</ul>
    ${ratingChart(ratings.ratings)}
    <h3>${t("players.tables")}</h3>
    ${tableList(tables.tables)}
    <h3>${t("players.deals")}</h3>
    ${deals.deals.length ? dealTable(deals.deals) : html`<p class="muted">${t("players.noDeals")}</p>`}
    <div class="pager">${back}${more}</div>
  </section>`;
}

/** The profile's four answers at once. */
export async function loadProfile(id, offset) {
  const [profile, ratings, deals, tables] = await Promise.all([
    api(`/api/players/${id}`),
    api(`/api/players/${id}/ratings?limit=1000`),
    api(`/api/players/${id}/deals?limit=${PAGE}&offset=${offset}`),
    api(`/api/players/${id}/tables?limit=10`),
  ]);
  return { profile, ratings, deals, tables };
}
