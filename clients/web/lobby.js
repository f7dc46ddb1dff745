// The lobby: quick starts against 3 AI, creating a table with the server's options,
// the open tables (take a seat, watch), and invitations by link.

import { cardSVG } from "./cards.js";
import { esc } from "./dom.js";
import { num, t } from "./i18n.js";
import { QUICK_AI_LEVELS } from "./state.js";

const AI_LEVELS = ["random", "basic", "expert", "strong"];
const TURN_SECONDS = [0, 15, 30, 60, 120];
const GRACE_SECONDS = [30, 60, 120, 300];
const MULTI_DEALS = [3, 5, 10];

function option(value, label, selected) {
  return `<option value="${esc(value)}"${String(value) === String(selected) ? " selected" : ""}>${esc(label)}</option>`;
}

const FAN = ["T21", "KH", "EX", "QS", "T1"];

function fanHTML(ctx) {
  const cards = FAN.map((code, i) => {
    const angle = (i - 2) * 14;
    const shift = (i - 2) * 26;
    const lift = Math.abs(i - 2) * 6;
    return `<span class="card" style="transform: translate(calc(-50% + ${shift}px), ${lift}px) rotate(${angle}deg)">${cardSVG(code, ctx.face, ctx.lang)}</span>`;
  });
  return `<div class="hero-fan" aria-hidden="true">${cards.join("")}</div>`;
}

function heroHTML(ctx) {
  return (
    `<section class="hero panel">${fanHTML(ctx)}` +
    `<button type="button" class="btn hero-btn" data-action="quick-start" data-key="quick-start">${esc(t("lobby.quick"))}</button>` +
    `<p class="tagline">${esc(t("lobby.tagline"))}</p>` +
    `<div class="multi"><button type="button" class="btn" data-action="multi-start" data-key="multi-start">${esc(t("lobby.multi", { n: ctx.multiDeals }))}</button>` +
    `<label class="inline">${esc(t("lobby.deals"))} <select id="multi-deals" data-change="multi-deals">${MULTI_DEALS.map((n) => option(n, String(n), ctx.multiDeals)).join("")}</select></label></div>` +
    `<div class="multi"><label class="inline">${esc(t("lobby.aiLevel"))} <select id="quick-ai" data-change="quick-ai">${QUICK_AI_LEVELS.map((l) => option(l, t(`ai.${l}`), ctx.quickAi)).join("")}</select></label></div>` +
    `</section>`
  );
}

function nameHTML(ctx) {
  return (
    `<section class="panel you"><label for="player-name">${esc(t("lobby.yourName"))}</label>` +
    `<input id="player-name" maxlength="40" autocomplete="nickname" value="${esc(ctx.name)}" placeholder="${esc(t("lobby.namePlaceholder"))}" data-change="player-name"></section>`
  );
}

function inviteHTML(ctx) {
  const inv = ctx.invite;
  if (!inv) return "";
  return (
    `<section class="panel invited" aria-labelledby="invited-title"><h2 id="invited-title">${esc(t("lobby.invited"))}</h2>` +
    `<p>${esc(t("lobby.invitedText", { id: inv.table_id }))}</p>` +
    `<div class="buttons"><button type="button" class="btn primary" data-action="join-invite" data-key="join-invite">${esc(t("lobby.takeSeat"))}</button>` +
    `<button type="button" class="btn" data-action="watch-invite">${esc(t("lobby.watch"))}</button>` +
    `<button type="button" class="btn" data-action="dismiss-invite">${esc(t("lobby.dismiss"))}</button></div></section>`
  );
}

function createHTML(ctx) {
  const f = ctx.form;
  return (
    `<section class="panel create" aria-labelledby="create-title"><h2 id="create-title">${esc(t("lobby.create"))}</h2>` +
    `<form id="create-form" data-submit="create">` +
    `<label>${esc(t("lobby.tableName"))}<input name="name" maxlength="60" value="${esc(f.name)}" placeholder="${esc(t("lobby.tableNamePlaceholder"))}"></label>` +
    `<div class="row"><label>${esc(t("lobby.deals"))}<input name="deals" type="number" min="1" max="1000" value="${esc(f.deals)}"${f.endless ? " disabled" : ""}></label>` +
    `<label class="check"><input name="endless" type="checkbox"${f.endless ? " checked" : ""} data-change="endless"> ${esc(t("lobby.endless"))}</label></div>` +
    `<div class="row"><label>${esc(t("lobby.aiLevel"))}<select name="ai_level">${AI_LEVELS.map((l) => option(l, t(`ai.${l}`), f.ai_level)).join("")}</select></label>` +
    `<label>${esc(t("lobby.turnTime"))}<select name="turn_seconds">${TURN_SECONDS.map((s) => option(s, s ? t("lobby.seconds", { n: s }) : t("lobby.noLimit"), f.turn_seconds)).join("")}</select></label></div>` +
    `<div class="row"><label>${esc(t("lobby.grace"))}<select name="grace_seconds">${GRACE_SECONDS.map((s) => option(s, t("lobby.seconds", { n: s }), f.grace_seconds)).join("")}</select></label>` +
    `<label class="check"><input name="private" type="checkbox"${f.private ? " checked" : ""}> ${esc(t("lobby.private"))}</label></div>` +
    `<button type="submit" class="btn primary" data-key="create-submit">${esc(t("lobby.createButton"))}</button>` +
    `</form></section>`
  );
}

function seatChip(table, s) {
  const info = table.seats[s];
  const free = info.occupant === "empty" || (info.occupant === "ai" && table.status === "playing");
  const who =
    info.occupant === "empty"
      ? t("lobby.free")
      : info.occupant === "ai"
        ? t("seat.ai", { n: s + 1 })
        : info.name || t("seat.player", { n: s + 1 });
  const button = free
    ? `<button type="button" class="btn small" data-action="take-seat" data-arg="${esc(table.table_id)}:${s}" aria-label="${esc(t("lobby.takeSeatN", { n: s + 1, id: table.options.name || table.table_id }))}">${esc(t("lobby.sit"))}</button>`
    : "";
  return `<li class="chip ${info.occupant}${info.occupant === "human" && !info.connected ? " away" : ""}"><span>${esc(who)}</span>${button}</li>`;
}

function tablesHTML(ctx) {
  const tables = ctx.tables.filter((x) => x.status !== "finished");
  const list = tables.length
    ? `<ul class="tables">${tables
        .map((x) => {
          const deals = x.options.deals ? t("lobby.dealsN", { n: x.options.deals }) : t("lobby.endlessShort");
          const status = t(`status.${x.status}`) + (x.status === "playing" ? ` · ${t("info.deal", { n: x.deal_number })}` : "");
          return (
            `<li class="table-row" data-table="${esc(x.table_id)}"><div class="table-meta"><strong>${esc(x.options.name || t("info.table", { id: x.table_id }))}</strong>` +
            `<span class="muted small">${esc(status)} · ${esc(deals)} · ${esc(t(`ai.${x.options.ai_level}`))}${x.spectators ? ` · ${esc(t("lobby.spectators", { n: x.spectators }))}` : ""}</span>` +
            (x.status === "playing" ? `<span class="muted small">${esc(t("info.scores"))}: ${x.totals.map((v) => num(v)).join(" / ")}</span>` : "") +
            `</div><button type="button" class="btn small" data-action="watch" data-arg="${esc(x.table_id)}">${esc(t("lobby.watch"))}</button>` +
            `<ul class="chips">${[0, 1, 2, 3].map((s) => seatChip(x, s)).join("")}</ul></li>`
          );
        })
        .join("")}</ul>`
    : `<p class="muted">${esc(t("lobby.noTables"))}</p>`;
  return (
    `<section class="panel open-tables" aria-labelledby="tables-title"><div class="panel-head"><h2 id="tables-title">${esc(t("lobby.openTables"))}</h2>` +
    `<button type="button" class="btn small" data-action="refresh">${esc(t("lobby.refresh"))}</button></div>${list}</section>`
  );
}

function elsewhereHTML(ctx) {
  if (!ctx.elsewhere) return "";
  return (
    `<section class="panel invited"><p>${esc(t("lobby.elsewhere"))}</p>` +
    `<div class="buttons"><button type="button" class="btn primary" data-action="play-here">${esc(t("conn.takeBack"))}</button></div></section>`
  );
}

export function lobbyHTML(ctx) {
  return (
    `<div class="lobby">${elsewhereHTML(ctx)}${heroHTML(ctx)}${inviteHTML(ctx)}${nameHTML(ctx)}` +
    `<div class="lobby-grid">${tablesHTML(ctx)}${createHTML(ctx)}</div></div>`
  );
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
