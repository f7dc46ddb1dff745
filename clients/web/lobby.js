// @ts-check
// The lobby: quick starts against 3 AI, creating a table with the server's options,
// the open tables (take a seat, watch), and invitations by link.

import { cardSVG } from "./cards.js";
import { html } from "./dom.js";
import { num, t, tableTitle } from "./i18n.js";
import { quickPlayHTML } from "./quickplay.js";
import { QUICK_AI_LEVELS } from "./state.js";

const AI_LEVELS = ["random", "basic", "expert", "strong"];
const TURN_SECONDS = [0, 15, 30, 60, 120];
const GRACE_SECONDS = [30, 60, 120, 300];
const MULTI_DEALS = [3, 5, 10];

function option(value, label, selected) {
  return html`<option value="${value}"${String(value) === String(selected) ? html` selected` : ""}>${label}</option>`;
}

const FAN = ["T21", "KH", "EX", "QS", "T1"];

function fanHTML(ctx) {
  const cards = FAN.map((code, i) => {
    const angle = (i - 2) * 14;
    const shift = (i - 2) * 26;
    const lift = Math.abs(i - 2) * 6;
    return html`<span class="card" style="transform: translate(calc(-50% + ${shift}px), ${lift}px) rotate(${angle}deg)">${cardSVG(code, ctx.face, ctx.lang)}</span>`;
  });
  return html`<div class="hero-fan" aria-hidden="true">${cards}</div>`;
}

function heroHTML(ctx) {
  const deals = MULTI_DEALS.map((n) => option(n, String(n), ctx.multiDeals));
  const levels = QUICK_AI_LEVELS.map((l) => option(l, t(`ai.${l}`), ctx.quickAi));
  return html`<section class="hero panel">${fanHTML(ctx)}${quickPlayHTML(ctx)}<button type="button" class="btn hero-btn" data-action="quick-start" data-key="quick-start">${t("lobby.quick")}</button><p class="tagline">${t("lobby.tagline")}</p>${ctx.online ? html`<p class="online muted small" data-field="online">${t("lobby.online", { n: ctx.online })}</p>` : ""}<div class="multi"><button type="button" class="btn" data-action="multi-start" data-key="multi-start">${t("lobby.multi", { n: ctx.multiDeals })}</button><label class="inline">${t("lobby.deals")} <select id="multi-deals" data-change="multi-deals">${deals}</select></label></div><div class="multi"><label class="inline">${t("lobby.aiLevel")} <select id="quick-ai" data-change="quick-ai">${levels}</select></label></div></section>`;
}

function nameHTML(ctx) {
  if (ctx.account) return ""; // signed in: the server seats the account under its own name
  return html`<section class="panel you"><label for="player-name">${t("lobby.yourName")}</label><input id="player-name" maxlength="40" autocomplete="nickname" value="${ctx.name}" placeholder="${t("lobby.namePlaceholder")}" data-change="player-name"></section>`;
}

function inviteHTML(ctx) {
  const inv = ctx.invite;
  if (!inv) return "";
  const table = inv.name ? tableTitle(inv.name, inv.table_id) : t("lobby.aTable");
  const key = `lobby.${inv.watchOnly ? "watchText" : "invitedText"}${inv.from ? "From" : ""}`;
  const take = inv.watchOnly ? "" : html`<button type="button" class="btn primary" data-action="join-invite" data-key="join-invite">${t("lobby.takeSeat")}</button>`;
  const watch = html`<button type="button" class="btn${inv.watchOnly ? " primary" : ""}" data-action="watch-invite">${t("lobby.watch")}</button>`;
  return html`<section class="panel invited" aria-labelledby="invited-title"><h2 id="invited-title">${t("lobby.invited")}</h2><p data-field="invited-text">${t(key, { table, from: inv.from })}</p><div class="buttons">${take}${watch}<button type="button" class="btn" data-action="dismiss-invite">${t("lobby.dismiss")}</button></div></section>`;
}

function createHTML(ctx) {
  const f = ctx.form;
  const checked = (on) => (on ? html` checked` : "");
  const levels = AI_LEVELS.map((l) => option(l, t(`ai.${l}`), f.ai_level));
  const turns = TURN_SECONDS.map((s) => option(s, s ? t("lobby.seconds", { n: s }) : t("lobby.noLimit"), f.turn_seconds));
  const graces = GRACE_SECONDS.map((s) => option(s, t("lobby.seconds", { n: s }), f.grace_seconds));
  return html`<section class="panel create" aria-labelledby="create-title"><h2 id="create-title">${t("lobby.create")}</h2><form id="create-form" data-submit="create"><label>${t("lobby.tableName")}<input name="name" maxlength="60" value="${f.name}" placeholder="${t("lobby.tableNamePlaceholder")}"></label><div class="row"><label>${t("lobby.deals")}<input name="deals" type="number" min="1" max="1000" value="${f.deals}"${f.endless ? html` disabled` : ""}></label><label class="check"><input name="endless" type="checkbox"${checked(f.endless)} data-change="endless"> ${t("lobby.endless")}</label></div><div class="row"><label>${t("lobby.aiLevel")}<select name="ai_level">${levels}</select></label><label>${t("lobby.turnTime")}<select name="turn_seconds">${turns}</select></label></div><div class="row"><label>${t("lobby.grace")}<select name="grace_seconds">${graces}</select></label><label class="check"><input name="private" type="checkbox"${checked(f.private)}> ${t("lobby.private")}</label></div><button type="submit" class="btn primary" data-key="create-submit">${t("lobby.createButton")}</button></form></section>`;
}

function seatChip(table, s) {
  const info = table.seats[s];
  // The AI's seats are free between deals only: mid-deal a seat stays with who held it.
  const betweenDeals = table.status === "playing" && table.phase === "done";
  const free = info.occupant === "empty" || (info.occupant === "ai" && betweenDeals);
  const who =
    info.occupant === "empty"
      ? t("lobby.free")
      : info.occupant === "ai"
        ? t("seat.ai", { n: s + 1 })
        : info.name || t("seat.player", { n: s + 1 });
  const button = free
    ? html`<button type="button" class="btn small" data-action="take-seat" data-arg="${table.table_id}:${s}" aria-label="${t("lobby.takeSeatN", { n: s + 1, id: tableTitle(table.options.name, table.table_id) })}">${t("lobby.sit")}</button>`
    : "";
  return html`<li class="chip ${info.occupant}${info.occupant === "human" && !info.connected ? " away" : ""}"><span>${who}</span>${button}</li>`;
}

function tableRow(x) {
  const deals = x.options.deals ? t("lobby.dealsN", { n: x.options.deals }) : t("lobby.endlessShort");
  const status = t(`status.${x.status}`) + (x.status === "playing" ? ` · ${t("info.deal", { n: x.deal_number })}` : "");
  const watchers = x.spectators ? ` · ${t("lobby.spectators", { n: x.spectators })}` : "";
  const scores = x.status === "playing" ? html`<span class="muted small">${t("info.scores")}: ${x.totals.map((v) => num(v)).join(" / ")}</span>` : "";
  return html`<li class="table-row" data-table="${x.table_id}"><div class="table-meta"><strong>${tableTitle(x.options.name, x.table_id)}</strong><span class="muted small">${status} · ${deals} · ${t(`ai.${x.options.ai_level}`)}${watchers}</span>${scores}</div><button type="button" class="btn small" data-action="watch" data-arg="${x.table_id}">${t("lobby.watch")}</button><ul class="chips">${[0, 1, 2, 3].map((s) => seatChip(x, s))}</ul></li>`;
}

function tablesHTML(ctx) {
  const tables = ctx.tables.filter((x) => x.status !== "finished");
  const list = tables.length ? html`<ul class="tables">${tables.map(tableRow)}</ul>` : html`<p class="muted">${t("lobby.noTables")}</p>`;
  const more = ctx.next ? html`<button type="button" class="btn small more-tables" data-action="more-tables">${t("lobby.more")}</button>` : "";
  return html`<section class="panel open-tables" aria-labelledby="tables-title"><div class="panel-head"><h2 id="tables-title">${t("lobby.openTables")}</h2><button type="button" class="btn small" data-action="refresh">${t("lobby.refresh")}</button></div>${list}${more}</section>`;
}

function elsewhereHTML(ctx) {
  if (!ctx.elsewhere) return "";
  return html`<section class="panel invited"><p>${t("lobby.elsewhere")}</p><div class="buttons"><button type="button" class="btn primary" data-action="play-here">${t("conn.takeBack")}</button></div></section>`;
}

export function lobbyHTML(ctx) {
  // The open tables come right under the quick starts (above the fold of a laptop); your
  // name sits by the form that seats you (on a phone, first: css/phone.css).
  return html`<div class="lobby">${elsewhereHTML(ctx)}${heroHTML(ctx)}${inviteHTML(ctx)}<div class="lobby-grid">${tablesHTML(ctx)}<div class="lobby-side">${nameHTML(ctx)}${createHTML(ctx)}</div></div></div>`;
}

/** The table options from the create form. */
export function formOptions(form) {
  const data = new FormData(form);
  const endless = data.get("endless") === "on";
  const deals = Math.max(1, Math.min(1000, Number(data.get("deals")) || 1));
  const turn = Number(data.get("turn_seconds")) || 0;
  return {
    name: String(data.get("name") || "").trim().slice(0, 60),
    deals: endless ? null : deals,
    ai_level: String(data.get("ai_level") || "expert"),
    turn_seconds: turn > 0 ? turn : null,
    grace_seconds: Number(data.get("grace_seconds")) || 60,
    private: data.get("private") === "on",
  };
}
