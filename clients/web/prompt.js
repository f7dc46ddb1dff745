// @ts-check
// What I may do now, from `your_turn.legal` only: the prompt (bids, discard, chelem,
// poignée, the card to play) and my hand, each card usable or not and why.

import { cardName, isBout, isKing, isTrump, sortHand } from "./cards.js";
import { cardHTML, miniCards } from "./cardview.js";
import { html } from "./dom.js";
import { contractLabel, t } from "./i18n.js";
import { toActText } from "./seats.js";

const CONTRACT_ORDER = ["pass", "prise", "garde", "garde_sans", "garde_contre"];

function waitingHTML(table, ctx) {
  const link = ctx.inviteLink;
  const seated = table.seat !== null;
  const invite = link
    ? html`<div class="invite-box"><label class="invite-label" for="invite-link">${t(table.summary.options.private ? "wait.invitePrivate" : "wait.invite")}</label><div class="invite"><input id="invite-link" readonly value="${link}"><button type="button" class="btn" data-action="copy-invite">${ctx.copied ? t("wait.copied") : t("wait.copy")}</button></div></div>`
    : "";
  const start = seated ? html`<button type="button" class="btn primary big" data-action="start">${t("wait.start")}</button>` : "";
  return html`${invite}${start}`;
}

function bidPrompt(legal) {
  const bids = [...legal.bids].sort((a, b) => CONTRACT_ORDER.indexOf(a) - CONTRACT_ORDER.indexOf(b));
  const buttons = bids.map(
    (b) => html`<button type="button" class="btn ${b === "pass" ? "" : "primary"}" data-action="bid" data-arg="${b}" data-key="bid-${b}">${contractLabel(b, true)}</button>`,
  );
  return html`<div class="prompt-title" id="prompt-title">${t("bid.title")}</div><div class="buttons" role="group" aria-labelledby="prompt-title">${buttons}</div>`;
}

function discardReason(code, rule) {
  if (rule.allowed.includes(code)) return null;
  if (isKing(code)) return t("discard.noKing");
  if (isBout(code)) return t("discard.noBout");
  if (isTrump(code)) return t("discard.noTrump");
  return t("discard.notAllowed");
}

function discardPrompt(table, ctx) {
  const rule = table.legal.discard;
  const n = ctx.selected.size;
  const missing = rule.required.filter((c) => !ctx.selected.has(c));
  const ok = n === rule.count && missing.length === 0;
  const hint = rule.required.length ? t("discard.requiredHint", { n: rule.required.length }) : t("discard.hint");
  const reason = ctx.reason ? html`<p class="reason" role="alert">${ctx.reason}</p>` : "";
  const clear = n ? html`<button type="button" class="btn" data-action="discard-clear">${t("discard.clear")}</button>` : "";
  return html`<div class="prompt-title" id="prompt-title">${t("discard.title", { n: rule.count })} <span class="count" data-field="discard-count">${n}/${rule.count}</span></div><p class="hint">${hint}</p>${reason}<div class="buttons"><button type="button" class="btn primary" data-action="discard" data-key="discard-confirm"${ok ? "" : html` disabled`}>${t("discard.confirm")}</button>${clear}</div>`;
}

/** The chelem decision: "No chelem" first and primary; announcing (−200 if it fails)
 * stands apart and asks again before it is sent. */
function chelemPrompt(ctx) {
  if (ctx.confirmChelem) {
    return html`<div class="prompt-title" id="prompt-title">${t("chelem.ask")}</div><div class="buttons"><button type="button" class="btn" data-action="chelem-back" data-key="chelem-back">${t("chelem.back")}</button><button type="button" class="btn danger" data-action="chelem" data-arg="yes" data-key="chelem-yes">${t("chelem.yes")}</button></div>`;
  }
  return html`<div class="prompt-title" id="prompt-title">${t("chelem.title")}</div><p class="hint">${t("chelem.hint")}</p><div class="buttons apart"><button type="button" class="btn primary" data-action="chelem" data-arg="no" data-key="chelem-no">${t("chelem.no")}</button><button type="button" class="btn" data-action="chelem-ask" data-key="chelem-ask">${t("chelem.announce")}</button></div>`;
}

function poigneePrompt(table, ctx) {
  const offers = table.legal.poignees;
  if (ctx.poignee) {
    const size = ctx.poignee.size;
    const n = ctx.selected.size;
    const reason = ctx.reason ? html`<p class="reason" role="alert">${ctx.reason}</p>` : "";
    return html`<div class="prompt-title" id="prompt-title">${t("poignee.choose", { n: size, level: t(`poignee.${ctx.poignee.level}`) })} <span class="count">${n}/${size}</span></div><p class="hint">${t("poignee.chooseHint")}</p>${reason}<div class="buttons"><button type="button" class="btn primary" data-action="poignee-confirm"${n === size ? "" : html` disabled`}>${t("poignee.showThese")}</button><button type="button" class="btn" data-action="poignee-cancel">${t("poignee.cancel")}</button></div>`;
  }
  const rows = offers.map(
    (o) =>
      html`<div class="offer"><div class="offer-head"><strong>${t(`poignee.${o.level}`)}</strong> · ${t("poignee.size", { n: o.size, bonus: { simple: 20, double: 30, triple: 40 }[o.level] })}</div>${miniCards(o.cards, ctx)}<div class="buttons"><button type="button" class="btn primary" data-action="poignee-show" data-arg="${o.level}" data-key="poignee-${o.level}">${t("poignee.show")}</button><button type="button" class="btn" data-action="poignee-pick" data-arg="${o.level}">${t("poignee.other")}</button></div></div>`,
  );
  return html`<div class="prompt-title" id="prompt-title">${t("poignee.title")}</div><p class="hint">${t("poignee.hint")}</p><div class="offers">${rows}</div>`;
}

export function promptHTML(table, ctx) {
  const legal = table.legal;
  const d = table.deal;
  // Another tab took the seat ("Play here"): nothing was lost, the game moved there.
  if (ctx.replaced) return html`<div class="prompt-title" data-field="moved">${t("conn.replacedLong")}</div>`;
  if (ctx.reconnecting) return html`<div class="prompt-title">${t("conn.reconnecting")}</div>`;
  if (table.summary.status === "waiting" && !d) return waitingHTML(table, ctx);
  if (!legal || !d) {
    if (table.seat === null && d) {
      const doing = toActText(table, d);
      return html`<div class="prompt-status">${t("table.watching")}${doing ? ` · ${doing}` : ""}</div>`;
    }
    if (d && d.toAct !== null && d.phase !== "done") return html`<div class="prompt-status">${toActText(table, d)}</div>`;
    return html``;
  }
  if (legal.phase === "bidding") return bidPrompt(legal);
  if (legal.phase === "discard" && legal.discard) return discardPrompt(table, ctx);
  if (legal.phase === "chelem" && legal.chelem) return chelemPrompt(ctx);
  if (legal.phase === "play") {
    const reason = ctx.reason ? html`<p class="reason" data-field="refused">${ctx.reason}</p>` : "";
    const chosen = ctx.chosen && legal.cards.includes(ctx.chosen) ? cardName(ctx.chosen, ctx.lang, ctx.face) : null;
    const confirm = chosen
      ? html`<p class="hint">${t("play.chosen", { card: chosen })}</p><div class="buttons"><button type="button" class="btn primary" data-action="play-chosen" data-key="play-chosen">${t("play.confirm", { card: chosen })}</button></div>`
      : "";
    const play = html`<div class="prompt-title your-turn" id="prompt-title">${t("play.title")}</div>${reason}${confirm}`;
    if (legal.poignees.length) return html`${poigneePrompt(table, ctx)}${ctx.poignee ? "" : html`<p class="hint">${t("poignee.decline")}</p>`}`;
    return play;
  }
  return html``;
}

// ------------------------------------------------------------------ hand

export function handHTML(table, ctx) {
  const d = table.deal;
  if (!d || table.seat === null) return html``;
  const hand = sortHand(d.hand);
  const mode = handMode(table, ctx);
  const focusCode = hand.includes(ctx.focus) ? ctx.focus : hand.find((c) => cardState(c, table, ctx, mode).usable) || hand[0];
  const cards = hand.map((code) => {
    const st = cardState(code, table, ctx, mode);
    const cls = [
      st.usable ? "usable" : "",
      st.disabled ? "disabled" : "",
      st.selected ? "selected" : "",
      mode === "play" && st.usable ? "legal" : "",
      mode === "play" && ctx.chosen === code ? "chosen" : "",
      d.fromChien.includes(code) ? "from-chien" : "",
      ctx.pending === code ? "pending" : "",
    ]
      .filter(Boolean)
      .join(" ");
    const badge = st.reason ? html`<span class="no-badge" aria-hidden="true">⊘</span>` : d.fromChien.includes(code) ? html`<span class="chien-badge" aria-hidden="true">${t("hand.chienBadge")}</span>` : "";
    const labels = [];
    if (mode === "play" && st.usable) labels.push(t("hand.playable"));
    if (st.selected) labels.push(t("hand.selected"));
    if (st.reason) labels.push(st.reason);
    if (d.fromChien.includes(code)) labels.push(t("hand.fromChien"));
    return cardHTML(code, ctx, {
      button: true,
      cls,
      disabled: !st.usable,
      pressed: mode === "discard" || mode === "poignee" ? String(st.selected) : undefined,
      tabindex: code === focusCode ? 0 : -1,
      label: labels.join(", "),
      title: st.reason || "",
      badge,
    });
  });
  const label = mode === "play" ? t("hand.labelPlay") : mode === "discard" ? t("hand.labelDiscard") : t("hand.label");
  return html`<div class="hand-cards n${Math.min(hand.length, 24)}" role="group" aria-label="${label}" data-mode="${mode}">${cards}</div>`;
}

export function handMode(table, ctx) {
  const legal = table.legal;
  if (!legal) return "view";
  if (legal.phase === "discard" && legal.discard) return "discard";
  if (legal.phase === "play" && ctx.poignee) return "poignee";
  if (legal.phase === "play") return "play";
  return "view";
}

/** What a card in my hand may do now: {usable, disabled, selected, reason}. */
export function cardState(code, table, ctx, mode = handMode(table, ctx)) {
  const legal = table.legal;
  if (mode === "play") {
    const usable = legal.cards.includes(code) && ctx.pending === null;
    return { usable, disabled: !usable, selected: false, reason: null };
  }
  if (mode === "discard") {
    const rule = legal.discard;
    const reason = discardReason(code, rule);
    const required = rule.required.includes(code);
    return {
      usable: reason === null && !required,
      disabled: reason !== null,
      selected: ctx.selected.has(code),
      reason: reason || (required ? t("discard.required") : null),
    };
  }
  if (mode === "poignee") {
    const usable = ctx.pool.has(code);
    return { usable, disabled: !usable, selected: ctx.selected.has(code), reason: null };
  }
  return { usable: false, disabled: false, selected: false, reason: null };
}
