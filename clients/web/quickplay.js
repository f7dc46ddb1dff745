// @ts-check
// Quick play (docs/PROTOCOL.md, section 16): the lobby's "Play" row (casual or rated), the
// search (how many search, how long this player waited, cancel, play now against the AI),
// the ready check with its countdown, and the seat the server hands over (`joined`).

import { enterTable } from "./actions.js";
import { html } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { renderMain, toast } from "./render.js";
import { app } from "./state.js";
import { dispatch } from "./store.js";

/** @type {ReturnType<typeof setInterval> | null} */
let ticking = null;

function clock(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function secondsLeft(untilMs) {
  return Math.max(0, Math.ceil((untilMs - Date.now()) / 1000));
}

/** What the countdown line says now (updated each second without a re-render). */
function clockText(q) {
  if (q.state === "found") return t("quick.readyIn", { n: secondsLeft(q.match.deadline) });
  if (q.state === "confirmed") return t("quick.othersIn", { n: secondsLeft(q.match.deadline) });
  if (q.state === "penalty") return t("quick.penalty", { n: secondsLeft(q.penaltyUntil) });
  if (q.state === "searching") return t("quick.waited", { time: clock(q.waitedMs + performance.now() - q.at) });
  return "";
}

function modeSelect(ctx) {
  const q = ctx.quick;
  const rated = ctx.account ? "" : html` disabled`;
  const opt = (mode, label, extra) =>
    html`<option value="${mode}"${q.mode === mode ? html` selected` : ""}${extra}>${label}</option>`;
  return html`<label class="inline">${t("quick.mode")} <select id="quick-mode" data-change="quick-mode">${opt("casual", t("quick.casual"), "")}${opt("rated", ctx.account ? t("quick.rated") : t("quick.ratedSignIn"), rated)}</select></label>`;
}

/** The lobby's quick-play row: first thing under the title of the lobby. */
export function quickPlayHTML(ctx) {
  const q = ctx.quick;
  const line = html`<span class="quick-clock" data-field="quick-clock" role="timer">${clockText(q)}</span>`;
  const notice = q.notice ? html`<p class="quick-notice" data-field="quick-notice">${t(`quick.ended.${q.notice}`)}</p>` : "";
  if (q.state === "searching") {
    return html`<div class="quick-play searching" data-field="quick-play"><p role="status" data-field="quick-status">${t("quick.searching", { n: q.searching })} ${line}</p><div class="buttons"><button type="button" class="btn" data-action="queue-cancel" data-key="queue-cancel">${t("quick.cancel")}</button><button type="button" class="btn" data-action="queue-now" data-key="queue-now">${t("quick.playNow")}</button></div></div>`;
  }
  if (q.state === "found" || q.state === "confirmed") {
    const who = t("quick.found", { humans: q.match.humans, ai: q.match.ai });
    const button =
      q.state === "found"
        ? html`<button type="button" class="btn primary" data-action="queue-ready" data-key="queue-ready">${t("quick.ready")}</button>`
        : "";
    return html`<div class="quick-play found" data-field="quick-play" role="alertdialog" aria-labelledby="quick-found"><p id="quick-found" data-field="quick-status">${who} ${line}</p><div class="buttons">${button}</div></div>`;
  }
  const penalty = q.state === "penalty" ? html`<p class="quick-notice">${line}</p>` : "";
  const count = html`<span class="quick-count" data-field="quick-count" role="status">${t("quick.count", { n: q.searching })}</span>`;
  return html`<div class="quick-play" data-field="quick-play"><button type="button" class="btn primary" data-action="queue-play" data-key="queue-play" title="${t("quick.hint")}">${t("quick.play")}</button>${modeSelect(ctx)}${count}${notice}${penalty}</div>`;
}

function tick() {
  const q = app.lobby.quick;
  const el = document.querySelector("[data-field=quick-clock]");
  if (el) el.textContent = clockText(q);
  if (q.state === "penalty" && q.penaltyUntil <= Date.now()) {
    dispatch("quick", { state: "idle", penaltyUntil: null });
    renderMain();
  }
  if (q.state === "idle" && ticking !== null) {
    clearInterval(ticking);
    ticking = null;
  }
}

function update(patch) {
  dispatch("quick", patch);
  if (app.lobby.quick.state !== "idle" && ticking === null) ticking = setInterval(tick, 1000);
  if (!app.table) renderMain();
}

function player() {
  return (app.lobby.name || "").trim().slice(0, 40);
}

export async function queue() {
  const q = app.lobby.quick;
  const mode = app.net && app.net.account ? q.mode : "casual";
  try {
    const status = await app.net.request({ type: "queue", mode, deals: 1, name: player() }, ["queue_status"]);
    onQueueMessage(status);
  } catch (err) {
    if (err.code !== "queue_penalty") toast(errorText(err));
  }
}

export async function cancelQueue() {
  try {
    await app.net.request({ type: "cancel_queue" }, ["queue_status"]);
  } catch (err) {
    toast(errorText(err));
  }
  update({ state: "idle", match: null, notice: null });
}

export async function confirmReady() {
  const q = app.lobby.quick;
  if (!q.match) return;
  update({ state: "confirmed" });
  try {
    await app.net.request({ type: "ready", match_id: q.match.id }, ["queue_status"]);
  } catch (err) {
    toast(errorText(err));
  }
}

export function playNow() {
  // Answered by `joined` (and the table's events), like a seat the queue hands over.
  app.net.send({ type: "play_now", deals: 1, name: player() });
}

/** How many search (`searching`, after each `tables`: every lobby is told, not only
 * those searching): shown on the Play row. */
export function onSearchingCount(msg) {
  if (msg.count === app.lobby.quick.searching) return;
  dispatch("quick", { searching: msg.count });
  if (!app.table) renderMain();
}

/** A quick-play message (queue_status, match_found, or the `joined` the queue sends):
 * true when it was one. */
export function onQueueMessage(msg) {
  const q = app.lobby.quick;
  switch (msg.type) {
    case "queue_status":
      if (msg.state === "searching") {
        const confirmed = q.state === "confirmed" && msg.re !== undefined;
        update({
          state: confirmed ? "confirmed" : "searching",
          match: confirmed ? q.match : null,
          searching: msg.searching,
          waitedMs: msg.waited_ms,
          at: performance.now(),
          notice: null,
        });
      } else if (msg.state === "penalty") {
        update({ state: "penalty", penaltyUntil: msg.penalty_until_ms, notice: null });
      } else {
        const notice = msg.reason === "not_ready" ? "not_ready" : null;
        update({ state: "idle", match: null, notice, seating: msg.reason === "seated" || msg.reason === "play_now" });
      }
      return true;
    case "match_found":
      update({
        state: "found",
        match: { id: msg.match_id, deadline: msg.deadline_ms, humans: msg.humans, ai: msg.ai },
      });
      return true;
    case "joined":
      // Only the queue's seats come unasked (a join's `joined` answers its request).
      dispatch("quick", { state: "idle", match: null, seating: false });
      enterTable(msg.table_id, msg.seat, msg.token, null, {});
      return true;
    default:
      return false;
  }
}
